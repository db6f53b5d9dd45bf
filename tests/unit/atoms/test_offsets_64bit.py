"""Offsets that cannot wrap: a kernel whose tile sits past 2^31 bytes (an i64 offset operand, or a layout whose
largest byte offset reaches 2^31) gets 64-bit address arithmetic, and its PTX assembles; a tile that fits keeps
32-bit arithmetic (one widening per access). CPU only: ptxas, no GPU."""

import pytest

import mmatom
from mmatom.targets import ptxas

FRAG = '!mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">'


def _kernel(layout: str, offset_type: str | None) -> str:
    arg = f", %off: {offset_type}" if offset_type else ""
    at = "[%off] " if offset_type else ""
    ty = f", {offset_type}" if offset_type else ""
    return f"""
builtin.module attributes {{mma.target = #mma.target<sm_80>}} {{
  llvm.func @tile(%p: !llvm.ptr<1>{arg}) attributes {{nvvm.kernel}} {{
    %c = mma.load_fragment %p {at}layout("{layout}") : !llvm.ptr<1>{ty} -> {FRAG}
    mma.store_fragment %c, %p {at}layout("{layout}") : {FRAG}, !llvm.ptr<1>{ty}
    llvm.return
  }}
}}
"""


def _widenings(ptx: str) -> int:
    return ptx.count("cvt.u64.u32")


@pytest.mark.parametrize("layout, offset_type", [("(16,8):(8,1)", "i64"), ("(16,8):(268435456,1)", None),
                                                 ("(16,8):(268435456,1)", "i32")])
def test_far_tiles_get_64bit_offsets_that_ptxas_accepts(layout, offset_type):
    ptx = mmatom.compile(_kernel(layout, offset_type)).ptx
    # the thread index (and an i32 offset) is widened once per fragment op; every offset after it is 64-bit
    assert _widenings(ptx) == (4 if offset_type == "i32" else 2), ptx
    assert ptxas.assemble(ptx, "sm_80").ok


def test_near_tiles_keep_32bit_offsets():
    ptx = mmatom.compile(_kernel("(16,8):(8,1)", "i32")).ptx
    assert _widenings(ptx) == 8  # one per access: 4 loads, 4 stores
    assert ptxas.assemble(ptx, "sm_80").ok


def test_copy_to_smem_with_an_i64_offset_assembles():
    text = """
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @copy(%g: !llvm.ptr<1>, %off: i64) attributes {nvvm.kernel} {
    %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
    mma.copy_to_smem %g [%off] layout("(64,16):(16,1)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>, i64
    llvm.return
  }
}
"""
    ptx = mmatom.compile(text).ptx
    assert "ld.param.u64" in ptx and "add.s64" in ptx
    assert ptxas.assemble(ptx, "sm_90a").ok
