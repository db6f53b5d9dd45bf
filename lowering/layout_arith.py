"""A CuTe layout as `arith` ops on runtime values: the same map as `Layout.__call__`, for coordinates known only
when the kernel runs (a thread id, a loop index). Constant parts fold while building: a mode of extent 1 or
stride 0 costs nothing, a power-of-two divide or modulo is a shift or a mask."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, IndexType
from xdsl.ir import SSAValue

from mmatom.layout import ComposedLayout, Layout, flatten, product
from mmatom.layout.int_tuple import is_tuple

Coordinate = SSAValue | int | Sequence["Coordinate"]


class LayoutArith:
    """Emits integer arithmetic of one type (that of the coordinates) at `builder`'s insertion point."""

    def __init__(self, builder: Builder, type_: IntegerType | IndexType):
        self.builder, self.type = builder, type_

    def const(self, value: int) -> SSAValue:
        return self.builder.insert(arith.ConstantOp(IntegerAttr(value, self.type))).result

    def value(self, v: SSAValue | int) -> SSAValue:
        return self.const(v) if isinstance(v, int) else v

    def add(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        return self.builder.insert(arith.AddiOp(self.value(a), self.value(b))).result

    def mul(self, a: SSAValue | int, k: int) -> SSAValue | int:
        if isinstance(a, int):
            return a * k
        if k == 0:
            return 0
        if k == 1:
            return a
        if k & (k - 1) == 0:
            return self.builder.insert(arith.ShLIOp(a, self.const(k.bit_length() - 1))).result
        return self.builder.insert(arith.MuliOp(a, self.const(k))).result

    def div(self, a: SSAValue | int, k: int) -> SSAValue | int:
        if isinstance(a, int):
            return a // k
        if k == 1:
            return a
        if k & (k - 1) == 0:
            return self.builder.insert(arith.ShRUIOp(a, self.const(k.bit_length() - 1))).result
        return self.builder.insert(arith.DivUIOp(a, self.const(k))).result

    def mod(self, a: SSAValue | int, k: int) -> SSAValue | int:
        if isinstance(a, int):
            return a % k
        if k == 1:
            return 0
        if k & (k - 1) == 0:
            return self.builder.insert(arith.AndIOp(a, self.const(k - 1))).result
        return self.builder.insert(arith.RemUIOp(a, self.const(k))).result

    def xor(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        if b == 0:
            return a
        return self.builder.insert(arith.XOrIOp(self.value(a), self.value(b))).result

    def crd2idx(self, crd: Coordinate, shape, stride) -> SSAValue | int:
        """layout/int_tuple.crd2idx on runtime values (unsigned: coordinates are never negative)."""
        if is_tuple(shape):
            if isinstance(crd, (tuple, list)):
                if len(crd) != len(shape):
                    raise ValueError(f"coordinate of {len(crd)} modes for shape {shape}")
                total: SSAValue | int = 0
                for c, s, d in zip(crd, shape, stride):
                    total = self.add(total, self.crd2idx(c, s, d))
                return total
            total = 0
            rest: SSAValue | int = crd
            for i, (s, d) in enumerate(zip(shape, stride)):
                size = product(s)
                if any(flatten(d)):  # a mode whose strides are all 0 adds nothing: emit nothing for it
                    total = self.add(total, self.crd2idx(self.mod(rest, size), s, d))
                if i + 1 < len(shape) and any(any(flatten(x)) for x in stride[i + 1:]):
                    rest = self.div(rest, size)
            return total
        if isinstance(crd, (tuple, list)):
            raise ValueError(f"coordinate {crd} is deeper than shape {shape}")
        return self.mul(crd, stride)


def emit_layout(builder: Builder, layout: Layout | ComposedLayout, coords: Coordinate) -> SSAValue:
    """`layout(coords)` as arith ops at `builder`'s insertion point. `coords` is one runtime index (unfolded over
    the modes colexicographically, as CuTe does) or a tuple of per-mode coordinates (SSA values or ints); the
    result has the coordinates' integer type (i32, i64 or index). A swizzled layout applies its XOR."""
    values = [c for c in _leaves(coords) if isinstance(c, SSAValue)]
    if not values:
        raise ValueError("emit_layout needs at least one runtime coordinate (for constant ones, call the layout)")
    type_ = values[0].type
    if not isinstance(type_, (IntegerType, IndexType)) or any(v.type != type_ for v in values):
        raise ValueError(f"coordinates must share one integer type; got {', '.join(str(v.type) for v in values)}")
    ops = LayoutArith(builder, type_)
    if isinstance(layout, ComposedLayout):
        offset = ops.add(layout.offset, ops.crd2idx(coords, layout.layout.shape, layout.layout.stride))
        sw = layout.swizzle  # offset ^ (the `bits` bits above base+shift, moved down to base), or up if shift < 0
        if sw.shift >= 0:
            moved = ops.mod(ops.div(offset, 1 << (sw.base + sw.shift)), 1 << sw.bits)
            result = ops.xor(offset, ops.mul(moved, 1 << sw.base))
        else:
            moved = ops.mod(ops.div(offset, 1 << sw.base), 1 << sw.bits)
            result = ops.xor(offset, ops.mul(moved, 1 << (sw.base - sw.shift)))
    else:
        result = ops.crd2idx(coords, layout.shape, layout.stride)
    return ops.value(result)


def _leaves(coords: Coordinate):
    if isinstance(coords, (tuple, list)):
        for c in coords:
            yield from _leaves(c)
    else:
        yield coords


__all__ = ["LayoutArith", "emit_layout"]
