"""mmatom.gemm_autotune: time every candidate GemmConfig on this GPU for one problem and store the fastest,
so that every later mmatom.gemm of that (GPU, dtype, M, N, K) -- in this process or another -- uses it.

    config = mmatom.gemm_autotune(4096, 4096, 4096, dtype="bf16")   # ~1 s per candidate; then stored
    config = mmatom.gemm_autotune(3000, 5000, 1000, layers=4)        # a batch (4, M, K) x (4, N, K): its own choice

Candidates are compiled (cached on disk like any kernel), warmed up, then timed in interleaved rounds of
bursts between CUDA events on random inputs (the card's clock moves with power, so rounds are interleaved
rather than one candidate after another). Two phases: short bursts screen every candidate, then the fastest few
are timed again in long bursts, where a power-capped card runs at its sustained clock -- the regime a GEMM in a
real workload sees, which can rank them differently (on the H100, 256 x 8192 x 8192 bf16: ping-pong first in 20 ms
bursts, 128x128x6w1 first in 100 ms ones and in the benchmark). The final phase's median decides.
"""

from __future__ import annotations

import statistics
from dataclasses import replace

from mmatom.errors import api_error
from mmatom.optional import require_torch

from . import choices
from .choices import gpu_name
from .config import (CLUSTER_2X2_CONFIGS, CLUSTER_K_CONFIGS, CONFIGS, ELEM_BYTES, FP8, SPLIT_K_CONFIGS, STREAM_K_CONFIGS,
                     TORCH_DTYPE_NAMES, GemmConfig)
from .batched import gemm
from .host import forget_prepared_calls



def gemm_autotune(m: int, n: int, k: int, *, dtype: str = "bf16", candidates: tuple[GemmConfig, ...] | None = None,
                  rounds: int = 5, burst_ms: float = 20.0, finalists: int = 3, final_rounds: int = 5,
                  final_burst_ms: float = 100.0, store: bool = True, layers: int = 1) -> GemmConfig:
    """The fastest of `candidates` (default: autotune_candidates -- every config the prior may pick for this problem,
    and the stream-K ones and the 2x2 clusters, which it does not choose; the split-K ones run with the K slices the
    cost model picks for them) for
    D (m x n) = A (m x k) . B (n x k)^T on the current GPU -- `layers` > 1: a batch of them, (L, m, k) x (L, n, k),
    split-K, stream-K and swapped candidates left out -- (stored as the choice for this problem unless store=False): `rounds` bursts of
    ~`burst_ms` each screen them all, then `final_rounds` of ~`final_burst_ms` decide between the `finalists`
    fastest."""
    if dtype not in ELEM_BYTES:
        raise api_error(f"gemm_autotune: dtype {dtype!r}; one of {', '.join(ELEM_BYTES)}")
    if layers < 1:
        raise api_error(f"gemm_autotune: layers={layers}; the batch's size, 1 or more")
    if min(rounds, finalists, final_rounds) < 1 or min(burst_ms, final_burst_ms) <= 0:
        raise api_error(f"gemm_autotune: rounds={rounds}, finalists={finalists}, final_rounds={final_rounds}, "
                        f"burst_ms={burst_ms}, final_burst_ms={final_burst_ms}; each must be positive")
    if candidates is None:
        candidates = autotune_candidates(m, dtype, layers)
    candidates = tuple(c for c in candidates if layers == 1 or _runs_batched(c))
    if not candidates:
        raise api_error("gemm_autotune: no candidate configs")
    timer = _BurstTimer(_candidate_calls(m, n, k, dtype, candidates, layers))
    screen = timer.medians(list(timer.calls), rounds, burst_ms, 1000)
    final = timer.medians(sorted(screen, key=screen.get)[:finalists], final_rounds, final_burst_ms, 5000)
    leader = min(screen, key=screen.get)
    if min(final, key=final.get) != leader:
        # the phases disagree: the two are timed again, interleaved, in as many long bursts, and all of those decide
        # -- a noisy final phase cannot keep a candidate slower than the screen's best on one run's luck
        final.update(timer.medians([min(final, key=final.get), leader], final_rounds, final_burst_ms, 5000))
    best = next(c for c in candidates if c.name == min(final, key=final.get))
    if store:
        choices.store(choices.problem_key(gpu_name(), dtype, m, n, k, layers), best, screen, final)
        forget_prepared_calls()  # calls packed with the earlier choice
    return replace(best)


