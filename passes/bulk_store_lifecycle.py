"""`verify-bulk-stores`: SMEM that an async TMA store reads is not written again before the store has read it.

`mma.tma_store` copies a box from SMEM to global memory asynchronously, in the bulk group that the next
`nvvm.cp.async.bulk.commit.group` closes; its SMEM may be overwritten only after
`nvvm.cp.async.bulk.wait_group.read N` (or a wait without .read) has left at most N newer groups pending --
and, when one thread issues and waits while every thread writes the next box, after a barrier that orders
that wait before the other threads' writes. Neither ptxas nor compute-sanitizer's racecheck sees a violation
(the TMA unit's reads are not a thread's): the box is silently stored half-overwritten.

The check follows the thread that issues the stores (an scf.if whose condition guards a store is taken; its
else branch is not that thread's) through the kernel's structured control flow (control_flow.py), and, as
the wgmma checker does for accumulators, keeps every store that may still be reading its box: a write to
SMEM (mma.stmatrix_tile, nvvm.stmatrix, llvm.store to shared memory, mma.copy_to_smem) whose bytes may
overlap a pending store's box is an error naming the wait it needs; one that only a barrier separates from
the issuing thread's wait names the barrier. Addresses are compared as affine forms (addresses.py): two
boxes at the same symbol whose offsets differ by a constant overlap when their byte ranges do; offsets that
differ by anything else may overlap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from mmatom.dialects import mma, nvvm, nvvm_hopper

from .addresses import Affine, affine, is_shared
from .control_flow import function_bodies, run_block
from .errors import LifecycleError, at_line

UNCOMMITTED = -1
ANY_SIZE = 1 << 30  # a write of unknown extent (stmatrix's lanes, a copy): may reach any byte past its address


@dataclass(frozen=True)
class Pending:
    """A TMA store that may still be reading its SMEM box."""

    op: Operation
    box: Affine
    size: int
    newer_groups: int  # groups committed after its own (UNCOMMITTED: in none yet); the least on any path


@dataclass(frozen=True)
class State:
    pending: dict = field(default_factory=dict)  # tma_store op -> Pending
    groups: int = 0  # most committed groups pending on any path (a loop must not grow it)
    waited: dict = field(default_factory=dict)  # retired by the issuing thread's wait, no barrier since


def _merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for op, p in b.items():
        out[op] = replace(p, newer_groups=min(p.newer_groups, out[op].newer_groups)) if op in out else p
    return out


def _overlaps(a: Affine, a_size: int, b: Affine, b_size: int) -> bool:
    if a.base != b.base:
        return not (isinstance(a.base, str) and isinstance(b.base, str))  # two symbols never alias
    if a.terms != b.terms:
        return True  # a difference the forms cannot bound
    return a.const < b.const + b_size and b.const < a.const + a_size


def _written(op: Operation) -> tuple[SSAValue, int] | None:
    """(address, bytes) of SMEM `op` writes through the generic proxy; bytes 0 when not known (any)."""
    if isinstance(op, mma.StoreTileToSmemOp):
        return op.dst, mma.STMATRIX_BOX * op.box_row_bytes()  # 64 rows of the box
    if isinstance(op, nvvm_hopper.StMatrixOp):
        return op.ptr, 0
    if isinstance(op, llvm.StoreOp) and is_shared(op.ptr):
        bits = getattr(op.value.type, "bitwidth", 0) or 0
        return op.ptr, bits // 8
    if isinstance(op, mma.CopyToSmemOp):
        return op.dst, 0
    return None


class BulkStoreProtocol:
    """The TMA-store read protocol as a dataflow over control_flow's model (see the module docstring)."""

    def __init__(self, issuer_guards: frozenset):
        self.issuer_guards = issuer_guards

    def assume(self, op: scf.IfOp) -> bool | None:
        return True if op.cond in self.issuer_guards else None

    def join(self, a: State, b: State) -> State:
        return State(_merge(a.pending, b.pending), max(a.groups, b.groups), _merge(a.waited, b.waited))

    def bind(self, state: State, dests: Sequence[SSAValue], srcs: Sequence[SSAValue]) -> State:
        return state  # boxes are addresses, not carried values

    def no_fixed_point(self, loop: Operation, head: State, nxt: State) -> Exception:
        return LifecycleError(loop, f"{loop.name}: every iteration leaves one more bulk group of TMA stores pending "
                                    f"(its body commits groups without waiting for them); add "
                                    f"`nvvm.cp.async.bulk.wait_group.read N` in the body")

    def transfer(self, op: Operation, state: State) -> State:
        if isinstance(op, mma.TmaStoreOp):
            size = op.map.type.box.bytes if isinstance(op.map.type, mma.TensorMapType) else 0
            entry = Pending(op, affine(op.src), size, UNCOMMITTED)
            return replace(state, pending=_merge(state.pending, {op: entry}))  # re-issued round a loop: uncommitted
        if isinstance(op, nvvm_hopper.CpAsyncBulkCommitGroupOp):
            pending = {o: replace(p, newer_groups=p.newer_groups + 1) for o, p in state.pending.items()}
            return replace(state, pending=pending, groups=state.groups + 1)
        if isinstance(op, nvvm_hopper.CpAsyncBulkWaitGroupOp):
            n = op.group.value.data
            kept = {o: p for o, p in state.pending.items() if p.newer_groups < n}
            retired = {o: p for o, p in state.pending.items() if p.newer_groups >= n}
            # waited by the issuing thread alone: the other threads' writes still need a barrier after it
            waited = {**state.waited, **retired} if _under(op, self.issuer_guards) else state.waited
            return replace(state, pending=kept, groups=min(state.groups, n) if kept else 0, waited=waited)
        if isinstance(op, nvvm.BarrierOp):
            return replace(state, waited={})
        write = _written(op)
        if write is not None:
            address, size = write
            at, size = affine(address), size or ANY_SIZE
            for p in state.pending.values():
                if _overlaps(at, size, p.box, p.size):
                    wait = "first `nvvm.cp.async.bulk.commit.group`, then " if p.newer_groups == UNCOMMITTED else ""
                    raise LifecycleError(op, f"{op.name} writes SMEM that {p.op.name}{at_line(p.op)} may still be "
                                             f"reading (its box); wait for it with {wait}"
                                             f"`nvvm.cp.async.bulk.wait_group.read {max(p.newer_groups, 0)}` "
                                             f"before this write")
            if not _under(op, self.issuer_guards):
                for p in state.waited.values():
                    if _overlaps(at, size, p.box, p.size):
                        raise LifecycleError(op, f"{op.name} writes SMEM that {p.op.name}{at_line(p.op)} read; the "
                                                 f"issuing thread waited for it, but no barrier orders that wait "
                                                 f"before the other threads' writes: add `nvvm.barrier` (a named "
                                                 f"barrier of the threads that write) after the wait")
        if isinstance(op, llvm.ReturnOp) and any(p.newer_groups == UNCOMMITTED for p in state.pending.values()):
            first = next(p for p in state.pending.values() if p.newer_groups == UNCOMMITTED)
            raise LifecycleError(op, f"the kernel returns with {first.op.name} in no bulk group; add "
                                     f"`nvvm.cp.async.bulk.commit.group` (and a wait) before it")
        return state


