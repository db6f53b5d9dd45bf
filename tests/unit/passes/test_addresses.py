"""passes/addresses.py: two differently built pointers to one slot have one affine form; what the form does not
look through stays a leaf (so a checker compares nothing it cannot prove equal)."""

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, i32
from xdsl.ir import Block

from mmatom.passes.addresses import affine

SHARED = llvm.LLVMPointerType(IntAttr(3))


def _block():
    block = Block(arg_types=[i32, i32])
    return block, block.args


def _add(block, op):
    block.add_op(op)
    return op.results[0]


def _const(block, v):
    return _add(block, arith.ConstantOp(IntegerAttr(v, i32)))


def _gep(block, ptr, index):
    if isinstance(index, int):
        return _add(block, llvm.GEPOp(ptr, [index], pointee_type=IntegerType(8), result_type=SHARED))
    return _add(block, llvm.GEPOp(ptr, [llvm.GEP_USE_SSA_VAL], ssa_indices=[index], pointee_type=IntegerType(8),
                                  result_type=SHARED))


def test_the_same_slot_built_twice_is_one_form():
    block, (it, _) = _block()
    base = _add(block, llvm.AddressOfOp("smem", SHARED))
    bars = _gep(block, base, 81920)
    stage = _add(block, arith.RemUIOp(it, _const(block, 4)))
    # ring.full(stage) as Pipeline builds it: bars + (stage + 0) * 8, and once more as bars + stage * 8 + 0
    first = _gep(block, bars, _add(block, arith.MuliOp(_add(block, arith.AddiOp(stage, _const(block, 0))),
                                                       _const(block, 8))))
    second = _gep(block, _gep(block, bars, _add(block, arith.ShLIOp(stage, _const(block, 3)))), 0)
    assert affine(first) == affine(second)
    form = affine(first)
    assert (form.base, form.const, form.terms) == ("smem", 81920, ((stage, 8),))
    empty = _gep(block, bars, _add(block, arith.MuliOp(_add(block, arith.AddiOp(stage, _const(block, 4))),
                                                       _const(block, 8))))
    assert affine(empty).const == 81952 and affine(empty) != form


def test_what_is_not_looked_through_is_a_leaf():
    block, (it, other) = _block()
    stage = _add(block, arith.RemUIOp(it, _const(block, 4)))
    scaled = _add(block, arith.MuliOp(stage, other))  # a product of two unknowns: not affine
    assert affine(scaled).terms == ((scaled, 1),)
    diff = _add(block, arith.SubiOp(_const(block, 10), it))
    assert (affine(diff).const, affine(diff).terms) == (10, ((it, -1),))
