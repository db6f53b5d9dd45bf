"""PTX for the tcgen05 / tensor-memory / mbarrier nvvm ops (reference D1-D8 spellings). The tcgen05.mma
atom is the op's own (`op.atom()`, decoded from its constant instruction descriptor) and is checked against
the module's chip like every other atom."""

from __future__ import annotations

from mmatom.atoms.catalogue.operand_order import instruction
from mmatom.atoms.catalogue.tmem import ldst_num
from mmatom.dialects import nvvm

from .ptx_function import B32, PRED, PTXFunction, emits


def _group(op) -> str:
    return f".cta_group::{op.ctas}"


@emits(nvvm.Tcgen05AllocOp)
def alloc(fn: PTXFunction, op: nvvm.Tcgen05AllocOp) -> None:
    fn.emit(f"tcgen05.alloc{_group(op)}.sync.aligned.shared::cta.b32 [{fn.reg(op.addr)}], {fn.operand(op.nCols)};")


@emits(nvvm.Tcgen05DeallocOp)
def dealloc(fn: PTXFunction, op: nvvm.Tcgen05DeallocOp) -> None:
    fn.emit(f"tcgen05.dealloc{_group(op)}.sync.aligned.b32 {fn.reg(op.taddr)}, {fn.operand(op.nCols)};")


@emits(nvvm.Tcgen05RelinquishOp)
def relinquish(fn: PTXFunction, op: nvvm.Tcgen05RelinquishOp) -> None:
    fn.emit(f"tcgen05.relinquish_alloc_permit{_group(op)}.sync.aligned;")


@emits(nvvm.Tcgen05CommitOp)
def commit(fn: PTXFunction, op: nvvm.Tcgen05CommitOp) -> None:
    fn.emit(f"tcgen05.commit{_group(op)}.mbarrier::arrive::one.shared::cluster.b64 [{fn.reg(op.addr)}];")


@emits(nvvm.Tcgen05FenceOp)
def fence(fn: PTXFunction, op: nvvm.Tcgen05FenceOp) -> None:
    fn.emit(f"tcgen05.fence::{op.kind.data}_thread_sync;")


@emits(nvvm.Tcgen05WaitOp)
def wait(fn: PTXFunction, op: nvvm.Tcgen05WaitOp) -> None:
    fn.emit(f"tcgen05.wait::{'ld' if op.kind.data == 'load' else 'st'}.sync.aligned;")


def _ldst(shape: str, registers: int) -> str:
    return f".sync.aligned.{shape}.x{ldst_num(shape, registers)}"


@emits(nvvm.Tcgen05LdOp)
def load(fn: PTXFunction, op: nvvm.Tcgen05LdOp) -> None:
    n = op.res.type.get_shape()[0]
    regs = [fn.new(B32) for _ in range(n)]
    fn.bind(op.res, regs)
    pack = ".pack::16b" if op.pack is not None else ""
    fn.emit(f"tcgen05.ld{_ldst(nvvm.ldst_shape(op), n)}{pack}.b32 {{{', '.join(regs)}}}, [{fn.reg(op.tmemAddr)}];")


@emits(nvvm.Tcgen05StOp)
def store(fn: PTXFunction, op: nvvm.Tcgen05StOp) -> None:
    regs = fn.reg(op.val)
    unpack = ".unpack::16b" if op.unpack is not None else ""
    fn.emit(f"tcgen05.st{_ldst(nvvm.ldst_shape(op), len(regs))}{unpack}.b32 [{fn.reg(op.tmemAddr)}], "
            f"{{{', '.join(regs)}}};")


@emits(*nvvm.TCGEN05_MMA_OPS)
def mma(fn: PTXFunction, op) -> None:
    atom = fn.use_atom(op)
    roles = dict(d=fn.reg(op.matrixD), a=fn.reg(op.matrixA), b=fn.reg(op.matrixB), idesc=fn.reg(op.idesc),
                 enable_input_d=fn.reg(op.enableInputD))
    if atom.sparse:
        roles["e"] = fn.reg(op.sparseMetadata)
    if isinstance(op, (nvvm.Tcgen05MmaBlockScaleOp, nvvm.Tcgen05MmaSpBlockScaleOp)):
        roles.update(sfa=fn.reg(op.scaleA), sfb=fn.reg(op.scaleB))
    elif op.disableOutputLane is not None:
        roles["disable_output_lane"] = fn.reg(op.disableOutputLane)
    fn.emit(instruction(atom, **roles))


@emits(nvvm.MBarrierInitOp)
def mbarrier_init(fn: PTXFunction, op: nvvm.MBarrierInitOp) -> None:
    fn.emit(f"mbarrier.init.shared::cta.b64 [{fn.reg(op.addr)}], {fn.reg(op.count)};")


@emits(nvvm.MBarrierTryWaitParityOp)
def mbarrier_wait(fn: PTXFunction, op: nvvm.MBarrierTryWaitParityOp) -> None:
    """try_wait returns false when its time hint runs out before the phase completes: loop until it is."""
    done, again = fn.new(PRED), fn.label("mbar_wait")
    fn.place(again)
    scope = ".acquire.cluster" if op.scope is not None and op.scope.data == "cluster" else ""
    fn.emit(f"mbarrier.try_wait.parity{scope}.shared::cta.b64 {done}, [{fn.reg(op.addr)}], {fn.reg(op.phase)}, "
            f"{fn.reg(op.ticks)};")
    fn.emit(f"@!{done} bra {again};")
