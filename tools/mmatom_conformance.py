"""mmatom-conformance: every atom of a family, assembled by ptxas for every claimed target and, with
--run on a GPU, executed and checked against float64.

  mmatom-conformance [--family register ...] [--run] [--seed N] [--json FILE]

One row per atom, then `N passed, M failed`; exit 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import sys

from mmatom import conformance
from mmatom.targets.ptxas import PtxasNotFound
from mmatom.targets.runtime import CudaError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="mmatom-conformance", description=__doc__.split("\n\n")[0])
    p.add_argument("--family", action="append", choices=conformance.FAMILIES,
                   help="atom family (repeatable; default: all built)")
    p.add_argument("--run", action="store_true", help="run on this machine's GPU and check numerics")
    p.add_argument("--seed", type=int, default=None, help="random seed for --run inputs (default: fresh)")
    p.add_argument("--json", help="also write the results here")
    args = p.parse_args(argv)
    failed = 0
    records = []
    for fam in args.family or list(conformance.FAMILIES):
        try:
            if args.run:
                report = conformance.run(fam, args.seed, progress=lambda s: print(f"# {s}", file=sys.stderr))
            else:
                report = conformance.assemble(fam, progress=lambda s: print(f"# {s}", file=sys.stderr))
        except (CudaError, PtxasNotFound) as err:  # no driver, no ptxas: say so, no traceback
            print(f"mmatom-conformance: error: {err}", file=sys.stderr)
            return 1
        for line in report.lines():
            print(line)
        print(f"# {fam} ({report.mode}): {report.seconds:.1f} s", file=sys.stderr)
        failed += len(report.failed)
        records.append({"family": fam, "mode": report.mode, "seconds": round(report.seconds, 2), "cases": [
            {"atom": o.case.label, "passed": o.passed, "error": o.error, "detail": o.detail} for o in report.outcomes]})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(records, f, indent=1)
    return 1 if failed else 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
