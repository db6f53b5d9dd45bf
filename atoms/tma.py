"""What the Tensor Memory Accelerator (sm_90) can move: a 2-d box of a row-major global tensor, and the
bytes it writes in SMEM for each swizzle mode -- so that a box can be checked against the SMEM layout an MMA
descriptor reads (a mismatch is silent on hardware).

A box is ROWS x COLS elements, COLS the contiguous (innermost) dimension. In SMEM, TMA writes box row r at
r * COLS * size, 16-byte chunk c of the row at chunk `c ^ (r mod 8 >> (3 - log2(span/16)))`: CuTe's
Swizzle<3,4,3> (128B), <2,4,3> (64B), <1,4,3> (32B) on byte offsets, so one row must be exactly the swizzle span.
Rules from cuTensorMapEncodeTiled (CUDA driver API): box extents 1..256, COLS * size a multiple of 16 B and at
most the swizzle span; the SMEM destination 128-B aligned, 1024-B aligned for the swizzled modes so the
swizzle phase starts at row 0 (and the wgmma descriptor's base offset is 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mmatom.layout import ComposedLayout, Layout, Swizzle

from .descriptors import SWIZZLE_BYTES

BOX_MAX = 256
CHUNK_BYTES = 16
MAP_BYTES = 128  # a CUtensorMap, passed by value (.param .align 64 .b8 map[128])
TMA_SWIZZLES = ("none", "32b", "64b", "128b")
SWIZZLE_ALIGN = 1024

# cp.reduce.async.bulk.tensor (PTX ISA 8.0, sm_90): a TMA store that reduces the box into global memory, each
# reduction with the element types PTX's table admits for it, in mmatom's element words (PTX also lists .u32, .u64,
# .s64 and .b64, which no mmatom tensor map holds; .inc and .dec take .u32 only)
TMA_REDUCTIONS = {"add": ("s32", "f32", "f16", "bf16"), "min": ("s32", "f16", "bf16"), "max": ("s32", "f16", "bf16"),
                  "inc": (), "dec": (), "and": ("b32",), "or": ("b32",), "xor": ("b32",)}
PTX_ONLY_REDUCE_TYPES = {"add": "u32, u64", "min": "u32, u64, s64", "max": "u32, u64, s64", "inc": "u32",
                         "dec": "u32", "and": "b64", "or": "b64", "xor": "b64"}


def reduce_type_error(reduction: str, elem: str) -> str | None:
    """Why a TMA reduce-store `reduction` cannot reduce `elem` elements (None if it can)."""
    legal = TMA_REDUCTIONS[reduction]
    if elem in legal:
        return None
    takes = ", ".join(legal) if legal else "no element type a tensor map here holds"
    return (f"cp.reduce.async.bulk.tensor .{reduction} does not reduce {elem} elements; it takes {takes} "
            f"(and PTX's {PTX_ONLY_REDUCE_TYPES[reduction]})")


class TmaError(ValueError):
    pass


@dataclass(frozen=True)
class TmaBox:
    elem_bits: int
    rows: int
    cols: int
    swizzle: str  # "none", "32b", "64b", "128b" (descriptors.SWIZZLE_BYTES keys)

    @property
    def row_bytes(self) -> int:
        return self.cols * self.elem_bits // 8

    @property
    def bytes(self) -> int:
        return self.rows * self.row_bytes

    @property
    def smem_align(self) -> int:
        return SWIZZLE_ALIGN if self.swizzle != "none" else 128

    def check(self) -> None:
        """TmaError naming the first rule of cuTensorMapEncodeTiled the box breaks."""
        if self.swizzle not in TMA_SWIZZLES:
            raise TmaError(f"swizzle '{self.swizzle}' is not a TMA swizzle; one of {', '.join(TMA_SWIZZLES)}")
        for what, n in (("rows", self.rows), ("columns", self.cols)):
            if not 1 <= n <= BOX_MAX:
                raise TmaError(f"a box has 1 to {BOX_MAX} {what}; got {n}")
        if self.elem_bits * self.cols % (8 * CHUNK_BYTES):
            raise TmaError(f"a box row is a multiple of {CHUNK_BYTES} bytes; {self.cols} x {self.elem_bits}-bit "
                           f"elements is {self.elem_bits * self.cols / 8:g} bytes")
        span = SWIZZLE_BYTES[self.swizzle]
        if span and self.row_bytes != span:
            raise TmaError(f"with the {self.swizzle} swizzle a box row is exactly {span} bytes (the swizzle span: "
                           f"{span * 8 // self.elem_bits} {self.elem_bits}-bit elements); got {self.row_bytes}")

    def swizzle_fn(self) -> Swizzle:
        span = SWIZZLE_BYTES[self.swizzle]
        return Swizzle({0: 0, 32: 1, 64: 2, 128: 3}[span], 4, 3)

    def byte_offset(self, row: int, col: int) -> int:
        """Where TMA puts element (row, col) of the box, in bytes from the box's (aligned) SMEM start."""
        return self.swizzle_fn()(row * self.row_bytes + col * self.elem_bits // 8)


@lru_cache(maxsize=256)
def check_smem_layout(box: TmaBox, swizzle: str, layout: Layout | ComposedLayout, rows: int, cols: int,
                      transposed: bool = False) -> None:
    """TmaError unless an SMEM tile of `rows` x `cols` (rows <= box rows, cols == box cols) described by
    `layout` ((row, col) -> element offset, then `swizzle` on bytes; mma.smem_desc's form) reads exactly the bytes
    the box was written to, element by element. `transposed`: the layout is (col, row) -> offset -- an MN-major
    operand tile, whose box rows run along the tile's K and box columns along its M or N."""
    if swizzle != box.swizzle:
        raise TmaError(f"the tensor map swizzles {box.swizzle}, the SMEM tile {swizzle}")
    if cols != box.cols or not 0 < rows <= box.rows or box.rows % rows:
        raise TmaError(f"the SMEM tile is {rows}x{cols}; a box of {box.rows}x{box.cols} holds whole tiles of "
                       f"{box.cols} columns and a divisor of {box.rows} rows")
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    sw = layout.swizzle if isinstance(layout, ComposedLayout) else Swizzle(0, 4, 3)
    offset = layout.offset if isinstance(layout, ComposedLayout) else 0
    size = box.elem_bits // 8 if box.elem_bits >= 8 else None
    if size is None:
        raise TmaError(f"{box.elem_bits}-bit elements are not moved by this TMA path")
    # every element at once (a 128x128 fp8 box is 16384 of them: a compile's hot spot element by element)
    row_mode, col_mode = (inner[1], inner[0]) if transposed else (inner[0], inner[1])
    rows_at = np.asarray(row_mode.offsets()[:rows], dtype=np.int64)[:, None]
    cols_at = np.asarray(col_mode.offsets()[:cols], dtype=np.int64)[None, :]
    smem = sw.apply((offset + rows_at + cols_at) * size)
    tma = box.swizzle_fn().apply(np.arange(rows, dtype=np.int64)[:, None] * box.row_bytes
                                 + np.arange(cols, dtype=np.int64)[None, :] * size)
    wrong = np.argwhere(smem != tma)
    if len(wrong):
        r, c = (int(i) for i in wrong[0])
        raise TmaError(f"element (row {r}, col {c}) is at byte {box.byte_offset(r, c)} of the TMA box but the SMEM "
                       f"layout {layout} reads it at byte {int(smem[r, c])}")


__all__ = ["BOX_MAX", "MAP_BYTES", "SWIZZLE_ALIGN", "TMA_SWIZZLES", "TmaBox", "TmaError", "check_smem_layout"]
