"""The layering of the code: `lint-imports` checks the contracts in pyproject.toml ([tool.importlinter]),
and an AST scan checks that no module imports project code inside a function (a hidden cycle).

pyproject maps the top-level folders into the one package `mmatom` (`mmatom.dialects` = `dialects/`,
...), which grimp, the graph builder under import-linter, cannot follow: it walks the package's own
folder. So the test lays the package out as Python sees it (a copy under a temporary folder) and runs
lint-imports against that copy, with the repository's contracts.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def package_folders() -> dict[str, Path]:
    """mmatom.<sub> -> its folder, from pyproject's package-dir (subpackages of mapped folders included)."""
    mapping = PYPROJECT["tool"]["setuptools"]["package-dir"]
    out = {}
    for pkg in PYPROJECT["tool"]["setuptools"]["packages"]:
        base = max((k for k in mapping if pkg == k or pkg.startswith(k + ".")), key=len)
        rest = pkg[len(base):].lstrip(".")
        out[pkg] = ROOT / mapping[base] / Path(*rest.split(".")) if rest else ROOT / mapping[base]
    return out


def product_modules() -> list[Path]:
    return sorted(p for folder in package_folders().values() for p in folder.glob("*.py"))


def test_lint_imports(tmp_path):
    for pkg, folder in package_folders().items():
        dest = tmp_path.joinpath(*pkg.split("."))
        dest.mkdir(parents=True, exist_ok=True)
        for f in folder.glob("*.py"):
            shutil.copy(f, dest / f.name)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    lint = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout, proc.stdout[-3000:]


# optional heavy dependencies may be imported where they are used (each says so in a comment)
OPTIONAL = ("cuda", "torch", "cupy", "matplotlib", "triton")


# the one sanctioned lazy import: `mmatom.gemm` loads the GEMM application on first use (import mmatom does not)
LAZY_ENTRY_POINTS = {("mmatom/__init__.py", "mmatom.kernels")}


def test_no_function_local_project_imports():
    found = []
    for path in product_modules():
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom):
                    name = "." * node.level + (node.module or "")
                elif isinstance(node, ast.Import):
                    name = node.names[0].name
                else:
                    continue
                if (str(path.relative_to(ROOT)), name) in LAZY_ENTRY_POINTS:
                    continue
                if name.startswith(".") or name.split(".")[0] == "mmatom" or name == "importlib":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
                elif name.split(".")[0] not in OPTIONAL:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name} (not an optional dependency)")
    assert not found, "function-local imports:\n" + "\n".join(found)
