"""Session 32's probes of the GEMM prior on this folder's sweep (every shipped config, 300 shapes x bf16 / e4m3, H200,
at c11e3c4's kernels), each judged by the prior's own picks (benchmarks/fit_gemm_prior.py's judge) on held-out
halves against the committed table:

  scales  one factor per config on its fitted terms, tuned by coordinate descent so that the prior's picks are
          fastest on the training half (a ranking fit, where least squares fits times);
  tied    the swapped-operand configs' per-wave term tied (c1 = 0, 1 us, or 128x64x8w1's), c0 and c2 fitted: their
          rows are one wave nearly all, so c0 and c1 come out collinear (16-bit 128x16x8w1t: -16.1, 26.0).

    python -P records/gemm-2026-12-06-h200-s32/prior_probes.py records/gemm-2026-12-06-h200-s32/gemm_sweep.json
"""

import math
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from fit_gemm_prior import judge, merge, picks  # noqa: E402

from mmatom.kernels.gemm import GemmConfig, choices  # noqa: E402
from mmatom.kernels.gemm.choices import model_terms, operand_class  # noqa: E402

H200_DRAM_BYTES_PER_US = 4.8e6
GRID = (0.80, 0.85, 0.9, 0.93, 0.96, 1.0, 1.04, 1.08, 1.12, 1.18, 1.25)


def mean_log_ratio(table, rows):
    total = 0.0
    for r, name in zip(rows, picks(table, rows, H200_DRAM_BYTES_PER_US)):
        best = min(t for k, t in r["times_us"].items() if k != "cublas")
        total += math.log(r["times_us"].get(name, 1.3 * best) / best)  # an untimed pick: as a poor one
    return total / len(rows)


def scaled(base, cls, scales):
    return {**base, cls: {k: tuple(x * scales.get(k, 1.0) for x in v) for k, v in base[cls].items()}}


def tune_scales(base, cls, rows, passes=2):
    scales, current = {}, mean_log_ratio(base, rows)
    for _ in range(passes):
        for name in base[cls]:
            for s in GRID:
                value = mean_log_ratio(scaled(base, cls, {**scales, name: s}), rows)
                if value < current - 1e-6:
                    scales[name], current = s, value
    return scaled(base, cls, scales)


def tied(base, cls, rows, c1_of):
    table = dict(base[cls])
    for config in (GemmConfig.from_name(n) for n in base[cls]):
        if not config.swap_ab:
            continue
        timed = [r for r in rows if config.name in r["times_us"]]
        terms = [model_terms(config, r["m"], r["n"], r["k"], r["dtype"], 132) for r in timed]
        t = np.array([r["times_us"][config.name] for r in timed])
        c1 = c1_of(config)
        a = np.array([[1.0, w * s] for w, s in terms]) / t[:, None]
        c0, c2 = np.linalg.lstsq(a, 1 - np.array([c1 * w for w, _ in terms]) / t, rcond=None)[0]
        table[config.name] = (float(c0), c1, float(c2))
    return {**base, cls: table}


def main():
    rows, base = merge([Path(p) for p in sys.argv[1:]]), choices.COST_MODEL
    for cls in ("16-bit", "fp8"):
        sample = [r for r in rows if operand_class(r["dtype"]) == cls]
        for seed in range(3):
            order = list(range(len(sample)))
            random.Random(seed).shuffle(order)
            train, held = [sample[i] for i in order[::2]], [sample[i] for i in order[1::2]]
            print(f"{cls} half {seed}: committed {judge(base, held, H200_DRAM_BYTES_PER_US)}")
            print(f"{cls} half {seed}: scales    {judge(tune_scales(base, cls, train), held, H200_DRAM_BYTES_PER_US)}")
            for label, c1_of in (("c1 0", lambda c: 0.0), ("c1 1us", lambda c: 1.0),
                                 ("c1 128x64x8w1", lambda c: base[cls]["128x64x8w1"][1])):
                print(f"{cls} half {seed}: tied {label} "
                      f"{judge(tied(base, cls, train, c1_of), held, H200_DRAM_BYTES_PER_US)}")


if __name__ == "__main__":
    main()
