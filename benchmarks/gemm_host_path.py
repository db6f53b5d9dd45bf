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
sliced: views never seen before), host time per call without a sync -- the prior, the tensor maps, the packing;
then each call a new M, N and K (views of larger A, B and D: every map new, the prior's plan for (N, K) too); each
call timed alone (median and mean), torch's GEMM on the same new shapes beside it.
`--breakdown` times the steps of such a call inside the loop (timers around host.py's steps, the template's resolved
launch, the maps, the packing and the driver's launch: medians, no profiler's overhead on the rest) and one tensor
map's encode through the runtime and through cuda.bindings' call.

    python -P benchmarks/gemm_host_path.py [--calls 2000] [--profile] [--new-shapes 200] [--breakdown] [--skip-shapes]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

import torch

import mmatom
from mmatom.kernels import torch_launch
from mmatom.kernels.gemm import choices, host
from mmatom.kernels.gemm.config import operand_box, output_box
from mmatom.targets import runtime

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


def new_shape_host_us(dtype: str, shapes: int, profile: bool, new_nk: bool = False) -> tuple[float, float]:
    """(median, mean) host us of a call whose (M, N, K) no call had before: M steps through 1..shapes x 8 with
    N = K = 4096, or (`new_nk`) N and K step too (4096 + 16 j: views of larger B and A, aligned rows). Each call
    timed alone: the mean holds the garbage collector's full passes where one fell in the loop (their cost grows
    with the process's heap -- torch's and xDSL's objects, ~230k here --, not with mmatom's call), the median not."""
    operands = _new_shape_operands(dtype, shapes)
    a, b, out, one, rows = operands["a"], operands["b"], operands["out"], operands["scales"], operands["shapes"]
    dtype_name = "bf16" if dtype == "bf16" else "e4m3"
    rows = [(m, n, k) if new_nk else (m, 4096, 4096) for m, n, k in rows]
    for m, n, k in rows:  # the kernel each timed call will use, compiled and loaded (by a call of another shape) ...
        config = choices.choose_config(m, n, k, dtype_name)
        mmatom.gemm(a[:m + 2, :k], b[:n, :k], out=out[:m + 2, :n], config=config, **one)
    choices.forget()  # ... and the prior's memory of those shapes dropped: each timed call computes it
    host.forget_prepared_calls()  # (a freed tensor's address reused with the same shape would replay a packed call)
    torch_launch.forget_maps()
    torch.cuda.synchronize()
    prof = cProfile.Profile() if profile else None
    if prof:
        prof.enable()
    times = _each_timed(lambda a_m, b_nk, out_m: mmatom.gemm(a_m, b_nk, out=out_m, **one), a, b, out, rows)
    if prof:
        prof.disable()
    torch.cuda.synchronize()
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return statistics.median(times) * 1e6, statistics.fmean(times) * 1e6


def torch_new_shape_host_us(dtype: str, shapes: int, new_nk: bool) -> tuple[float, float]:
    """new_shape_host_us for torch's own GEMM on the same new shapes (bf16: torch.matmul; fp8: torch._scaled_mm)."""
    operands = _new_shape_operands(dtype, shapes)
    a, b, out, one, rows = operands["a"], operands["b"], operands["out"], operands["scales"], operands["shapes"]
    rows = [(m, n, k) if new_nk else (m, 4096, 4096) for m, n, k in rows]
    if dtype == "bf16":
        def call(a_m, b_nk, out_m):
            torch.matmul(a_m, b_nk.T, out=out_m)
    else:  # _scaled_mm takes rows of 16-byte multiples only: M as given, the output its own
        def call(a_m, b_nk, out_m):
            torch._scaled_mm(a_m, b_nk.T, out_dtype=torch.bfloat16, **one)
    times = _each_timed(call, a, b, out, rows)
    torch.cuda.synchronize()
    return statistics.median(times) * 1e6, statistics.fmean(times) * 1e6


def _each_timed(call, a, b, out, rows) -> list[float]:
    times = []
    for m, n, k in rows:
        a_m, b_nk, out_m = a[:m, :k], b[:n, :k], out[:m, :n]  # the caller's views: not the library's time
        t0 = time.perf_counter()
        call(a_m, b_nk, out_m)
        times.append(time.perf_counter() - t0)
    return times


def _new_shape_operands(dtype: str, shapes: int) -> dict:
    """A, B, D large enough for every new shape (M = 1 + 8 i, N = K = 4096 + 16 i; their rows 128 bytes apart times
    a whole number, as a contiguous tensor's of 4096 columns), fp8 scales."""
    top = 8 * shapes + 8
    wide = -(-(4096 + 16 * shapes) // 128) * 128
    a, b = (torch.randn(rows, wide, device="cuda").to(TORCH[dtype]) for rows in (top, wide))
    out = torch.empty(top, wide, device="cuda", dtype=torch.bfloat16)
    one = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} if dtype != "bf16" else {}
    return {"a": a, "b": b, "out": out, "scales": one,
            "shapes": [(1 + 8 * i, 4096 + 16 * i, 4096 + 16 * i) for i in range(shapes)]}


STEPS = ("_any_rows_key", "_call_key", "choose_config", "_keep_prepared", "current_stream", "_prepared_launch")
METHODS = ((getattr(host, "_Bound", None), "prepare", "_Bound.prepare"), (runtime.TensorMap, "over", "TensorMap.over"),
           (runtime.AsyncLaunch, "prepare", "AsyncLaunch.prepare"))  # (an older tree, A/B: those it has)


def breakdown(dtype: str, shapes: int) -> None:
    """Where a new M's first call (N = K = 4096) spends its host time, inside the loop that makes it: the steps
    host.py calls (module functions; a template's call reaches _prepared_launch only for a config it has not
    resolved) and the methods under them (_Bound.prepare holds the two TensorMap.over and AsyncLaunch.prepare) timed
    by timers around them, and the driver's launch call -- each step's median per call (nested steps are inside
    their callers). Then one tensor map's encode alone, through the runtime and through cuda.bindings' own call."""
    operands = _new_shape_operands(dtype, shapes)
    a, b, out, one = operands["a"][:, :4096], operands["b"][:4096, :4096], operands["out"][:, :4096], operands["scales"]
    name = "bf16" if dtype == "bf16" else "e4m3"
    ms = [m for m, _, _ in operands["shapes"]]
    for m in ms:  # every kernel loaded
        mmatom.gemm(a[:m + 2], b, out=out[:m + 2], config=choices.choose_config(m, 4096, 4096, name), **one)
    choices.forget()
    host.forget_prepared_calls()  # a freed tensor's address reused with the same shape would replay a packed call
    torch_launch.forget_maps()
    spent: dict[str, list] = {}
    timed = [(host, step, step) for step in STEPS] + [m for m in METHODS if hasattr(m[0], m[1])]
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in timed] + \
        [(runtime, "bind_launch", runtime.bind_launch)]
    for (owner, attr, label), (_, _, fn) in zip(timed, saved):
        setattr(owner, attr, _timer(spent, label, fn))
    bind = saved[-1][2]
    runtime.bind_launch = lambda *args, **kwargs: _timer(spent, "launch (driver)", bind(*args, **kwargs))
    torch.cuda.synchronize()
    try:
        times = []
        for m in ms:
            a_m, out_m = a[:m], out[:m]
            t0 = time.perf_counter()
            mmatom.gemm(a_m, b, out=out_m, **one)
            times.append(time.perf_counter() - t0)
    finally:
        for owner, attr, fn in saved:
            setattr(owner, attr, fn)
    torch.cuda.synchronize()
    print(f"{dtype} new M: median {statistics.median(times) * 1e6:.1f} us a call (timers included); the steps' "
          f"medians per call:")
    for step, seconds in spent.items():
        print(f"  {step:<20} {statistics.median(seconds) * 1e6:7.1f} us  ({len(seconds)} calls)")
    _encode_costs(a, ms)


