"""docs/api.md's examples run as written (doctest), so the public API's documentation cannot drift."""

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "api.md"


def test_every_documented_example_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                              verbose=False, report=True)
    assert result.attempted > 30
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/api.md failed (output above)"