def _under(op: Operation, guards: frozenset) -> bool:
    """Whether `op` is inside the then-region of an scf.if whose condition is one of `guards`."""
    while (parent := op.parent_op()) is not None and not isinstance(parent, llvm.FuncOp):
        if isinstance(parent, scf.IfOp) and parent.cond in guards and op.parent_region() is parent.true_region:
            return True
        op = parent
    return False


def _issuer_guards(body: Block) -> frozenset:
    """The conditions of the scf.if ops whose then-region holds a TMA store: the issuing thread takes them."""
    guards = set()
    for op in body.walk():
        if isinstance(op, mma.TmaStoreOp):
            inner = op
            while (parent := inner.parent_op()) is not None and not isinstance(parent, llvm.FuncOp):
                if isinstance(parent, scf.IfOp) and inner.parent_region() is parent.true_region:
                    guards.add(parent.cond)
                inner = parent
    return frozenset(guards)


def check_function(body: Block) -> None:
    if any(isinstance(op, mma.TmaStoreOp) for op in body.walk()):
        run_block(BulkStoreProtocol(_issuer_guards(body)), body, State())


class VerifyBulkStores(ModulePass):
    name = "verify-bulk-stores"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for body in function_bodies(op, self.name, ("mma.tma_store",)):
            check_function(body)


__all__ = ["VerifyBulkStores"]
