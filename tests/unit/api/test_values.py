"""Values that behave like numbers: Python's operators on a KernelBuilder's values build arith ops (integers as
unsigned indices, comparisons signed), fold constants, meet at one type, and refuse what has no meaning."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import i64

import mmatom


@pytest.fixture
def kb():
    return mmatom.KernelBuilder("values", [("p", "ptr"), ("n", "i64"), ("x", "f32")], "sm_90a", threads=128)


def op_name(value) -> str:
    return value.ssa.owner.name


def test_integer_operators_build_index_arithmetic(kb):
    t = kb.tid()
    assert [op_name(v) for v in (t + 1, t - 1, t * 3, t // 3, t % 3, t << 2, t >> 2, t & 7, t | 8, t ^ 1)] == [
        "arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.remui", "arith.shli", "arith.shrui",
        "arith.andi", "arith.ori", "arith.xori"]
    assert op_name(5 - t) == "arith.subi" and (5 - t).ssa.owner.lhs.owner.value.value.data == 5  # reflected: 5 - t
    assert op_name(mmatom.min_value(t, 4)) == "arith.minui" and op_name(mmatom.max_value(4, t)) == "arith.maxui"
    assert op_name(mmatom.ceil_div(t, 64)) == "arith.divui" and mmatom.ceil_div(65, 64) == 2


def test_comparisons_are_signed_for_integers_and_ordered_for_floats(kb):
    t, x = kb.tid(), kb.param("x")
    assert [(t < 1).ssa.owner.predicate.value.data, (t >= 1).ssa.owner.predicate.value.data,
            (t == 0).ssa.owner.predicate.value.data] == [2, 5, 0]  # slt, sge, eq
    assert op_name(x > 0.0) == "arith.cmpf" and (x > 0.0).ssa.owner.predicate.value.data == 2  # ogt
    assert op_name(mmatom.select(x > 0.0, x, 0.0)) == "arith.select"


def test_float_operators(kb):
    x = kb.param("x")
    assert [op_name(v) for v in (x + 1.0, x - x, x * 2.0, x / 3.0, -x)] == [
        "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.negf"]
    with pytest.raises(mmatom.CompileError, match=r"operator // is not defined on f32"):
        x // 2


def test_constants_fold_and_identities_vanish(kb):
    six = kb.const(6)
    assert (six * 7).constant == 42 and (six // 4).constant == 1 and (six - 10).constant == -4
    assert (kb.const(-1) // 2).constant == 2**31 - 1  # unsigned: the hardware's divui on 0xffffffff
    t = kb.tid()
    assert t + 0 is t and t * 1 is t and t // 1 is t and 0 + t is t
    assert (t * 0).constant == 0 and (t % 1).constant == 0
    assert (kb.const(2.0) * 3.0).constant == 6.0 and (kb.const(2.0) * 3.0).type == kb.param("x").type


def test_integer_widths_meet_at_the_wider(kb):
    wide = kb.tid() + kb.param("n")
    assert wide.type == i64 and op_name(wide) == "arith.addi"
    assert isinstance(wide.ssa.owner.lhs.owner, arith.ExtUIOp)
    with pytest.raises(mmatom.CompileError, match=r"operands of types i32 and f32; convert one first"):
        kb.tid() + kb.param("x")
    with pytest.raises(mmatom.CompileError, match=r"constant 4294967296 does not fit i32"):
        kb.tid() + 2**32


def test_pointer_plus_bytes_is_a_byte_offset(kb):
    p = kb.param("p")
    assert p + 0 is p
    moved = p + kb.tid() * 16
    assert isinstance(moved.ssa.owner, llvm.GEPOp) and moved.type == p.type
    with pytest.raises(mmatom.CompileError, match=r"only pointer \+ a byte count"):
        p * 2


def test_a_value_has_no_truth_value(kb):
    with pytest.raises(mmatom.CompileError, match=r"no Python truth value; branch on it with `with kb.if_"):
        if kb.tid() == 0:
            pass
    with pytest.raises(mmatom.CompileError, match=r"neither a kernel value nor a Python number"):
        kb.tid() + "1"


def test_the_builder_has_no_integer_methods(kb):
    """One name per thing: integer arithmetic is operators, the hardware units are namespaces."""
    for gone in ("add", "mul", "sub", "div", "rem", "min", "xor", "and_", "cmpi", "offset", "wgmma_fence",
                 "tma_load", "mbarrier_wait", "named_barrier", "cluster_sync", "barrier"):
        assert not hasattr(kb, gone), gone
    assert callable(kb.tma.load) and callable(kb.mbarrier.wait) and callable(kb.sync.named_barrier)


def test_constants_share_attributes_but_keep_their_bits():
    """kb.const's attributes are shared per value and type (values.constant_attr), a float's keyed by its exact bits:
    0.0 and -0.0 stay two constants, while 1 and 1.0 of f32 are one."""
    from xdsl.dialects.builtin import f32, i32

    from mmatom.values import constant_attr

    assert constant_attr(3, i32) is constant_attr(3, i32)
    assert constant_attr(-0.0, f32) != constant_attr(0.0, f32)
    assert constant_attr(1, f32) is constant_attr(1.0, f32)
    assert constant_attr(2**31, i32) == constant_attr(-(2**31), i32)
