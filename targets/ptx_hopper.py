"""PTX for the Hopper data path (nvvm_hopper ops): TMA loads and stores, bulk groups, mbarrier arrivals,
setmaxnreg, elect.sync, stmatrix, cluster barriers and mapa, griddepcontrol, and SM80's cp.async -- each the form
../shared/reference/gemm-sm90.md assembled and ran."""

from __future__ import annotations

from mmatom.dialects import nvvm_cp_async as cpa
from mmatom.dialects import nvvm_hopper as hop

from .ptx_function import PTXFunction, emits

ST_ASYNC_PTX = (8, 1)  # st.async's first PTX ISA


@emits(hop.MBarrierArriveOp)
def mbarrier_arrive(fn: PTXFunction, op: hop.MBarrierArriveOp) -> None:
    scope = ".release.cluster" if op.scope is not None and op.scope.data == "cluster" else ""
    space = "cluster" if op.remote else "cta"
    fn.emit(f"mbarrier.arrive{scope}.shared::{space}.b64 _, [{fn.reg(op.addr)}];")


@emits(hop.MapaOp)
def mapa(fn: PTXFunction, op: hop.MapaOp) -> None:
    fn.emit(f"mapa.shared::cluster.u64 {fn.define(op.res)}, {fn.reg(op.a)}, {fn.operand(op.b)};")


@emits(hop.ClusterArriveOp)
def cluster_arrive(fn: PTXFunction, op: hop.ClusterArriveOp) -> None:
    fn.emit(f"barrier.cluster.arrive.release{'.aligned' if op.aligned else ''};")


@emits(hop.ClusterWaitOp)
def cluster_wait(fn: PTXFunction, op: hop.ClusterWaitOp) -> None:
    fn.emit(f"barrier.cluster.wait.acquire{'.aligned' if op.aligned else ''};")


@emits(hop.MBarrierArriveExpectTxOp)
def mbarrier_arrive_expect_tx(fn: PTXFunction, op: hop.MBarrierArriveExpectTxOp) -> None:
    space = ".release.cluster.shared::cluster" if op.remote else ".shared::cta"
    fn.emit(f"mbarrier.arrive.expect_tx{space}.b64 _, [{fn.reg(op.addr)}], {fn.operand(op.txcount)};")


@emits(hop.StAsyncOp)
def st_async(fn: PTXFunction, op: hop.StAsyncOp) -> None:
    fn.versions.append(ST_ASYNC_PTX)
    words = ", ".join(fn.operand(w) for w in op.words)
    fn.emit(f"st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [{fn.reg(op.addr)}], {{{words}}}, "
            f"[{fn.reg(op.mbar)}];")


@emits(hop.FenceMbarrierInitOp)
def fence_mbarrier_init(fn: PTXFunction, op: hop.FenceMbarrierInitOp) -> None:
    fn.emit("fence.mbarrier_init.release.cluster;")


def _box(fn: PTXFunction, op) -> tuple[int, str]:
    coords = [fn.operand(c) for c in op.coordinates]
    return len(coords), "{" + ", ".join(coords) + "}"


@emits(hop.CpAsyncBulkTensorSharedClusterGlobalOp)
def tma_load(fn: PTXFunction, op: hop.CpAsyncBulkTensorSharedClusterGlobalOp) -> None:
    rank, box = _box(fn, op)
    multicast = ".multicast::cluster" if op.multicastMask is not None else ""
    mask = f", {fn.reg(op.multicastMask)}" if op.multicastMask is not None else ""
    fn.emit(f"cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes{multicast} "
            f"[{fn.reg(op.dstMem)}], [{fn.reg(op.tmaDescriptor)}, {box}], [{fn.reg(op.mbar)}]{mask};")


@emits(hop.CpAsyncBulkSharedClusterGlobalOp)
def bulk_load(fn: PTXFunction, op: hop.CpAsyncBulkSharedClusterGlobalOp) -> None:
    fn.emit(f"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{fn.reg(op.dstMem)}], "
            f"[{fn.reg(op.srcMem)}], {fn.operand(op.size)}, [{fn.reg(op.mbar)}];")


