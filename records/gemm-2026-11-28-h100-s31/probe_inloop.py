"""Kernel durations inside a burst (torch.profiler's CUPTI kernel records) against the burst's time per call, for
cuBLAS and mmatom configs on one shape: whether a gap between the two is the kernels' own speed or what lies
between kernels (launch gaps, overlap of one kernel's start with the previous one's end).
python -P probe_inloop.py 2496x704x6528 --configs 128x128x6w1,128x128x6w1c1x2"""
import argparse
import statistics

import torch
from torch.profiler import ProfilerActivity, profile

import mmatom
from mmatom.kernels.gemm import GemmConfig
from mmatom.tools.mmatom_bench_common import timed

p = argparse.ArgumentParser()
p.add_argument("shapes", nargs="+")
p.add_argument("--configs", default="")
p.add_argument("--burst", type=int, default=60)
args = p.parse_args()
configs = [GemmConfig.from_name(c) for c in args.configs.split(",") if c]
for shape in args.shapes:
    m, n, k = (int(x) for x in shape.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    systems = {"cuBLAS": lambda: torch.matmul(a, b.t(), out=out)}
    for c in configs:
        systems[c.name] = lambda c=c: mmatom.gemm(a, b, out=out, config=c)
    for name, fn in systems.items():
        fn()
        torch.cuda.synchronize()
        per_call = statistics.median(timed(fn, args.burst) for _ in range(5)) * 1e3
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(args.burst):
                fn()
            torch.cuda.synchronize()
        kernels = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                         key=lambda e: e.time_range.start)
        durations = [e.time_range.end - e.time_range.start for e in kernels]
        gaps = [b_.time_range.start - a_.time_range.end for a_, b_ in zip(kernels, kernels[1:])]
        print(f"bf16 {shape} {name}: burst {per_call:.1f} us/call; {len(kernels)} kernels, median duration "
              f"{statistics.median(durations):.1f} us, median gap {statistics.median(gaps):.2f} us "
              f"(min {min(gaps):.2f}); {kernels[0].name[:50]}", flush=True)
