"""`convert-mma-to-nvvm`: every mma op -> nvvm + arith + llvm, one rewrite pattern per op.

A lowered fragment is its registers; until every user is lowered it stays visible to them as
`builtin.unrealized_conversion_cast(registers) -> !mma.frag<...>` (the MLIR way across a partial
conversion), which `reconcile-unrealized-casts` removes afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mmatom.passes.typed_patterns import TypedPatternApplier

from .convert import CONVERT_PATTERNS
from .fragments import FRAGMENT_PATTERNS
from .locations import located_walker
from .mma_sync import MMA_SYNC_PATTERNS
from .smem_copy import LowerCopyToSmem
from .tcgen05 import TCGEN05_PATTERNS
from .tma import TMA_PATTERNS
from .wgmma import WGMMA_PATTERNS


@dataclass(frozen=True)
class ConvertMmaToNvvm(ModulePass):
    name = "convert-mma-to-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        located_walker(
            TypedPatternApplier([*FRAGMENT_PATTERNS, *CONVERT_PATTERNS, *MMA_SYNC_PATTERNS, *WGMMA_PATTERNS,
                                         *TCGEN05_PATTERNS, *TMA_PATTERNS, LowerCopyToSmem()]),
            apply_recursively=False,
        ).rewrite_module(op)


__all__ = ["ConvertMmaToNvvm"]
