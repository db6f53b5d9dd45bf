"""One model of structured control flow for the async-lifecycle checkers: a forward dataflow over regions.

A checker describes its protocol as a `Dataflow[S]` over a state S (compared with ==):

- `transfer(op, state)`  the state after an op without regions (it raises the checker's diagnostics);
- `join(a, b)`           the state that covers both paths (a "may" join: anything in flight on either);
- `bind(state, dests, srcs)`  dests now hold srcs' values: region edges (block arguments, results) rename
                              values, so what is in flight follows an accumulator through iter_args / yields;
- `no_fixed_point(loop, head, next)`  the diagnostic when a loop's state keeps changing;
- optionally `assume(if_op)`  True / False when the checker follows one role of thread through the kernel
                              and knows which branch of this scf.if that thread takes (else None: both).

Each is a pure function of its arguments (and of the checker's own fixed configuration): a region op's outcome is
then one of the op and the state entering it, and is remembered per checker (`run_op`) -- an outer loop's second
trip meets its inner loops in the state of its first, and does not iterate them to their fixed points again.

How regions run (`run_block`):
- ops in order; a region op's regions inherit the state at the op, and after it the state joins what
  its regions can leave;
- scf.if: join of both branches (a missing else is the state unchanged);
- scf.for: the body runs 0 or many times: iterate it from the entry state to a fixed point, joined with
  the zero-trip path; scf.while likewise (before region, then after region, back to before);
- any other op with regions: an op as any other (its operands are uses), then each of its blocks may run
  any number of times;
- scf.yield / scf.condition are edges, not ops: their operands flow through `bind`, they are not uses.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Protocol, TypeVar

from xdsl.dialects import llvm, scf
from xdsl.ir import Block, Operation, SSAValue

from mmatom.dialects.op_walk import nested_ops

from .errors import LifecycleError

S = TypeVar("S")

# Loop states live in finite lattices unless a checker counts something that grows per iteration (groups
# committed without a wait); a loop that has not settled after this many trips never will.
MAX_LOOP_TRIPS = 32


class Dataflow(Protocol[S]):
    def transfer(self, op: Operation, state: S) -> S: ...

    def join(self, a: S, b: S) -> S: ...

    def bind(self, state: S, dests: Sequence[SSAValue], srcs: Sequence[SSAValue]) -> S: ...

    def no_fixed_point(self, loop: Operation, head: S, nxt: S) -> Exception: ...


EDGES = (scf.YieldOp, scf.ConditionOp)


def run_block(flow: Dataflow[S], block: Block, state: S) -> S:
    for op in block.ops:
        if isinstance(op, EDGES):
            continue
        state = run_op(flow, op, state) if op.regions else flow.transfer(op, state)
    return state


def run_op(flow: Dataflow[S], op: Operation, state: S) -> S:
    """The state after a region op entered in `state`: remembered per checker (see the module docstring)."""
    outcomes = _OUTCOMES.setdefault(flow, {}).setdefault(op, [])
    for entry, outcome in outcomes:
        if entry == state:
            return outcome
    outcome = _run_regions(flow, op, state)
    outcomes.append((state, outcome))
    return outcome


# checker -> region op -> [(entry state, outcome)]: what run_op found (a failed run raises, and is not remembered)
_OUTCOMES: "weakref.WeakKeyDictionary[Dataflow, dict[Operation, list[tuple]]]" = weakref.WeakKeyDictionary()


def _run_regions(flow: Dataflow[S], op: Operation, state: S) -> S:
    if isinstance(op, scf.IfOp):
        return _run_if(flow, op, state)
    if isinstance(op, scf.ForOp):
        return _run_for(flow, op, state)
    if isinstance(op, scf.WhileOp):
        return _run_while(flow, op, state)
    return _run_unknown(flow, op, state)


def _terminator_operands(block: Block) -> Sequence[SSAValue]:
    last = block.last_op
    if isinstance(last, scf.ConditionOp):
        return last.args
    return last.operands if isinstance(last, scf.YieldOp) else ()


def _run_if(flow: Dataflow[S], op: scf.IfOp, state: S) -> S:
    out = None
    assume = getattr(flow, "assume", None)
    taken = assume(op) if assume is not None else None
    regions = (op.true_region, op.false_region) if taken is None else (op.true_region if taken else op.false_region,)
    for region in regions:
        if region.blocks:
            block = region.block
            branch = flow.bind(run_block(flow, block, state), op.results, _terminator_operands(block))
        else:
            branch = state  # no else: the op does nothing (and has no results)
        out = branch if out is None else flow.join(out, branch)
    return out


def _settle(flow: Dataflow[S], loop: Operation, entry: S, trip) -> tuple[S, S]:
    """The loop head's fixed point: head = join(entry, back edge of trip(head)). Returns (head, trip(head))."""
    head = entry
    for _ in range(MAX_LOOP_TRIPS):
        end, back = trip(head)
        nxt = flow.join(entry, back)
        if nxt == head:
            return head, end
        head, before = nxt, head
    raise flow.no_fixed_point(loop, before, head)


