"""The TMA -> mbarrier -> wgmma pipeline protocol, checked on the mma-level kernel (`verify-pipeline`).

A TMA pipeline fails silently on hardware: a barrier that expects more bytes than land hangs, one that expects
fewer completes before the data is there, a consumer that reads before waiting or releases a stage while its
wgmma still reads it races with the producer's next load. What this pass proves (addresses compared as affine
forms, addresses.py, so `ring.full(stage)` built twice is one barrier):

1. bytes: an `nvvm.mbarrier.arrive.expect_tx` posts exactly the bytes the `mma.tma_load`s that complete on
   that barrier after it (in its block, nested regions included, up to the next expect_tx on it) land -- a load
   in an scf.for of constant bounds once per trip (bounds known only at run time: nothing to compare); every
   `mma.tma_load` has such an expect_tx before it. A multicast load lands its box in every CTA of its
   (constant) mask, and each of those CTAs is assumed to issue its own slice alike. A remote expect_tx (on a
   peer's barrier, however nvvm.mapa made it) posts what the `nvvm.st.async` ops of its phase send there: 16
   bytes each, times the sending threads -- a whole number of warps, not counted further.
2. placement: a box lands inside the kernel's declared shared memory (`mma.shared_bytes`) at an address
   aligned as its swizzle needs (1024 bytes for the swizzled boxes wgmma reads).
3. consumers: the stage a TMA load fills is `region + k * s` with its full barrier `bars + c * s`; a wgmma that
   reads `region + k * t` must follow (on every path) an `nvvm.mbarrier.try_wait.parity` on `bars + c * t`,
   and the `nvvm.mbarrier.arrive` that releases stage t (on the barrier the producer waits on before filling
   it) must come after the `nvvm.wgmma.wait.group.sync.aligned` that retires every wgmma reading stage t.
   A wait made for an earlier trip round a loop (its stage value since redefined) proves nothing; a wgmma
   issued on an earlier trip and not yet retired (a pipelined consumer that waits to depth 1) may read any
   stage, so no stage is released under it. Stages are told apart by value: a release on a stage value the
   forms cannot relate to a read's is taken as another stage.
4. registers: `nvvm.setmaxregister` needs `nvvm.minctasm` on the kernel (ptxas ignores it otherwise, warning
   C7508); every thread of a warpgroup runs the same one; and the per-warpgroup budgets fit what the CTA is
   launched with (64K registers of an SM over `nvvm.minctasm` CTAs, 8-aligned per thread): an increase beyond
   what the others' decreases free waits forever (a hang measured on the H100: 96 / 208 for 128 + 256 threads). The role of each warpgroup is read from the scf.if guards around the
   setmaxregister ops, evaluated for every thread index; guards that depend on anything else are not checked.

5. phases: each ring wait's counter visits every iteration once, in order, from 0, or takes turns with the
   consumer it skips past (passes/ring_phases.py: a parity wait cannot tell a phase from the one two before it).

SMEM and register totals per kernel are also checked by the launch-bounds verifier; this pass checks what
needs the kernel's body.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, OpResult, Operation, SSAValue
from xdsl.passes import ModulePass

from mmatom.atoms.limits import REGISTER_FILE as REGISTERS_PER_SM
from mmatom.dialects import mma, nvvm, nvvm_hopper
from mmatom.dialects.launch_bounds import MINCTASM, launch_bounds
from mmatom.dialects.op_walk import nested_ops

from .addresses import Affine, affine
from .control_flow import function_bodies, run_block
from .errors import LifecycleError, at_line
from .ring_phases import check_ring_phases
from .thread_eval import WARPGROUP, ThreadEval

NAME = "verify-pipeline"
WGMMA_OPS = (mma.WgmmaOp, mma.WgmmaTileOp)
UNCOMMITTED = -1


# -- 1. bytes ---------------------------------------------------------------------------------------------------

def _load_bytes(load: mma.TmaLoadOp) -> int | None:
    box = load.map.type.box.bytes
    if load.multicast is None:
        return box
    mask = affine(load.multicast)
    return box * bin(mask.const & 0xFFFF).count("1") if not mask.terms and mask.base is None else None


def _loads_in(ops: Sequence[Operation]) -> Iterator[mma.TmaLoadOp]:
    for op in ops:
        for inner in op.walk():
            if isinstance(inner, mma.TmaLoadOp):
                yield inner


def _trips(load: mma.TmaLoadOp, outer: Block) -> int | None:
    """How many times `load` runs for one run of the ops of `outer` it is nested in: the product of the constant
    trip counts of the scf.for loops around it (None: one of them has bounds known only at run time)."""
    trips, op = 1, load
    while op.parent_block() is not outer and (op := op.parent_op()) is not None:
        if isinstance(op, scf.ForOp):
            lo, hi, step = (affine(v) for v in (op.lb, op.ub, op.step))
            if any(x.terms or x.base is not None for x in (lo, hi, step)) or step.const <= 0:
                return None
            trips *= max(0, -(-(hi.const - lo.const) // step.const))
    return trips


def _check_bytes(body: Block, walked: Sequence[Operation], loads: Sequence[mma.TmaLoadOp]) -> None:
    covered: set[mma.TmaLoadOp] = set()
    for block in _blocks(body, walked):
        ops = list(block.ops)
        for i, op in enumerate(ops):
            if not isinstance(op, nvvm_hopper.MBarrierArriveExpectTxOp):
                continue
            if op.remote:
                _check_remote_bytes(op, walked)
                continue
            bar, posted = affine(op.addr), affine(op.txcount)
            segment = []
            for later in ops[i + 1:]:
                if isinstance(later, nvvm_hopper.MBarrierArriveExpectTxOp) and affine(later.addr) == bar:
                    break
                segment.append(later)
            loads = [ld for ld in _loads_in(segment) if affine(ld.bar) == bar]
            covered.update(loads)
            counts = [(_load_bytes(ld), _trips(ld, block)) for ld in loads]
            if posted.terms or posted.base is not None or any(None in count for count in counts):
                continue  # a byte count, multicast mask or trip count only known at run time: nothing to compare
            sizes = [box * trips for box, trips in counts]
            if posted.const != sum(sizes):
                landed = " + ".join(f"{'' if trips == 1 else f'{trips} x '}{box} ({ld.map.type})"
                                    for (box, trips), ld in zip(counts, loads)) or "none"
                raise LifecycleError(op, (
                    f"{op.name}: posts {posted.const} bytes on barrier {bar.describe()}, but the mma.tma_load ops "
                    f"that complete on it after it land {sum(sizes)}: {landed}; the phase "
                    f"{'never completes (a hang)' if posted.const > sum(sizes) else 'completes before the data lands (a race)'}"))
    for load in loads:
        if load not in covered:
            raise LifecycleError(load, (
                f"mma.tma_load: no nvvm.mbarrier.arrive.expect_tx on its barrier {affine(load.bar).describe()} "
                f"before it in its block; the barrier's phase can complete before the box lands -- post the "
                f"stage's bytes with expect_tx first"))


def _check_remote_bytes(op: nvvm_hopper.MBarrierArriveExpectTxOp, walked: Sequence[Operation]) -> None:
    """A remote arrive.expect_tx posts the bytes the nvvm.st.async ops to that barrier send in its phase -- those
    between the posts on it before and after this one, before or after it -- each executed by every thread of the
    sending group, the post by one: the posted count must be those stores' 16 bytes times a whole number of warps'
    threads. (How many threads send is not worked out: a post of a warp's bytes too few or too many passes.)"""
    bar, posted = _remote_barrier(op.addr), affine(op.txcount)
    at = walked.index(op)
    stores = 0
    for side in (reversed(walked[:at]), walked[at + 1:]):
        for other in side:
            if isinstance(other, nvvm_hopper.MBarrierArriveExpectTxOp) and _remote_barrier(other.addr) == bar:
                break
            stores += isinstance(other, nvvm_hopper.StAsyncOp) and _remote_barrier(other.mbar) == bar
    if posted.terms or posted.base is not None:
        return  # a byte count known only at run time: nothing to compare
    if not stores or posted.const % (16 * stores * 32):
        raise LifecycleError(op, (
            f"{op.name}: posts {posted.const} bytes on a remote barrier, but the nvvm.st.async ops of its phase send "
            f"{stores} x 16 bytes a thread to it: the count is that times the sending threads (a whole number of "
            f"warps); else the peer's phase never completes, or completes before its words land"))


def _remote_barrier(addr: SSAValue) -> tuple:
    """A peer's barrier as (the local barrier's affine form, the CTA rank's), whichever nvvm.mapa made it."""
    if isinstance(addr, OpResult) and isinstance(addr.op, nvvm_hopper.MapaOp):
        return affine(addr.op.a), affine(addr.op.b)
    return affine(addr), None


def _blocks(body: Block, walked: Sequence[Operation]) -> Iterator[Block]:
    yield body
    for op in walked:
        for region in op.regions:
            yield from region.blocks


# -- 2. placement -----------------------------------------------------------------------------------------------

def _check_placement(func: llvm.FuncOp, loads: Sequence[mma.TmaLoadOp]) -> None:
    shared = launch_bounds(func).shared_bytes
    for load in loads:
        box = load.map.type.box
        dst = affine(load.dst)
        if not isinstance(dst.base, str):
            continue
        misaligned = [x for x in (dst.const, *(c for _, c in dst.terms)) if x % box.smem_align]
        if misaligned:
            raise LifecycleError(load, (
                f"mma.tma_load: its destination {dst.describe()} is not {box.smem_align}-byte aligned (a "
                f"{box.swizzle}-swizzled box needs it; offset {misaligned[0]} is not a multiple)"))
        if dst.terms:
            continue  # the stage index's range is not known here; the constant part is still checked below
        if dst.const + box.bytes > shared:
            raise LifecycleError(load, (
                f"mma.tma_load: its {box.bytes}-byte box at {dst.describe()} ends at byte {dst.const + box.bytes}"
                f" of shared memory; the kernel declares mma.shared_bytes = {shared}"))


# -- 3. consumers -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Stage:
    """A slot the producer fills: bytes at `region + k * s` land on the full barrier `full + c * s`; the
    producer waits on `empty + e * s` before filling it (None when it does not)."""

    region: Affine  # base and constant of the slot 0
    k: int
    full: Affine  # base and constant of barrier 0
    c: int
    empty: Affine | None = None
    e: int = 0

    def full_of(self, read: Affine) -> Affine | None:
        """The full barrier a read at `read` waits on (None if `read` is not in this ring)."""
        if (read.base, read.const) != (self.region.base, self.region.const):
            return None
        return _slot(self.full, self.c, read, self.k)

    def released_stage(self, bar: Affine) -> Affine | None:
        """The full barrier of the stage an arrive on `bar` releases (None if `bar` is not an empty barrier)."""
        if self.empty is None or (bar.base, bar.const) != (self.empty.base, self.empty.const):
            return None
        return _slot(self.full, self.c, bar, self.e)


def _slot(base: Affine, stride: int, addr: Affine, addr_stride: int) -> Affine | None:
    """base + stride * s where addr = ... + addr_stride * s (s its one leaf), or base when addr has no leaf."""
    if not addr.terms:
        return Affine(base.base, base.const, ())
    if len(addr.terms) != 1 or addr.terms[0][1] != addr_stride:
        return None
    return Affine(base.base, base.const, ((addr.terms[0][0], stride),) if stride else ())


def _one_leaf(form: Affine) -> tuple[SSAValue | None, int]:
    if not form.terms:
        return None, 0
    return (form.terms[0][0], form.terms[0][1]) if len(form.terms) == 1 else (form, 0)


def _stages(loads: Sequence[mma.TmaLoadOp]) -> list[Stage]:
    """The producer's stages, from its loads (and the try_wait before each load in its block: the empty)."""
    out: list[Stage] = []
    for load in loads:
        dst, bar = affine(load.dst), affine(load.bar)
        leaf, k = _one_leaf(dst)
        bar_leaf, c = _one_leaf(bar)
        if isinstance(leaf, Affine) or bar_leaf is not leaf:
            continue  # not base + k * stage with the barrier indexed by the same stage
        empty, e = None, 0
        for before in _preceding(load):
            if isinstance(before, nvvm.MBarrierTryWaitParityOp):
                waited = affine(before.addr)
                w_leaf, w = _one_leaf(waited)
                if w_leaf is leaf and (waited.base, waited.const) != (bar.base, bar.const):
                    empty, e = Affine(waited.base, waited.const, ()), w
        out.append(Stage(Affine(dst.base, dst.const, ()), k, Affine(bar.base, bar.const, ()), c, empty, e))
    return out


def _preceding(op: Operation) -> Iterator[Operation]:
    """The ops before `op` in its block and in each enclosing block, nearest block first."""
    while op.parent_block() is not None:
        block = op.parent_block()
        for before in block.ops:
            if before is op:
                break
            yield before
        if block.parent_op() is None or isinstance(block.parent_op(), llvm.FuncOp):
            return
        op = block.parent_op()


@dataclass(frozen=True)
class Reads:
    """What one group of an mma.wgmma op's trips reads: the stages it was issued on (full barriers, as Affine
    forms), or any stage once a stage value it was issued on has been redefined (a later trip round a loop):
    such a read can no longer be named, so it conflicts with every release until a wait retires it."""

    op: Operation
    newer_groups: int
    stages: frozenset  # the full barriers (Affine) of the stages this wgmma reads
    any_stage: bool = False

    def merge(self, other: Reads) -> Reads:
        return Reads(self.op, self.newer_groups, self.stages | other.stages, self.any_stage or other.any_stage)


@dataclass(frozen=True)
class State:
    waited: frozenset = frozenset()  # full barriers waited on, on every path
    flights: dict = field(default_factory=dict)  # (wgmma op, groups committed after it) -> Reads, on some path


def _forget(forms: frozenset, values: set) -> frozenset:
    return frozenset(f for f in forms if not (f.leaves & values))


def _keyed(reads: list[Reads]) -> dict:
    """Reads by (op, newer_groups), the ones that fall on one key merged (one group of one op)."""
    out: dict = {}
    for r in reads:
        key = (r.op, r.newer_groups)
        out[key] = out[key].merge(r) if key in out else r
    return out


class PipelineProtocol:
    """Check 3 as a dataflow over control_flow's model: `waited` is a must-set, `flights` a may-set."""

    def __init__(self, stages: list[Stage]):
        self.stages = stages
        self.reads: dict[SSAValue, Affine] = {}

    def full_of(self, ptr: SSAValue) -> Affine | None:
        form = affine(ptr)
        for stage in self.stages:
            full = stage.full_of(form)
            if full is not None:
                return full
        return None

    def join(self, a: State, b: State) -> State:
        return State(a.waited & b.waited, _keyed([*a.flights.values(), *b.flights.values()]))

    def _redefine(self, state: State, values: set) -> State:
        if not values:
            return state
        flights = {key: r if not any(f.leaves & values for f in r.stages) else
                   replace(r, stages=_forget(r.stages, values), any_stage=True) for key, r in state.flights.items()}
        return State(_forget(state.waited, values), flights)

    def bind(self, state: State, dests: Sequence[SSAValue], srcs: Sequence[SSAValue]) -> State:
        return self._redefine(state, set(dests))

    def no_fixed_point(self, loop: Operation, head: State, nxt: State) -> Exception:
        return LifecycleError(loop, f"{NAME}: the wgmma reads in flight do not settle round {loop.name}")

    def transfer(self, op: Operation, state: State) -> State:
        state = self._redefine(state, set(op.results))
        if isinstance(op, nvvm.MBarrierTryWaitParityOp):
            return replace(state, waited=state.waited | {affine(op.addr)})
        if isinstance(op, mma.MakeDescOp):
            full = self.full_of(op.ptr)
            if full is not None:
                self.reads[op.res] = full
            return state
        if isinstance(op, WGMMA_OPS):
            return self._issue(op, state)
        if isinstance(op, nvvm.WgmmaGroupSyncAlignedOp):
            return replace(state, flights=_keyed([replace(r, newer_groups=r.newer_groups + 1)
                                                  for r in state.flights.values()]))
        if isinstance(op, nvvm.WgmmaWaitGroupSyncOp):
            return replace(state, flights={key: r for key, r in state.flights.items() if r.newer_groups < op.pending})
        if isinstance(op, nvvm_hopper.MBarrierArriveOp):
            return self._release(op, state)
        return state

    def _issue(self, op: Operation, state: State) -> State:
        stages = set()
        for role, v in (("A", op.a), ("B", op.b)):
            full = self.reads.get(v)
            if full is None:
                continue
            if full not in state.waited:
                raise LifecycleError(op, (
                    f"{op.name}: operand {role} reads a TMA-filled stage whose full barrier {full.describe()} is not "
                    f"waited on before it on every path; insert `nvvm.mbarrier.try_wait.parity` on that barrier "
                    f"(with the stage's phase) first"))
            stages.add(full)
        return replace(state, flights=_keyed([*state.flights.values(), Reads(op, UNCOMMITTED, frozenset(stages))]))

    def _release(self, op: nvvm_hopper.MBarrierArriveOp, state: State) -> State:
        bar = affine(op.addr)
        released = {full for stage in self.stages if (full := stage.released_stage(bar)) is not None}
        for full in released:
            reading = [r for r in state.flights.values() if full in r.stages] or \
                [r for r in state.flights.values() if r.any_stage]
            if reading:
                r = reading[0]
                wait = "`nvvm.wgmma.commit.group.sync.aligned` then `nvvm.wgmma.wait.group.sync.aligned 0`" \
                    if r.newer_groups == UNCOMMITTED else f"`nvvm.wgmma.wait.group.sync.aligned {r.newer_groups}`"
                which = "" if full in r.stages else (
                    ", issued on an earlier trip round the loop on a stage that cannot be told apart from this one")
                raise LifecycleError(op, (
                    f"{op.name}: releases the stage of full barrier {full.describe()} while {r.op.name}"
                    f"{at_line(r.op)} may still read it{which}; the producer can overwrite the stage under it -- "
                    f"retire that wgmma with {wait} before the release"))
        return replace(state, waited=state.waited - released) if released else state


# -- 4. registers -------------------------------------------------------------------------------------------------

def _check_registers(func: llvm.FuncOp, walked: Sequence[Operation]) -> None:
    setters = [op for op in walked if isinstance(op, nvvm_hopper.SetMaxRegisterOp)]
    if not setters:
        return
    bounds = launch_bounds(func)
    if bounds.minctasm is None:
        raise LifecycleError(setters[0], (
            f"{setters[0].name}: the kernel has no `{MINCTASM}`; ptxas ignores setmaxnreg without it (warning "
            f"C7508) -- declare {MINCTASM} = 1 : i32 on @{func.sym_name.data}"))
    threads = bounds.threads
    per_thread = None if threads is None else _setter_per_thread(setters, threads)
    if per_thread is None:
        return  # no declared block, or a role chosen by something other than the thread index: not checked
    default = REGISTERS_PER_SM // (threads * bounds.minctasm) // 8 * 8
    total = sum(_warpgroup_registers(per_thread, wg, default) for wg in range(-(-threads // WARPGROUP)))
    # setmaxnreg moves registers between the warpgroups of one CTA: an increase waits until the others' decreases
    # freed enough of what the CTA was launched with (ptxas gives a kernel with setmaxnreg `default` a thread)
    allocated = default * threads
    if total > allocated:
        split = ", ".join(f"warpgroup {wg}: {op.count if op else f'{default} (entry)'}" for wg, op in
                          enumerate(per_thread[::WARPGROUP]))
        raise LifecycleError(setters[0], (
            f"{setters[0].name}: the warpgroups' register budgets ({split}) need {total} registers; the CTA is "
            f"launched with {default} a thread x {threads} threads = {allocated} ({bounds.minctasm} CTA(s) per SM of "
            f"{REGISTERS_PER_SM}): an increase would wait for registers no warpgroup frees, and the kernel hang"))


def _setter_per_thread(setters: list, threads: int) -> list[Operation | None] | None:
    """Per thread, the last setmaxnreg it runs (None: none); None where a setter's threads are not known."""
    threads_eval = ThreadEval()
    per_thread: list[Operation | None] = []
    for tid in range(threads):
        mine = None
        for op in setters:
            runs = threads_eval.runs(op, tid)
            if runs is None:
                return None
            if runs:
                mine = op
        per_thread.append(mine)
    return per_thread


def _warpgroup_registers(per_thread: list[Operation | None], wg: int, default: int) -> int:
    """Warpgroup `wg`'s registers: its setmaxnreg count (the launch's `default` without one) x its threads; every
    warp of it must take the same setmaxnreg."""
    group = per_thread[wg * WARPGROUP:(wg + 1) * WARPGROUP]
    if len(set(map(id, group))) > 1:
        odd = next(i for i, op in enumerate(group) if op is not group[0]) + wg * WARPGROUP
        which = group[0] or group[odd - wg * WARPGROUP]
        raise LifecycleError(which, (
            f"{which.name}: threads {wg * WARPGROUP} and {odd} of warpgroup {wg} take different setmaxregister "
            f"paths; every warp of a warpgroup must execute the same setmaxnreg"))
    count = group[0].count if group[0] is not None else default
    return count * len(group)


# -- the pass -------------------------------------------------------------------------------------------------------

WATCHED = ("mma.tma_load", "nvvm.mbarrier", "nvvm.setmaxregister")


def check_function(func: llvm.FuncOp, body: Block) -> None:
    walked = nested_ops(body)  # once: each check below picks its ops from it
    loads = [op for op in walked if isinstance(op, mma.TmaLoadOp)]
    _check_bytes(body, walked, loads)
    _check_placement(func, loads)
    stages = _stages(loads)
    if stages:
        run_block(PipelineProtocol(stages), body, State())
        check_ring_phases(func, [op for op in walked if isinstance(op, nvvm.MBarrierTryWaitParityOp)],
                          [((s.full, s.c), (s.empty, s.e) if s.empty is not None else None) for s in stages])
    _check_registers(func, walked)


class VerifyPipeline(ModulePass):
    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for body in function_bodies(op, NAME, WATCHED):
            if any(inner.name.startswith(WATCHED) for inner in body.walk()):
                check_function(body.parent_op(), body)


__all__ = ["VerifyPipeline", "check_function"]
