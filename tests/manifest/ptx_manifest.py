"""The PTX manifest: sha256 of the PTX that mmatom emits for every conformance case of every family and
for every example kernel. Generated PTX must stay byte-identical across refactors; an intended change is
regenerated with `python tests/manifest/ptx_manifest.py --write` and its reason given in the commit.

    python tests/manifest/ptx_manifest.py            # compare with the committed manifest
    python tests/manifest/ptx_manifest.py --write    # regenerate it
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
MANIFEST = HERE / "ptx_manifest.json"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def conformance_hashes(family: str) -> dict[str, str]:
    from mmatom.conformance import family_module, lowered_functions

    fam = family_module(family)
    return {name: _sha(text) for name, (text, _atoms) in sorted(lowered_functions(fam, fam.cases()).items())}


def example_hashes() -> dict[str, str]:
    import mmatom

    out = {}
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        text = path.read_text()
        if "nvvm.kernel" not in text:  # an atom-level example (fragments as function arguments), not a kernel
            continue
        out[path.name] = _sha(mmatom.compile(text).ptx)
    return out


def compute(families: list[str] | None = None) -> dict[str, dict[str, str]]:
    from mmatom.conformance import FAMILIES

    out = {f: conformance_hashes(f) for f in (families or FAMILIES)}
    if families is None:
        out["examples"] = example_hashes()
    return out


def diff(want: dict[str, dict[str, str]], got: dict[str, dict[str, str]]) -> list[str]:
    lines = []
    for group in sorted(set(want) | set(got)):
        w, g = want.get(group, {}), got.get(group, {})
        for name in sorted(set(w) | set(g)):
            if w.get(name) != g.get(name):
                what = "missing" if name not in g else "new" if name not in w else "changed"
                lines.append(f"{group}/{name}: {what}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="regenerate the committed manifest")
    args = p.parse_args(argv)
    got = compute()
    if args.write:
        MANIFEST.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"wrote {sum(len(v) for v in got.values())} hashes to {MANIFEST}")
        return 0
    lines = diff(json.loads(MANIFEST.read_text()), got)
    print("\n".join(lines) or f"identical: {sum(len(v) for v in got.values())} kernels")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
