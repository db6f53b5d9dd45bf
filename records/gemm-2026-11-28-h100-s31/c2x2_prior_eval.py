"""Would the prior gain from 2x2 clusters? The four configs of c2x2_sweep.json (128x128x6w1 and 128x256x4, each
alone and in a 2x2 cluster, timed together on the 300 sweep shapes x bf16 / e4m3 with the prior's own pick) fitted
(benchmarks/fit_gemm_prior.py's fit), the clustered ones' terms put on the committed table's scale through their
unclustered neighbours (as narrow_terms.py of session 27), then the prior run with them in its pool: on each row,
the time of its new pick (a clustered config, timed in the row) against the time of its old one.

    python -P records/gemm-2026-11-28-h100-s31/c2x2_prior_eval.py   # from the repository root
"""

import json
import math
import statistics
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[1] / "benchmarks"))
from fit_gemm_prior import fit  # noqa: E402

from mmatom.kernels.gemm import GemmConfig, choices  # noqa: E402

NEIGHBOURS = {"128x128x6w1c2x2": "128x128x6w1", "128x256x4c2x2": "128x256x4"}


def main() -> None:
    rows = json.loads((here / "c2x2_sweep.json").read_text())
    for table in choices.COST_MODEL.values():  # placeholders: model_terms reads a config's tile through its entry
        table.update({name: (0.0, 0.0, 0.0) for name in NEIGHBOURS})
    for cls, dtype in (("16-bit", "bf16"), ("fp8", "e4m3")):
        sample = [r for r in rows if r["dtype"] == dtype]
        fitted, committed = fit(sample), choices.COST_MODEL[cls]
        for name, near in NEIGHBOURS.items():
            (c0, c1, c2), (n0, n1, n2), (k0, k1, k2) = fitted[name], fitted[near], committed[near]
            committed[name] = (round(c0 + k0 - n0, 3), round(c1 * k1 / n1, 3), round(c2 * k2 / n2, 4))
            print(cls, name, "fitted", tuple(round(x, 4) for x in fitted[name]), "scaled", committed[name])
    choices.CONFIGS = choices.CONFIGS + tuple(GemmConfig.from_name(n) for n in NEIGHBOURS)
    choices.forget()
    for dtype in ("bf16", "e4m3"):
        ratios, picked = [], []
        for r in (r for r in rows if r["dtype"] == dtype):
            new = choices.prior_config(r["m"], r["n"], r["k"], dtype, sms=132, bandwidth=3.35e6).name
            old_t = r["times_us"][r["prior"]]
            new_t = r["times_us"].get(new, old_t) if new != r["prior"] else old_t
            ratios.append(old_t / new_t)
            if new in NEIGHBOURS:
                picked.append(f"{r['m']}x{r['n']}x{r['k']} {new} {old_t / new_t:.3f}x")
        geo = math.exp(statistics.mean(map(math.log, ratios)))
        print(f"{dtype}: {len(picked)} rows pick a 2x2 cluster; geomean old/new {geo:.4f}; faster >5% "
              f"{sum(x > 1.05 for x in ratios)}, slower >5% {sum(x < 0.95 for x in ratios)}")
        for line in picked:
            print("  ", line)


if __name__ == "__main__":
    main()
