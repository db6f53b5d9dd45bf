"""Warp-level data exchange: `kb.shfl`, register values moved between the lanes of a warp (PTX shfl.sync).

    kb.shfl.bfly(x, 1)        # lane ^ 1's x              shfl.sync.bfly.b32
    kb.shfl.idx(x, 0)         # lane 0's x (a broadcast)  shfl.sync.idx.b32
    kb.shfl.down(x, 4)        # lane + 4's x              shfl.sync.down.b32 (a lane past 31 keeps its own)
    kb.shfl.up(x, 4)          # lane - 4's x              shfl.sync.up.b32   (a lane below 0 keeps its own)

Each is upstream's `nvvm.shfl.sync <kind> %member_mask, %x, %offset, %mask_and_clamp : f32 -> f32` on an i32 or f32
Value; `member_mask` (default: the whole warp) names the lanes that take part, each of which must execute it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mmatom.dialects.nvvm_warp import SHFL_CLAMP, ShflOp

from .errors import api_error
from .values import Value

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder

FULL_WARP = 0xFFFFFFFF


class Shfl:
    """shfl.sync: each lane reads `x` from another lane of its warp (see the module docstring)."""

    def __init__(self, kb: KernelBuilder):
        self.kb = kb

    def _shfl(self, kind: str, x, offset, member_mask: int | Value) -> Value:
        kb = self.kb
        value = kb.ssa(x)
        if isinstance(offset, int) and not 0 <= offset < 32:
            raise api_error(f"shfl.{kind}: lane offset {offset} is not in [0, 32)")
        if isinstance(member_mask, int) and not 0 <= member_mask <= FULL_WARP:
            raise api_error(f"shfl.{kind}: member mask {member_mask:#x} is not a 32-bit lane mask")
        mask = kb.ssa(member_mask - (1 << 32) if isinstance(member_mask, int) and member_mask >> 31 else member_mask)
        op = ShflOp(kind, mask, value, kb.ssa(offset), kb.ssa(SHFL_CLAMP[kind]))
        return kb.wrap(kb.builder.insert(op).res)

    def bfly(self, x, lane_mask, member_mask: int | Value = FULL_WARP) -> Value:
        """The x of lane `lane ^ lane_mask` (a butterfly: the step of a warp reduction)."""
        return self._shfl("bfly", x, lane_mask, member_mask)

    def idx(self, x, lane, member_mask: int | Value = FULL_WARP) -> Value:
        """The x of lane `lane` (a broadcast when every lane names the same one)."""
        return self._shfl("idx", x, lane, member_mask)

    def down(self, x, delta, member_mask: int | Value = FULL_WARP) -> Value:
        """The x of lane `lane + delta`; lanes past the warp's end keep their own x."""
        return self._shfl("down", x, delta, member_mask)

    def up(self, x, delta, member_mask: int | Value = FULL_WARP) -> Value:
        """The x of lane `lane - delta`; lanes below 0 keep their own x."""
        return self._shfl("up", x, delta, member_mask)


__all__ = ["FULL_WARP", "Shfl"]
