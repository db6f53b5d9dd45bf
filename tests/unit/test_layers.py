"""The layering of the code: `lint-imports` checks the contracts in pyproject.toml ([tool.importlinter]),
and an AST scan checks that no module imports project code inside a function (a hidden cycle).

Each layer's top-level folder is linked into the package folder (mmatom/dialects -> ../dialects), so
lint-imports reads the tree as it is; the first test keeps those links complete.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mmatom"


def layer_folders() -> list[Path]:
    """The top-level folders that are Python packages: each one a layer of mmatom."""
    return sorted(p.parent for p in ROOT.glob("*/__init__.py") if p.parent != PACKAGE)


def test_every_layer_folder_is_linked_into_the_package():
    wrong = [f"mmatom/{f.name}" for f in layer_folders()
             if not (PACKAGE / f.name).is_symlink() or os.readlink(PACKAGE / f.name) != f"../{f.name}"]
    assert not wrong, "not a symlink to its layer folder (ln -s ../<folder> mmatom/<folder>): " + ", ".join(wrong)


def product_modules() -> list[Path]:
    """Every module of the package, at its real path (the links followed once)."""
    return sorted({p.resolve() for p in PACKAGE.rglob("*.py")})


def test_lint_imports():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    lint = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout, proc.stdout[-3000:]


# optional heavy dependencies may be imported where they are used (each says so in a comment)
OPTIONAL = ("cuda", "torch", "cupy", "matplotlib", "triton")


# the sanctioned lazy imports: `mmatom.gemm` loads the GEMM application on first use (import mmatom does not), and
# the GEMM its torch op (and torch) on the first call inside torch.compile or wanting a gradient; attention likewise,
# and its kernel's module with the first compile
LAZY_ENTRY_POINTS = {("mmatom/__init__.py", "mmatom.kernels"), ("mmatom/kernels/gemm/host.py", ".torch_op"),
                     ("mmatom/kernels/attention/host.py", ".torch_op"), ("mmatom/kernels/attention/host.py", ".kernel")}


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
