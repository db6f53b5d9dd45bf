"""The narrow tiles' cost-model terms (choices.COST_MODEL) from narrow_sweep.json: the six configs timed together on
the 300 sweep shapes (benchmarks/gemm_sweep.py --configs ...), fitted (benchmarks/fit_gemm_prior.py's fit), and put
on the committed table's scale through the wide neighbours fitted in the same run -- c0 shifted by, c1 and c2 scaled
by, the mean of their neighbours' committed / fitted differences (128x96: 128x128x6w1; 128x160: 128x128x6w1 and
128x192x4w1; 128x224: 128x192x4w1 and 128x256x4).

    python -P records/gemm-2026-11-27-h100-s27/narrow_terms.py   # from the repository root
"""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[1] / "benchmarks"))
from fit_gemm_prior import fit  # noqa: E402

NEIGHBOURS = {"128x96x6w1": ["128x128x6w1"], "128x160x5w1": ["128x128x6w1", "128x192x4w1"],
              "128x224x4": ["128x192x4w1", "128x256x4"]}
# the committed terms of the neighbours (choices.COST_MODEL before the narrow tiles)
COMMITTED = {"16-bit": {"128x128x6w1": (4.577, 1.700, 0.3747), "128x192x4w1": (2.594, 3.512, 0.5161),
                        "128x256x4": (0.906, 5.495, 0.6662)},
             "fp8": {"128x128x6w1": (7.557, 1.715, 0.3611), "128x192x4w1": (5.651, 3.823, 0.4954),
                     "128x256x4": (4.187, 5.731, 0.6412)}}


def main() -> None:
    rows = json.loads((here / "narrow_sweep.json").read_text())
    for cls, dtype in (("16-bit", "bf16"), ("fp8", "e4m3")):
        fitted = fit([r for r in rows if r["dtype"] == dtype])
        out = {}
        for name, near in NEIGHBOURS.items():
            c0, c1, c2 = fitted[name]
            shift = sum(COMMITTED[cls][n][0] - fitted[n][0] for n in near) / len(near)
            s1 = sum(COMMITTED[cls][n][1] / fitted[n][1] for n in near) / len(near)
            s2 = sum(COMMITTED[cls][n][2] / fitted[n][2] for n in near) / len(near)
            out[name] = (round(c0 + shift, 3), round(c1 * s1, 3), round(c2 * s2, 4))
        print(cls, out)


if __name__ == "__main__":
    main()
