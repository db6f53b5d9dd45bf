"""Every shipped GEMM config (and cuBLAS) on the bench's sweep of shapes nobody tuned for -- the one definition,
mmatom_bench_shapes.sweep_shapes: real model projections at every batch size and random sizes, M from 1 to 16384,
N and K from 256 to 28672, aligned and odd. Writes one JSON row per shape (each config's median time, cuBLAS's,
the prior's choice); what the prior (choices.prior_config) is fitted to and judged by:

    python -P benchmarks/gemm_sweep.py --out DIR [--dtypes bf16,f16,e4m3] [--count 300] [--swap-ab] [--max-m 64]
                                       [--configs 128x96x6w1,128x128x6w1]

`--swap-ab`: shapes with M <= 64 time the swapped-operand configs whose tile covers M too (SWAP_AB_CONFIGS), so
that the fit gives them measured terms; `--max-m`: only the sweep's shapes with M up to that (a run that fits in a
device call; fit_gemm_prior.py merges it with a full sweep from the same GPU).

Timing: the bench's operands and interleaved medians (mmatom_bench.Operands, interleaved_medians), `--rounds`
bursts of ~`--burst-ms` per system. records/sweep-2026-11-26-h200 was taken before the sweep gained the Mistral /
Qwen2 projections: its random shapes are sweep_shapes' (tests/unit/tools/test_mmatom_bench.py), its model shapes
the first 11 projections at every batch size.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

import mmatom
from mmatom.kernels.gemm import CONFIGS, SWAP_AB_CONFIGS, GemmConfig
from mmatom.kernels.gemm.choices import prior_config
from mmatom.tools.mmatom_bench import Operands, interleaved_medians, timed
from mmatom.tools.mmatom_bench_shapes import SWEEP_COUNT, Bursts, sweep_shapes


def measure(m: int, n: int, k: int, dtype: str, bursts: Bursts, swap_ab: bool = False,
            configs: tuple = CONFIGS) -> dict:
    ops = Operands.random(m, n, k, dtype)
    swapped = tuple(c for c in SWAP_AB_CONFIGS if m <= c.block_n) if swap_ab else ()
    prior = prior_config(m, n, k, dtype)  # timed too where it is none of those (a split-K config)
    systems = {c.name: ops.mmatom_call(mmatom.gemm, c) for c in dict.fromkeys(configs + swapped + (prior,))}
    systems["cublas"] = ops.vendor_calls()["cublas"]  # fp8: on operands padded outside its timing
    times = interleaved_medians(systems, bursts, timed)
    return {"m": m, "n": n, "k": k, "dtype": dtype, "times_us": {name: ms * 1e3 for name, ms in times.items()},
            "prior": prior.name}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--count", type=int, default=SWEEP_COUNT, help="shapes (sweep_shapes)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--burst-ms", type=float, default=3.0)
    parser.add_argument("--swap-ab", action="store_true", help="M <= 64: the swapped-operand configs covering M too")
    parser.add_argument("--max-m", type=int, default=None, help="only the shapes with M up to this")
    parser.add_argument("--configs", default=None, help="the configs timed (names; default: every shipped one) -- "
                        "new configs and their neighbours, for fit_gemm_prior.py to price them")
    args = parser.parse_args()
    configs = tuple(GemmConfig.from_name(c) for c in args.configs.split(",")) if args.configs else CONFIGS
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    device = torch.cuda.get_device_name()
    bursts = Bursts(args.rounds, args.burst_ms, min_calls=1)
    for dtype in args.dtypes.split(","):
        for m, n, k in sweep_shapes(args.count):
            if args.max_m is not None and m > args.max_m:
                continue
            row = measure(m, n, k, dtype, bursts, args.swap_ab, configs)
            row["device"] = device
            rows.append(row)
            best = min((t, name) for name, t in row["times_us"].items() if name != "cublas")
            print(f"{dtype} {m}x{n}x{k}: best {best[1]} {best[0]:.1f} us, prior {row['prior']} "
                  f"{row['times_us'][row['prior']] / best[0]:.3f}x best, cublas {row['times_us']['cublas']:.1f}",
                  flush=True)
            (args.out / "gemm_sweep.json").write_text(json.dumps(rows, indent=1))  # each row: a run cut off keeps its rows


if __name__ == "__main__":
    main()
