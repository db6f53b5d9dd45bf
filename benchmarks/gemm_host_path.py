"""The host side of mmatom.gemm against torch's on shapes TMA cannot address directly (rows that are not 16-byte
multiples: A and B copied into padded rows, D written to a padded matrix and copied to `out`), and one aligned
shape for comparison. Per shape and system:

    host us/call   launches queued back to back, no sync: what the CPU spends per call
    GPU us/call    the same calls queued behind a sleep kernel, timed by CUDA events: the GPU's own time for a
                   call (every kernel it launches, the copies included), the host hidden
    wall us/call   queued then synchronised: the larger of the two, as a loop of small GEMMs sees it
    kernels/call   GPU kernels per call (torch.profiler; '-' where it is unavailable)

`--profile` adds cProfile's top entries of mmatom.gemm's host path per shape (where the host time goes).
Then the first call of a new shape (issue 24's < 50 us): the kernel loaded, each call a new M (rows of one A and D
sliced: views never seen before), host time per call without a sync -- the prior, the tensor maps, the packing.

    python -P benchmarks/gemm_host_path.py [--calls 2000] [--profile] [--new-shapes 200]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import torch

import mmatom
from mmatom.kernels.gemm import choices

# (label, M, N, K, dtype): odd rows everywhere, odd K only (A and B copied), odd N only (D copied), large odd, aligned
SHAPES = [("odd all", 9, 470, 322, "bf16"), ("decode odd K", 1, 4096, 4095, "bf16"), ("odd N", 128, 4097, 4096, "bf16"),
          ("large odd", 4095, 4095, 4095, "bf16"), ("aligned", 1024, 1024, 1024, "bf16"),
          ("odd all", 9, 470, 322, "e4m3"), ("large odd", 4095, 4095, 4095, "e4m3")]
TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}


def calls_for(m: int, n: int, k: int, dtype: str) -> dict:
    """mmatom.gemm and torch's GEMM into a preallocated `out`; fp8: torch._scaled_mm on operands the caller pads to
    16 columns (and B to 16 rows) inside the call, as mmatom.gemm does inside its own."""
    a = torch.randn(m, k, device="cuda").to(TORCH[dtype])
    b = torch.randn(n, k, device="cuda").to(TORCH[dtype])
    out, out_t = (torch.empty(m, n, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    if dtype == "bf16":
        return {"mmatom": lambda: mmatom.gemm(a, b, out=out), "torch": lambda: torch.matmul(a, b.T, out=out_t)}
    one = torch.ones(1, device="cuda")
    kp, np_ = -(-k // 16) * 16, -(-n // 16) * 16
    pad = torch.nn.functional.pad

    def vendor():
        a_v = a if kp == k else pad(a, (0, kp - k))
        b_v = b if (kp, np_) == (k, n) else pad(b, (0, kp - k, 0, np_ - n))
        return torch._scaled_mm(a_v, b_v.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)[:, :n]

    return {"mmatom": lambda: mmatom.gemm(a, b, out=out, scale_a=one, scale_b=one), "torch": vendor}


def host_us(fn, calls: int) -> tuple[float, float]:
    """(host, wall) microseconds per call: queued without a sync, then after the sync."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    host = time.perf_counter() - t0
    torch.cuda.synchronize()
    return host / calls * 1e6, (time.perf_counter() - t0) / calls * 1e6


def gpu_us(fn, calls: int, host_per_call_us: float) -> float:
    """The GPU's microseconds per call: the calls queued behind a sleep kernel long enough to hide the host, timed
    between two events queued after the sleep."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    cycles = int(2.0e3 * host_per_call_us * calls * 1.5)  # ~2 GHz clock: 1.5x the host's time for the whole burst
    torch.cuda.synchronize()
    torch.cuda._sleep(cycles)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / calls


def kernels_per_call(fn, calls: int = 20) -> str:
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
        kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        return f"{len(kernels) / calls:.1f}"
    except Exception:  # no CUPTI in this build: the count is left out, not the run
        return "-"


def profile_host(fn, calls: int = 500) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        fn()
    prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)


def new_shape_host_us(dtype: str, shapes: int, profile: bool) -> float:
    """Mean host us of a call whose (M, N, K) no call had before (M steps through 1..shapes x 8, N = K = 4096)."""
    n = k = 4096
    top = 8 * shapes + 8
    a, b = (torch.randn(rows, k, device="cuda").to(TORCH[dtype]) for rows in (top, n))
    out = torch.empty(top, n, device="cuda", dtype=torch.bfloat16)
    one = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} if dtype != "bf16" else {}
    rows = range(1, 8 * shapes, 8)
    dtype_name = "bf16" if dtype == "bf16" else "e4m3"
    for m in rows:  # the kernel each timed call will use, compiled and loaded (by a call of another M) ...
        config = choices.choose_config(m, n, k, dtype_name)
        mmatom.gemm(a[:m + 2], b, out=out[:m + 2], config=config, **one)
    choices.forget()  # ... and the prior's memory of those M dropped: each timed call computes it
    torch.cuda.synchronize()
    prof = cProfile.Profile() if profile else None
    t0 = time.perf_counter()
    if prof:
        prof.enable()
    for m in rows:
        mmatom.gemm(a[:m], b, out=out[:m], **one)
    if prof:
        prof.disable()
    host = (time.perf_counter() - t0) / shapes * 1e6
    torch.cuda.synchronize()
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return host


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="cProfile mmatom.gemm's host path on each shape")
    parser.add_argument("--new-shapes", type=int, default=200, help="first calls of new shapes timed (0: none)")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, {args.calls} calls a burst", flush=True)
    print(f"{'shape':<28} {'system':<7} {'host us':>8} {'GPU us':>8} {'wall us':>8} {'kernels':>8}")
    for label, m, n, k, dtype in SHAPES:
        calls = calls_for(m, n, k, dtype)
        for name, fn in calls.items():
            for _ in range(50):  # compile, load, allocator and caches warm
                fn()
            host, wall = host_us(fn, args.calls)
            gpu = gpu_us(fn, args.calls, host)
            print(f"{dtype} {m}x{n}x{k} {label:<12} {name:<7} {host:8.1f} {gpu:8.1f} {wall:8.1f} "
                  f"{kernels_per_call(fn):>8}", flush=True)
        if args.profile:
            profile_host(calls["mmatom"])
    for dtype in ("bf16", "e4m3") if args.new_shapes else ():
        host = new_shape_host_us(dtype, args.new_shapes, args.profile)
        print(f"{dtype} new shape's first call (M = 1..{8 * args.new_shapes}, N = K = 4096): {host:.1f} us host",
              flush=True)


if __name__ == "__main__":
    main()
