"""The host side of mmatom.gemm: microseconds of Python per call (launches queued, one sync at the end) against
the kernel's own time, and where they go (cProfile). Small GEMMs are host-bound when the first exceeds the
second. `python -P benchmarks/gemm_host_path.py` on the GPU machine."""

import cProfile
import pstats
import time

import torch

import mmatom

for dtype in (torch.bfloat16, torch.float8_e4m3fn):
    a = torch.randn(1024, 1024, device="cuda").to(dtype)
    b = torch.randn(1024, 1024, device="cuda").to(dtype)
    d = torch.empty(1024, 1024, device="cuda", dtype=torch.bfloat16)
    s = {} if dtype == torch.bfloat16 else {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")}
    call = lambda: mmatom.gemm(a, b, out=d, **s)  # noqa: E731
    for _ in range(50):
        call()
    torch.cuda.synchronize()
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        call()
    host = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    wall = (time.perf_counter() - t0) / n * 1e6
    print(f"{dtype}: host {host:.1f} us/call, wall {wall:.1f} us/call", flush=True)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(500):
        call()
    prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)
