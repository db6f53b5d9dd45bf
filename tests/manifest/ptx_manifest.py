"""The PTX manifest: sha256 of the PTX that mmatom emits for every conformance case of every family and
for every example kernel. Generated PTX must stay byte-identical across refactors; an intended change is
regenerated with `python tests/manifest/ptx_manifest.py --write` and its reason given in the commit.

The hashes (ptx_manifest.json) are what is pinned. Beside them, ptx_manifest.ptx.xz keeps the PTX text itself
(xz-compressed JSON, written by the same --write) so that a mismatch shows which kernels changed and a unified
diff of each against the PTX the manifest pinned, not only that a hash moved.

    python tests/manifest/ptx_manifest.py            # compare with the committed manifest
    python tests/manifest/ptx_manifest.py --write    # regenerate it
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import lzma
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
MANIFEST = HERE / "ptx_manifest.json"
PTX_STORE = HERE / "ptx_manifest.ptx.xz"
DIFFS_SHOWN = 5  # changed kernels whose PTX diff a report prints (all are named)
DIFF_LINES = 120  # lines of each diff printed

Groups = dict[str, dict[str, str]]  # group (family or "examples") -> kernel name -> sha256 or PTX text


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def conformance_ptx(family: str) -> dict[str, str]:
    from mmatom.conformance import family_module, lowered_functions

    fam = family_module(family)
    return {name: text for name, (text, _atoms) in sorted(lowered_functions(fam, fam.cases()).items())}


def example_ptx() -> dict[str, str]:
    import mmatom

    out = {}
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        text = path.read_text()
        if "nvvm.kernel" not in text:  # an atom-level example (fragments as function arguments), not a kernel
            continue
        out[path.name] = mmatom.compile(text).ptx
    return out


def compute_ptx() -> Groups:
    from mmatom.conformance import FAMILIES

    out = {f: conformance_ptx(f) for f in FAMILIES}
    out["examples"] = example_ptx()
    return out


def hashes(ptx: Groups) -> Groups:
    return {group: {name: _sha(text) for name, text in kernels.items()} for group, kernels in ptx.items()}


def diff(want: Groups, got: Groups) -> list[str]:
    """'group/name: changed|missing|new' for each kernel whose hash differs (want and got: hashes)."""
    lines = []
    for group in sorted(set(want) | set(got)):
        w, g = want.get(group, {}), got.get(group, {})
        for name in sorted(set(w) | set(g)):
            if w.get(name) != g.get(name):
                what = "missing" if name not in g else "new" if name not in w else "changed"
                lines.append(f"{group}/{name}: {what}")
    return lines


def load_store() -> Groups:
    return json.loads(lzma.decompress(PTX_STORE.read_bytes())) if PTX_STORE.exists() else {}


def _ptx_diff(group: str, name: str, pinned_sha: str | None, new_ptx: str | None, store: Groups) -> list[str]:
    """One changed kernel's unified diff: the stored PTX (only if it is the text the manifest pinned) -> new."""
    old = store.get(group, {}).get(name)
    if pinned_sha is not None and (old is None or _sha(old) != pinned_sha):
        return [f"  (no stored PTX with the pinned hash for {group}/{name}: {PTX_STORE.name} is stale)"]
    lines = list(difflib.unified_diff((old or "").splitlines(), (new_ptx or "").splitlines(),
                                      f"pinned/{group}/{name}", f"now/{group}/{name}", n=2, lineterm=""))
    cut = [f"  ... {len(lines) - DIFF_LINES} more diff lines"] if len(lines) > DIFF_LINES else []
    return lines[:DIFF_LINES] + cut


def report(want: Groups, got_ptx: Groups, store: Groups | None = None) -> str:
    """'' if the PTX matches the pinned hashes; else the changed kernels, then the diffs of the first few."""
    changed = diff(want, hashes(got_ptx))
    if not changed:
        return ""
    store = load_store() if store is None else store
    out = [f"{len(changed)} kernels differ from {MANIFEST.name}:", *changed]
    for entry in changed[:DIFFS_SHOWN]:
        group, name = entry.rsplit(":", 1)[0].split("/", 1)
        out += _ptx_diff(group, name, want.get(group, {}).get(name), got_ptx.get(group, {}).get(name), store)
    if len(changed) > DIFFS_SHOWN:
        out.append(f"(diffs of the first {DIFFS_SHOWN} shown)")
    return "\n".join(out)


def write(ptx: Groups) -> None:
    MANIFEST.write_text(json.dumps(hashes(ptx), indent=1, sort_keys=True) + "\n")
    # sorted keys and a fixed preset: the same PTX gives the same bytes
    PTX_STORE.write_bytes(lzma.compress(json.dumps(ptx, sort_keys=True).encode(), preset=9))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="regenerate the committed manifest and its PTX store")
    args = p.parse_args(argv)
    ptx = compute_ptx()
    count = sum(len(v) for v in ptx.values())
    if args.write:
        write(ptx)
        print(f"wrote {count} hashes to {MANIFEST} and their PTX to {PTX_STORE} ({PTX_STORE.stat().st_size} bytes)")
        return 0
    text = report(json.loads(MANIFEST.read_text()), ptx)
    print(text or f"identical: {count} kernels")
    return 1 if text else 0


if __name__ == "__main__":
    sys.exit(main())
