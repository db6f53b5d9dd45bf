"""Session 30 probe: N-major B (`a @ b`) on aligned mid shapes -- the prior against each unswapped config."""
import statistics, sys
import torch
import mmatom
from mmatom.kernels.gemm.config import GemmConfig
from mmatom.kernels.gemm.choices import prior_config
from mmatom.tools.mmatom_bench_common import burst_us
NAMES = ["128x64x8w1", "128x128x6w1", "128x256x4", "128x256x4w1", "128x192x4", "64x128x8w1p", "128x128x6w1p", "256x128x4"]
for shape in sys.argv[1].split(","):
    m, n, k = map(int, shape.split("x"))
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b_kn = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    b_nk = b_kn.T.contiguous()
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    fns = {"torch": lambda: torch.matmul(a, b_kn, out=out), "prior": lambda: mmatom.gemm(a, b_kn, out=out, b_major="n")}
    for name in NAMES:
        c = GemmConfig.from_name(name)
        if name.startswith("64x") and m > 256: continue
        fns[name] = (lambda c: lambda: mmatom.gemm(a, b_kn, out=out, b_major="n", config=c))(c)
        fns[name + "/K"] = (lambda c: lambda: mmatom.gemm(a, b_nk, out=out, config=c))(c)
    times = {x: [] for x in fns}
    for fn in fns.values(): fn()
    for _ in range(3):
        for x, fn in fns.items(): times[x].append(burst_us(fn, ms=10))
    med = {x: statistics.median(v) for x, v in times.items()}
    print(shape, "prior", prior_config(m, n, k, "bf16", b_major="n").name, "  ".join(f"{x}={med['torch']/v:.3f}" for x, v in med.items()), flush=True)
