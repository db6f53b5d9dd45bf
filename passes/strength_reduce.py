"""`arith-pow2-strength-reduce`: unsigned division and remainder by a constant power of two become a shift and
a mask (arith.divui x, 2^k -> arith.shrui x, k; arith.remui x, 2^k -> arith.andi x, 2^k - 1).

Why: ptxas does not always see through PTX's register-held constants -- a pipeline's `stage = it % 4` in the
GEMM's K loop assembled to a reciprocal-based division (I2F, MUFU.RCP, F2I and a correction, every trip) in
front of each mbarrier wait. It runs after the verifier passes (they read the stage index `%it % N` as written).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from .typed_patterns import TypedPatternApplier


def _power_of_two(value) -> int | None:
    """k if `value` is an arith.constant 2^k (k >= 0), else None."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
        return None
    n = owner.value.value.data
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


class UnsignedByPowerOfTwo(RewritePattern):
    """x / 2^k -> x >> k; x % 2^k -> x & (2^k - 1) (unsigned)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.DivUIOp | arith.RemUIOp, rewriter: PatternRewriter) -> None:
        k = _power_of_two(op.rhs)
        if k is None:
            return
        divide = isinstance(op, arith.DivUIOp)
        operand = arith.ConstantOp(IntegerAttr(k if divide else (1 << k) - 1, op.rhs.type))
        reduced = (arith.ShRUIOp if divide else arith.AndIOp)(op.lhs, operand.result)
        rewriter.replace(op, [operand, reduced])


@dataclass(frozen=True)
class Pow2StrengthReduce(ModulePass):
    name = "arith-pow2-strength-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(TypedPatternApplier([UnsignedByPowerOfTwo()]),
                             apply_recursively=False).rewrite_module(op)


__all__ = ["Pow2StrengthReduce"]
