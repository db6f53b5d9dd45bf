"""A small straight-line builder for the arith/llvm/nvvm ops the lowerings emit before one op."""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerType, i8, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from mmatom.dialects import nvvm


class OpList:
    """Collects ops in order; `rewriter.insert_op(ops.ops, ...)` places them."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self._consts: dict[tuple[int, int], SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def const(self, value: int, width: int = 32) -> SSAValue:
        key = (value, width)
        if key not in self._consts:
            self._consts[key] = self.add(arith.ConstantOp.from_int_and_width(value, width))
        return self._consts[key]

    def addi(self, a: SSAValue, b: SSAValue | int) -> SSAValue:
        if isinstance(b, int):
            if b == 0:
                return a
            b = self.const(b, a.type.width.data)
        return self.add(arith.AddiOp(a, b))

    def muli(self, a: SSAValue, b: int) -> SSAValue:
        if b == 1:
            return a
        if b > 0 and b & (b - 1) == 0:
            return self.add(arith.ShLIOp(a, self.const(b.bit_length() - 1, a.type.width.data)))
        return self.add(arith.MuliOp(a, self.const(b, a.type.width.data)))

    def div_mod(self, a: SSAValue, divisor: int, extent: int) -> SSAValue:
        """(a / divisor) % extent, with shifts and masks for powers of two."""
        w = a.type.width.data
        pow2 = lambda x: x > 0 and x & (x - 1) == 0  # noqa: E731
        if divisor != 1:
            a = self.add(arith.ShRUIOp(a, self.const(divisor.bit_length() - 1, w)) if pow2(divisor)
                         else arith.DivUIOp(a, self.const(divisor, w)))
        return self.add(arith.AndIOp(a, self.const(extent - 1, w)) if pow2(extent)
                        else arith.RemUIOp(a, self.const(extent, w)))

    def to_i32(self, v: SSAValue) -> SSAValue:
        assert isinstance(v.type, IntegerType)
        w = v.type.width.data
        if w == 32:
            return v
        return self.add(arith.TruncIOp(v, i32) if w > 32 else arith.ExtUIOp(v, i32))

    def sreg(self, reg: str) -> SSAValue:
        return self.add(nvvm.SREG_OPS[reg]())

    def byte_pointer(self, ptr: SSAValue, byte_offset: SSAValue) -> SSAValue:
        wide = self.add(arith.ExtUIOp(byte_offset, i64))
        return self.add(llvm.GEPOp.from_mixed_indices(ptr, [wide], i8, result_type=ptr.type))

    def load(self, ptr: SSAValue, t: Attribute) -> SSAValue:
        return self.add(llvm.LoadOp(ptr, t))

    def store(self, value: SSAValue, ptr: SSAValue) -> None:
        self.add(llvm.StoreOp(value, ptr))

    def bitcast(self, v: SSAValue, t: Attribute) -> SSAValue:
        return v if v.type == t else self.add(llvm.BitcastOp(v, t))
