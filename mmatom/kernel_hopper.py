"""KernelBuilder's Hopper data path (sm_90a): tensor maps, TMA, mbarriers, warp roles, integer arithmetic for
indexing, structured `if`, and stmatrix -- what a warp-specialized, TMA-fed wgmma kernel is built from.
Mixed into KernelBuilder; every op is located at the DSL's line like the rest of the builder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IntAttr, IntegerType, f32, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from mmatom.dialects import nvvm, nvvm_hopper
from mmatom.dialects.mma import StoreTileToSmemOp, TmaLoadOp, TmaStoreOp
from mmatom.dialects.mma_types import SmemDescType, TensorMapType
from mmatom.dialects.nvvm import MMALayoutAttr

from .errors import api_error

SHARED = llvm.LLVMPointerType(IntAttr(3))
SCALAR_TYPES = {"f32": f32, "i32": i32}
WAIT_TICKS = 10_000_000  # try_wait's time hint (ns) before it returns false and the loop retries


@dataclass
class If:
    """`scf.if` being built: `with kb.if_(cond) as branch: ...` then, optionally, `with branch.otherwise(): ...`."""

    kb: object
    op: scf.IfOp
    _outer: InsertPoint | None = field(default=None, repr=False)

    def __enter__(self) -> If:
        self._outer = self.kb.builder.insertion_point
        self.kb.builder.insertion_point = InsertPoint.at_end(self.op.true_region.block)
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.kb.builder.insert(scf.YieldOp())
        self.kb.builder.insertion_point = self._outer

    def otherwise(self) -> _Else:
        return _Else(self)


@dataclass
class _Else:
    branch: If
    _outer: InsertPoint | None = None

    def __enter__(self) -> None:
        kb = self.branch.kb
        self._outer = kb.builder.insertion_point
        region = self.branch.op.false_region
        if not region.blocks:
            region.add_block(Block())
        elif region.block.ops:
            raise api_error("this if already has an otherwise() branch")
        kb.builder.insertion_point = InsertPoint.at_end(region.block)

    def __exit__(self, kind, value, traceback) -> None:
        kb = self.branch.kb
        kb.builder.insert(scf.YieldOp())
        kb.builder.insertion_point = self._outer


def _int(kb, v: SSAValue | int) -> SSAValue:
    return kb.const(v) if isinstance(v, int) else v


class HopperOps:
    """The methods KernelBuilder gains for sm_90 data paths (see module docstring)."""

    # -- integer arithmetic on i32 indices ------------------------------------------------------------------

    def sub(self, a, b) -> SSAValue:
        return self.builder.insert(arith.SubiOp(_int(self, a), _int(self, b))).result

    def div(self, a, b) -> SSAValue:
        """Unsigned a / b."""
        return self.builder.insert(arith.DivUIOp(_int(self, a), _int(self, b))).result

    def rem(self, a, b) -> SSAValue:
        """Unsigned a % b."""
        return self.builder.insert(arith.RemUIOp(_int(self, a), _int(self, b))).result

    def min(self, a, b) -> SSAValue:
        return self.builder.insert(arith.MinUIOp(_int(self, a), _int(self, b))).result

    def xor(self, a, b) -> SSAValue:
        return self.builder.insert(arith.XOrIOp(_int(self, a), _int(self, b))).result

    def and_(self, a, b) -> SSAValue:
        return self.builder.insert(arith.AndIOp(_int(self, a), _int(self, b))).result

    def cmpi(self, predicate: str, a, b) -> SSAValue:
        """An i1 from arith.cmpi (`"eq"`, `"ne"`, `"ult"`, `"uge"`, `"slt"`, ... as in MLIR)."""
        return self.builder.insert(arith.CmpiOp(_int(self, a), _int(self, b), predicate)).result

    def nctaid(self, dim: str = "x") -> SSAValue:
        """The grid's extent in CTAs (`%nctaid.x`), i32."""
        return self._sreg(f"nctaid.{dim}")

    def offset(self, ptr: SSAValue, nbytes) -> SSAValue:
        """`ptr + nbytes` (bytes; an int or an i32 value) in the pointer's address space."""
        if isinstance(nbytes, int):
            return self.builder.insert(llvm.GEPOp(ptr, [nbytes], pointee_type=IntegerType(8),
                                                  result_type=ptr.type)).result
        return self.builder.insert(llvm.GEPOp(ptr, [llvm.GEP_USE_SSA_VAL], ssa_indices=[nbytes],
                                              pointee_type=IntegerType(8), result_type=ptr.type)).result

    # -- structured control flow ----------------------------------------------------------------------------

    def if_(self, condition: SSAValue) -> If:
        """`scf.if condition` (no results): `with kb.if_(c) as branch: ...`, `with branch.otherwise(): ...`."""
        op = scf.IfOp(condition, [], Region(Block()), Region())
        self.builder.insert(op)
        return If(self, op)

    # -- warp roles -----------------------------------------------------------------------------------------

    def setmaxnreg(self, action: str, count: int) -> None:
        """This warpgroup's registers per thread become `count` (`"increase"` or `"decrease"`; a multiple of 8 in
        [24, 256]); the kernel needs `min_ctas_per_sm=1` for ptxas to honour it."""
        if action not in nvvm_hopper.SETMAXNREG_ACTIONS:
            raise api_error(f"setmaxnreg: action {action!r} is not one of increase, decrease")
        self.builder.insert(nvvm_hopper.SetMaxRegisterOp(action, count))

    def elect(self) -> SSAValue:
        """i1, true in one lane of the warp (elect.sync)."""
        return self.builder.insert(nvvm_hopper.ElectSyncOp()).pred

    def named_barrier(self, barrier_id: SSAValue | int, threads: int) -> None:
        """bar.sync id, threads: `threads` threads (a multiple of 32) arriving at barrier `id` (1..15; 0 is
        kb.barrier()'s) wait for each other."""
        self.builder.insert(nvvm.BarrierOp(_int(self, barrier_id), self.const(threads)))

    def named_barrier_arrive(self, barrier_id: SSAValue | int, threads: int) -> None:
        """bar.arrive id, threads: this thread counts towards named barrier `id` of `threads` threads and goes on
        (the threads that must wait use named_barrier on the same id and count)."""
        self.builder.insert(nvvm.BarrierArriveOp(_int(self, barrier_id), self.const(threads)))

    # -- mbarriers ------------------------------------------------------------------------------------------

    def mbarrier_init(self, bar: SSAValue, count: int) -> None:
        self.builder.insert(nvvm.MBarrierInitOp.build(operands=[bar, self.const(count)]))

    def fence_mbarrier_init(self) -> None:
        """After the inits, before any other thread or the TMA unit uses the barriers (then a CTA barrier)."""
        self.builder.insert(nvvm_hopper.FenceMbarrierInitOp())

    def mbarrier_arrive(self, bar: SSAValue, scope: str | None = None) -> None:
        """This thread's arrival (release at CTA scope; `scope="cluster"` also publishes its earlier writes to
        the peer CTA that waits on a remote barrier -- costly: ptxas fences the GPU's memory first)."""
        self.builder.insert(nvvm_hopper.MBarrierArriveOp(bar, scope))

    def mbarrier_arrive_expect_tx(self, bar: SSAValue, nbytes: int | SSAValue) -> None:
        self.builder.insert(nvvm_hopper.MBarrierArriveExpectTxOp(bar, _int(self, nbytes)))

    def mbarrier_wait(self, bar: SSAValue, phase: SSAValue | int) -> None:
        """Until the barrier's phase of this parity (0/1) has completed."""
        self.builder.insert(nvvm.MBarrierTryWaitParityOp.build(
            operands=[bar, _int(self, phase), self.const(WAIT_TICKS)]))

    # -- thread-block clusters -----------------------------------------------------------------------------

    def cluster_rank(self) -> SSAValue:
        """This CTA's rank in its cluster (`%cluster_ctarank`), i32."""
        return self._sreg("cluster.ctarank")

    def cluster_id(self, dim: str = "x") -> SSAValue:
        """The cluster's index in the grid (`%clusterid.x`), i32."""
        return self._sreg(f"clusterid.{dim}")

    def cluster_count(self, dim: str = "x") -> SSAValue:
        """The grid's extent in clusters (`%nclusterid.x`), i32."""
        return self._sreg(f"nclusterid.{dim}")

    def cluster_sync(self) -> None:
        """Every thread of every CTA of the cluster meets (barrier.cluster arrive.release + wait.acquire): after
        mbarrier inits before a peer may signal them, and before exit while a peer may still write here."""
        self.builder.insert(nvvm_hopper.ClusterArriveOp())
        self.builder.insert(nvvm_hopper.ClusterWaitOp())

    def mapa(self, ptr: SSAValue, rank: SSAValue | int) -> SSAValue:
        """The address of the same shared variable in CTA `rank` of the cluster (`!llvm.ptr<7>`); an
        mbarrier_arrive on it is a remote arrival."""
        return self.builder.insert(nvvm_hopper.MapaOp(ptr, _int(self, rank))).res

    # -- TMA ------------------------------------------------------------------------------------------------

    def tma_load(self, tensor_map: SSAValue, row, col, dst: SSAValue, bar: SSAValue, tile: SmemDescType,
                 multicast: SSAValue | int | None = None) -> None:
        """The box of `tensor_map` whose first element is (row, col) into SMEM at `dst`, laid out as `tile` (the
        verifier checks that the box lands exactly so), completing bytes on `bar`."""
        if not isinstance(tensor_map.type, TensorMapType):
            raise api_error(f"tma_load: {tensor_map.type} is not a tensor map (declare the parameter with "
                            f"mmatom.TensorMapType(...))")
        if isinstance(multicast, int):
            multicast = self.const(multicast, IntegerType(16))
        self.builder.insert(TmaLoadOp(tensor_map, _int(self, row), _int(self, col), dst, bar, tile, multicast))

    def tma_store(self, src: SSAValue, tensor_map: SSAValue, row, col) -> None:
        """The box at `src` in SMEM to `tensor_map` at (row, col), in the current bulk group (elements outside
        the tensor are not written)."""
        self.builder.insert(TmaStoreOp(src, tensor_map, _int(self, row), _int(self, col)))

    def bulk_commit(self) -> None:
        self.builder.insert(nvvm_hopper.CpAsyncBulkCommitGroupOp())

    def bulk_wait(self, pending: int = 0, read: bool = False) -> None:
        """At most `pending` bulk groups in flight (`read`: only their SMEM reads are done)."""
        self.builder.insert(nvvm_hopper.CpAsyncBulkWaitGroupOp(pending, read))

    def fence_proxy_async(self) -> None:
        """Generic-proxy SMEM writes (st.shared, stmatrix) become visible to TMA and wgmma."""
        self.builder.insert(nvvm.FenceProxyOp())

    def stmatrix_tile(self, accumulator: SSAValue, block: int, dst: SSAValue, repeat: int = 0) -> None:
        """Each warpgroup stores 64 of its rows (those of M repeat `repeat`) x one 128-byte block of columns
        (`block`) of a wgmma accumulator into its own box at `dst`, swizzled 128B as a TMA box (mma.stmatrix_tile)."""
        self.builder.insert(StoreTileToSmemOp(accumulator, block, dst, repeat))

    def load_scalar(self, ptr: SSAValue, type_: Attribute | str, index: int = 0) -> SSAValue:
        """One element of global memory (e.g. a scale factor a kernel reads on the device); `type_` an xDSL
        type or "f32", "i32"."""
        type_ = SCALAR_TYPES.get(type_, type_) if isinstance(type_, str) else type_
        if index:
            ptr = self.offset(ptr, index * (type_.bitwidth // 8))
        return self.builder.insert(llvm.LoadOp(ptr, type_)).dereferenced_value

    def stmatrix(self, ptr: SSAValue, registers: Sequence[SSAValue], transpose: bool = False) -> None:
        """The warp stores len(registers) (1, 2 or 4) 8x8 b16 matrices; see nvvm.stmatrix."""
        self.builder.insert(nvvm_hopper.StMatrixOp(ptr, registers, MMALayoutAttr("col" if transpose else "row")))


__all__ = ["HopperOps", "If"]
