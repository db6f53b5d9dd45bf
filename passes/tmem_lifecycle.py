"""Tensor-memory lifecycle, checked on the mma-level kernel before lowering (`verify-tmem-lifecycle`).

Rules (ISA 9.7.16.7-9; reference D1, D8):
- every `mma.tmem_alloc` is freed by an `mma.tmem_dealloc` on every path to the kernel's return (a
  dealloc in one branch of an scf.if, or in a loop body that may run no time, is not enough);
- nothing uses an allocation, or a view of it, after its dealloc on any path (a second dealloc included,
  such as a dealloc in a loop body of an allocation made before the loop);
- one kernel uses one cta_group: mixing cta_group 1 and 2 is an error (ptxas refuses the kernel);
- no `mma.tmem_alloc` after `mma.tmem_relinquish`;
- the registers of an `mma.tmem_load` are read only after `nvvm.tcgen05.wait <load>`;
- an `mma.tmem_load` of a TMEM tile that an `mma.tcgen05` wrote needs, in between, that MMA committed
  (`mma.tcgen05_commit`) and an `nvvm.mbarrier.try_wait.parity` on that mbarrier.

The checks follow every path through the kernel's structured control flow (control_flow.py, the model
the wgmma checker shares); the cta_group rule is about the whole kernel, so it is checked in program order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from mmatom.dialects import mma, nvvm

from .control_flow import function_bodies, run_block
from .errors import LifecycleError

TMEM_OPS = ("mma.tmem", "mma.tcgen05", "nvvm.tcgen05")  # the ops whose rules this pass checks, by name prefix
CTA_GROUP_OPS = (mma.TmemAllocOp, mma.TmemDeallocOp, mma.TmemRelinquishOp, mma.Tcgen05CommitOp, mma.Tcgen05MmaOp)


def _root(v: SSAValue) -> SSAValue:
    """The allocation a TMEM value (a view of a view ...) belongs to."""
    while isinstance(v.owner, mma.TmemViewOp):
        v = v.owner.tmem
    return v


def _name(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "the allocation"


@dataclass(frozen=True)
class State:
    """What may hold on some path to this point (the join is a union)."""

    live: dict = field(default_factory=dict)  # allocation -> its mma.tmem_alloc, not freed on some path
    freed: dict = field(default_factory=dict)  # allocation -> an mma.tmem_dealloc that freed it on some path
    relinquished: Operation | None = None
    unwaited_loads: frozenset = frozenset()  # tmem_load results (and their renames) before a wait <load>
    uncommitted: dict = field(default_factory=dict)  # allocation -> mma.tcgen05 not yet committed
    committed: dict = field(default_factory=dict)  # allocation -> (mma, mbarrier) not yet waited on


def _merge(a: dict, b: dict) -> dict:
    return {**b, **a}  # keys of either; a's entry where both have one (only the diagnostic's wording differs)


class TmemProtocol:
    """The TMEM protocol as a dataflow over control_flow's model (see the module docstring)."""

    def join(self, a: State, b: State) -> State:
        return State(_merge(a.live, b.live), _merge(a.freed, b.freed), a.relinquished or b.relinquished,
                     a.unwaited_loads | b.unwaited_loads, _merge(a.uncommitted, b.uncommitted),
                     _merge(a.committed, b.committed))

    def bind(self, state: State, dests: Sequence[SSAValue], srcs: Sequence[SSAValue]) -> State:
        dests, srcs = list(dests), list(srcs)
        loads = (state.unwaited_loads - set(dests)) | {d for d, s in zip(dests, srcs) if s in state.unwaited_loads}
        return replace(state, unwaited_loads=frozenset(loads))

    def no_fixed_point(self, loop: Operation, head: State, nxt: State) -> Exception:
        return LifecycleError(loop, f"{loop.name}: the TMEM state does not settle from one iteration to the next")

    def transfer(self, op: Operation, state: State) -> State:
        _check_uses(op, state)
        if isinstance(op, mma.TmemAllocOp):
            if state.relinquished is not None:
                raise LifecycleError(op, "mma.tmem_alloc after mma.tmem_relinquish: this CTA gave up its permit to "
                                         "allocate")
            freed = {k: v for k, v in state.freed.items() if k != op.res}  # a fresh allocation (a new trip)
            return replace(state, live={**state.live, op.res: op}, freed=freed)
        if isinstance(op, mma.TmemRelinquishOp):
            return replace(state, relinquished=op)
        if isinstance(op, mma.TmemDeallocOp):
            root = _root(op.tmem)
            live = {k: v for k, v in state.live.items() if k != root}
            return replace(state, live=live, freed={**state.freed, root: op})
        if isinstance(op, mma.TmemLoadOp):
            _check_load(op, state)
            return replace(state, unwaited_loads=state.unwaited_loads | {op.res})
        if isinstance(op, nvvm.Tcgen05WaitOp) and op.kind.data == "load":
            return replace(state, unwaited_loads=frozenset())
        if isinstance(op, mma.Tcgen05MmaOp):
            return replace(state, uncommitted={**state.uncommitted, _root(op.d): op})
        if isinstance(op, mma.Tcgen05CommitOp):
            committed = {**state.committed, **{r: (m, op.mbar) for r, m in state.uncommitted.items()}}
            return replace(state, uncommitted={}, committed=committed)
        if isinstance(op, nvvm.MBarrierTryWaitParityOp):
            committed = {r: (m, mbar) for r, (m, mbar) in state.committed.items() if mbar != op.addr}
            return replace(state, committed=committed)
        if isinstance(op, llvm.ReturnOp):
            _check_freed(state)
        return state


