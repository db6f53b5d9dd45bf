"""Ring phases: a parity wait only tells a phase from its neighbours (check 5 of `verify-pipeline`).

`nvvm.mbarrier.try_wait.parity` on a ring barrier returns once the phase with the given parity has completed --
it cannot tell phase q from q - 2. A thread waiting for fill n of a stage is therefore only right if fill n - 1
of that stage has completed, which holds when the thread waited for it itself: its ring counter (stage =
it % N, parity = (it / N) % 2) visits every iteration once, in order, from 0. This pass follows each ring wait's
counter through the loops that carry it and reports where it does not:

- the counter advances by other than the fills its waits walk per trip (a trip may wait on several fills in
  order, e.g. a prologue's then a loop's: the waits and the loops that carry the counter are followed through the
  body in program order), or a wait sits under a condition inside its loop;
- it is an induction variable that does not start at 0 with step 1, or restarts at every trip of an outer loop;
- it enters a loop at a value that is neither 0 (outermost) nor where the thread's previous waits stopped, or
  leaves a loop carried as anything but the count it reached (skipping iterations: e.g. ping-pong consumers,
  each taking every other tile's iterations).

A wait under an `scf.if` inside its loop is followed when the if carries the count: one of its results is, on each
branch, the count that branch's waits walked it to (a branch that waits on none yields the count it entered with) --
e.g. a warpgroup that computes a tile or, with no rows in it, only waits its fills, both yielding where they stopped.

A consumer that skips is accepted only when its loop takes turns with another consumer's: a named barrier
(`nvvm.barrier id = X`) before the loop on which the other consumer warpgroup arrives (`nvvm.barrier.arrive id
= X`) after its own loop, every consumer thread counted -- then the fills it skipped were waited on, in order,
by the warpgroup it follows. The pass evaluates the barrier ids per thread (they may depend only on %tid.x and
constants); it does not check that the iterations skipped are exactly the other warpgroup's. Counters it cannot
follow (computed otherwise than as a loop's induction variable or carried value) are not checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.dialects import arith, llvm, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from mmatom.dialects import nvvm
from mmatom.dialects.launch_bounds import launch_bounds

from .addresses import Affine, affine
from .errors import LifecycleError
from .thread_eval import WARPGROUP, ThreadEval


def check_ring_phases(func: llvm.FuncOp, waits: Sequence[nvvm.MBarrierTryWaitParityOp],
                      rings: Sequence[tuple[tuple[Affine, int], tuple[Affine, int] | None]]) -> None:
    """Check every parity wait on a ring barrier (`waits`: the function's, in order; `rings`: each ring's full and,
    if it has them, empty barriers, as (barrier 0, bytes per stage)); each ring's waits are followed on their own
    counter."""
    fulls = [full for full, _ in rings]
    empties = [empty for _, empty in rings if empty is not None]
    followed: dict[tuple, _Ring] = {}  # each ring's barriers and the ops that hold waits on them, found once
    for wait in waits:
        bar = affine(wait.addr)
        consumer = _on_ring(bar, fulls)
        if not consumer and not _on_ring(bar, empties):
            continue
        counter = _counter(bar)
        if counter is None:
            continue
        barriers = next((f,) if consumer else (e,) for f, e in rings
                        if _on_ring(bar, [f] if consumer else [e] if e else []))
        ring = followed.get(barriers) or followed.setdefault(barriers, _Ring.of(barriers, waits))
        skip = _skip(counter, wait, ring)
        if skip is None:
            continue
        loop, reason = skip
        if consumer and _takes_turns(func, wait, loop):
            continue
        fix = ("order this loop after the consumer that waits the skipped fills: a named barrier before it "
               "(`nvvm.barrier id = X`) that the other consumer warpgroup arrives on after its own loop "
               "(`nvvm.barrier.arrive id = X`)") if consumer else "walk every iteration of the ring, from 0, in order"
        raise LifecycleError(wait, (
            f"{wait.name}: the ring counter of barrier {bar.describe()} {reason}; a parity wait cannot tell a phase "
            f"from the one two before it, so this wait may pass on a fill two behind the one it wants -- {fix}"))


class _Ring(NamedTuple):
    """One ring's barriers as the walk follows them ((barrier 0, bytes per stage)), and the ops whose regions hold a
    wait on them (found once: asking each op's subtree again at every step of every walk was most of the pass);
    `walks`: the block walks done on this ring, (block, start) -> (where the count ends, the loops that carried it)
    -- a walk is a pure function of those, and each wait of a loop, and each carried value tried, asks again."""
    barriers: tuple[tuple[Affine, int], ...]
    holders: frozenset
    walks: dict

    @classmethod
    def of(cls, barriers: tuple[tuple[Affine, int], ...], waits: Sequence[Operation]) -> _Ring:
        holders = set()
        for wait in waits:
            bar = affine(wait.addr)
            if not _on_ring(bar, barriers) or _counter(bar) is None:
                continue
            op = wait
            while (op := op.parent_op()) is not None and op not in holders:
                holders.add(op)
        return cls(barriers, frozenset(holders), {})


def _on_ring(bar: Affine, rings: Sequence[tuple[Affine, int]]) -> bool:
    return any((bar.base, bar.const) == (b.base, b.const) and len(bar.terms) == 1 and bar.terms[0][1] == c
               for b, c in rings)


def _counter(bar: Affine) -> SSAValue | None:
    """`it` where the barrier's stage leaf is it % N (None: a stage computed some other way)."""
    stage = bar.terms[0][0]
    if isinstance(stage, OpResult) and isinstance(stage.op, (arith.RemUIOp, arith.RemSIOp)):
        return stage.op.lhs
    return None


def _loop_of(op: Operation) -> scf.ForOp | None:
    """The scf.for nearest around `op` inside its function."""
    while (parent := op.parent_op()) is not None and not isinstance(parent, llvm.FuncOp):
        if isinstance(parent, scf.ForOp):
            return parent
        op = parent
    return None


def _waited(op: Operation, ring: _Ring) -> Affine | None:
    """The counter (affine) of `op` if it is a parity wait on `ring`'s barriers."""
    if not isinstance(op, nvvm.MBarrierTryWaitParityOp):
        return None
    bar = affine(op.addr)
    if not _on_ring(bar, ring.barriers) or (it := _counter(bar)) is None:
        return None
    return affine(it)


ONE = Affine(None, 1, ())


def _walk(block: Block, start: Affine, ring: _Ring, seen: set | None = None) -> Affine | str:
    """Where the count stands after `block`'s waits, entered at `start` (each wait on the fill the count reached
    moves it on by one; a loop that carries the count takes it where its body walks it -- added to `seen`), or why
    it cannot tell. Walked once per ring, block and start (ring.walks)."""
    if (block, start) not in ring.walks:
        carried: set = set()
        ring.walks[block, start] = (_walk_block(block, start, ring, carried), frozenset(carried))
    walked, carried = ring.walks[block, start]
    if seen is not None:
        seen.update(carried)
    return walked


def _walk_block(block: Block, start: Affine, ring: _Ring, seen: set) -> Affine | str:
    current = start
    for op in block.ops:
        if (waited := _waited(op, ring)) is not None:
            if waited != current:
                return f"waits on fill {waited.describe()} where the thread's waits reached {current.describe()}"
            current = current.plus(ONE)
        elif isinstance(op, scf.ForOp) and (j := _carrying(op, current)) is not None:
            seen.add(op)
            body = _walk(op.body.block, affine(op.body.block.args[j + 1]), ring)
            if isinstance(body, str):
                return body
            if body != affine(op.body.block.last_op.operands[j]):
                return f"is carried round a loop inside as {affine(op.body.block.last_op.operands[j]).describe()}, " \
                       f"not where its waits walk it ({body.describe()})"
            current = affine(op.results[j])
        elif isinstance(op, scf.IfOp) and (j := _if_carrying(op, current, ring, seen)) is not None:
            if isinstance(j, str):
                return j
            current = affine(op.results[j])
        elif op in ring.holders:
            return f"advances on paths that do not wait (a wait under {op.name} that does not carry the count)"
    return current


def _if_carrying(op: scf.IfOp, current: Affine, ring: _Ring, seen: set | None = None) -> int | str | None:
    """The result of `op` that carries the count on both branches (each branch entered at `current` yields, as that
    result, the count its waits walked it to), why a branch's waits cannot be followed, or None (no such result).
    The loops its branches carry the count through are added to `seen` (as _walk's)."""
    if not op.results or not op.false_region.blocks or op not in ring.holders:
        return None  # (an if without waits on this ring leaves its count where it was, whatever it yields)
    ends = []
    for region in (op.true_region, op.false_region):
        walked = _walk(region.block, current, ring, seen)
        if isinstance(walked, str):
            return walked
        ends.append((walked, region.block.last_op.operands))
    return next((j for j in range(len(op.results)) if all(end == affine(yielded[j]) for end, yielded in ends)), None)


def _carrier(outer: scf.ForOp, inner: scf.ForOp, ring: _Ring) -> BlockArgument | None:
    """The counter `outer` carries whose walk through its body takes `inner` in order and comes back round as the
    value the body yields (None if no carried value does)."""
    for arg in outer.body.block.args[1:]:
        seen: set = set()
        walked = _walk(outer.body.block, affine(arg), ring, seen)
        if inner in seen and not isinstance(walked, str) and walked == affine(
                outer.body.block.last_op.operands[arg.index - 1]):
            return arg
    return None


def _carrying(loop: scf.ForOp, current: Affine) -> int | None:
    return next((j for j, v in enumerate(loop.iter_args) if affine(v) == current), None)


def _skip(it: SSAValue, wait: Operation, ring: _Ring) -> tuple[scf.ForOp, str] | None:
    """(the loop, why) when the counter `it` of `wait` may skip or repeat iterations; None when it visits each
    once, in order, from 0 (or cannot be followed)."""
    if not isinstance(it, BlockArgument) or not isinstance(loop := it.block.parent_op(), scf.ForOp):
        return None
    # under a condition: only a carried count can be followed through the ifs (the body's walk checks each)
    if wait.parent_block() is not loop.body.block and (it.index == 0 or not _under_ifs(wait, loop)):
        return loop, "advances on trips of its loop that do not wait (the wait is under a condition inside it)"
    if it.index == 0:  # the induction variable
        lb, step = affine(loop.lb), affine(loop.step)
        if step != Affine(None, 1, ()):
            return loop, f"is an induction variable with step {step.describe()}, not 1"
        if lb != Affine(None, 0, ()):
            return loop, f"is an induction variable starting at {lb.describe()}, not 0"
        if _loop_of(loop) is not None:
            return loop, "is an induction variable that restarts at 0 at every trip of an enclosing loop"
        return None
    j = it.index - 1
    walked = _walk(loop.body.block, affine(it), ring)
    if isinstance(walked, str):
        return loop, walked
    step = affine(loop.body.block.last_op.operands[j]).plus(affine(it).scaled(-1))
    if step != walked.plus(affine(it).scaled(-1)):
        return loop, f"advances by {step.describe()} per trip, not {walked.plus(affine(it).scaled(-1)).describe()}"
    inner = loop
    while True:  # follow the count out through the loops that carry it
        value, outer = inner.iter_args[j], _loop_of(inner)
        if affine(value) == Affine(None, 0, ()):
            if outer is not None:
                return loop, "restarts at 0 at every trip of an enclosing loop while the barriers' phases go on"
            return None
        arg = _carrier(outer, inner, ring) if outer is not None else None
        if arg is None:
            if isinstance(value, BlockArgument) and value.block.parent_op() is outer and value.index > 0:
                carried = outer.body.block.last_op.operands[value.index - 1]
                return loop, (f"is carried round the enclosing loop as {affine(carried).describe()}, not the count "
                              f"the inner loop reached, so it skips the fills between")
            return loop, (f"enters its loop at {affine(value).describe()}: neither 0 nor where the thread's "
                          f"previous waits stopped, so it skips the fills between")
        inner, j = outer, arg.index - 1


def _under_ifs(wait: Operation, loop: scf.ForOp) -> bool:
    """Whether `wait` sits in `loop`'s body under scf.if ops only (the body's walk then checks that each carries
    the count: _if_carrying)."""
    op = wait
    while (parent := op.parent_op()) is not loop:
        if not isinstance(parent, scf.IfOp):
            return False
        op = parent
    return True


def _takes_turns(func: llvm.FuncOp, wait: Operation, loop: scf.ForOp) -> bool:
    """Whether `loop` (a consumer's) sits between a named barrier sync before it and a named barrier arrive
    after it, in its block, that pair every consumer warpgroup with another: warpgroup w syncs on the id some
    other warpgroup w' arrives on, with every consumer thread counted."""
    block = loop.parent_block()
    ops = list(block.ops)
    at = ops.index(loop)
    syncs = [op for before in ops[:at] for op in before.walk() if isinstance(op, nvvm.BarrierOp)
             and op.barrierId is not None and op.numberOfThreads is not None]
    arrives = [op for after in ops[at + 1:] for op in after.walk() if isinstance(op, nvvm.BarrierArriveOp)
               and op.barrierId is not None]
    threads = launch_bounds(func).threads
    if not syncs or not arrives or threads is None:
        return False
    sync, arrive = syncs[-1], arrives[0]
    consumers: dict[int, set] = {}
    per_thread = ThreadEval()
    operands = (sync.barrierId, sync.numberOfThreads, arrive.barrierId, arrive.numberOfThreads)
    for tid in range(threads):
        if not per_thread.runs(wait, tid):
            continue  # not a thread that waits here (or a guard not known: then nothing pairs)
        ids = tuple(per_thread.value(v, tid) for v in operands)
        if None in ids:
            return False
        consumers.setdefault(tid // WARPGROUP, set()).add(ids)
    count = WARPGROUP * len(consumers)
    if len(consumers) < 2 or any(len(v) != 1 for v in consumers.values()):
        return False
    roles = {wg: next(iter(v)) for wg, v in consumers.items()}
    for wg, (sync_id, sync_n, arrive_id, arrive_n) in roles.items():
        if sync_n != count or arrive_n != count or sync_id == arrive_id:
            return False
        if not any(other[2] == sync_id for w, other in roles.items() if w != wg):
            return False
    return True


__all__ = ["check_ring_phases"]
