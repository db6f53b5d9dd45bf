"""The GEMM bench's shape sets -- the one definition that `mmatom-bench gemm --shapes ...` and
benchmarks/gemm_sweep.py (what the prior is fitted to) both read -- and the bench's run-time estimate. No torch, no
GPU: tested on the CPU (tests/unit/tools/test_mmatom_bench.py).

    squares, llm, small, odd   the 19 shapes of the long-burst bench (records/GEMM.md)
    decode                     M in {1, 8, 16, 32, 64} x the llm set's (N, K) pairs
    sweep                      sweep_shapes(count): real model projections x M from 1 to 16384, and random sizes

The sweep is seeded and deterministic, and a smaller count is a subset of a larger one: its shapes are prefixes of
two fixed-order streams (model shapes dealt round-robin over the batch sizes, so every prefix covers every M; random
shapes drawn as the first recorded sweep drew them, so `sweep_shapes(159)`'s random part is that sweep's).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

LLM_PAIRS = ((4096, 4096), (14336, 4096), (4096, 14336), (28672, 8192), (8192, 28672))  # (N, K): Llama-3 8B / 70B
DECODE_M = (1, 8, 16, 32, 64)
# (N, K) of real layers (N output features, K input features, as F.linear's weight):
PROJECTIONS = (
    (4096, 4096), (11008, 4096), (4096, 11008), (12288, 4096),  # Llama-2 7B: attention, MLP up / down, fused QKV
    (5120, 5120), (13824, 5120),  # Llama-2 13B, Qwen2.5 14B
    (8192, 8192), (28672, 8192), (8192, 28672), (1024, 4096), (14336, 4096),  # Llama-3 70B; 8B's K/V and MLP up
    (4096, 14336), (6144, 4096),  # Mistral 7B / Llama-3 8B: MLP down, fused QKV (32 + 2 x 8 heads of 128)
    (3584, 3584), (4608, 3584), (18944, 3584), (3584, 18944),  # Qwen2 7B: attention out, fused QKV, MLP up / down
)
BATCHES = (1, 8, 64, 256, 1024, 2048, 4096, 8192, 16384)  # M: tokens in flight, decode to long prefill
M_RANGE, NK_RANGE = (1, 16384), (256, 28672)
SWEEP_COUNT, SWEEP_SEED = 300, 2026

SHAPE_SETS: dict[str, list[tuple[int, int, int]]] = {
    "squares": [(s, s, s) for s in (1024, 2048, 4096, 8192)],
    "llm": [(m, n, k) for m in (4096, 16384) for n, k in LLM_PAIRS],
    "small": [(m, 8192, 8192) for m in (64, 128, 256)],
    "odd": [(4095, 4095, 4095), (8191, 8193, 4097)],
    "decode": [(m, n, k) for n, k in LLM_PAIRS for m in DECODE_M],
}
QUICK_SETS = ("sweep", "decode")  # timed in short bursts, untuned and autotuned columns (bench_quick)
SET_NAMES = tuple(SHAPE_SETS) + ("sweep",)


def sweep_shapes(count: int = SWEEP_COUNT, seed: int = SWEEP_SEED) -> list[tuple[int, int, int]]:
    """`count` (M, N, K): half (at most every one of them) real model projections at the batch sizes BATCHES, the
    rest random -- M log-uniform in 1..16384, N and K in 256..28672, half of them rounded down to multiples of 64
    (aligned), the others as drawn (odd sizes: rows TMA cannot address without padding)."""
    if count < 0:
        raise ValueError(f"sweep_shapes: count {count}; at least 0")
    models = _model_shapes(seed)
    taken = min(len(models), (count + 1) // 2)
    return models[:taken] + _random_shapes(count - taken, seed)


def _model_shapes(seed: int) -> list[tuple[int, int, int]]:
    """Every projection at every batch size, dealt round-robin over the batch sizes (each M's projections in an
    order of its own), so that any prefix has every M nearly equally often."""
    rng = random.Random(seed + 1)
    orders = [rng.sample(PROJECTIONS, len(PROJECTIONS)) for _ in BATCHES]
    return [(m, *order[turn]) for turn in range(len(PROJECTIONS)) for m, order in zip(BATCHES, orders)]


def _random_shapes(count: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)  # the draws of the first recorded sweep (records/sweep-2026-11-26-h200), in its order
    shapes = []
    for _ in range(count):
        m = int(round(2 ** rng.uniform(0, 14)))
        n, k = (int(round(2 ** rng.uniform(8, 14.8))) for _ in range(2))
        if rng.random() < 0.5:  # aligned: multiples of 64 (M below 64 kept)
            m, n, k = (max(64, x // 64 * 64) if x >= 64 else x for x in (m, n, k))
        shapes.append((max(m, 1), n, k))
    return shapes


def shapes_of(name: str, sweep_count: int = SWEEP_COUNT) -> list[tuple[int, int, int]]:
    """The shapes of one set by name (ValueError naming the sets for another name)."""
    if name == "sweep":
        return sweep_shapes(sweep_count)
    if name not in SHAPE_SETS:
        raise ValueError(f"shape set {name!r}; one of {', '.join(SET_NAMES)}")
    return SHAPE_SETS[name]


# --- run-time estimate: what a shape costs the bench on an H100 (from the recorded runs) ---------------------------

PEAK_TFLOPS = {"bf16": 700.0, "f16": 700.0, "e4m3": 1300.0, "e5m2": 1300.0}  # sustained at the 700 W cap
LAUNCH_MS = 0.012  # a launch-bound call (tiny shapes: mmatom's host path, cuBLAS's small kernels)
SETUP_S = 0.05  # per shape and dtype: random operands, the correctness check, allocator traffic
COMPILE_S = 0.25  # per config and dtype, once: a cold compile and load (records/GEMM.md: 55 - 147 ms, and loading)


@dataclass(frozen=True)
class Bursts:
    """How a system is timed: `repeats` interleaved bursts of ~`burst_ms` (at least `min_calls`, at most
    `max_calls` launches) after one warm-up burst; the median of the bursts' per-call means."""

    repeats: int
    burst_ms: float
    min_calls: int = 3
    max_calls: int = 2000

    def calls(self, call_ms: float) -> int:
        """Launches in one burst of a call taking `call_ms`."""
        return max(self.min_calls, min(self.max_calls, int(self.burst_ms / max(call_ms, 1e-6))))

    def seconds(self, call_ms: float, systems: int) -> float:
        """Each of `systems` systems' calibration (min_calls), warm-up and timed bursts."""
        return systems * ((1 + self.repeats) * self.calls(call_ms) + self.min_calls) * call_ms / 1e3


