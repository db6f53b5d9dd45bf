"""`arith-div-strength-reduce`: unsigned division and remainder by a constant become cheap integer ops -- by a
power of two a shift and a mask (arith.divui x, 2^k -> arith.shrui x, k; arith.remui x, 2^k -> arith.andi x,
2^k - 1), by any other 32-bit constant d whose magic number fits 32 bits a high multiply and a shift (arith.divui
x, d -> arith.shrui (high half of arith.mului_extended x, m), s; the remainder x - q d).

Why: ptxas does not see through PTX's register-held constants -- a pipeline's `stage = it % 4` or `it % 6` in a K
loop assembled to a reciprocal-based division (I2F, MUFU.RCP, F2I and a correction, ~16 instructions every trip)
in front of each mbarrier wait. It runs after the verifier passes (they read the stage index `%it % N` as written).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from .typed_patterns import TypedPatternApplier, TypedPatternWalker


def _constant(value) -> int | None:
    """The value of an integer arith.constant, else None."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
        return None
    return owner.value.value.data


def unsigned_magic(divisor: int) -> tuple[int, int] | None:
    """(m, s) with floor(n / divisor) == (n * m) >> (32 + s) for every 32-bit n, m < 2^32 (Granlund and
    Montgomery: m = ceil(2^(32+s) / divisor) is exact where its excess m * divisor - 2^(32+s) is at most 2^s), the
    least such s; None where m needs 33 bits (7, 14, 19, ...: ptxas's own division stays)."""
    for s in range(32):
        m = -(-(1 << (32 + s)) // divisor)
        if m < 1 << 32 and m * divisor - (1 << (32 + s)) <= 1 << s:
            return m, s
    return None


class UnsignedByConstant(RewritePattern):
    """x / d and x % d (unsigned) by a constant d: a shift and a mask for a power of two; a high multiply by d's
    magic number and a shift (and x - q d for the remainder) for other 32-bit divisors that have one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.DivUIOp | arith.RemUIOp, rewriter: PatternRewriter) -> None:
        d = _constant(op.rhs)
        if d is None or d <= 0:
            return
        divide, t = isinstance(op, arith.DivUIOp), op.rhs.type
        if d & (d - 1) == 0:
            k = d.bit_length() - 1
            operand = arith.ConstantOp(IntegerAttr(k if divide else d - 1, t))
            rewriter.replace(op, [operand, (arith.ShRUIOp if divide else arith.AndIOp)(op.lhs, operand.result)])
            return
        magic = unsigned_magic(d) if t.width.data == 32 else None
        if magic is None:
            return
        m, s = (arith.ConstantOp(IntegerAttr(x, t)) for x in magic)  # (a signless i32 holds m >= 2^31 as negative)
        product = arith.MulUIExtendedOp(op.lhs, m.result)
        quotient = arith.ShRUIOp(product.high, s.result)
        ops = [m, s, product, quotient]
        if not divide:  # x - (x / d) d
            times = arith.ConstantOp(IntegerAttr(d, t))
            ops += [times, back := arith.MuliOp(quotient.result, times.result), arith.SubiOp(op.lhs, back.result)]
        rewriter.replace(op, ops)


@dataclass(frozen=True)
class DivStrengthReduce(ModulePass):
    name = "arith-div-strength-reduce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TypedPatternWalker(TypedPatternApplier([UnsignedByConstant()]), apply_recursively=False).rewrite_module(op)


__all__ = ["DivStrengthReduce", "unsigned_magic"]
