"""Every op the lowering creates carries the source location of the op it came from, so an error found after
lowering (a later pass, PTX emission, ptxas) points at the user's line instead of 0:0."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp

from mmatom.dialects.source import LocatingParser, make_context
from mmatom.lowering.pipeline import LowerMmaToNvvm

ROOT = Path(__file__).resolve().parents[3]
KERNELS = sorted(ROOT.glob("examples/*.mlir")) + [ROOT / "tests/filecheck/lowering/tcgen05_kernel.mlir",
                                                  ROOT / "tests/filecheck/lowering/sm120_block_scale.mlir"]


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_lowered_ops_keep_the_source_line(path):
    chunks = [c for c in path.read_text().split("// -----") if "builtin.module" in c]
    lines = len(path.read_text().splitlines())
    for chunk in chunks:
        module = LocatingParser(make_context(), chunk, path.name, 0).parse_module()
        LowerMmaToNvvm().apply(make_context(), module)
        ops = [op for op in module.walk() if not isinstance(op, ModuleOp)]
        assert ops
        unlocated = [op.name for op in ops if not isinstance(op.location, FileLineColLoc)]
        assert not unlocated, f"{len(unlocated)} of {len(ops)} lowered ops have no location: {unlocated[:5]}"
        assert all(1 <= op.location.line.data <= lines for op in ops)


def test_an_atom_lowers_to_ops_at_its_own_line():
    path = ROOT / "examples/m16n8k16_f16_kernel.mlir"
    text = path.read_text()
    atom_line = next(i for i, line in enumerate(text.splitlines(), 1) if "mma.sync" in line and "=" in line)
    module = LocatingParser(make_context(), text, path.name, 0).parse_module()
    LowerMmaToNvvm().apply(make_context(), module)
    mma = [op for op in module.walk() if op.name in ("nvvm.mma.sync", "nvvm.inline_ptx")]
    assert mma and all(op.location.line.data == atom_line for op in mma)