def autotune_candidates(m: int, dtype: str = "bf16", layers: int = 1) -> tuple[GemmConfig, ...]:
    """gemm_autotune's default pool for M rows: every shipped config, the split-K variants, the stream-K ones, the
    2x2 clusters, split-K in clusters of two (CLUSTER_K_CONFIGS: the swapped tiles' where they cover M), and the
    prior's whole pool for M rows (choices.candidates: for M <= SWAP_AB_MAX_M the swapped-operand tiles covering M
    and their split-K variants) -- so the prior's pick is always timed. Without the swapped tiles, autotuning a decode shape could only make it slower (H200, 1 x 4096 x 14336 bf16: the prior's
    128x16x8w1st 0.93x cuBLAS, the tuner's 64x128x8w1ps 0.74x). A batch (`layers` > 1): the configs that run one."""
    whole = layers == 1
    pool = CONFIGS + SPLIT_K_CONFIGS + STREAM_K_CONFIGS + CLUSTER_2X2_CONFIGS + \
        choices.candidates(m, split_k=whole, swap_ab=whole, dtype=dtype) + \
        tuple(c for c in CLUSTER_K_CONFIGS if not c.swap_ab or m <= c.block_n)
    return tuple(c for c in dict.fromkeys(pool) if whole or _runs_batched(c))


def _runs_batched(config: GemmConfig) -> bool:
    """A batch's kernel takes no split-K, stream-K or swapped operands."""
    return not (config.split_k or config.stream_k or config.swap_ab or config.cluster_k > 1)


def _candidate_calls(m: int, n: int, k: int, dtype: str, candidates, layers: int = 1) -> dict:
    """One mmatom.gemm call per candidate, by name, on shared random operands (a batch of `layers` > 1)."""
    torch = require_torch("mmatom.gemm_autotune")
    tdtype = getattr(torch, TORCH_DTYPE_NAMES[dtype])
    batch = (layers,) if layers > 1 else ()
    a = torch.randn(*batch, m, k, device="cuda").to(tdtype)
    b = torch.randn(*batch, n, k, device="cuda").to(tdtype)
    d = torch.empty(*batch, m, n, device="cuda", dtype=torch.float16 if dtype == "f16" else torch.bfloat16)
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} if dtype in FP8 \
        else {}
    return {c.name: (lambda c=c: gemm(a, b, out=d, config=c, **scales)) for c in candidates}


class _BurstTimer:
    """Times calls in bursts between CUDA events, in interleaved rounds (the clock moves with power)."""

    def __init__(self, calls: dict):
        torch = require_torch("mmatom.gemm_autotune")
        self.calls = calls
        self.start, self.end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.once, self.samples = {}, {}
        for name, fn in calls.items():  # compile + warm up
            fn()
            self.once[name] = self.burst_us(fn, 3)

    def burst_us(self, fn, count: int) -> float:
        self.start.record()
        for _ in range(count):
            fn()
        self.end.record()
        self.end.synchronize()
        return self.start.elapsed_time(self.end) * 1e3 / count

    def medians(self, names, rounds: int, ms: float, cap: int) -> dict[str, float]:
        """Each name's median over `rounds` bursts of ~`ms` (at most `cap` calls a burst), and over the bursts of the
        same length timed for it before."""
        counts = {name: max(3, min(cap, int(ms * 1e3 / max(self.once[name], 1.0)))) for name in names}
        for _ in range(rounds):
            for name in names:
                self.samples.setdefault((name, ms), []).append(self.burst_us(self.calls[name], counts[name]))
        return {name: statistics.median(self.samples[name, ms]) for name in names}


__all__ = ["autotune_candidates", "gemm_autotune"]