@emits(hop.CpAsyncBulkTensorGlobalSharedCtaOp)
def tma_store(fn: PTXFunction, op: hop.CpAsyncBulkTensorGlobalSharedCtaOp) -> None:
    rank, box = _box(fn, op)
    fn.emit(f"cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group [{fn.reg(op.tmaDescriptor)}, {box}], "
            f"[{fn.reg(op.srcMem)}];")


@emits(hop.CpAsyncBulkTensorReduceOp)
def tma_reduce(fn: PTXFunction, op: hop.CpAsyncBulkTensorReduceOp) -> None:
    rank, box = _box(fn, op)
    fn.emit(f"cp.reduce.async.bulk.tensor.{rank}d.global.shared::cta.{op.redKind.data}.tile.bulk_group "
            f"[{fn.reg(op.tmaDescriptor)}, {box}], [{fn.reg(op.srcMem)}];")


@emits(hop.CpAsyncBulkCommitGroupOp)
def bulk_commit(fn: PTXFunction, op: hop.CpAsyncBulkCommitGroupOp) -> None:
    fn.emit("cp.async.bulk.commit_group;")


@emits(hop.CpAsyncBulkWaitGroupOp)
def bulk_wait(fn: PTXFunction, op: hop.CpAsyncBulkWaitGroupOp) -> None:
    fn.emit(f"cp.async.bulk.wait_group{'.read' if op.read else ''} {op.group.value.data};")


@emits(hop.PrefetchTensormapOp)
def prefetch_tensormap(fn: PTXFunction, op: hop.PrefetchTensormapOp) -> None:
    fn.emit(f"prefetch.tensormap [{fn.reg(op.addr)}];")


@emits(hop.SetMaxRegisterOp)
def setmaxnreg(fn: PTXFunction, op: hop.SetMaxRegisterOp) -> None:
    fn.emit(f"setmaxnreg.{'inc' if op.increase else 'dec'}.sync.aligned.u32 {op.count};")


@emits(hop.ElectSyncOp)
def elect_sync(fn: PTXFunction, op: hop.ElectSyncOp) -> None:
    fn.emit(f"elect.sync _|{fn.define(op.pred)}, 0xffffffff;")


@emits(hop.GriddepcontrolWaitOp)
def griddepcontrol_wait(fn: PTXFunction, op: hop.GriddepcontrolWaitOp) -> None:
    fn.emit("griddepcontrol.wait;")


@emits(hop.GriddepcontrolLaunchDependentsOp)
def griddepcontrol_launch_dependents(fn: PTXFunction, op: hop.GriddepcontrolLaunchDependentsOp) -> None:
    fn.emit("griddepcontrol.launch_dependents;")


@emits(hop.StMatrixOp)
def stmatrix(fn: PTXFunction, op: hop.StMatrixOp) -> None:
    regs = ", ".join(fn.reg(s) for s in op.sources)
    trans = ".trans" if op.transposed else ""
    fn.emit(f"stmatrix.sync.aligned.m8n8.x{len(op.sources)}{trans}.shared.b16 [{fn.reg(op.ptr)}], {{{regs}}};")





# -- SM80's cp.async (used by Hopper kernels for what TMA cannot address: rows off 16 bytes) --------------------

@emits(cpa.CpAsyncOp)
def cp_async(fn: PTXFunction, op: cpa.CpAsyncOp) -> None:
    src_bytes = f", {fn.operand(op.cpSize)}" if op.cpSize is not None else ""
    fn.emit(f"cp.async.{op.cache}.shared.global [{fn.reg(op.dst)}], [{fn.reg(op.src)}], {op.bytes}{src_bytes};")


@emits(cpa.CpAsyncCommitGroupOp)
def cp_async_commit(fn: PTXFunction, op: cpa.CpAsyncCommitGroupOp) -> None:
    fn.emit("cp.async.commit_group;")


@emits(cpa.CpAsyncWaitGroupOp)
def cp_async_wait(fn: PTXFunction, op: cpa.CpAsyncWaitGroupOp) -> None:
    fn.emit(f"cp.async.wait_group {op.pending};")
