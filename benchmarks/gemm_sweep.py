"""Every shipped GEMM config (and cuBLAS) on a sweep of shapes nobody tuned for: real model projections at every
batch size, and random sizes -- M from 1 to 16384, N and K from 256 to 28672, aligned and odd. Writes one JSON row
per shape (each config's median time, cuBLAS's, the prior's choice); what the prior (choices.choose_config) is
fitted to and judged by: `python -P benchmarks/gemm_sweep.py --out DIR [--dtypes bf16,e4m3] [--random 60]`.
Timing: interleaved rounds of CUDA-event bursts of ~`burst_ms` per system, medians (the clock moves with power).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

import torch

import mmatom
from mmatom.kernels.gemm import CONFIGS, choose_config
from mmatom.tools.mmatom_bench import timed

PROJECTIONS = [(4096, 4096), (11008, 4096), (4096, 11008), (12288, 4096), (5120, 5120), (13824, 5120),
               (8192, 8192), (28672, 8192), (8192, 28672), (1024, 4096), (14336, 4096)]  # (N, K) of real layers
BATCHES = (1, 8, 64, 256, 1024, 2048, 4096, 8192, 16384)
TORCH = {"bf16": torch.bfloat16, "f16": torch.float16, "e4m3": torch.float8_e4m3fn}


def sweep_shapes(randoms: int, seed: int = 2026) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    shapes = [(m, n, k) for (n, k) in PROJECTIONS for m in BATCHES]
    for _ in range(randoms):
        m = int(round(2 ** rng.uniform(0, 14)))
        n, k = (int(round(2 ** rng.uniform(8, 14.8))) for _ in range(2))
        if rng.random() < 0.5:  # aligned: multiples of 64
            m, n, k = (max(64, x // 64 * 64) if x >= 64 else x for x in (m, n, k))
        shapes.append((max(m, 1), n, k))
    return shapes


def burst_us(fn, count: int) -> float:
    return timed(fn, count) * 1e3


def time_systems(systems: dict, rounds: int, burst_ms: float) -> dict[str, float]:
    counts = {}
    for name, fn in systems.items():
        fn()
        counts[name] = max(1, int(burst_ms * 1e3 / max(burst_us(fn, 1), 1.0)))
    times = {name: [] for name in systems}
    for _ in range(rounds):
        for name, fn in systems.items():
            times[name].append(burst_us(fn, counts[name]))
    return {name: statistics.median(t) for name, t in times.items()}


def measure(m: int, n: int, k: int, dtype: str, rounds: int, burst_ms: float) -> dict:
    a = torch.randn(m, k, device="cuda").to(TORCH[dtype])
    b = torch.randn(n, k, device="cuda").to(TORCH[dtype])
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    one = torch.ones(1, device="cuda")
    scales = {"scale_a": one, "scale_b": one} if dtype == "e4m3" else {}
    systems = {c.name: (lambda c=c: mmatom.gemm(a, b, out=out, config=c, **scales)) for c in CONFIGS}
    if dtype == "e4m3" and k % 16 == 0 and n % 16 == 0:
        systems["cublas"] = lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    elif dtype != "e4m3":
        systems["cublas"] = lambda: torch.matmul(a, b.t(), out=out)
    times = time_systems(systems, rounds, burst_ms)
    return {"m": m, "n": n, "k": k, "dtype": dtype, "times_us": times, "prior": choose_config(m, n, k, dtype).name}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--random", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--burst-ms", type=float, default=3.0)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    device = torch.cuda.get_device_name()
    for dtype in args.dtypes.split(","):
        for m, n, k in sweep_shapes(args.random):
            row = measure(m, n, k, dtype, args.rounds, args.burst_ms)
            row["device"] = device
            rows.append(row)
            best = min((t, name) for name, t in row["times_us"].items() if name != "cublas")
            print(f"{dtype} {m}x{n}x{k}: best {best[1]} {best[0]:.1f} us, prior {row['prior']} "
                  f"{row['times_us'][row['prior']] / best[0]:.3f}x best, cublas {row['times_us'].get('cublas', 0):.1f}",
                  flush=True)
        (args.out / "gemm_sweep.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