def call_ms(m: int, n: int, k: int, dtype: str) -> float:
    """A GEMM's expected time on an H100: its FLOPs at the sustained peak, or a launch."""
    return max(2.0 * m * n * k / (PEAK_TFLOPS[dtype] * 1e9), LAUNCH_MS)


@dataclass(frozen=True)
class AutotunePlan:
    """mmatom.gemm_autotune's phases (its keyword arguments): every candidate screened, the finalists decided."""

    rounds: int = 5
    burst_ms: float = 20.0
    finalists: int = 3
    final_rounds: int = 5
    final_burst_ms: float = 100.0
    candidates: int = 14

    def seconds(self, ms: float) -> float:
        """The tuner's time on a call of `ms`: warm-up (4 calls each), the screen, the final phase, and a tie-break
        of two in as many long bursts (taken when the phases disagree: counted always)."""
        screen = Bursts(self.rounds, self.burst_ms, max_calls=1000)
        final = Bursts(self.final_rounds, self.final_burst_ms, max_calls=5000)
        warm = self.candidates * 4 * ms / 1e3
        return warm + screen.seconds(ms, self.candidates) + final.seconds(ms, self.finalists + 2)

    def kwargs(self) -> dict:
        return {"rounds": self.rounds, "burst_ms": self.burst_ms, "finalists": self.finalists,
                "final_rounds": self.final_rounds, "final_burst_ms": self.final_burst_ms}


def estimate_seconds(shapes, dtypes, bursts: Bursts, systems: int, autotune: AutotunePlan | None = None,
                     per_shape_s: float = SETUP_S, configs: int = 4) -> float:
    """The bench's expected run time on an H100 for `shapes` x `dtypes`: each shape's `systems` timed in `bursts`
    (tuned first with `autotune`) and `per_shape_s` of other work, each of `configs` configs (every candidate when
    tuning) compiled once per dtype."""
    configs = autotune.candidates if autotune else configs
    total = len(dtypes) * configs * COMPILE_S
    for dtype in dtypes:
        for m, n, k in shapes:
            ms = call_ms(m, n, k, dtype)
            total += per_shape_s + bursts.seconds(ms, systems) + (autotune.seconds(ms) if autotune else 0.0)
    return total


__all__ = ["AutotunePlan", "BATCHES", "Bursts", "DECODE_M", "LLM_PAIRS", "PROJECTIONS", "QUICK_SETS", "SET_NAMES",
           "SHAPE_SETS", "call_ms", "estimate_seconds", "shapes_of", "sweep_shapes"]
