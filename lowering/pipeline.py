"""`lower-mma-to-nvvm`: the mma dialect (atoms and the kernel-level fragment ops) -> upstream nvvm.

After it, a kernel is llvm.func + arith + scf + llvm memory ops + nvvm: what upstream MLIR accepts and
what the PTX target (`-t ptx`) prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnrealizedConversionCastOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from mmatom.dialects.mma_types import TARGET_ATTR
from mmatom.dialects.mma import FragmentType, TargetAttr

from .convert import CONVERT_PATTERNS
from .fragments import FRAGMENT_PATTERNS, LoweringError
from .loops import LOOP_PATTERNS, fold_cast_pairs
from .mma_sync import MMA_SYNC_PATTERNS
from .smem_copy import LowerCopyToSmem
from .wgmma import WGMMA_PATTERNS
from .tcgen05 import TCGEN05_PATTERNS
from mmatom.passes.tmem_lifecycle import check_function
from mmatom.passes.wgmma_lifecycle import check_block


@dataclass(frozen=True)
class LowerMmaToNvvm(ModulePass):
    name = "lower-mma-to-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.walk():  # the async protocol is checked on the kernel as written, before lowering
            if isinstance(func, llvm.FuncOp) and func.body.blocks:
                check_block(func.body.block)
                check_function(func.body.block)
        # loops first: they only split fragments into registers through casts, whatever produces them
        PatternRewriteWalker(GreedyRewritePatternApplier([*LOOP_PATTERNS]), apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([*FRAGMENT_PATTERNS, *CONVERT_PATTERNS, *MMA_SYNC_PATTERNS, *WGMMA_PATTERNS,
                                         *TCGEN05_PATTERNS, LowerCopyToSmem()]),
            apply_recursively=False,
        ).rewrite_module(op)
        fold_cast_pairs(op)
        _erase_dead_casts(op)
        _target_as_string(op)
        for inner in op.walk():
            if inner.name.startswith("mma.") and inner.name != "mma.target":
                raise LoweringError(inner, f"{inner.name}: no lowering to nvvm yet for this op")
            for v in inner.results:
                if isinstance(v.type, FragmentType):
                    raise LoweringError(inner, f"{inner.name}: a fragment value is still used after lowering "
                                               f"(a fragment crossing a function boundary or carried by an scf.if/while)")


def _target_as_string(module: ModuleOp) -> None:
    """`mma.target = #mma.target<sm_80>` -> `mma.target = "sm_80"`: upstream MLIR cannot parse our attribute
    (no mma dialect there) but keeps a string; the PTX target reads either."""
    for op in module.walk():
        attr = op.attributes.get(TARGET_ATTR)
        if isinstance(attr, TargetAttr):
            op.attributes[TARGET_ATTR] = StringAttr(attr.chip_name.data)


def _erase_dead_casts(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in list(module.walk()):
            if isinstance(op, UnrealizedConversionCastOp) and not any(r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True
