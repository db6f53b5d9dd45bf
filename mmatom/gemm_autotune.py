"""mmatom.gemm_autotune: time every candidate GemmConfig on this GPU for one problem and store the fastest,
so that every later mmatom.gemm of that (GPU, dtype, M, N, K) -- in this process or another -- uses it.

    config = mmatom.gemm_autotune(4096, 4096, 4096, dtype="bf16")   # ~1 s per candidate; then stored

Candidates are compiled (cached on disk like any kernel), warmed up, then timed in interleaved rounds of
bursts between CUDA events on random inputs; the median per candidate decides (the card's clock moves with
power, so rounds are interleaved rather than one candidate after another).
"""

from __future__ import annotations

import statistics
from dataclasses import replace

from . import gemm_choices
from .errors import api_error
from .hopper_gemm import CONFIGS, ELEM_BYTES, FP8, GemmConfig, forget_prepared_calls, gemm, gpu_name

TORCH_DTYPES = {"bf16": "bfloat16", "e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}


def gemm_autotune(m: int, n: int, k: int, *, dtype: str = "bf16", candidates: tuple[GemmConfig, ...] = CONFIGS,
                  rounds: int = 5, burst_ms: float = 20.0, store: bool = True) -> GemmConfig:
    """The fastest of `candidates` for D (m x n) = A (m x k) . B (n x k)^T on the current GPU (stored as the
    choice for this problem unless store=False)."""
    import torch  # noqa: PLC0415 - torch is optional: only the host side needs it
    if dtype not in ELEM_BYTES:
        raise api_error(f"gemm_autotune: dtype {dtype!r}; one of {', '.join(ELEM_BYTES)}")
    if not candidates:
        raise api_error("gemm_autotune: no candidate configs")
    tdtype = getattr(torch, TORCH_DTYPES[dtype])
    a = torch.randn(m, k, device="cuda").to(tdtype)
    b = torch.randn(n, k, device="cuda").to(tdtype)
    d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} if dtype in FP8 \
        else {}
    calls = {c.name: (c, lambda c=c: gemm(a, b, out=d, config=c, **scales)) for c in candidates}
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def burst_us(fn, count: int) -> float:
        start.record()
        for _ in range(count):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) * 1e3 / count

    counts = {}
    for name, (_, fn) in calls.items():  # compile + warm up; size each burst to ~burst_ms
        fn()
        once = burst_us(fn, 3)
        counts[name] = max(3, min(1000, int(burst_ms * 1e3 / max(once, 1.0))))
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, (_, fn) in calls.items():
            times[name].append(burst_us(fn, counts[name]))
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    best = calls[min(medians, key=medians.get)][0]
    if store:
        gemm_choices.store(gemm_choices.problem_key(gpu_name(), dtype, m, n, k), best, medians)
        forget_prepared_calls()  # calls packed with the earlier choice
    return replace(best)


__all__ = ["gemm_autotune"]
