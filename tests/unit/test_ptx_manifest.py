"""Generated PTX is byte-identical to the committed manifest (tests/manifest/ptx_manifest.json): every
conformance kernel of every family and every example kernel. On a mismatch the failure names every changed
kernel and shows the unified diff of the first few against the pinned PTX (tests/manifest/ptx_manifest.ptx.xz).
An intended change is regenerated with `python tests/manifest/ptx_manifest.py --write`, and the commit says why."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "manifest"))
import ptx_manifest  # noqa: E402

WANT = json.loads(ptx_manifest.MANIFEST.read_text())


def _check(group: str, got: dict[str, str]) -> None:
    text = ptx_manifest.report({group: WANT[group]}, {group: got})
    if text:
        pytest.fail(text, pytrace=False)


@pytest.mark.parametrize("family", ["register", "wgmma", "sm120", "tcgen05"])
def test_conformance_ptx_unchanged(family):
    _check(family, ptx_manifest.conformance_ptx(family))


def test_example_ptx_unchanged():
    _check("examples", ptx_manifest.example_ptx())


def test_report_names_and_diffs_a_changed_kernel():
    pinned = "mov.b32 %r1, 0;\nret;\n"
    store = {"g": {"k": pinned}}
    want = {"g": {"k": ptx_manifest._sha(pinned)}}
    text = ptx_manifest.report(want, {"g": {"k": pinned.replace("0;", "1;")}}, store)
    assert "g/k: changed" in text
    assert "-mov.b32 %r1, 0;\n+mov.b32 %r1, 1;" in text
    stale = ptx_manifest.report(want, {"g": {"k": "ret;\n"}}, {"g": {"k": "other"}})
    assert "is stale" in stale
