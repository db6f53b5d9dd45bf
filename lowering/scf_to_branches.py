"""`mma-scf-to-branches`: structured control flow (scf.for / scf.if / scf.while) inside llvm.func kernels ->
blocks and `cf.br` / `cf.cond_br`, the form the PTX target prints as labels and `bra` (it takes no scf). It is
the last step of lower-mma-to-ptx (lowering/pipeline.py); the lifecycle checkers (passes/control_flow.py) follow
structured control flow and run before it, in lower-mma-to-nvvm, whose output stays scf (what upstream MLIR and
the checkers read).

The shapes, chosen so that the PTX target prints them as the structured emitter did (the PTX manifest is
byte-identical): the blocks follow each other in source order (the emitter falls through to the next block),
and each block's name hint is the stem of its PTX label:

  scf.for %iv = %lb to %ub step %s iter_args(%c = %init)     cf.br ^for(%lb, %init)
                                                           ^for(%iv, %c):
                                                             %done = arith.cmpi sge, %iv, %ub
                                                             cf.cond_br %done, ^end, ^body
                                                           ^body:
    body; scf.yield %y                                       body; %next = arith.addi %iv, %s
                                                             cf.br ^for(%next, %y)
  (results: the header's %c)                               ^end:

  scf.if %c { then; scf.yield %a } else { else; %b }         cf.cond_br %c, ^then, ^else
                                                           ^then: then; cf.br ^endif(%a)
                                                           ^else: else; cf.br ^endif(%b)
                                                           ^endif(%r): ...

  (an scf.if without else keeps an empty ^else block: `cf.br ^endif`, where the false branch lands)

  scf.while (%a = %init) { before; scf.condition(%c) %x }    cf.br ^while(%init)
            do { ^(%v): after; scf.yield %y }              ^while(%a): before; cf.cond_br %c, ^do, ^endwhile
                                                           ^do: after; cf.br ^while(%y)
                                                           ^endwhile: ...

The loop exit is the taken branch (`sge`, then `@%done bra end`), not MLIR's `slt` into the body; the step is
an `arith.addi` of the induction variable passed straight back to the header, which the emitter adds in
place after the loop-carried copies. scf.while forwards the condition's values: they dominate both the after
block and the exit (their only way in is the condition's branch), so neither needs block arguments.

xDSL 0.74 has `convert-scf-to-cf` (xdsl/transforms/convert_scf_to_cf.py), a translation of MLIR's: it
lowers scf.for and scf.if (and scf.index_switch) but not scf.while, an scf.if without else branches straight
to its continuation and one with results gets an extra block that only branches on, and its loop test is
`slt` into the body, and its greedy driver erases every op without uses on the way (an unused constant the
PTX target prints, a loop without results and side effects): correct IR, but not the program nor the shapes
the PTX target printed before, so it is not used here (the patterns below run with dead-code elimination off).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, llvm, scf
from xdsl.dialects.builtin import ModuleOp, UnknownLoc
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter

from mmatom.dialects.op_walk import nested_ops
from mmatom.passes.typed_patterns import TypedPatternApplier, TypedPatternWalker

STRUCTURED = (scf.ForOp, scf.IfOp, scf.WhileOp)


def _located(op: Operation, source: Operation, construct: Operation | None = None) -> Operation:
    """`op` at `source`'s location, or the construct's where `source` has none (an implicit scf.yield)."""
    op.location = (construct.location if construct is not None and isinstance(source.location, UnknownLoc)
                   else source.location)
    return op


def _terminator(region: Region) -> Operation:
    block = region.last_block
    assert block is not None and block.last_op is not None
    return block.last_op


class ForToBranches(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /) -> None:
        init = op.parent_block()
        assert init is not None
        end = init.split_before(op)
        end.name_hint = "end"
        header = op.body.first_block
        assert header is not None and header.first_op is not None
        header.name_hint = "for"
        body = header.split_before(header.first_op)
        body.name_hint = "body"
        iv = header.args[0]

        latch = _terminator(op.body)
        step = _located(arith.AddiOp(iv, op.step), latch, op)
        rewriter.insert(step, InsertPoint.before(latch))
        rewriter.replace(latch, _located(cf.BranchOp(header, step.result, *latch.operands), latch, op))
        rewriter.inline_region(op.body, BlockInsertPoint.before(end))

        rewriter.insert(_located(cf.BranchOp(header, op.lb, *op.iter_args), op), InsertPoint.at_end(init))
        done = _located(arith.CmpiOp(iv, op.ub, "sge"), op)
        rewriter.insert(done, InsertPoint.at_end(header))
        rewriter.insert(_located(cf.ConditionalBranchOp(done.result, end, (), body, ()), op),
                        InsertPoint.at_end(header))
        rewriter.replace(op, [], list(header.args[1:]))


class IfToBranches(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        head = op.parent_block()
        assert head is not None
        endif = head.split_before(op)
        endif.name_hint = "endif"
        for i, r in enumerate(op.results):
            rewriter.insert_block_argument(endif, i, r.type)

        arms = []
        for region, hint in ((op.true_region, "then"), (op.false_region, "else")):
            if not region.blocks:  # no else: the false branch still lands on a block of its own
                arm = Block([_located(cf.BranchOp(endif), op)])
                arm.name_hint = hint
                Rewriter.insert_block(arm, BlockInsertPoint.before(endif))
                arms.append(arm)
                continue
            first = region.first_block
            assert first is not None
            first.name_hint = hint
            yield_op = _terminator(region)
            rewriter.replace(yield_op, _located(cf.BranchOp(endif, *yield_op.operands), yield_op, op))
            rewriter.inline_region(region, BlockInsertPoint.before(endif))
            arms.append(first)

        rewriter.insert(_located(cf.ConditionalBranchOp(op.cond, arms[0], (), arms[1], ()), op),
                        InsertPoint.at_end(head))
        rewriter.replace(op, [], list(endif.args))


class WhileToBranches(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /) -> None:
        init = op.parent_block()
        assert init is not None
        exit_ = init.split_before(op)
        exit_.name_hint = "endwhile"
        before, after = op.before_region.first_block, op.after_region.first_block
        assert before is not None and after is not None
        before.name_hint, after.name_hint = "while", "do"

        condition = _terminator(op.before_region)
        assert isinstance(condition, scf.ConditionOp)
        forwarded = list(condition.args)
        for arg, value in zip(list(after.args), forwarded):
            rewriter.replace_all_uses_with(arg, value)
        for arg in reversed(after.args):
            rewriter.erase_block_argument(arg)

        yield_op = _terminator(op.after_region)
        rewriter.replace(yield_op, _located(cf.BranchOp(before, *yield_op.operands), yield_op, op))
        rewriter.replace(condition, _located(cf.ConditionalBranchOp(condition.condition, after, (), exit_, ()),
                                             condition, op))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(exit_))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(exit_))
        rewriter.insert(_located(cf.BranchOp(before, *op.arguments), op), InsertPoint.at_end(init))
        rewriter.replace(op, [], forwarded)


def scf_to_branches(func: llvm.FuncOp) -> None:
    """Lower every scf.for / scf.if / scf.while in `func` to blocks and cf branches, in place."""
    patterns = TypedPatternApplier([ForToBranches(), IfToBranches(), WhileToBranches()], {"dce_enabled": False})
    TypedPatternWalker(patterns, apply_recursively=True).rewrite_region(func.body)


def has_structured_control_flow(func: llvm.FuncOp) -> bool:
    return any(isinstance(op, STRUCTURED) for op in func.walk())


@dataclass(frozen=True)
class ScfToBranches(ModulePass):
    """scf.for / scf.if / scf.while in every llvm.func -> blocks + cf.br / cf.cond_br."""

    name = "mma-scf-to-branches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in nested_ops(op) if isinstance(f, llvm.FuncOp)]:
            if has_structured_control_flow(func):
                scf_to_branches(func)


__all__ = ["ScfToBranches", "has_structured_control_flow", "scf_to_branches"]
