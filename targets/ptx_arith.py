"""PTX for the arith ops: constants, integer and float binary ops, casts, compares and selects."""

from __future__ import annotations

import struct

from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float32Type, Float64Type, IntegerType
from xdsl.ir import Attribute, Operation

from .ptx_function import B32, PTXEmissionError, PTXFunction, emits, reg_class, value_bits

_INT_BINARY = {
    "arith.addi": ("add", ".sN"), "arith.subi": ("sub", ".sN"), "arith.muli": ("mul.lo", ".sN"),
    "arith.divui": ("div", ".uN"), "arith.divsi": ("div", ".sN"), "arith.remui": ("rem", ".uN"),
    "arith.remsi": ("rem", ".sN"), "arith.andi": ("and", ".bN"), "arith.ori": ("or", ".bN"),
    "arith.xori": ("xor", ".bN"), "arith.shli": ("shl", ".bN"), "arith.shrui": ("shr", ".uN"),
    "arith.shrsi": ("shr", ".sN"), "arith.minsi": ("min", ".sN"), "arith.maxsi": ("max", ".sN"),
    "arith.minui": ("min", ".uN"), "arith.maxui": ("max", ".uN"),
}
_FLOAT_BINARY = {
    "arith.addf": ("add.rn", ".fN"), "arith.subf": ("sub.rn", ".fN"), "arith.mulf": ("mul.rn", ".fN"),
    "arith.divf": ("div.rn", ".fN"), "arith.maximumf": ("max", ".fN"), "arith.minimumf": ("min", ".fN"),
    "arith.maxnumf": ("max", ".fN"), "arith.minnumf": ("min", ".fN"),  # PTX max/min: IEEE maxNum/minNum
}
_CMPI = {0: ("eq", "s"), 1: ("ne", "s"), 2: ("lt", "s"), 3: ("le", "s"), 4: ("gt", "s"), 5: ("ge", "s"),
         6: ("lt", "u"), 7: ("le", "u"), 8: ("gt", "u"), 9: ("ge", "u")}


def float_name(t: Attribute) -> str:
    return "bf16" if isinstance(t, BFloat16Type) else f"f{value_bits(t)}"


@emits(arith.ConstantOp)
def constant(fn: PTXFunction, op: arith.ConstantOp) -> None:
    dst = fn.define(op.result)
    value = op.value
    t = op.result.type
    if isinstance(t, IntegerType):
        n = value.value.data
        if t.width.data == 1:
            fn.emit(f"setp.ne.u32 {dst}, {1 if n else 0}, 0;")
        else:
            cls = reg_class(t)
            fn.emit(f"mov.b{cls.bits} {dst}, {n & ((1 << cls.bits) - 1)};")
    elif isinstance(t, Float32Type):
        fn.emit(f"mov.f32 {dst}, 0f{struct.unpack('<I', struct.pack('<f', value.value.data))[0]:08X};")
    elif isinstance(t, Float64Type):
        fn.emit(f"mov.f64 {dst}, 0d{struct.unpack('<Q', struct.pack('<d', value.value.data))[0]:016X};")
    else:
        raise PTXEmissionError(op, f"arith.constant of type {t} is not supported by the PTX target")


@emits(arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp,
       arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp, arith.MinSIOp,
       arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp, arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp,
       arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp, arith.MinnumfOp)
def binary(fn: PTXFunction, op: Operation) -> None:
    t = op.result.type
    mnemonic = _INT_BINARY.get(op.name) if isinstance(t, IntegerType) else _FLOAT_BINARY.get(op.name)
    if mnemonic is None:
        raise PTXEmissionError(op, f"'{op.name}' on {t} is not supported by the PTX target")
    bits = value_bits(t)
    suffix = mnemonic[1].replace("N", str(bits))
    if bits == 1:  # predicates: PTX logic on .pred only (and, or, xor)
        if mnemonic[0] not in ("and", "or", "xor"):
            raise PTXEmissionError(op, f"'{op.name}' on i1 is not supported by the PTX target (and, or, xor are)")
        suffix = ".pred"
    a, b = fn.reg(op.lhs), fn.reg(op.rhs)
    if mnemonic[0] in ("shl", "shr") and bits == 64:  # PTX shift amounts are .u32
        amount = fn.new(B32)
        fn.emit(f"cvt.u32.u64 {amount}, {b};")
        b = amount
    fn.emit(f"{mnemonic[0]}{suffix} {fn.define(op.result)}, {a}, {b};")


@emits(arith.MulUIExtendedOp)
def multiply_extended(fn: PTXFunction, op: arith.MulUIExtendedOp) -> None:
    """The low and high halves of the unsigned double-width product: mul.lo and mul.hi (a half nothing reads is
    not emitted)."""
    t = op.low.type
    if not isinstance(t, IntegerType) or value_bits(t) not in (32, 64):
        raise PTXEmissionError(op, f"'{op.name}' on {t} is not supported by the PTX target; it takes i32 and i64")
    a, b, bits = fn.reg(op.operands[0]), fn.reg(op.operands[1]), value_bits(t)
    for half, result in (("lo", op.low), ("hi", op.high)):
        if result.uses:
            fn.emit(f"mul.{half}.u{bits} {fn.define(result)}, {a}, {b};")