def _timer(spent: dict, step: str, fn):
    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent.setdefault(step, []).append(time.perf_counter() - t0)
    return timed


def _encode_costs(a, ms: list[int]) -> None:
    """One map of each new A view: the runtime's encode, cuda.bindings' call, and mmatom.tensor_map (checks and all)."""
    elem = {torch.bfloat16: "bf16", torch.float8_e4m3fn: "e4m3"}[a.dtype]
    size, row_bytes = a.element_size(), a.stride(0) * a.element_size()
    ways = {"runtime._encode": lambda m: runtime._encode(elem, a.data_ptr(), [4096, m], [row_bytes], [64, 128],
                                                         "128b", a.device.index),
            "cuda.bindings": lambda m: _bindings_map(a[:m], 128, 64),
            "mmatom.tensor_map": lambda m: mmatom.tensor_map(a[:m], 128, 128 // size)}
    for label, fn in ways.items():
        t0 = time.perf_counter()
        for m in ms:
            fn(m)
        print(f"  one map, {label:<20} {(time.perf_counter() - t0) / len(ms) * 1e6:7.1f} us")


def _bindings_map(x, box_rows: int, box_cols: int):
    """The same encode as the runtime's, through cuda.bindings' own call (with the context push it needs)."""
    drv = runtime._driver()
    u64, u32 = drv.cuuint64_t, drv.cuuint32_t
    elem = runtime.TMAP_DTYPES[{"bfloat16": "bf16", "float8_e4m3fn": "e4m3"}[str(x.dtype).split(".")[-1]]]
    with runtime.opened(x.device.index).current():
        return runtime._check(drv.cuTensorMapEncodeTiled(
            drv.CUtensorMapDataType(elem), 2, x.data_ptr(), [u64(x.shape[1]), u64(x.shape[0])],
            [u64(x.stride(0) * x.element_size())], [u32(box_cols), u32(box_rows)], [u32(1)] * 2,
            drv.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, drv.CUtensorMapSwizzle(3),
            drv.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            drv.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "cuTensorMapEncodeTiled")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="cProfile mmatom.gemm's host path on each shape")
    parser.add_argument("--new-shapes", type=int, default=200, help="first calls of new shapes timed (0: none)")
    parser.add_argument("--breakdown", action="store_true", help="each stage of a new shape's first call timed alone")
    parser.add_argument("--skip-shapes", action="store_true", help="only the new shapes' first calls")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, {args.calls} calls a burst", flush=True)
    print(f"{'shape':<28} {'system':<7} {'host us':>8} {'GPU us':>8} {'wall us':>8} {'kernels':>8}")
    for label, m, n, k, dtype in SHAPES if not args.skip_shapes else ():
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
        for new_nk, what in ((False, "M = 1..{}, N = K = 4096"), (True, "M, N, K all new: M = 1 + 8 i, N = K = 4096 + "
                                                                       "16 i, i < {}")):
            label = what.format(8 * args.new_shapes if not new_nk else args.new_shapes)
            median, mean = new_shape_host_us(dtype, args.new_shapes, args.profile, new_nk)
            vendor = torch_new_shape_host_us(dtype, args.new_shapes, new_nk)
            print(f"{dtype} new shape's first call ({label}): mmatom median {median:.1f} us host, mean {mean:.1f} us; "
                  f"torch median {vendor[0]:.1f}, mean {vendor[1]:.1f}", flush=True)
        if args.breakdown:
            breakdown(dtype, args.new_shapes)


if __name__ == "__main__":
    main()
