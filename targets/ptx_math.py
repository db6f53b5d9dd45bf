"""PTX for the math ops an epilogue uses: fma, exp2, log2, absf, sqrt (f32/f64; f16 where PTX has the form)."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.ir import Operation

from .ptx_arith import float_kind
from .ptx_function import PTXFunction, emits

# op -> (PTX instruction, the float types it has)
_UNARY = {
    # ex2.approx.f32: at most 2 ulp, what LLVM's NVPTX backend emits for llvm.exp2.f32; PTX has no f64 exp2
    "math.exp2": ("ex2.approx", ("f32",)),
    "math.absf": ("abs", ("f16", "f32", "f64")),
    "math.sqrt": ("sqrt.rn", ("f32", "f64")),  # correctly rounded
    "math.log2": ("lg2.approx.ftz", ("f32",)),  # 2 ulp (PTX has lg2 for f32 only); a log-sum-exp's last step
}


@emits(math.FmaOp)
def fma(fn: PTXFunction, op: math.FmaOp) -> None:
    """One rounding, to nearest even."""
    kind = float_kind(op, op.result.type, ("f16", "f32", "f64"))
    fn.emit(f"fma.rn.{kind} {fn.define(op.result)}, {fn.reg(op.a)}, {fn.reg(op.b)}, {fn.reg(op.c)};")


@emits(math.Exp2Op, math.AbsFOp, math.SqrtOp, math.Log2Op)
def unary(fn: PTXFunction, op: Operation) -> None:
    instruction, kinds = _UNARY[op.name]
    kind = float_kind(op, op.result.type, kinds)
    fn.emit(f"{instruction}.{kind} {fn.define(op.result)}, {fn.reg(op.operand)};")
