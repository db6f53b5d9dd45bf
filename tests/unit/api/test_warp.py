"""kb.shfl (mmatom/warp.py), kb.ex2, kb.rcp and float max/min: the ops they build, what those compute over a warp
(simt_eval, PTX's shfl.sync rules), their diagnostics, and that ptxas takes the example kernel."""

import os
import sys

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import f32, i64

import mmatom
from mmatom.compiler import lower_for_ptx
from mmatom.targets.ptx_emitter import emit_ptx
from mmatom.dialects.nvvm_warp import Ex2Op, RcpApproxFtzF32Op, ShflOp

from simt_eval import run

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))


def builder(threads=64):
    kb = mmatom.KernelBuilder("k", [("x", "f32"), ("i", "i32")], "sm_90a", threads=threads)
    return kb, kb.tid()


def lanes(kind: str, offset: int, threads: int = 64) -> np.ndarray:
    """The source lane of each thread under PTX's shfl.sync rules (whole-warp clamp)."""
    t = np.arange(threads)
    lane, base = t % 32, t - t % 32
    src = {"bfly": lane ^ offset, "idx": np.full(threads, offset), "down": np.where(lane + offset < 32, lane + offset,
           lane), "up": np.where(lane - offset >= 0, lane - offset, lane)}[kind]
    return base + src


@pytest.mark.parametrize("kind, offset", [("bfly", 1), ("bfly", 16), ("idx", 7), ("down", 3), ("up", 5)])
@pytest.mark.parametrize("as_float", [True, False])
def test_each_kind_reads_the_lane_ptx_names(kind, offset, as_float):
    kb, tid = builder()
    x = tid * 3 + 1
    x = kb.wrap(kb.builder.insert(arith.UIToFPOp(x.ssa, f32)).result) if as_float else x
    y = getattr(kb.shfl, kind)(x, offset)
    op = y.ssa.owner
    assert isinstance(op, ShflOp) and op.kind.data.value == kind and y.type == x.type
    env = run(kb.block, 64, {})
    assert np.array_equal(env[y.ssa], env[x.ssa][lanes(kind, offset)])


def test_a_lane_given_at_run_time_and_the_member_mask():
    kb, tid = builder(32)
    y = kb.shfl.idx(tid * 2, (tid + 1) % 32, member_mask=0x0000FFFF)
    mask, _, offset, clamp = y.ssa.owner.operands
    assert mask.owner.value.value.data == 0xFFFF and clamp.owner.value.value.data == 31
    assert not isinstance(offset.owner, arith.ConstantOp)
    assert kb.shfl.bfly(tid, 1).ssa.owner.operands[0].owner.value.value.data == -1  # the whole warp, as i32


def test_ex2_rcp_and_float_max():
    kb, _ = builder()
    x = kb.param("x")
    e, e_keep, r = kb.ex2(x), kb.ex2(x, ftz=False), kb.rcp(x)
    assert isinstance(e.ssa.owner, Ex2Op) and e.ssa.owner.flushes and not e_keep.ssa.owner.flushes
    assert isinstance(r.ssa.owner, RcpApproxFtzF32Op)
    assert mmatom.max_value(x, e).ssa.owner.name == "arith.maxnumf"
    assert mmatom.min_value(x, 0.5).ssa.owner.name == "arith.minnumf"
    assert kb.ex2(2.0).type == x.type  # a Python number is an f32 constant
    assert not hasattr(kb, "exp2")  # one name per thing: ex2
    assert kb.lg2(x).ssa.owner.name == "math.log2"


def test_ex2_fma_is_2_to_the_x_on_fma_and_integer_instructions():
    kb, tid = builder(threads=1024)
    x = (kb.wrap(kb.builder.insert(arith.UIToFPOp(tid.ssa, f32)).result) - 875.0) * 0.2446  # -214 .. 36.4
    y = kb.ex2_fma(x)
    env = run(kb.block, 1024, {})
    xs, ys = env[x.ssa].astype(np.float64), env[y.ssa].astype(np.float64)
    normal = xs >= -125
    assert np.abs(ys[normal] / np.exp2(xs[normal]) - 1).max() < 8e-5  # below bf16's rounding (2^-9)
    assert np.all((ys[~normal] > 0) & (ys[~normal] < 2.0 ** -124))  # clamped: ~2^-125, not 0
    ops = {op.name for op in kb.block.ops}
    assert "nvvm.ex2" not in ops and {"math.fma", "arith.bitcast", "arith.shli"} <= ops


