"""Fit the GEMM prior's cost model to a sweep (benchmarks/gemm_sweep.py's JSON) and say how good its choices are.

The model, per config: time ~ c0 + c1 * waves + c2 * waves * k_steps, where waves = ceil(units / slots) (units: the
cluster-sized groups of output tiles -- of D^T for a swapped-operand config; slots: the SMs / the cluster size) and
k_steps = ceil(K / block_k) -- a fixed cost, a per-tile cost (prologue, epilogue) and a per-K-step cost, all per
wave of tiles over the SMs. Fitted by least squares on relative error, per operand class (16-bit, fp8), for every
config the sweep timed (on the rows that timed it: the swapped-operand configs on M <= 64, `gemm_sweep.py
--swap-ab`). Prints the table for choices.COST_MODEL and, for each class, how far the model's pick is from the
sweep's fastest config (in-sample and on a held-out half).

    python -P benchmarks/fit_gemm_prior.py records/sweep-2026-11-26-h200/gemm_sweep.json
    python -P benchmarks/fit_gemm_prior.py FULL/gemm_sweep.json SMALL_M/gemm_sweep.json   # merged by shape

Several files are merged row by row (a shape's timings joined); they must come from one GPU model.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

import numpy as np

from mmatom.kernels.gemm import GemmConfig
from mmatom.kernels.gemm.choices import candidates, model_terms, operand_class, predicted_us

H100_DRAM_BYTES_PER_US = 3.35e6  # the floor's bandwidth when judging without a GPU to ask (the prior's on an H100)
MIN_ROWS = 6  # fewer timed shapes than this leave a config's three terms unfitted


def merge(paths: list[Path]) -> list[dict]:
    """The sweeps' rows, one per (dtype, M, N, K), each shape's timings joined; every row from one GPU model."""
    rows: dict[tuple, dict] = {}
    devices = set()
    for path in paths:
        for row in json.loads(Path(path).read_text()):
            key = (row["dtype"], row["m"], row["n"], row["k"])
            found = rows.setdefault(key, {**row, "times_us": {}})
            found["times_us"].update(row["times_us"])
            devices.add(row.get("device"))
    if len(devices) > 1:
        raise SystemExit(f"fit_gemm_prior: the sweeps come from {sorted(map(str, devices))}; fit one GPU's at a time")
    return list(rows.values())


def fit(rows: list[dict]) -> dict[str, tuple[float, float, float]]:
    """Each timed config's (c0, c1, c2), on the rows that timed it (configs with fewer than MIN_ROWS left out)."""
    names = dict.fromkeys(name for r in rows for name in r["times_us"] if name != "cublas")
    table = {}
    for name in names:
        config, timed = GemmConfig.from_name(name), [r for r in rows if name in r["times_us"]]
        if len(timed) < MIN_ROWS or config.split_k:  # split-K is priced by its base config's terms (choices.py)
            continue
        terms = [model_terms(config, r["m"], r["n"], r["k"], r["dtype"], 132) for r in timed]
        times = [r["times_us"][name] for r in timed]
        a = np.array([[1.0, w, w * s] for w, s in terms]) / np.array(times)[:, None]
        table[name] = tuple(float(x) for x in np.linalg.lstsq(a, np.ones(len(timed)), rcond=None)[0])
    return table


def pick(table: dict, row: dict, bandwidth: float) -> str:
    """The prior's choice for a row under `table`: the candidates it has terms for and the row timed."""
    cls = operand_class(row["dtype"])
    pool = [c for c in candidates(row["m"], split_k=False, swap_ab=True, dtype=row["dtype"], table={cls: table})
            if c.name in table and c.name in row["times_us"]]
    shape = (row["m"], row["n"], row["k"], row["dtype"], 132)
    # as choices._prior: ties under the floors (memory, host time) go to the fitted model's order
    return min(pool, key=lambda c: (predicted_us({cls: table}, c, *shape, bandwidth=bandwidth),
                                    predicted_us({cls: table}, c, *shape, bounded=False))).name


def judge(table: dict, rows: list[dict], bandwidth: float) -> str:
    ratios = []
    for r in rows:
        times = {k: v for k, v in r["times_us"].items() if k != "cublas"}
        ratios.append(times[pick(table, r, bandwidth)] / min(times.values()))
    ratios.sort()
    within = sum(x <= 1.05 for x in ratios)
    return (f"median {statistics.median(ratios):.3f}, p90 {ratios[int(0.9 * len(ratios))]:.3f}, max {ratios[-1]:.3f}; "
            f"within 5% of the fastest on {within}/{len(ratios)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweeps", nargs="+", type=Path, help="gemm_sweep.py JSON files, merged by shape")
    parser.add_argument("--bandwidth", type=float, default=H100_DRAM_BYTES_PER_US,
                        help="DRAM bytes/us for the prior's memory floor when judging (default: an H100's)")
    args = parser.parse_args()
    rows = merge(args.sweeps)
    for cls in ("16-bit", "fp8"):
        sample = [r for r in rows if operand_class(r["dtype"]) == cls]
        if not sample:
            continue
        table = fit(sample)
        order = list(range(len(sample)))
        random.Random(0).shuffle(order)
        train, held = [sample[i] for i in order[::2]], [sample[i] for i in order[1::2]]
        print(f"# {cls}: in-sample {judge(table, sample, args.bandwidth)}; held-out half "
              f"{judge(fit(train), held, args.bandwidth)}")
        print(f'"{cls}": {{' + ", ".join(f'"{n}": ({a:.3f}, {b:.3f}, {c:.4f})' for n, (a, b, c) in table.items()) + "},")


if __name__ == "__main__":
    main()
