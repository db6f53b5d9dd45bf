"""PTX for the warp shuffles and the fast math of dialects/nvvm_warp.py: one instruction each."""

from __future__ import annotations

from mmatom.dialects.nvvm_warp import Ex2Op, RcpApproxFtzF32Op, ShflOp, SyncWarpOp

from .ptx_function import PTXFunction, emits


@emits(ShflOp)
def shfl(fn: PTXFunction, op: ShflOp) -> None:
    """shfl.sync.<kind>.b32 d, a, b, c, membermask: PTX puts the member mask last, upstream first."""
    fn.emit(f"shfl.sync.{op.kind.data.value}.b32 {fn.define(op.res)}, {fn.reg(op.val)}, {fn.operand(op.offset)}, "
            f"{fn.operand(op.mask_and_clamp)}, {fn.operand(op.thread_mask)};")


@emits(Ex2Op)
def ex2(fn: PTXFunction, op: Ex2Op) -> None:
    fn.emit(f"ex2.approx{'.ftz' * op.flushes}.f32 {fn.define(op.res)}, {fn.reg(op.src)};")


@emits(RcpApproxFtzF32Op)
def rcp(fn: PTXFunction, op: RcpApproxFtzF32Op) -> None:
    fn.emit(f"rcp.approx.ftz.f32 {fn.define(op.res)}, {fn.reg(op.arg)};")


@emits(SyncWarpOp)
def sync_warp(fn: PTXFunction, op: SyncWarpOp) -> None:
    fn.emit(f"bar.warp.sync {fn.operand(op.mask)};")
