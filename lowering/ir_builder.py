"""A small straight-line builder for the arith/llvm/nvvm ops the lowerings emit before one op."""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerType, i8
from xdsl.ir import Attribute, Operation, SSAValue

from mmatom.atoms.catalogue import Atom
from mmatom.atoms.limits import needs_64bit_offsets
from mmatom.dialects import nvvm
from mmatom.dialects.carried import carry
from mmatom.layout import Layout


def address_width(layout: Layout, bits: int, offset: SSAValue | None) -> int:
    """The width of the offset arithmetic for a tile laid out by `layout` at `ptr + offset`: 64 bits for an
    offset operand wider than 32 bits or a layout whose largest byte offset reaches 2^31, where 32-bit
    arithmetic could wrap; 32 otherwise (what every tile that fits has always been lowered with)."""
    if offset is not None and offset.type.width.data > 32:
        return 64
    return 64 if needs_64bit_offsets(layout, bits) else 32


class OpList:
    """Collects ops in order; `rewriter.insert_op(ops.ops, ...)` places them."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self._consts: dict[tuple[int, int], SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def add_mma(self, op: Operation, atom: Atom) -> SSAValue:
        """Add an nvvm op that performs `atom`: it carries the atom the mma op's verifier resolved, so its own
        verifier and the PTX target read that atom rather than rebuild one from its words."""
        carry(op, atom)
        return self.add(op)

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
        return self.to_width(v, 32)

    def to_width(self, v: SSAValue, width: int) -> SSAValue:
        """`v` as an integer of `width` bits (offsets are unsigned: zero-extended)."""
        assert isinstance(v.type, IntegerType)
        w = v.type.width.data
        if w == width:
            return v
        t = IntegerType(width)
        return self.add(arith.TruncIOp(v, t) if w > width else arith.ExtUIOp(v, t))

    def sreg(self, reg: str) -> SSAValue:
        return self.add(nvvm.SREG_OPS[reg]())

    def byte_pointer(self, ptr: SSAValue, byte_offset: SSAValue) -> SSAValue:
        wide = self.to_width(byte_offset, 64)
        return self.add(llvm.GEPOp.from_mixed_indices(ptr, [wide], i8, result_type=ptr.type))

    def load(self, ptr: SSAValue, t: Attribute) -> SSAValue:
        return self.add(llvm.LoadOp(ptr, t))

    def store(self, value: SSAValue, ptr: SSAValue) -> None:
        self.add(llvm.StoreOp(value, ptr))

    def bitcast(self, v: SSAValue, t: Attribute) -> SSAValue:
        return v if v.type == t else self.add(llvm.BitcastOp(v, t))
