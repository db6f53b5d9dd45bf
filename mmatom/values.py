"""Value: a kernel's runtime value that behaves like a number.

Every KernelBuilder method returns Values, and every method takes Values, xDSL SSAValues or Python numbers. Python's
operators build the arith ops at the builder's insertion point, located at the DSL's line:

    row = (tile // units_n) * block_m + kb.warpgroup_id() * 64     # arith.divui, muli, addi on i32
    with kb.if_(kt >= depth): ...                                  # arith.cmpi sge
    scaled = x * scale                                             # arith.mulf on f32
    box = smem + stage * 16384                                     # llvm.getelementptr on a pointer

Integers are indices: `//`, `%`, `>>` and `min`/`max` are unsigned (divui, remui, shrui, minui, maxui; a power-of-two
divisor becomes a shift in lowering), comparisons are signed (cmpi slt/sle/sgt/sge, eq, ne), as MLIR's own index
arithmetic is. A Python number takes the type of the Value it meets; two integer Values of different widths meet at
the wider (arith.extui). Operations whose operands are all constants fold to a constant, and `x + 0`, `x * 1`,
`x * 0`, `x // 1`, `x % 1` fold away. A Value has no Python truth value: branch with `kb.if_(condition)`.
"""

from __future__ import annotations

import functools
import operator
import struct
from typing import TYPE_CHECKING

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, f32, f64, i32
from xdsl.ir import Attribute, SSAValue

from .dialects import nvvm
from .errors import api_error

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder

Number = int | float

# operator -> (integer op, float op, Python fold); None: not defined on that kind of value
_BINARY = {
    "+": (arith.AddiOp, arith.AddfOp, operator.add),
    "-": (arith.SubiOp, arith.SubfOp, operator.sub),
    "*": (arith.MuliOp, arith.MulfOp, operator.mul),
    "//": (arith.DivUIOp, None, operator.floordiv),
    "/": (None, arith.DivfOp, operator.truediv),
    "%": (arith.RemUIOp, None, operator.mod),
    "<<": (arith.ShLIOp, None, operator.lshift),
    ">>": (arith.ShRUIOp, None, operator.rshift),
    "&": (arith.AndIOp, None, operator.and_),
    "|": (arith.OrIOp, None, operator.or_),
    "^": (arith.XOrIOp, None, operator.xor),
    # floats: maxnumf / minnumf, PTX max.f32 / min.f32 (a NaN operand yields the other)
    "min": (arith.MinUIOp, arith.MinnumfOp, min),
    "max": (arith.MaxUIOp, arith.MaxnumfOp, max),
}
# comparison -> (cmpi predicate, cmpf predicate, Python fold)
_COMPARE = {
    "<": ("slt", "olt", operator.lt), "<=": ("sle", "ole", operator.le), ">": ("sgt", "ogt", operator.gt),
    ">=": ("sge", "oge", operator.ge), "==": ("eq", "oeq", operator.eq), "!=": ("ne", "une", operator.ne),
}
# x OP identity == x (right operand); x * 0 == 0
_RIGHT_IDENTITY = {"+": 0, "-": 0, "*": 1, "//": 1, "<<": 0, ">>": 0, "|": 0, "^": 0}


def is_float(type_: Attribute) -> bool:
    return type_ in (f32, f64) or type_.name in ("f16", "bf16")