def test_bitcast_keeps_the_bits():
    kb, tid = builder()
    bits = kb.bitcast(kb.const(1.5), "i32")
    back = kb.bitcast(bits + 1, f32)
    env = run(kb.block, 64, {})
    assert env[bits.ssa][0] == 0x3FC00000 and env[back.ssa][0] == np.array([0x3FC00001], np.int32).view(np.float32)


def test_a_16_bit_element_loads_as_a_16_bit_global_load():
    """load_scalar of "bf16" / "f16": one 2-byte load at ptr + 2 x index (an operand's element at any alignment)."""
    kb = mmatom.KernelBuilder("k", [("x", "ptr"), ("out", "ptr")], "sm_90a")
    for name in ("bf16", "f16"):
        kb.load_scalar(kb.param("x"), name, kb.tid())
    kb.store_scalar(kb.tid(), kb.param("out"))
    module, _ = kb.finish()
    ptx = emit_ptx(lower_for_ptx(module))
    assert ptx.count("ld.global.b16") + ptx.count("ld.b16") + ptx.count("ld.global.u16") >= 2, ptx


def test_lg2_prints_the_approximate_ptx_instruction():
    kb = mmatom.KernelBuilder("k", [("x", "f32"), ("out", "ptr")], "sm_90a")
    kb.store_scalar(kb.lg2(kb.param("x")), kb.param("out"))
    module, _ = kb.finish()
    assert "lg2.approx.ftz.f32" in emit_ptx(lower_for_ptx(module))


@pytest.mark.parametrize("call, message", [
    (lambda kb: kb.shfl.bfly(kb.tid(), 32), r"shfl.bfly: lane offset 32 is not in \[0, 32\)"),
    (lambda kb: kb.shfl.idx(kb.tid(), 0, member_mask=1 << 32), r"shfl.idx: member mask 0x100000000 is not a 32-bit "
                                                               r"lane mask"),
    (lambda kb: kb.shfl.down(kb.const(1, i64), 1),
     r"nvvm.shfl.sync: value type i64 is not legal; shfl.sync moves i32 or f32"),
    (lambda kb: kb.ex2(kb.tid()), r"ex2: operand of type i32; it takes f32 \(convert it first\)"),
    (lambda kb: kb.rcp(kb.param("i")), r"rcp: operand of type i32; it takes f32"),
    (lambda kb: kb.lg2(kb.tid()), r"lg2: operand of type i32; it takes f32"),
    (lambda kb: kb.ex2_fma(kb.tid()), r"ex2_fma: operand of type i32; it takes f32"),
    (lambda kb: kb.bitcast(kb.tid(), i64), r"bitcast: i32 to i64; a type of the same width"),
    (lambda kb: kb.load_scalar(kb.param("x"), "e4m3"),
     r"load_scalar: element type 'e4m3'; one of f32, i32, bf16, f16, or an xDSL type with a bit width"),
])
def test_diagnostics_name_the_op_and_the_legal_set(call, message):
    kb, _ = builder()
    with pytest.raises(mmatom.CompileError, match=message):
        call(kb)
        kb.finish()


@pytest.mark.ptxas
def test_the_shuffle_example_assembles():
    from fragment_rows import SHUFFLES, shuffles
    module, launch = shuffles()
    ptx = mmatom.compile(module, options={"cache": False}).ptx
    for kind in ("bfly", "idx", "down", "up"):
        assert f"shfl.sync.{kind}.b32" in ptx
    assert ptx.count("shfl.sync.") == 2 * len(SHUFFLES) and launch.block == (128, 1, 1)