def _run_for(flow: Dataflow[S], op: scf.ForOp, state: S) -> S:
    body = op.body.block
    carried = body.args[1:]  # the induction variable carries nothing
    yields = _terminator_operands(body)

    def trip(head: S) -> tuple[S, S]:
        end = run_block(flow, body, head)
        return end, flow.bind(end, carried, yields)

    _, end = _settle(flow, op, flow.bind(state, carried, op.iter_args), trip)
    zero_trip = flow.bind(state, op.results, op.iter_args)
    return flow.join(zero_trip, flow.bind(end, op.results, yields))


def _run_while(flow: Dataflow[S], op: scf.WhileOp, state: S) -> S:
    before, after = op.before_region.block, op.after_region.block
    forwarded = _terminator_operands(before)  # scf.condition's values: to the after region, or the results

    def trip(head: S) -> tuple[S, S]:
        checked = run_block(flow, before, head)
        done = run_block(flow, after, flow.bind(checked, after.args, forwarded))
        return checked, flow.bind(done, before.args, _terminator_operands(after))

    _, checked = _settle(flow, op, flow.bind(state, before.args, op.arguments), trip)
    return flow.bind(checked, op.results, forwarded)


def _run_unknown(flow: Dataflow[S], op: Operation, state: S) -> S:
    """An op whose semantics we do not know: its operands are used as by any op, then any of its regions and
    blocks may run any number of times (or none)."""
    state = flow.transfer(op, state)
    blocks = [b for region in op.regions for b in region.blocks]

    def trip(head: S) -> tuple[S, S]:
        out = head
        for block in blocks:
            out = flow.join(out, run_block(flow, block, head))
        return out, out

    head, _ = _settle(flow, op, state, trip)
    return head


def function_bodies(module: Operation, checker: str, watched: tuple[str, ...]):
    """The body block of every llvm.func in `module`. This model follows structured control flow (scf) only: a
    function of several blocks (branches) that holds a watched op (by name prefix) is a LifecycleError at the
    function; one without any is skipped (nothing to check)."""
    for op in nested_ops(module):
        if not isinstance(op, llvm.FuncOp) or not op.body.blocks:
            continue
        if len(op.body.blocks) == 1:
            yield op.body.block
            continue
        if any(inner.name.startswith(watched) for inner in op.walk()):
            raise LifecycleError(op, f"{checker}: @{op.sym_name.data} has {len(op.body.blocks)} blocks; the "
                                     f"checker follows structured control flow (scf.for / scf.if / scf.while) "
                                     f"only, so a kernel with branches between blocks cannot be proven safe")


__all__ = ["MAX_LOOP_TRIPS", "Dataflow", "function_bodies", "run_block", "run_op"]
