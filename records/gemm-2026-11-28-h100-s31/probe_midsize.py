"""Mid-size aligned bf16 rows where mmatom trails cuBLAS (session 30's H100 sweep): each named config and cuBLAS,
checked against torch, then either timed interleaved (medians of bursts) or, with --ncu, run once each between
cudaProfilerStart/Stop for `ncu --profile-from-start off`.
python -P probe_midsize.py 2496x704x6528 --configs 128x128x6w1,128x128x6w1c2x1 [--ncu]"""
import argparse
import statistics

import torch

import mmatom
from mmatom.kernels.gemm import GemmConfig
from mmatom.tools.mmatom_bench_common import timed

p = argparse.ArgumentParser()
p.add_argument("shapes", nargs="+")
p.add_argument("--configs", default="")
p.add_argument("--ncu", action="store_true")
p.add_argument("--repeats", type=int, default=7)
args = p.parse_args()
configs = [GemmConfig.from_name(c) for c in args.configs.split(",") if c]
for shape in args.shapes:
    m, n, k = (int(x) for x in shape.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    ref = a.float() @ b.float().T
    systems = {"cuBLAS": lambda: torch.matmul(a, b.t(), out=out), "prior": lambda: mmatom.gemm(a, b, out=out)}
    for c in configs:
        systems[c.name] = lambda c=c: mmatom.gemm(a, b, out=out, config=c)
    for name, fn in systems.items():
        out.fill_(float("nan"))
        fn()
        err = ((out.float() - ref).abs().max() / ref.abs().max()).item()
        assert err < 1e-2, (name, err)
    torch.cuda.synchronize()
    if args.ncu:
        torch.cuda.profiler.start()
        for fn in systems.values():
            fn()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        continue
    bursts = {name: max(3, int(60 / max(timed(fn, 3), 1e-3))) for name, fn in systems.items()}
    times = {name: [] for name in systems}
    for _ in range(args.repeats):
        for name, fn in systems.items():
            times[name].append(timed(fn, bursts[name]) * 1e3)
    base = statistics.median(times["cuBLAS"])
    print(f"bf16 {shape}: " + " | ".join(f"{nm} {statistics.median(t):.1f} us {base / statistics.median(t):.3f}x"
                                         for nm, t in times.items()), flush=True)
