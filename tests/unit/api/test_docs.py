"""The docs' examples run as written (doctest), so the documentation cannot drift: docs/api.md (the public API),
docs/guide.md (a DSL author's path to a wgmma kernel) and docs/architecture.md (the layers and an atom's path)."""

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[3] / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


# each document with the fewest examples it has today: a block that silently stops running fails the count
@pytest.mark.parametrize("name, at_least", [("api.md", 30), ("guide.md", 30), ("architecture.md", 5)])
def test_every_documented_example_runs(name, at_least, tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    result = doctest.testfile(str(DOCS / name), module_relative=False, optionflags=FLAGS, verbose=False, report=True)
    assert result.attempted >= at_least, f"docs/{name} has {result.attempted} examples; expected {at_least}+"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/{name} failed (output above)"