class Value:
    """A runtime value of the kernel `kb` is building (see the module docstring); `.ssa` is the xDSL value."""

    __slots__ = ("kb", "ssa")

    def __init__(self, kb: KernelBuilder, ssa: SSAValue):
        self.kb, self.ssa = kb, ssa

    @property
    def type(self) -> Attribute:
        return self.ssa.type

    @property
    def constant(self) -> Number | None:
        """The Python number this Value is known to be (an arith.constant), else None."""
        owner = self.ssa.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, (IntegerAttr, FloatAttr)):
            return owner.value.value.data
        return None

    def __repr__(self) -> str:
        return f"Value({self.ssa.name_hint or '%'}: {self.type})"

    def __bool__(self) -> bool:
        raise api_error("a kernel's runtime value has no Python truth value; branch on it with "
                        "`with kb.if_(condition): ...` (and `and`/`or` of conditions are `&`/`|`)")

    __hash__ = object.__hash__  # `==` builds a comparison; identity still keys dicts

    def _binary(self, symbol: str, other, reflected: bool = False) -> Value:
        lhs, rhs = (other, self) if reflected else (self, other)
        return binary(self.kb, symbol, lhs, rhs)

    def __add__(self, o): return self._binary("+", o)
    def __radd__(self, o): return self._binary("+", o, True)
    def __sub__(self, o): return self._binary("-", o)
    def __rsub__(self, o): return self._binary("-", o, True)
    def __mul__(self, o): return self._binary("*", o)
    def __rmul__(self, o): return self._binary("*", o, True)
    def __floordiv__(self, o): return self._binary("//", o)
    def __rfloordiv__(self, o): return self._binary("//", o, True)
    def __truediv__(self, o): return self._binary("/", o)
    def __rtruediv__(self, o): return self._binary("/", o, True)
    def __mod__(self, o): return self._binary("%", o)
    def __rmod__(self, o): return self._binary("%", o, True)
    def __lshift__(self, o): return self._binary("<<", o)
    def __rlshift__(self, o): return self._binary("<<", o, True)
    def __rshift__(self, o): return self._binary(">>", o)
    def __rrshift__(self, o): return self._binary(">>", o, True)
    def __and__(self, o): return self._binary("&", o)
    def __rand__(self, o): return self._binary("&", o, True)
    def __or__(self, o): return self._binary("|", o)
    def __ror__(self, o): return self._binary("|", o, True)
    def __xor__(self, o): return self._binary("^", o)
    def __rxor__(self, o): return self._binary("^", o, True)
    def __lt__(self, o): return compare(self.kb, "<", self, o)
    def __le__(self, o): return compare(self.kb, "<=", self, o)
    def __gt__(self, o): return compare(self.kb, ">", self, o)
    def __ge__(self, o): return compare(self.kb, ">=", self, o)
    def __eq__(self, o): return compare(self.kb, "==", self, o)  # type: ignore[override]
    def __ne__(self, o): return compare(self.kb, "!=", self, o)  # type: ignore[override]

    def __neg__(self) -> Value:
        if is_float(self.type):
            return self.kb.wrap(self.kb.builder.insert(arith.NegfOp(self.ssa)).result)
        return binary(self.kb, "-", 0, self)


def _check_operand(x, symbol: str) -> None:
    if not isinstance(x, (Value, int, float)) or isinstance(x, bool):
        raise api_error(f"operator {symbol}: {x!r} is neither a kernel value nor a Python number")


def _common_type(kb: KernelBuilder, symbol: str, lhs, rhs) -> tuple[Attribute, Value | Number, Value | Number]:
    """The type both operands meet at (integer Values of two widths: the wider, the narrower extended)."""
    values = [x for x in (lhs, rhs) if isinstance(x, Value)]
    types = [v.type for v in values]
    if not types:
        return (f32 if any(isinstance(x, float) for x in (lhs, rhs)) else i32), lhs, rhs
    if len(types) == 2 and types[0] != types[1]:
        widths = [t.width.data if isinstance(t, IntegerType) else None for t in types]
        if None in widths:
            raise api_error(f"operator {symbol}: operands of types {types[0]} and {types[1]}; convert one first")
        wide = types[0] if widths[0] > widths[1] else types[1]
        lhs, rhs = (kb.wrap(kb.builder.insert(arith.ExtUIOp(x.ssa, wide)).result) if x.type != wide else x
                    for x in (lhs, rhs))
        return wide, lhs, rhs
    return types[0], lhs, rhs


def _number(x: Value | Number) -> Number | None:
    return x.constant if isinstance(x, Value) else x


def _fold_int(fold, type_: Attribute, a: int, b: int) -> int | None:
    """a OP b as the hardware computes it on this width (unsigned division), or None when it cannot fold."""
    bits = type_.width.data
    mask = (1 << bits) - 1
    if fold in (operator.floordiv, operator.mod) and b == 0:
        return None
    if fold in (operator.lshift, operator.rshift) and not 0 <= b < bits:
        return None
    result = fold(a & mask, b & mask) if fold in (operator.floordiv, operator.mod, operator.rshift, min, max) \
        else fold(a, b)
    result &= mask
    return result - (1 << bits) if result >> (bits - 1) and bits > 1 else result  # as a signed constant


