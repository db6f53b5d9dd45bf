"""Fit the GEMM prior's cost model to a sweep (benchmarks/gemm_sweep.py's JSON) and say how good its choices are.

The model, per config: time ~ c0 + c1 * waves + c2 * waves * k_steps, where waves = ceil(units / slots) (units: the
cluster-sized groups of output tiles; slots: the SMs / the cluster size) and k_steps = ceil(K / block_k) -- a
fixed cost, a per-tile cost (prologue, epilogue) and a per-K-step cost, all per wave of tiles over the SMs. Fitted by
least squares on relative error, per operand class (16-bit, fp8). Prints the table for choices.COST_MODEL and, for
each class, how far the model's pick is from the sweep's fastest config (in-sample and on a held-out half).

    python -P benchmarks/fit_gemm_prior.py records/sweep-2026-11-26-h200/gemm_sweep.json
"""

from __future__ import annotations

import json
import random
import statistics
import sys

import numpy as np

from mmatom.kernels.gemm import CONFIGS
from mmatom.kernels.gemm.choices import candidates, model_terms, operand_class, predicted_us


def fit(rows: list[dict]) -> dict[str, tuple[float, float, float]]:
    table = {}
    for c in CONFIGS:
        terms = [model_terms(c, r["m"], r["n"], r["k"], r["dtype"], 132) for r in rows]
        times = [r["times_us"][c.name] for r in rows]
        a = np.array([[1.0, w, w * s] for w, s in terms]) / np.array(times)[:, None]
        table[c.name] = tuple(float(x) for x in np.linalg.lstsq(a, np.ones(len(rows)), rcond=None)[0])
    return table


def judge(table: dict, rows: list[dict]) -> str:
    ratios = []
    for r in rows:
        times = {k: v for k, v in r["times_us"].items() if k != "cublas"}
        pick = min(candidates(r["m"]), key=lambda c: predicted_us(table, c, r["m"], r["n"], r["k"], r["dtype"], 132))
        ratios.append(times[pick.name] / min(times.values()))
    ratios.sort()
    within = sum(x <= 1.05 for x in ratios)
    return (f"median {statistics.median(ratios):.3f}, p90 {ratios[int(0.9 * len(ratios))]:.3f}, max {ratios[-1]:.3f}; "
            f"within 5% of the fastest on {within}/{len(ratios)}")


def main() -> None:
    rows = json.loads(open(sys.argv[1]).read())
    for cls in ("16-bit", "fp8"):
        sample = [r for r in rows if operand_class(r["dtype"]) == cls]
        table = fit(sample)
        order = list(range(len(sample)))
        random.Random(0).shuffle(order)
        train, held = [sample[i] for i in order[::2]], [sample[i] for i in order[1::2]]
        print(f"# {cls}: in-sample {judge(table, sample)}; held-out half {judge(fit(train), held)}")
        print(f'"{cls}": {{' + ", ".join(f'"{n}": ({a:.3f}, {b:.3f}, {c:.4f})' for n, (a, b, c) in table.items()) + "},")


if __name__ == "__main__":
    main()
