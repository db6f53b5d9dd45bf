"""The builder's 16-byte chunks and word arithmetic (kb.load_chunk, kb.store_chunk, kb.int_cast,
mmatom.funnel_shift_right): the ops they build, what the funnel shift computes (simt_eval), the PTX they become
(ptxas takes it), and their diagnostics."""

import numpy as np
import pytest
from xdsl.dialects import arith

import mmatom
from mmatom.dialects import nvvm

from simt_eval import run


def builder(params=(("x", "i32"), ("p", "ptr")), threads=128):
    kb = mmatom.KernelBuilder("k", list(params), "sm_90a", threads=threads)
    return kb, kb.tid()


def test_funnel_shift_right_is_llvm_fshr_for_every_amount():
    kb, tid = builder(threads=1024)
    lo, hi = tid * 0x9E3779B1 + 12345, tid * 0x85EBCA77 + 99  # words that differ per thread
    amount = tid % 64  # past 31 the amount wraps (mod 32)
    y = mmatom.funnel_shift_right(lo, hi, amount)
    assert isinstance(y.ssa.owner, nvvm.FshrOp) and y.type == lo.type
    env = run(kb.block, 1024, {})
    lo_v, hi_v, n = (env[v.ssa].astype(np.int64) & 0xFFFFFFFF for v in (lo, hi, amount))
    expect = [((int(h) << 32 | int(lw)) >> (int(s) % 32)) & 0xFFFFFFFF for lw, h, s in zip(lo_v, hi_v, n)]
    assert np.array_equal(env[y.ssa] & 0xFFFFFFFF, np.array(expect, dtype=np.int64))


def test_funnel_shift_right_needs_i32_values():
    kb, tid = builder((("x", "f32"),))
    with pytest.raises(mmatom.CompileError, match=r"funnel_shift_right: operands of types f32, i32, i32; i32 each"):
        mmatom.funnel_shift_right(kb.param("x"), tid, 8)
    with pytest.raises(mmatom.CompileError, match="no operand is a kernel value"):
        mmatom.funnel_shift_right(1, 2, 3)


def test_int_cast_truncates_and_extends():
    kb, tid = builder((("x", "i64"),))
    x = kb.param("x")
    low = kb.int_cast(x, "i32")
    assert isinstance(low.ssa.owner, arith.TruncIOp) and low.type == tid.type
    assert isinstance(kb.int_cast(tid, "i64").ssa.owner, arith.ExtSIOp)
    assert kb.int_cast(tid, "i16").type.width.data == 16
    assert kb.int_cast(tid, "i32").ssa is tid.ssa  # already i32: no op
    with pytest.raises(mmatom.CompileError, match=r"int_cast: i32 to 'i8'; an integer Value to \"i16\", \"i32\""):
        kb.int_cast(tid, "i8")


def test_store_chunk_takes_four_words():
    kb, tid = builder()
    with pytest.raises(mmatom.CompileError, match="store_chunk: 3 words; a 16-byte chunk is 4 words of 32 bits"):
        kb.store_chunk([tid, tid, tid], kb.param("p"))


@pytest.mark.ptxas
def test_chunks_words_and_funnel_shifts_assemble():
    """A kernel that reads a 16-byte chunk of SMEM, shifts a window of it across words and stores it to global
    memory as one chunk, a word's low half as 16 bits: ptxas takes the vector loads and stores, shf.r.wrap and
    the 16-bit store."""
    kb, tid = builder()
    box = kb.smem(128 * 16, align=16)
    own = kb.load_chunk(box + (tid % 128) * 16)
    window = [mmatom.funnel_shift_right(own[k], own[k + 1], kb.param("x") & 31) for k in range(3)] + [own[3]]
    kb.store_chunk(window, kb.param("p") + kb.int_cast(tid, "i64") * 16)
    kb.store_scalar(kb.int_cast(own[0] >> 16, "i16"), kb.param("p"), tid)
    module, _ = kb.finish()
    kernel = mmatom.compile(module, options={"cache": False})
    ptx = kernel.ptx
    assert "ld.shared.v4.b32" in ptx and "st.global.v4.b32" in ptx and ptx.count("shf.r.wrap.b32") == 3
    assert "st.global.b16" in ptx and kernel.metadata.spill_bytes == 0
