"""Tensor-memory lifecycle, checked on the mma-level kernel before lowering (`verify-tmem-lifecycle`).

Rules (ISA 9.7.16.7-9; reference D1, D8):
- every `mma.tmem_alloc` is freed by an `mma.tmem_dealloc` in its own block (so on every path; a dealloc
  nested in scf.if / scf.for may not run);
- nothing uses an allocation, or a view of it, after its dealloc (a second dealloc included);
- one kernel uses one cta_group: mixing cta_group 1 and 2 is an error (ptxas refuses the kernel);
- no `mma.tmem_alloc` after `mma.tmem_relinquish`;
- the registers of an `mma.tmem_load` are read only after `nvvm.tcgen05.wait <load>`;
- an `mma.tmem_load` of a TMEM tile that an `mma.tcgen05` wrote needs, in between, that MMA committed
  (`mma.tcgen05_commit`) and an `nvvm.mbarrier.try_wait.parity` on that mbarrier.

The checks follow program order within each function body, descending into nested regions in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from mmatom.dialects import mma, nvvm

from .errors import LifecycleError

CTA_GROUP_OPS = (mma.TmemAllocOp, mma.TmemDeallocOp, mma.TmemRelinquishOp, mma.Tcgen05CommitOp, mma.Tcgen05MmaOp)


def _root(v: SSAValue) -> SSAValue:
    """The allocation a TMEM value (a view of a view ...) belongs to."""
    while isinstance(v.owner, mma.TmemViewOp):
        v = v.owner.tmem
    return v


def _name(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "the allocation"


def _walk(block: Block):
    for op in block.ops:
        yield op
        for region in op.regions:
            for inner in region.blocks:
                yield from _walk(inner)


@dataclass
class _State:
    freed: dict = field(default_factory=dict)  # allocation -> its dealloc
    cta_group: tuple[int, Operation] | None = None
    relinquished: Operation | None = None
    unwaited_loads: set = field(default_factory=set)  # tmem_load results before a wait <load>
    uncommitted: dict = field(default_factory=dict)  # allocation -> mma.tcgen05 not yet committed
    committed: dict = field(default_factory=dict)  # allocation -> (mma, commit) not yet waited on


def check_function(body: Block) -> None:
    state = _State()
    for op in _walk(body):
        _check_op(op, state)
    _check_freed(body)


def _check_freed(block: Block) -> None:
    """A dealloc in the allocation's own block runs on every path through it (structured control flow:
    a function returns only at the end of its body, and a dealloc nested in scf.if / scf.for may not run)."""
    for op in _walk(block):
        if not isinstance(op, mma.TmemAllocOp):
            continue
        home = op.parent_block()
        if not any(isinstance(u.operation, mma.TmemDeallocOp) and u.operation.parent_block() is home
                   for u in op.res.uses):
            nested = any(isinstance(u.operation, mma.TmemDeallocOp) for u in op.res.uses)
            raise LifecycleError(op, f"mma.tmem_alloc: {_name(op.res)} ({op.cols.value.data} columns) is not freed on "
                                    f"every path: " + ("its mma.tmem_dealloc sits in a nested region that may not run; "
                                    "free it in the allocation's own block" if nested else
                                    "add mma.tmem_dealloc after its last use"))


def _check_op(op: Operation, state: _State) -> None:
    # a use after dealloc, of the allocation or of any view of it
    for v in op.operands:
        if isinstance(v.type, mma.TmemType):
            root = _root(v)
            if root in state.freed:
                raise LifecycleError(op, f"{op.name} uses {_name(root)} after its mma.tmem_dealloc")
        if v in state.unwaited_loads and not isinstance(op, mma.TmemLoadOp):
            raise LifecycleError(op, f"{op.name} reads the registers of an mma.tmem_load before "
                                    f"`nvvm.tcgen05.wait <load>`; wait for the load first")
    if isinstance(op, CTA_GROUP_OPS):
        group = op.cta_group.value.data
        if state.cta_group is None:
            state.cta_group = (group, op)
        elif state.cta_group[0] != group:
            raise LifecycleError(op, f"{op.name} uses cta_group({group}) but {state.cta_group[1].name} already used "
                                    f"cta_group({state.cta_group[0]}); one kernel uses one cta_group (ptxas rejects "
                                    f"mixing .cta_group::1 and ::2)")
    if isinstance(op, mma.TmemAllocOp) and state.relinquished is not None:
        raise LifecycleError(op, "mma.tmem_alloc after mma.tmem_relinquish: this CTA gave up its permit to allocate")
    if isinstance(op, mma.TmemRelinquishOp):
        state.relinquished = op
    if isinstance(op, mma.TmemDeallocOp):
        state.freed[_root(op.tmem)] = op
    if isinstance(op, mma.TmemLoadOp):
        root = _root(op.tmem)
        pending = state.uncommitted.get(root) or (state.committed[root][0] if root in state.committed else None)
        if pending is not None:
            need = "mma.tcgen05_commit and nvvm.mbarrier.try_wait.parity" if root in state.uncommitted else \
                "nvvm.mbarrier.try_wait.parity on the committed mbarrier"
            raise LifecycleError(op, f"mma.tmem_load reads {_name(root)} while the mma.tcgen05 writing it may still "
                                    f"run; {need} must come in between")
        state.unwaited_loads.add(op.res)
    if isinstance(op, nvvm.Tcgen05WaitOp) and op.kind.data == "load":
        state.unwaited_loads.clear()
    if isinstance(op, mma.Tcgen05MmaOp):
        state.uncommitted[_root(op.d)] = op
    if isinstance(op, mma.Tcgen05CommitOp):
        for root, mma_op in state.uncommitted.items():
            state.committed[root] = (mma_op, op.mbar)
        state.uncommitted.clear()
    if isinstance(op, nvvm.MBarrierTryWaitParityOp):
        for root in [r for r, (_, mbar) in state.committed.items() if mbar == op.addr]:
            del state.committed[root]


class VerifyTmemLifecycle(ModulePass):
    name = "verify-tmem-lifecycle"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, llvm.FuncOp) and inner.body.blocks:
                check_function(inner.body.block)
