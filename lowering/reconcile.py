"""`mma-reconcile-casts`: removes the `builtin.unrealized_conversion_cast`s that hand a fragment across the
partial conversion (registers -> !mma.frag -> registers) once every user is lowered, with MLIR's
reconcile-unrealized-casts semantics for 1:N casts: a round trip whose ends have the same types folds to
the original values, and a cast nobody uses is erased.

xDSL 0.74's `reconcile-unrealized-casts` handles 1:1 chains only (it asserts that a cast has as many
results as the chain's first cast has inputs, xdsl/transforms/reconcile_unrealized_casts.py:71), and a
fragment is N registers, so the N:1 / 1:N pairs are folded here first; xDSL's pattern then runs on what is
left (1:1 casts from elsewhere), as its pass runs it (no dead-code elimination) but walking only the casts."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPattern

from mmatom.passes.typed_patterns import TypedPatternApplier, TypedPatternWalker

from .locations import located_walker


class FoldRoundTrip(RewritePattern):
    """`%f = cast(%r...) : regs -> frag; %s... = cast(%f) : frag -> regs` -> uses of %s become %r."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1 or not isinstance(producer := op.inputs[0].owner, UnrealizedConversionCastOp):
            return
        if [v.type for v in producer.inputs] != [r.type for r in op.results]:
            return
        rewriter.replace(op, [], list(producer.inputs))


class EraseUnused(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.inputs) != 1:  # 1:1 casts are xDSL's
            if not any(r.uses for r in op.results):
                rewriter.erase(op)


@dataclass(frozen=True)
class ReconcileFragmentCasts(ModulePass):
    name = "mma-reconcile-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        located_walker(TypedPatternApplier([FoldRoundTrip(), EraseUnused()])).rewrite_module(op)
        # xDSL's reconcile_unrealized_casts(op), whose walker would visit every op for the casts' pattern
        TypedPatternWalker(TypedPatternApplier([ReconcileUnrealizedCastsPattern(warn_on_failure=True)],
                                               {"dce_enabled": False})).rewrite_module(op)


__all__ = ["ReconcileFragmentCasts"]
