"""`mma-fragments-to-registers`: a fragment that crosses a region or function boundary becomes its registers.

Fragments are SSA values of `!mma.frag` type until convert-mma-to-nvvm gives each its registers
(`registers.py`). Where a fragment is a block argument or a region/function result, the boundary carries
the registers instead: function signatures (`func.func`, `func.call`, `func.return`), `scf.for` iter_args
and `scf.if` results. The rewrite runs before the op lowerings and does not need them: on each side of the
boundary the fragment is split into registers by a cast `!mma.frag -> (regs)` and rebuilt by a cast
`(regs) -> !mma.frag` for the ops still to be lowered; once those are lowered, each round trip folds away
(mma-reconcile-casts). (A kernel's parameters come from the host: llvm.func already rejects fragments there.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import FunctionType, ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mmatom.passes.typed_patterns import TypedPatternApplier

from mmatom.dialects.mma import FragmentType

from .locations import located_walker
from .registers import register_count, register_type


def register_types(frag: FragmentType) -> list:
    return [register_type(frag.elem.data)] * register_count(frag)


def _expanded(types) -> list:
    return [r for t in types for r in (register_types(t) if isinstance(t, FragmentType) else [t])]


def _split_all(values, before: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    """The values with each fragment replaced by its registers (a frag -> regs cast before `before`)."""
    out: list[SSAValue] = []
    for v in values:
        if isinstance(v.type, FragmentType):
            cast = UnrealizedConversionCastOp.get([v], register_types(v.type))
            rewriter.insert(cast, InsertPoint.before(before))
            out += cast.results
        else:
            out.append(v)
    return out


def _rebuild(types, registers: list[SSAValue]) -> tuple[list[Operation], list[SSAValue]]:
    """(casts, values): the original values of `types` from their expanded registers."""
    casts, values, i = [], [], 0
    for t in types:
        if isinstance(t, FragmentType):
            n = register_count(t)
            cast = UnrealizedConversionCastOp.get(registers[i:i + n], [t])
            casts.append(cast)
            values.append(cast.results[0])
            i += n
        else:
            values.append(registers[i])
            i += 1
    return casts, values


def _has_fragment(types) -> bool:
    return any(isinstance(t, FragmentType) for t in types)


def _convert_block_args(block: Block) -> None:
    """Give `block` register arguments for its fragment arguments; the fragments are rebuilt by casts at
    the start of the block."""
    old_types = [a.type for a in block.args]
    for t in reversed(_expanded(old_types)):
        block.insert_arg(t, len(old_types))
    new_args = list(block.args[len(old_types):])
    i = 0
    for old in block.args[:len(old_types)]:  # registers keep their fragment's name: %a -> %a, %a_1, ...
        width = register_count(old.type) if isinstance(old.type, FragmentType) else 1
        for reg in new_args[i:i + width]:
            reg.name_hint = old.name_hint
        i += width
    casts, values = _rebuild(old_types, new_args)
    for cast in reversed(casts):
        block.insert_op_before(cast, block.first_op) if block.first_op else block.add_op(cast)
    for old, new in zip(list(block.args[:len(old_types)]), values):
        old.replace_all_uses_with(new)
    for old in reversed(list(block.args[:len(old_types)])):
        block.erase_arg(old)


class ExpandFunctionSignature(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        inputs, outputs = op.function_type.inputs.data, op.function_type.outputs.data
        if not (_has_fragment(inputs) or _has_fragment(outputs)):
            return
        if op.body.blocks:
            _convert_block_args(op.body.block)
        op.function_type = FunctionType.from_lists(_expanded(inputs), _expanded(outputs))
        rewriter.handle_operation_modification(op)


class ExpandReturn(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        if _has_fragment(op.arguments.types):
            rewriter.replace(op, func.ReturnOp(*_split_all(op.arguments, op, rewriter)))


class ExpandCall(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        if not (_has_fragment(op.arguments.types) or _has_fragment(op.result_types)):
            return
        call = func.CallOp(op.callee, _split_all(op.arguments, op, rewriter), _expanded(op.result_types))
        casts, values = _rebuild(op.result_types, list(call.results))
        rewriter.replace(op, [call, *casts], values)


class ExpandForIterArgs(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not _has_fragment(op.iter_args.types):
            return
        types = list(op.iter_args.types)
        inits = _split_all(op.iter_args, op, rewriter)
        body = op.body.detach_block(op.body.block)
        _convert_block_args(body)
        new_loop = scf.ForOp(op.lb, op.ub, op.step, inits, Region(body))
        casts, values = _rebuild(types, list(new_loop.results))
        rewriter.replace(op, [new_loop, *casts], values)


class ExpandIfResults(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if not _has_fragment(op.result_types):
            return
        types = list(op.result_types)
        regions = [op.true_region.clone(), op.false_region.clone()]
        new_if = scf.IfOp(op.cond, _expanded(types), *regions)
        casts, values = _rebuild(types, list(new_if.results))
        rewriter.replace(op, [new_if, *casts], values)


class ExpandYield(RewritePattern):
    """A yield of fragments (in a converted scf.for body or scf.if branch) yields their registers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.YieldOp, rewriter: PatternRewriter) -> None:
        parent = op.parent_op()
        if _has_fragment(op.arguments.types) and isinstance(parent, (scf.ForOp, scf.IfOp)) \
                and not _has_fragment(parent.result_types):
            rewriter.replace(op, scf.YieldOp(*_split_all(op.arguments, op, rewriter)))


BOUNDARY_PATTERNS = (ExpandFunctionSignature(), ExpandReturn(), ExpandCall(), ExpandForIterArgs(), ExpandIfResults(),
                     ExpandYield())


@dataclass(frozen=True)
class FragmentsToRegisters(ModulePass):
    name = "mma-fragments-to-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        located_walker(TypedPatternApplier([*BOUNDARY_PATTERNS])).rewrite_module(op)


__all__ = ["BOUNDARY_PATTERNS", "FragmentsToRegisters", "register_types"]
