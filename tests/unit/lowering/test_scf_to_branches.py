"""mma-scf-to-branches: registered (`mmatom-opt -p mma-scf-to-branches`), leaves no scf op and valid IR, keeps
every op (no dead-code elimination: the PTX target prints unused values too), gives each new op the location of
the construct it came from, and each block the name its PTX label takes."""

from pathlib import Path

import pytest
from xdsl.dialects import cf, llvm, scf
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp

from mmatom.dialects.source import LocatingParser, make_context
from mmatom.lowering.pipeline import LowerMmaToNvvm
from mmatom.lowering.scf_to_branches import ScfToBranches
from mmatom.universe import MMATOM_UNIVERSE

ROOT = Path(__file__).resolve().parents[3]
SOURCES = [ROOT / "tests/filecheck/lowering/scf_to_branches.mlir", ROOT / "examples/m16n8k16_kloop.mlir",
           ROOT / "examples/wgmma_tile_128x128x128_f16.mlir"]


def chunks(path: Path):
    for i, chunk in enumerate(c for c in path.read_text().split("// -----") if "builtin.module" in c):
        yield LocatingParser(make_context(), chunk, f"{path.name}#{i}", 0).parse_module()


def test_the_pass_is_in_the_universe():
    assert MMATOM_UNIVERSE.all_passes["mma-scf-to-branches"]() is ScfToBranches


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_structured_op_is_left_and_nothing_is_dropped(path):
    for module in chunks(path):
        LowerMmaToNvvm().apply(make_context(), module)
        kept = sorted(op.name for op in module.walk() if not op.name.startswith("scf."))
        ScfToBranches().apply(make_context(), module)
        module.verify()
        names = [op.name for op in module.walk()]
        assert not [n for n in names if n.startswith("scf.")]
        # every op but scf's is still there; the new ones are branches and a loop's compare and step
        left = sorted(names)
        for name in kept:
            left.remove(name)
        assert set(left) <= {"cf.br", "cf.cond_br", "arith.cmpi", "arith.addi"}
        unlocated = [op.name for op in module.walk() if not isinstance(op, ModuleOp)
                     and not isinstance(op.location, FileLineColLoc)]
        assert not unlocated


def test_blocks_are_named_for_their_labels_in_source_order():
    module = next(chunks(SOURCES[0]))
    ScfToBranches().apply(make_context(), module)
    func = next(op for op in module.walk() if isinstance(op, llvm.FuncOp))
    assert [b.name_hint for b in func.body.blocks] == [None, "for", "body", "end"]
    header = func.body.blocks[1]
    assert isinstance(header.last_op, cf.ConditionalBranchOp)
    assert header.last_op.then_block is func.body.blocks[3]  # the loop exit is the taken branch


def test_an_unused_loop_is_kept():
    text = """builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%n: i32) attributes {nvvm.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %unused = arith.addi %n, %n : i32
    %r = scf.while (%v = %c0) : (i32) -> i32 {
      %go = arith.cmpi slt, %v, %n : i32
      scf.condition(%go) %v : i32
    } do {
    ^bb0(%w: i32):
      %w2 = arith.addi %w, %c1 : i32
      scf.yield %w2 : i32
    }
    llvm.return
  }
}"""
    module = LocatingParser(make_context(), text, "k.mlir", 0).parse_module()
    ScfToBranches().apply(make_context(), module)
    module.verify()
    names = [op.name for op in module.walk()]
    assert names.count("arith.addi") == 2 and "scf.while" not in names and names.count("cf.br") == 2


def test_functions_without_scf_are_untouched():
    module = next(chunks(ROOT / "examples/m16n8k16_f16_kernel.mlir"))
    LowerMmaToNvvm().apply(make_context(), module)
    assert not any(isinstance(op, scf.ForOp) for op in module.walk())
    before = str(module)
    ScfToBranches().apply(make_context(), module)
    assert str(module) == before
