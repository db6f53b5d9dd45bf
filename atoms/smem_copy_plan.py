"""How a CTA's threads copy a tile from global memory into SMEM in 16-byte chunks: which chunk each
thread moves, checked against both layouts (each chunk contiguous on both sides and 16-byte aligned).
Used by the verifier of mma.copy_to_smem and by its lowering."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mmatom.layout import ComposedLayout, Layout, Swizzle, parse_layout

from .descriptors import SmemOperand
from .limits import LimitError, check_global_tile

CHUNK_BITS = 128


class SmemCopyError(ValueError):
    pass


@dataclass(frozen=True)
class CopyPlan:
    rows: int
    k: int
    bits: int
    contiguous_dim: int  # 1: K (K-major), 0: rows (MN-major)
    per_chunk: int  # elements
    chunks: int
    threads: int
    smem: Layout  # (rows, K) -> element offset, before the swizzle
    swizzle: Swizzle
    gmem: Layout  # (rows, K) -> element offset

    def chunk_origin(self, c: int) -> tuple[int, int]:
        along = (self.k if self.contiguous_dim else self.rows) // self.per_chunk
        first, other = (c % along) * self.per_chunk, c // along
        return (other, first) if self.contiguous_dim else (first, other)


@lru_cache(maxsize=1024)
def plan_copy(op: SmemOperand, smem: Layout | ComposedLayout, gmem_text: str, threads: int) -> CopyPlan:
    """The copy of a tile `op` laid out in SMEM as `smem` from global memory laid out as `gmem_text`, by
    `threads` threads; SmemCopyError says why it cannot be done in 16-byte chunks."""
    gmem = parse_layout(gmem_text)
    inner = smem.layout if isinstance(smem, ComposedLayout) else smem
    sw = smem.swizzle if isinstance(smem, ComposedLayout) else Swizzle(0, 4, 3)
    try:  # addressable before the chunk walk below enumerates it
        check_global_tile(gmem, f"{op.elem_bits}-bit", op.elem_bits, "memory layout")
    except LimitError as err:
        raise SmemCopyError(str(err)) from None
    if gmem.rank() != 2 or (gmem[0].size(), gmem[1].size()) != (op.rows, op.k):
        raise SmemCopyError(f"memory layout {gmem} must have shape ({op.rows}, {op.k}): (rows, K) of the tile")
    if threads <= 0:
        raise SmemCopyError(f"threads={threads} must be positive")
    dim = 1 if op.major == "k" else 0
    per_chunk = CHUNK_BITS // op.elem_bits
    extent = op.k if dim else op.rows
    if extent % per_chunk:
        raise SmemCopyError(f"the tile's {'K' if dim else 'M/N'} extent {extent} is not a whole number of "
                            f"16-byte chunks ({per_chunk} elements)")
    plan = CopyPlan(op.rows, op.k, op.elem_bits, dim, per_chunk, op.rows * op.k // per_chunk, threads, inner, sw,
                    gmem)
    for side, lay in (("SMEM", inner), ("global", gmem)):
        rows_at, cols_at = lay[0].offsets(), lay[1].offsets()
        at = lambda r, c: rows_at[r] + cols_at[c]  # noqa: E731
        for c in range(plan.chunks):
            r, col = plan.chunk_origin(c)
            start = at(r, col)
            along = [at(r + i, col) for i in range(per_chunk)] if dim == 0 else \
                [at(r, col + i) for i in range(per_chunk)]
            if along != list(range(start, start + per_chunk)):
                raise SmemCopyError(
                    f"the {side} layout {lay} is not contiguous along {'K' if dim else 'M/N'} for 16 bytes at "
                    f"(row {r}, k {col}); 16-byte chunks need stride 1 there")
            if start * op.elem_bits % CHUNK_BITS:
                raise SmemCopyError(f"the {side} layout {lay} puts the chunk at (row {r}, k {col}) off a 16-byte "
                                    f"boundary (element {start})")
    return plan


__all__ = ["CHUNK_BITS", "CopyPlan", "SmemCopyError", "plan_copy"]
