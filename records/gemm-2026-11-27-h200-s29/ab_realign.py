"""A/B of the realigning producer (session 29): each shape forced realigned, and as the host chooses, against the
vendor (interleaved medians in one process); the tree is whatever PYTHONPATH puts first. Run from the repo root:
`python -P records/gemm-2026-11-27-h200-s29/ab_realign.py TAG dtype:MxNxK,...` (run_ab.sh alternates two trees)."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import mmatom  # noqa: E402
from gemm_realigned import _with_policy  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import interleaved_us  # noqa: E402

tag = sys.argv[1]
out = {}
for spec in sys.argv[2].split(","):
    dtype, shape = spec.split(":")
    m, n, k = map(int, shape.split("x"))
    ops = Operands.random(m, n, k, dtype)
    fns = {"realigned": _with_policy(True, ops.mmatom_call(mmatom.gemm)),
           "default": _with_policy(None, ops.mmatom_call(mmatom.gemm)),
           "vendor": Operands.random(m, n, k, dtype).vendor_calls()["cublas"]}
    us = interleaved_us(fns, rounds=5, reps=10)
    out[spec] = us
    print(f"{tag} {spec}: realigned {us['realigned']:.1f} default {us['default']:.1f} vendor {us['vendor']:.1f} us",
          flush=True)
print(json.dumps({tag: out}))