def binary(kb: KernelBuilder, symbol: str, lhs, rhs) -> Value | Number:
    """lhs SYMBOL rhs (see the module docstring); both Python numbers: the Python result."""
    for x in (lhs, rhs):
        _check_operand(x, symbol)
    if not isinstance(lhs, Value) and not isinstance(rhs, Value):
        return _BINARY[symbol][2](lhs, rhs)
    if any(isinstance(x, Value) and isinstance(x.type, llvm.LLVMPointerType) for x in (lhs, rhs)):
        return _pointer_offset(kb, symbol, lhs, rhs)
    type_, lhs, rhs = _common_type(kb, symbol, lhs, rhs)
    floating = is_float(type_)
    op_class = _BINARY[symbol][1 if floating else 0]
    if op_class is None:
        raise api_error(f"operator {symbol} is not defined on {type_} values")
    folded = _fold(kb, symbol, type_, lhs, rhs)
    if folded is not None:
        return folded
    a, b = (kb.const(x, type_) if not isinstance(x, Value) else x for x in (lhs, rhs))
    return kb.wrap(kb.builder.insert(op_class(a.ssa, b.ssa)).result)


def _fold(kb: KernelBuilder, symbol: str, type_: Attribute, lhs, rhs) -> Value | None:
    a, b = _number(lhs), _number(rhs)
    if a is not None and b is not None:
        fold = _BINARY[symbol][2]
        if is_float(type_):
            return kb.const(float(fold(a, b)), type_) if symbol != "/" or b else None
        result = _fold_int(fold, type_, int(a), int(b))
        return None if result is None else kb.const(result, type_)
    if symbol in _RIGHT_IDENTITY and b == _RIGHT_IDENTITY[symbol] and isinstance(lhs, Value) \
            and not is_float(type_):
        return lhs
    if symbol in ("+", "*") and a == _RIGHT_IDENTITY[symbol] and isinstance(rhs, Value) and not is_float(type_):
        return rhs
    if symbol == "*" and 0 in (a, b) and not is_float(type_):
        return kb.const(0, type_)
    if symbol == "%" and b == 1:
        return kb.const(0, type_)
    return None


def _pointer_offset(kb: KernelBuilder, symbol: str, lhs, rhs) -> Value:
    """pointer + bytes (or bytes + pointer): an i8 getelementptr in the pointer's address space."""
    ptr, nbytes = (lhs, rhs) if isinstance(lhs, Value) and isinstance(lhs.type, llvm.LLVMPointerType) else (rhs, lhs)
    if symbol != "+" or (isinstance(nbytes, Value) and isinstance(nbytes.type, llvm.LLVMPointerType)) \
            or isinstance(nbytes, float):
        raise api_error(f"operator {symbol} on a pointer: only pointer + a byte count (an integer) is defined")
    known = _number(nbytes)
    if known == 0:
        return ptr
    if known is not None:
        op = llvm.GEPOp(ptr.ssa, [int(known)], pointee_type=IntegerType(8), result_type=ptr.type)
    else:
        op = llvm.GEPOp(ptr.ssa, [llvm.GEP_USE_SSA_VAL], ssa_indices=[nbytes.ssa], pointee_type=IntegerType(8),
                        result_type=ptr.type)
    return kb.wrap(kb.builder.insert(op).result)


def compare(kb: KernelBuilder, symbol: str, lhs, rhs) -> Value:
    """An i1: lhs SYMBOL rhs (signed for integers, ordered for floats; `!=` unordered)."""
    for x in (lhs, rhs):
        _check_operand(x, symbol)
    type_, lhs, rhs = _common_type(kb, symbol, lhs, rhs)
    int_pred, float_pred, _ = _COMPARE[symbol]
    a, b = (kb.const(x, type_) if not isinstance(x, Value) else x for x in (lhs, rhs))
    if is_float(type_):
        return kb.wrap(kb.builder.insert(arith.CmpfOp(a.ssa, b.ssa, float_pred)).result)
    return kb.wrap(kb.builder.insert(arith.CmpiOp(a.ssa, b.ssa, int_pred)).result)


