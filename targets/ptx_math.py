"""PTX for the math ops an epilogue uses: fma, exp2, absf, sqrt (f32/f64; f16 where PTX has the form)."""

from __future__ import annotations

from xdsl.dialects import math

from .ptx_arith import float_kind
from .ptx_function import PTXFunction, emits


@emits(math.FmaOp)
def fma(fn: PTXFunction, op: math.FmaOp) -> None:
    """One rounding, to nearest even."""
    kind = float_kind(op, op.result.type, ("f16", "f32", "f64"))
    fn.emit(f"fma.rn.{kind} {fn.define(op.result)}, {fn.reg(op.a)}, {fn.reg(op.b)}, {fn.reg(op.c)};")


@emits(math.Exp2Op)
def exp2(fn: PTXFunction, op: math.Exp2Op) -> None:
    """ex2.approx.f32 (max 2 ulp over the full range), what LLVM's NVPTX backend emits for llvm.exp2.f32; PTX has
    no f64 exp2."""
    float_kind(op, op.result.type, ("f32",))
    fn.emit(f"ex2.approx.f32 {fn.define(op.result)}, {fn.reg(op.operand)};")


@emits(math.AbsFOp)
def absf(fn: PTXFunction, op: math.AbsFOp) -> None:
    kind = float_kind(op, op.result.type, ("f16", "f32", "f64"))
    fn.emit(f"abs.{kind} {fn.define(op.result)}, {fn.reg(op.operand)};")


@emits(math.SqrtOp)
def sqrt(fn: PTXFunction, op: math.SqrtOp) -> None:
    """Correctly rounded (sqrt.rn)."""
    kind = float_kind(op, op.result.type, ("f32", "f64"))
    fn.emit(f"sqrt.rn.{kind} {fn.define(op.result)}, {fn.reg(op.operand)};")
