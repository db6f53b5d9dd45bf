"""The lit + FileCheck suite under tests/filecheck, one pytest case per lit file.

lit runs once for all the files a session selects (its workers run them in parallel, as `lit tests/filecheck`
does); each case then reports its own file's result and, on failure, lit's output for that file. Selecting one
case (`pytest "tests/test_lit.py::test_lit_file[dialects/roundtrip.mlir]"`) runs lit on that file alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).parent / "filecheck"
SUFFIXES = (".mlir", ".test")  # lit.cfg.py's config.suffixes
LIT_FILES = sorted(p.relative_to(LIT_DIR).as_posix() for p in LIT_DIR.rglob("*")
                   if p.suffix in SUFFIXES and "Output" not in p.parts)


def _selected_files(session: pytest.Session) -> list[str]:
    return sorted({item.callspec.params["lit_file"] for item in session.items
                   if getattr(item, "callspec", None) and "lit_file" in item.callspec.params})


def _results(xunit: Path) -> dict[str, str | None]:
    """lit's xunit report -> lit file (as in LIT_FILES) -> None if it passed, else its failure text."""
    out = {}
    for case in ET.parse(xunit).iter("testcase"):
        folder = case.get("classname").split(".", 1)[1].replace(".", "/")  # "mmatom.dialects" -> "dialects"
        failure = case.find("failure")
        out[f"{folder}/{case.get('name')}"] = None if failure is None else (failure.text or "failed")
    return out


@pytest.fixture(scope="session")
def lit_results(request, tmp_path_factory) -> dict[str, str | None]:
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=str(bin_dir) + os.pathsep + os.environ.get("PATH", ""))
    xunit = tmp_path_factory.mktemp("lit") / "lit.xml"
    files = [str(LIT_DIR / f) for f in _selected_files(request.session)]
    proc = subprocess.run([str(bin_dir / "lit"), "-q", f"--xunit-xml-output={xunit}", *files],
                          capture_output=True, text=True, env=env)
    assert xunit.exists(), f"lit wrote no report:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return _results(xunit)


@pytest.mark.parametrize("lit_file", LIT_FILES)
def test_lit_file(lit_file, lit_results):
    assert lit_file in lit_results, f"lit did not run {lit_file}"
    failure = lit_results[lit_file]
    if failure is not None:
        pytest.fail(f"lit {lit_file} failed:\n{failure[-8000:]}", pytrace=False)
