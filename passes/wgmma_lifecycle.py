"""The wgmma async protocol, checked on the mma-level kernel before lowering (`verify-wgmma-lifecycle`).

PTX (ISA 9.7.15) lets a warpgroup issue wgmma.mma_async and keep going; the accumulator registers (and
an RS A fragment) belong to the tensor core until a wgmma.wait_group retires the group holding that
wgmma. In SSA the accumulator is C in and D out of `mma.wgmma`, lowered onto the same registers, so:

- a wgmma whose C or A was produced by an ordinary op needs an `nvvm.wgmma.fence.aligned` between that op
  and itself (a D chained into the next wgmma's C needs none);
- `nvvm.wgmma.commit.group.sync.aligned` closes a group of the wgmma issued since the last commit;
  `nvvm.wgmma.wait.group.sync.aligned N` retires every group but the N most recent ones;
- any other use of a D, C or RS A of an in-flight wgmma is an error that names the wait it needs, and a
  block must not end with wgmma in flight;
- SMEM written through the generic proxy (mma.copy_to_smem, llvm.store to !llvm.ptr<3>) must be followed
  by `nvvm.fence.proxy {kind = async.shared}` and an `nvvm.barrier` before a wgmma reads SMEM.

Each block is checked in order on its own; ops with regions start their blocks with nothing in flight.
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

FENCE = "nvvm.wgmma.fence.aligned"
COMMIT = "nvvm.wgmma.commit.group.sync.aligned"
WAIT = "nvvm.wgmma.wait.group.sync.aligned"


def _describe(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "a value"


@dataclass
class _State:
    fenced: set = field(default_factory=set)  # fragment values defined before the last wgmma.fence
    uncommitted: list = field(default_factory=list)  # wgmma issued since the last commit
    groups: list = field(default_factory=list)  # committed groups still in flight, oldest first
    smem_write: Operation | None = None  # generic-proxy SMEM write not yet fenced for the async proxy
    smem_unsynced: Operation | None = None  # fenced, but no barrier since

    def in_flight(self) -> list[tuple[mma.WgmmaOp, int | None]]:
        """(wgmma, index of its group or None when uncommitted)."""
        out = [(w, i) for i, g in enumerate(self.groups) for w in g]
        return out + [(w, None) for w in self.uncommitted]

    def busy(self) -> dict[SSAValue, tuple[mma.WgmmaOp, int | None]]:
        out = {}
        for w, g in self.in_flight():
            for v in _registers_of(w):
                out[v] = (w, g)
        return out


def _registers_of(w: mma.WgmmaOp) -> list[SSAValue]:
    regs = [w.c, w.d]
    if isinstance(w.a.type, mma.FragmentType):
        regs.append(w.a)
    return regs


def _needed_wait(state: _State, group: int | None) -> str:
    if group is None:
        return f"`{COMMIT}` then `{WAIT} 0`"
    keep = len(state.groups) - group - 1
    return f"`{WAIT} {keep}`"


def check_block(block: Block) -> None:
    state = _State()
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                check_block(inner)
        name = op.name
        if name == FENCE:
            _mark_fenced(state, block, op)  # everything defined so far is fenced
            continue
        if name == COMMIT:
            if state.uncommitted:
                state.groups.append(state.uncommitted)
                state.uncommitted = []
            continue
        if isinstance(op, nvvm.WgmmaWaitGroupSyncOp):
            n = op.pending
            state.groups = state.groups[len(state.groups) - n:] if n else []
            continue
        if isinstance(op, nvvm.FenceProxyOp):
            if op.kind.data in ("async", "async.shared") and state.smem_write is not None:
                state.smem_unsynced, state.smem_write = state.smem_write, None
            continue
        if isinstance(op, nvvm.BarrierOp):
            state.smem_unsynced = None
            continue
        if isinstance(op, mma.CopyToSmemOp) or (isinstance(op, llvm.StoreOp) and _shared(op.ptr)):
            state.smem_write = op
            continue
        busy = state.busy()
        if isinstance(op, (mma.WgmmaOp, mma.WgmmaTileOp)):
            _check_wgmma(op, state, busy)
            state.uncommitted.append(op)
            continue
        for v in op.operands:
            if v in busy:
                w, g = busy[v]
                role = "accumulator" if v in (w.c, w.d) else "A fragment"
                raise LifecycleError(
                    op, f"{op.name} uses {_describe(v)}, the {role} of an mma.wgmma still in flight; retire it "
                        f"first with {_needed_wait(state, g)}")
        if isinstance(op, llvm.ReturnOp) and state.in_flight():
            w, g = state.in_flight()[0]
            raise LifecycleError(op, f"the kernel returns with mma.wgmma in flight; add {_needed_wait(state, g)} "
                                    f"before it")
    if state.in_flight() and block.last_op is not None and not isinstance(block.last_op, llvm.ReturnOp):
        w, g = state.in_flight()[0]
        raise LifecycleError(w, f"mma.wgmma is still in flight at the end of its block; add {_needed_wait(state, g)}")


def _mark_fenced(state: _State, block: Block, fence: Operation) -> None:
    for op in block.ops:
        if op is fence:
            break
        state.fenced.update(op.results)
    state.fenced.update(block.args)


def _shared(ptr: SSAValue) -> bool:
    t = ptr.type
    return isinstance(t, llvm.LLVMPointerType) and getattr(t.addr_space, "data", 0) == 3


def _check_wgmma(op: mma.WgmmaOp, state: _State, busy: dict) -> None:
    chained = {w.d for w, _ in state.in_flight()}
    for role, v in (("C", op.c), ("A", op.a)):
        if not isinstance(v.type, mma.FragmentType):
            continue
        if role == "C" and v in chained:
            continue  # accumulating into the previous wgmma's D: ordered by the hardware
        if v in busy:
            w, g = busy[v]
            raise LifecycleError(op, f"mma.wgmma: operand {role} {_describe(v)} belongs to an mma.wgmma still in "
                                    f"flight; retire it first with {_needed_wait(state, g)}")
        produced_here = isinstance(v.owner, Operation) and v.owner.parent_block() is op.parent_block()
        from_wgmma = isinstance(v.owner, mma.WgmmaOp)
        if produced_here and not from_wgmma and v not in state.fenced:
            raise LifecycleError(op, f"mma.wgmma: operand {role} {_describe(v)} was written after the last `{FENCE}`"
                                    f" (or none was issued); insert `{FENCE}` between its definition and this wgmma")
    if isinstance(op.b.type, mma.SmemDescType) or isinstance(op.a.type, mma.SmemDescType):
        if state.smem_write is not None:
            raise LifecycleError(op, f"mma.wgmma reads SMEM that {state.smem_write.name} wrote through the generic "
                                    f"proxy; insert `nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, "
                                    f"space = #nvvm.shared_space<cta>}}` and `nvvm.barrier` before it")
        if state.smem_unsynced is not None:
            raise LifecycleError(op, f"mma.wgmma reads SMEM that other threads wrote ({state.smem_unsynced.name}); "
                                    f"insert `nvvm.barrier` after the proxy fence")


class VerifyWgmmaLifecycle(ModulePass):
    name = "verify-wgmma-lifecycle"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, llvm.FuncOp) and inner.body.blocks:
                check_block(inner.body.block)
