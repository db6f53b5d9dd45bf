"""PTX for the nvvm ops that are one fixed instruction each: special registers, the CTA barriers, the async
proxy fence and the wgmma fence / commit / wait."""

from __future__ import annotations

from mmatom.dialects import nvvm

from .ptx_function import PRED, PTXFunction, emits


@emits(nvvm.SpecialRegisterOp)
def special_register(fn: PTXFunction, op: nvvm.SpecialRegisterOp) -> None:
    fn.emit(f"mov.u32 {fn.define(op.res)}, %{op.register};")


@emits(nvvm.BarrierOp)
def barrier(fn: PTXFunction, op: nvvm.BarrierOp) -> None:
    where = fn.operand(op.barrierId) if op.barrierId is not None else "0"
    if op.numberOfThreads is not None:
        where += f", {fn.operand(op.numberOfThreads)}"
    if op.reductionOp is None:
        fn.emit(f"bar.sync {where};")
        return
    held = fn.new(PRED)
    fn.emit(f"setp.ne.b32 {held}, {fn.reg(op.reductionPredicate)}, 0;")
    kind = op.reductionOp.data.value
    if kind == "popc":
        fn.emit(f"bar.red.popc.u32 {fn.define(op.res)}, {where}, {held};")
        return
    reduced = fn.new(PRED)
    fn.emit(f"bar.red.{kind}.pred {reduced}, {where}, {held};")
    fn.emit(f"selp.u32 {fn.define(op.res)}, 1, 0, {reduced};")


@emits(nvvm.BarrierArriveOp)
def barrier_arrive(fn: PTXFunction, op: nvvm.BarrierArriveOp) -> None:
    bid = fn.operand(op.barrierId) if op.barrierId is not None else "0"
    fn.emit(f"bar.arrive {bid}, {fn.operand(op.numberOfThreads)};")


SATFINITE_PAIR_PTX = (8, 1)  # ptxas: "Modifier '.satfinite' on 'cvt.bf16x2.f32' requires PTX ISA .version 8.1"


@emits(nvvm.ConvertF32x2ToF16x2Op, nvvm.ConvertF32x2ToBF16x2Op)
def convert_f32x2(fn: PTXFunction, op: nvvm.ConvertF32x2ToF16x2Op | nvvm.ConvertF32x2ToBF16x2Op) -> None:
    """cvt.rn.bf16x2.f32 d, a, b: a to d's upper half, b to its lower."""
    mods = f".{op.rnd.data}{'.relu' * op.applies_relu}{'.satfinite' * op.satfinite}"
    if op.satfinite:
        fn.versions.append(SATFINITE_PAIR_PTX)
    fn.emit(f"cvt{mods}.{op.pair}.f32 {fn.define(op.dst)}, {fn.reg(op.srcA)}, {fn.reg(op.srcB)};")


@emits(nvvm.FenceProxyOp)
def fence_proxy(fn: PTXFunction, op: nvvm.FenceProxyOp) -> None:
    kind = op.kind.data
    space = f"::{op.space.data}" if op.space and kind == "async.shared" else ""
    fn.emit(f"fence.proxy.{kind}{space};")


@emits(nvvm.WgmmaFenceAlignedOp)
def wgmma_fence(fn: PTXFunction, op: nvvm.WgmmaFenceAlignedOp) -> None:
    fn.emit("wgmma.fence.sync.aligned;")


@emits(nvvm.WgmmaGroupSyncAlignedOp)
def wgmma_commit(fn: PTXFunction, op: nvvm.WgmmaGroupSyncAlignedOp) -> None:
    fn.emit("wgmma.commit_group.sync.aligned;")


@emits(nvvm.WgmmaWaitGroupSyncOp)
def wgmma_wait(fn: PTXFunction, op: nvvm.WgmmaWaitGroupSyncOp) -> None:
    fn.emit(f"wgmma.wait_group.sync.aligned {op.pending};")
