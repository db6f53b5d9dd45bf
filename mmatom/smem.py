"""Shared-memory tiles as objects: a tile knows its address and its layout, a staged buffer is N tiles back to back,
indexed by a stage (a Python int or a runtime Value) -- no byte offsets by hand.

    ring_a = kb.smem_tiles(4, tiled.smem_desc_type("A"))   # four 128 x 64 bf16 tiles, 128B-swizzled
    tile = ring_a[stage]                                    # SmemTile: .ptr, .desc_type, .desc()
    half = tile.row_block(rank, 64, half_type)              # rows [64 rank, 64 rank + 64) as a tile of their own
    boxes = kb.smem_tiles((2, 2), 8192)                     # raw 8 KiB boxes: boxes[warpgroup, k % 2], boxes[warpgroup]
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

from mmatom.atoms.catalogue.elements import BITS
from mmatom.dialects.mma_types import SmemDescType
from mmatom.layout import ComposedLayout

from .errors import api_error
from .values import Value

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder


def tile_bytes(desc_type: SmemDescType) -> int:
    """The bytes of a dense SMEM operand tile (its elements x their width)."""
    return desc_type.layout.data.size() * BITS[desc_type.elem.data] // 8


def _row_offset_elements(desc_type: SmemDescType, row: int) -> int:
    """Where row `row` of the tile starts, in elements, before any swizzle (a swizzle permutes within its pattern)."""
    layout = desc_type.layout.data
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    return inner((row, 0))


@dataclass(frozen=True)
class SmemTile:
    """A tile in shared memory: its address (`ptr`, an `!llvm.ptr<3>` Value) and, for an MMA operand, the
    `!mma.smem_desc` type its layout is (`desc_type`; None for a raw buffer of `nbytes`)."""

    kb: KernelBuilder
    ptr: Value
    desc_type: SmemDescType | None
    nbytes: int

    def desc(self) -> Value:
        """The wgmma/tcgen05 matrix descriptor of this tile (mma.make_desc)."""
        if self.desc_type is None:
            raise api_error("SmemTile.desc: a raw SMEM buffer has no layout; allocate it with an smem_desc type")
        return self.kb.make_desc(self.ptr, self.desc_type)

    def row_block(self, index: Value | int, rows: int, block_type: SmemDescType) -> SmemTile:
        """Rows [index * rows, (index + 1) * rows) of this tile as a tile of `block_type` (e.g. the slice of a
        cluster-shared operand one CTA loads); the tile's layout must place those blocks at equal strides."""
        if self.desc_type is None or rows <= 0:
            raise api_error(f"SmemTile.row_block: rows={rows} of {'a raw buffer' if self.desc_type is None else 'a tile'};"
                            f" a positive row count of an operand tile")
        total = self.desc_type.layout.data.shape[0]
        total = prod(total) if isinstance(total, tuple) else total
        stride = _row_offset_elements(self.desc_type, rows)
        if total % rows or any(_row_offset_elements(self.desc_type, i * rows) != i * stride
                               for i in range(total // rows)):
            raise api_error(f"SmemTile.row_block: blocks of {rows} rows of a {total}-row tile "
                            f"({self.desc_type.layout.data}) do not start at equal strides")
        block_bytes = stride * BITS[self.desc_type.elem.data] // 8
        return SmemTile(self.kb, self.ptr + index * block_bytes, block_type, tile_bytes(block_type))


@dataclass(frozen=True)
class SmemTiles:
    """`shape` tiles of one type back to back (row-major over the shape's indices): `tiles[i]` or `tiles[i, j]`."""

    kb: KernelBuilder
    base: Value
    shape: tuple[int, ...]
    desc_type: SmemDescType | None
    tile_bytes: int

    @property
    def nbytes(self) -> int:
        return prod(self.shape) * self.tile_bytes

    def __getitem__(self, index) -> SmemTile | SmemTiles:
        """The tile at `index` (one index per dimension), or, given fewer, the sub-buffer they select."""
        index = index if isinstance(index, tuple) else (index,)
        if not 1 <= len(index) <= len(self.shape):
            raise api_error(f"SmemTiles: {len(index)} indices for a buffer of shape {self.shape}")
        ptr, stride = self.base, self.nbytes
        for i, extent in zip(index, self.shape):
            stride //= extent
            if isinstance(i, int) and not 0 <= i < extent:
                raise api_error(f"SmemTiles: index {i} outside [0, {extent}) of a buffer of shape {self.shape}")
            ptr = ptr + i * stride
        if len(index) < len(self.shape):
            return SmemTiles(self.kb, ptr, self.shape[len(index):], self.desc_type, self.tile_bytes)
        return SmemTile(self.kb, ptr, self.desc_type, self.tile_bytes)


def allocate_tiles(kb: KernelBuilder, shape: int | tuple[int, ...], tile: SmemDescType | int) -> SmemTiles:
    """`shape` SMEM tiles of `tile` (an smem_desc type, or a byte count for raw buffers), 1024-byte aligned."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if not shape or min(shape) < 1:
        raise api_error(f"smem_tiles: shape {shape}; positive extents")
    desc_type, nbytes = (tile, tile_bytes(tile)) if isinstance(tile, SmemDescType) else (None, tile)
    base = kb.smem(prod(shape) * nbytes)
    return SmemTiles(kb, base, shape, desc_type, nbytes)


__all__ = ["SmemTile", "SmemTiles", "allocate_tiles", "tile_bytes"]
