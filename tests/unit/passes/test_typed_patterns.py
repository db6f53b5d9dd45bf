"""TypedPatternApplier: each op meets only the patterns written for its type (passes/typed_patterns.py) -- every
pattern the lowering ships has a type it reads, and a pattern it cannot read is still tried on every op."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

from mmatom.lowering import convert_mma_to_nvvm as convert
from mmatom.lowering import fragment_boundaries, reconcile, scf_to_branches
from mmatom.passes import strength_reduce
from mmatom.passes.typed_patterns import TypedPatternApplier, TypedPatternWalker, op_types

SHIPPED = [*convert.FRAGMENT_PATTERNS, *convert.CONVERT_PATTERNS, *convert.MMA_SYNC_PATTERNS, *convert.WGMMA_PATTERNS,
           *convert.TCGEN05_PATTERNS, *convert.TMA_PATTERNS, convert.LowerCopyToSmem(),
           *fragment_boundaries.BOUNDARY_PATTERNS, reconcile.FoldRoundTrip(), reconcile.EraseUnused(),
           scf_to_branches.ForToBranches(), scf_to_branches.IfToBranches(), scf_to_branches.WhileToBranches(),
           strength_reduce.UnsignedByConstant()]


def test_every_shipped_pattern_has_a_type_the_applier_reads():
    unread = [type(p).__name__ for p in SHIPPED if op_types(p) is None]
    assert not unread, f"patterns tried on every op: {unread}"
    assert op_types(strength_reduce.UnsignedByConstant()) == (arith.DivUIOp, arith.RemUIOp)  # a Union


class Seen(RewritePattern):
    """No op type declared: tried on every op."""

    def __init__(self):
        self.names = []

    def match_and_rewrite(self, op, rewriter: PatternRewriter) -> None:
        self.names.append(op.name)


class AddToSub(RewritePattern):
    def __init__(self):
        self.calls = 0

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        self.calls += 1
        rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


def test_typed_patterns_meet_their_ops_and_untyped_ones_every_op():
    a, b = arith.ConstantOp(IntegerAttr(3, i32)), arith.ConstantOp(IntegerAttr(4, i32))
    add = arith.AddiOp(a, b)
    mul = arith.MuliOp(add, add)
    module = ModuleOp([a, b, add, mul])
    seen, to_sub = Seen(), AddToSub()
    assert op_types(seen) is None and op_types(to_sub) == (arith.AddiOp,)
    PatternRewriteWalker(TypedPatternApplier([to_sub, seen], {"dce_enabled": False}),
                         apply_recursively=False).rewrite_module(module)
    assert to_sub.calls == 1  # the add only, not the constants or the mul
    assert [op.name for op in module.ops] == ["arith.constant", "arith.constant", "arith.subi", "arith.muli"]
    # the untyped pattern met every op the typed one did not rewrite first (the pattern listed before it): the
    # constants and the mul
    assert sorted(seen.names) == ["arith.constant", "arith.constant", "arith.muli"]


def test_the_typed_walker_queues_only_ops_a_pattern_acts_on():
    """With dead-code elimination and folding off, only the typed patterns' ops enter the worklist (the rewrite is
    the same); with either on, or a pattern of unknown type, every op does."""
    assert TypedPatternApplier([AddToSub()]).acting_on() is None  # xDSL's dead-code elimination visits every op
    assert TypedPatternApplier([AddToSub(), Seen()], {"dce_enabled": False}).acting_on() is None
    applier = TypedPatternApplier([AddToSub()], {"dce_enabled": False})
    assert applier.acting_on() == (arith.AddiOp,)
    a = arith.ConstantOp(IntegerAttr(3, i32))
    module = ModuleOp([a, add := arith.AddiOp(a, a), arith.MuliOp(add, add), arith.AddiOp(a, a)])
    walker = TypedPatternWalker(applier, apply_recursively=True)
    walker._populate_worklist(module.body)
    queued = []
    while walker._worklist:
        queued.append(walker._worklist.pop().name)
    assert queued == ["arith.addi", "arith.addi"]
    walker.rewrite_module(module)
    assert [op.name for op in module.ops] == ["arith.constant", "arith.subi", "arith.muli", "arith.subi"]


def test_with_dead_code_elimination_the_walker_passes_over_only_idle_ops():
    """An op is idle -- passed over when its turn comes -- only where a visit would do nothing: no pattern for its
    type and a result in use. An op whose last use goes away before its turn is visited, and erased, as xDSL's
    walker would."""
    applier = TypedPatternApplier([AddToSub()])
    a, b = arith.ConstantOp(IntegerAttr(3, i32)), arith.ConstantOp(IntegerAttr(4, i32))
    add, unused = arith.AddiOp(a, b), arith.MuliOp(a, a)
    ModuleOp([a, b, add, unused])
    assert applier.idle(a) and not applier.idle(add) and not applier.idle(unused)
    assert not TypedPatternApplier([AddToSub()], {"folding_enabled": True}).idle(a)
    assert not TypedPatternApplier([Seen()]).idle(a)

    def module_with_dead_chain():
        c = arith.ConstantOp(IntegerAttr(3, i32))
        mul = arith.MuliOp(c, c)
        return ModuleOp([c, mul, arith.MuliOp(mul, mul), arith.AddiOp(c, c)])

    ours, theirs = module_with_dead_chain(), module_with_dead_chain()
    TypedPatternWalker(TypedPatternApplier([AddToSub()])).rewrite_module(ours)
    PatternRewriteWalker(TypedPatternApplier([AddToSub()])).rewrite_module(theirs)
    assert [op.name for op in ours.ops] == [op.name for op in theirs.ops] == []
