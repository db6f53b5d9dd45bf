"""Generated PTX is byte-identical to the committed manifest (tests/manifest/ptx_manifest.json): every
conformance kernel of every family and every example kernel. An intended change is regenerated with
`python tests/manifest/ptx_manifest.py --write`, and the commit says why."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "manifest"))
import ptx_manifest  # noqa: E402

WANT = json.loads(ptx_manifest.MANIFEST.read_text())


@pytest.mark.parametrize("family", ["register", "wgmma", "sm120", "tcgen05"])
def test_conformance_ptx_unchanged(family):
    got = {family: ptx_manifest.conformance_hashes(family)}
    assert ptx_manifest.diff({family: WANT[family]}, got) == []


def test_example_ptx_unchanged():
    got = {"examples": ptx_manifest.example_hashes()}
    assert ptx_manifest.diff({"examples": WANT["examples"]}, got) == []
