"""Kernels apart from the compiler: `import mmatom` loads no kernel package, `mmatom.gemm` loads the GEMM on first
use, and the GEMM is written on the public API the way a DSL author would write it (no function over 40 lines)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import mmatom

KERNELS = Path(mmatom.__file__).parent / "kernels"


def test_import_mmatom_does_not_import_the_kernels():
    probe = ("import sys, mmatom; assert not [m for m in sys.modules if m.startswith('mmatom.kernels')]; "
             "mmatom.gemm; assert 'mmatom.kernels.gemm' in sys.modules; print('ok')")
    result = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "ok", result.stderr


def test_the_gemm_entry_points_are_the_packages():
    from mmatom.kernels import gemm  # noqa: PLC0415 - the point: loaded on demand

    assert mmatom.gemm is gemm.gemm and mmatom.GemmConfig is gemm.GemmConfig
    assert mmatom.gemm_autotune is gemm.gemm_autotune and mmatom.gemm_kernel is gemm.gemm_kernel


def test_kernel_functions_stay_short():
    long = []
    for path in sorted(KERNELS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 40:
                long.append(f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert not long, long