@emits(arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)
def integer_cast(fn: PTXFunction, op: Operation) -> None:
    src_t, dst_t = op.input.type, op.result.type
    sb, db = value_bits(src_t), value_bits(dst_t)
    src = fn.reg(op.input)
    dst = fn.define(op.result)
    sc, dc = reg_class(src_t).bits, reg_class(dst_t).bits
    signed = isinstance(op, arith.ExtSIOp)
    if sc == dc:  # i8 <-> i16 both live in .b16
        if isinstance(op, arith.TruncIOp) and db < sc:
            fn.emit(f"and.b{sc} {dst}, {src}, {(1 << db) - 1};")
        elif signed and sb < sc:
            fn.emit(f"cvt.s{sc}.s{sb} {dst}, {src};")
        else:
            fn.emit(f"mov.b{sc} {dst}, {src};")
        return
    kind = "s" if signed else "u"
    fn.emit(f"cvt.{kind}{dc}.{kind}{sb if sb >= 8 and sb < sc else sc} {dst}, {src};")


@emits(arith.TruncFOp, arith.ExtFOp, arith.SIToFPOp, arith.FPToSIOp)
def float_cast(fn: PTXFunction, op: Operation) -> None:
    """truncf/extf/sitofp/fptosi: one cvt, rounding to nearest even where the value can change."""
    src_t, dst_t = op.input.type, op.result.type
    src, dst = fn.reg(op.input), fn.define(op.result)
    name = lambda t: "s32" if isinstance(t, IntegerType) else float_name(t)  # noqa: E731
    rounding = {"arith.truncf": ".rn", "arith.sitofp": ".rn", "arith.fptosi": ".rzi", "arith.extf": ""}[op.name]
    fn.emit(f"cvt{rounding}.{name(dst_t)}.{name(src_t)} {dst}, {src};")


@emits(arith.BitcastOp)
def bitcast(fn: PTXFunction, op: arith.BitcastOp) -> None:
    src = fn.reg(op.input)
    if reg_class(op.input.type) == reg_class(op.result.type):
        fn.bind(op.result, src)
    else:
        fn.emit(f"mov.b{value_bits(op.result.type)} {fn.define(op.result)}, {src};")


@emits(arith.CmpiOp)
def cmpi(fn: PTXFunction, op: arith.CmpiOp) -> None:
    pred, kind = _CMPI[op.predicate.value.data]
    bits = value_bits(op.lhs.type)
    lhs, rhs = fn.reg(op.lhs), fn.reg(op.rhs)
    if bits == 1:  # predicates have no setp: compared as the i1 values they are (true: 1 unsigned, -1 signed)
        true = -1 if kind == "s" else 1
        lhs, rhs = (_predicate_as_b32(fn, x, true) for x in (lhs, rhs))
        bits = 32
    fn.emit(f"setp.{pred}.{kind}{bits} {fn.define(op.result)}, {lhs}, {rhs};")


def _predicate_as_b32(fn: PTXFunction, predicate: str, true: int) -> str:
    value = fn.new(B32)
    fn.emit(f"selp.b32 {value}, {true}, 0, {predicate};")
    return value


@emits(arith.SelectOp)
def select(fn: PTXFunction, op: arith.SelectOp) -> None:
    cls = reg_class(op.result.type)
    fn.emit(f"selp.b{cls.bits} {fn.define(op.result)}, {fn.reg(op.lhs)}, {fn.reg(op.rhs)}, {fn.reg(op.cond)};")


# arith.cmpf's predicates (MLIR's numbering) -> PTX setp comparisons; `false`/`true` fold to a constant predicate
_CMPF = {1: "eq", 2: "gt", 3: "ge", 4: "lt", 5: "le", 6: "ne", 7: "num", 8: "equ", 9: "gtu", 10: "geu", 11: "ltu",
         12: "leu", 13: "neu", 14: "nan"}


def float_kind(op: Operation, t: Attribute, legal: tuple[str, ...]) -> str:
    name = float_name(t) if not isinstance(t, IntegerType) else str(t)
    if name not in legal:
        raise PTXEmissionError(op, f"'{op.name}' on {t} is not supported by the PTX target; it takes "
                                   f"{', '.join(legal)}")
    return name


@emits(arith.NegfOp)
def negf(fn: PTXFunction, op: arith.NegfOp) -> None:
    kind = float_kind(op, op.result.type, ("f16", "f32", "f64"))
    fn.emit(f"neg.{kind} {fn.define(op.result)}, {fn.reg(op.operand)};")


@emits(arith.CmpfOp)
def cmpf(fn: PTXFunction, op: arith.CmpfOp) -> None:
    predicate = op.predicate.value.data
    kind = float_kind(op, op.lhs.type, ("f16", "f32", "f64"))
    if predicate in (0, 15):
        fn.emit(f"setp.ne.b32 {fn.define(op.result)}, 0, {int(predicate == 15)};")
        return
    fn.emit(f"setp.{_CMPF[predicate]}.{kind} {fn.define(op.result)}, {fn.reg(op.lhs)}, {fn.reg(op.rhs)};")