def _check_uses(op: Operation, state: State) -> None:
    """A use after dealloc, of the allocation or of any view of it; a load's registers read before the wait."""
    for v in op.operands:
        if isinstance(v.type, mma.TmemType):
            root = _root(v)
            if root in state.freed:
                if state.freed[root] is op:
                    raise LifecycleError(op, f"mma.tmem_dealloc may free {_name(root)} twice: it runs again on a later "
                                             f"trip of its loop, but the allocation is made once, before the loop")
                raise LifecycleError(op, f"{op.name} uses {_name(root)} after its mma.tmem_dealloc")
        if v in state.unwaited_loads and not isinstance(op, mma.TmemLoadOp):
            raise LifecycleError(op, f"{op.name} reads the registers of an mma.tmem_load before "
                                     f"`nvvm.tcgen05.wait <load>`; wait for the load first")


def _check_load(op: mma.TmemLoadOp, state: State) -> None:
    root = _root(op.tmem)
    pending = state.uncommitted.get(root) or (state.committed[root][0] if root in state.committed else None)
    if pending is not None:
        need = "mma.tcgen05_commit and nvvm.mbarrier.try_wait.parity" if root in state.uncommitted else \
            "nvvm.mbarrier.try_wait.parity on the committed mbarrier"
        raise LifecycleError(op, f"mma.tmem_load reads {_name(root)} while the mma.tcgen05 writing it may still "
                                 f"run; {need} must come in between")


def _check_freed(state: State) -> None:
    """At the return, every allocation is freed on every path that reaches it."""
    for root, alloc in state.live.items():
        some_paths = root in state.freed
        raise LifecycleError(alloc, f"mma.tmem_alloc: {_name(root)} ({alloc.cols.value.data} columns) is not freed on "
                                    f"every path: " + ("its mma.tmem_dealloc runs on some paths only (in a branch or a "
                                    "loop body that may not run); free it on every path" if some_paths else
                                    "add mma.tmem_dealloc after its last use"))


def _check_one_cta_group(body: Block) -> None:
    first: tuple[int, Operation] | None = None
    for op in body.walk():
        if not isinstance(op, CTA_GROUP_OPS):
            continue
        group = op.cta_group.value.data
        if first is None:
            first = (group, op)
        elif first[0] != group:
            raise LifecycleError(op, f"{op.name} uses cta_group({group}) but {first[1].name} already used "
                                     f"cta_group({first[0]}); one kernel uses one cta_group (ptxas rejects "
                                     f"mixing .cta_group::1 and ::2)")


def check_function(body: Block) -> None:
    _check_one_cta_group(body)
    run_block(TmemProtocol(), body, State())


class VerifyTmemLifecycle(ModulePass):
    name = "verify-tmem-lifecycle"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for body in function_bodies(op, self.name, ("mma.", "nvvm.tcgen05")):
            if any(inner.name.startswith(TMEM_OPS) for inner in body.walk()):  # else no rule can apply
                check_function(body)