def ceil_div(a: Value | int, b: Value | int) -> Value | int:
    """ceil(a / b) of non-negative integers: -(-a // b) for Python ints, (a + b - 1) // b for Values."""
    if not isinstance(a, Value) and not isinstance(b, Value):
        if not isinstance(a, int) or not isinstance(b, int) or b <= 0:
            raise api_error(f"ceil_div({a!r}, {b!r}): non-negative integers, a positive divisor")
        return -(-a // b)
    if isinstance(b, int) and b == 1:
        return a  # (a + 0) // 1: nothing to emit
    return (a + b - 1) // b


def _extremum(symbol: str, a, b):
    kb = next((x.kb for x in (a, b) if isinstance(x, Value)), None)
    if kb is None:
        return _BINARY[symbol][2](a, b)
    return binary(kb, symbol, a, b)


def min_value(a: Value | Number, b: Value | Number) -> Value | Number:
    """The smaller of a and b (unsigned for integer Values: arith.minui; floats: arith.minnumf, PTX
    min.f32: a NaN operand yields the other)."""
    return _extremum("min", a, b)


def max_value(a: Value | Number, b: Value | Number) -> Value | Number:
    """The larger of a and b (unsigned for integer Values: arith.maxui; floats: arith.maxnumf, PTX
    max.f32: a NaN operand yields the other)."""
    return _extremum("max", a, b)


def select(condition: Value, a: Value | Number, b: Value | Number) -> Value:
    """`condition ? a : b` (arith.select), a and b meeting at one type."""
    if not isinstance(condition, Value):
        raise api_error(f"select: the condition {condition!r} is not a kernel value (an i1)")
    kb = condition.kb
    type_, a, b = _common_type(kb, "select", a, b)
    a, b = (kb.const(x, type_) if not isinstance(x, Value) else x for x in (a, b))
    return kb.wrap(kb.builder.insert(arith.SelectOp(condition.ssa, a.ssa, b.ssa)).result)


def funnel_shift_right(lo: Value | int, hi: Value | int, amount: Value | int) -> Value:
    """The 32 bits of the 64-bit hi:lo that start `amount` (mod 32) bits up (llvm.intr.fshr, PTX shf.r.wrap): one
    instruction that joins the bytes of two words, e.g. a window of a row at a 2-byte offset, 4 bytes at a time."""
    values = [x for x in (lo, hi, amount) if isinstance(x, Value)]
    if not values:
        raise api_error("funnel_shift_right: no operand is a kernel value")
    kb = values[0].kb
    lo, hi, amount = (kb.ssa(x, i32) for x in (lo, hi, amount))
    if not all(x.type == i32 for x in (lo, hi, amount)):
        raise api_error(f"funnel_shift_right: operands of types {lo.type}, {hi.type}, {amount.type}; i32 each")
    return kb.wrap(kb.builder.insert(nvvm.FshrOp(hi, lo, amount)).res)


def constant_attr(value: Number, type_: Attribute) -> IntegerAttr | FloatAttr:
    if is_float(type_):
        return _float_attr(struct.pack("<d", float(value)), type_)
    if isinstance(value, float):
        raise api_error(f"constant {value!r} of integer type {type_}")
    width = type_.width.data
    if not -(1 << (width - 1)) <= value < (1 << width):
        raise api_error(f"constant {value} does not fit {type_}")
    if value >= 1 << (width - 1):
        value -= 1 << width  # an unsigned index past the signed range: the same bits
    return _integer_attr(value, type_)


# One attribute per constant: attributes are immutable values, and a kernel makes hundreds of constants from a few
# dozen values, each new attribute checking its range. Floats are keyed by their exact bits (0.0 and -0.0 are equal
# numbers but print differently; a NaN is not even equal to itself), integers by value and Python type (True is 1).
@functools.lru_cache(maxsize=4096)
def _float_attr(bits: bytes, type_: Attribute) -> FloatAttr:
    return FloatAttr(struct.unpack("<d", bits)[0], type_)


@functools.lru_cache(maxsize=4096, typed=True)
def _integer_attr(value: int, type_: Attribute) -> IntegerAttr:
    return IntegerAttr(value, type_)


__all__ = ["Value", "ceil_div", "max_value", "min_value", "select"]
