"""Loop-carried fragments: an scf.for whose iter_args include fragments carries their registers instead.

The rewrite runs before the fragment and atom lowerings and does not need them: a fragment entering
the loop, or yielded by its body, is split into registers by a cast `!mma.frag -> (regs)`; inside the
body and after the loop the registers are cast back to the fragment for the ops still to be lowered.
Once those are lowered, each `regs -> frag -> regs` round trip is folded away (`fold_cast_pairs`), as
upstream MLIR's reconcile-unrealized-casts does.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mmatom.dialects.mma import FragmentType

from .registers import register_count, register_type


def _register_types(frag: FragmentType) -> list:
    return [register_type(frag.elem.data)] * register_count(frag)


def _before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


def _split(value: SSAValue, before: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    cast = UnrealizedConversionCastOp.get([value], _register_types(value.type))
    rewriter.insert(cast, _before(before))
    return list(cast.results)


class ExpandFragmentIterArgs(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not any(isinstance(v.type, FragmentType) for v in op.iter_args):
            return
        # the new loop's carried values, and how each old carried value maps onto them
        new_inits: list[SSAValue] = []
        spans: list[tuple[int, int, FragmentType | None]] = []
        for init in op.iter_args:
            start = len(new_inits)
            if isinstance(init.type, FragmentType):
                new_inits += _split(init, op, rewriter)
                spans.append((start, len(new_inits), init.type))
            else:
                new_inits.append(init)
                spans.append((start, start + 1, None))

        old_body = op.body.block
        new_body = Block(arg_types=[old_body.args[0].type, *(v.type for v in new_inits)])
        replacements: list[SSAValue] = [new_body.args[0]]
        for start, stop, frag in spans:
            args = list(new_body.args[1 + start:1 + stop])
            if frag is None:
                replacements.append(args[0])
            else:
                cast = UnrealizedConversionCastOp.get(args, [frag])
                new_body.add_op(cast)
                replacements.append(cast.results[0])
        for old_arg, new_value in zip(old_body.args, replacements):
            old_arg.replace_all_uses_with(new_value)
        for inner in list(old_body.ops):
            inner.detach()
            new_body.add_op(inner)

        yield_op = new_body.last_op
        assert isinstance(yield_op, scf.YieldOp)
        yielded: list[SSAValue] = []
        for v in yield_op.operands:
            yielded += _split(v, yield_op, rewriter) if isinstance(v.type, FragmentType) else [v]
        rewriter.replace(yield_op, scf.YieldOp(*yielded))

        new_loop = scf.ForOp(op.lb, op.ub, op.step, new_inits, Region(new_body))
        rewriter.insert(new_loop, _before(op))
        results: list[SSAValue] = []
        for start, stop, frag in spans:
            regs = list(new_loop.results[start:stop])
            if frag is None:
                results.append(regs[0])
            else:
                cast = UnrealizedConversionCastOp.get(regs, [frag])
                rewriter.insert(cast, _before(op))
                results.append(cast.results[0])
        rewriter.replace(op, [], results)


LOOP_PATTERNS = (ExpandFragmentIterArgs(),)


def fold_cast_pairs(module: Operation) -> None:
    """`%f = cast(%r...) : regs -> frag; %s... = cast(%f) : frag -> regs` -> uses of %s become %r."""
    for op in list(module.walk()):
        if not isinstance(op, UnrealizedConversionCastOp) or len(op.inputs) != 1:
            continue
        producer = op.inputs[0].owner
        if not isinstance(producer, UnrealizedConversionCastOp):
            continue
        if [v.type for v in producer.inputs] != [r.type for r in op.results]:
            continue
        for result, original in zip(op.results, producer.inputs):
            result.replace_all_uses_with(original)
