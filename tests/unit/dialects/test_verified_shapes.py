"""Verification memoized by op shape (dialects/verified_shapes.py): a shape found valid is not verified again, and
nothing the memo skips can hide an error -- invalid shapes are never remembered, context-dependent ops and a block's
last op are verified every time."""

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import ModuleOp

from mmatom.dialects.mma import ExtractOp
from mmatom.dialects.nvvm import ConvertF32x2ToBF16x2Op
from mmatom.dialects.source import LocatingParser, make_context, verify_located
from mmatom.dialects.verified_shapes import _verified_by_shape, known_valid, shape_of

KERNEL = """builtin.module attributes {{mma.target = #mma.target<sm_90a>}} {{
  llvm.func @k(%x: i32) {{
    %c = arith.constant 7 : i32
    %s = arith.addi %x, %c : i32
    %t = arith.addi %s, %c : i32
    {body}
    llvm.return
  }}
}}"""


def _module(body: str = "") -> ModuleOp:
    return LocatingParser(make_context(), KERNEL.format(body=body), "<test>", 0).parse_module()


FRAGMENT = '!mma.frag<C, f32, "((4,8),(2,2)):((2,16),(1,8))">'


def _extract(index: int) -> str:
    return f'%f = "test.op"() : () -> {FRAGMENT}\n    %e = mma.extract %f[{index}] : {FRAGMENT} -> f32'


def test_a_valid_shape_is_remembered_and_an_invalid_one_is_not():
    good = _module(_extract(1))
    assert verify_located(good) == []
    assert all(known_valid(shape_of(op)) for op in good.walk() if isinstance(op, (arith.AddiOp, ExtractOp)))
    bad = _module(_extract(9))  # the class verified above, its index out of the fragment: diagnosed every time
    extract = next(op for op in bad.walk() if isinstance(op, ExtractOp))
    for _ in range(2):
        assert [d.message for d in verify_located(bad)] == [
            f"'mma.extract' op mma.extract: value 9 is out of range; each thread holds values 0..3 of {FRAGMENT}"]
        assert not known_valid(shape_of(extract))


def test_a_block_s_last_op_is_verified_where_it_stands():
    """An arith op whose shape verified mid-block, ending a block that needs a terminator, is still refused."""
    assert verify_located(_module()) == []
    module = _module('"scf.execute_region"() ({\n      %k = arith.addi %x, %c : i32\n    }) : () -> ()')
    last = next(op for op in module.walk() if isinstance(op, arith.AddiOp) and op.parent.last_op is op)
    assert shape_of(last) is None
    assert ["not a terminator" in d.message for d in verify_located(module)] == [True]


def test_ops_that_read_their_context_are_never_memoized():
    """The module's target (a packed convert's chip check), a parent (scf.yield), a region: verified every time."""
    assert not _verified_by_shape(ConvertF32x2ToBF16x2Op)
    assert not _verified_by_shape(scf.YieldOp) and not _verified_by_shape(scf.IfOp)
    assert not _verified_by_shape(llvm.FuncOp) and not _verified_by_shape(ModuleOp)
    assert _verified_by_shape(arith.AddiOp) and _verified_by_shape(arith.ConstantOp) and _verified_by_shape(ExtractOp)
