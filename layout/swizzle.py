"""CuTe swizzles and composed layouts.

Swizzle<B,M,S> XORs the B bits at [M+S, M+S+B) of an offset into the B bits at [M, M+B):
with offsets in bytes, the SMEM swizzles of the tensor cores are Swizzle<3,4,3> (128B),
Swizzle<2,4,3> (64B) and Swizzle<1,4,3> (32B): 16-byte chunks permuted by the 128-byte row index.
"""

from __future__ import annotations

from dataclasses import dataclass

from .int_tuple import IntTuple
from .layout import Layout


@dataclass(frozen=True)
class Swizzle:
    bits: int
    base: int
    shift: int

    def __post_init__(self):
        if self.bits < 0 or self.base < 0 or abs(self.shift) < self.bits:
            raise ValueError(f"Swizzle<{self.bits},{self.base},{self.shift}> is not a valid swizzle (need |S| >= B)")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, self.shift))

    def __call__(self, offset: int) -> int:
        if self.shift >= 0:
            return offset ^ ((offset & self.yyy_mask) >> self.shift)
        return offset ^ ((offset & (((1 << self.bits) - 1) << self.base)) << -self.shift)

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"


@dataclass(frozen=True)
class ComposedLayout:
    """swizzle o offset o layout: c -> swizzle(offset + layout(c))."""

    swizzle: Swizzle
    offset: int
    layout: Layout

    def __call__(self, crd: IntTuple) -> int:
        return self.swizzle(self.offset + self.layout(crd))

    def size(self) -> int:
        return self.layout.size()

    @property
    def shape(self) -> IntTuple:
        return self.layout.shape

    def offsets(self) -> list[int]:
        return [self(i) for i in range(self.size())]

    def equivalent(self, other: "ComposedLayout | Layout") -> bool:
        return self.size() == other.size() and self.offsets() == other.offsets()

    def __str__(self) -> str:
        return f"{self.swizzle} o {self.offset} o {self.layout}"
