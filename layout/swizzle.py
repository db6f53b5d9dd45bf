"""CuTe swizzles and composed layouts.

Swizzle<B,M,S> XORs the B bits at [M+S, M+S+B) of an offset into the B bits at [M, M+B):
with offsets in bytes, the SMEM swizzles of the tensor cores are Swizzle<3,4,3> (128B),
Swizzle<2,4,3> (64B) and Swizzle<1,4,3> (32B): 16-byte chunks permuted by the 128-byte row index.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .int_tuple import IntTuple
from .layout import Layout


MAX_SWIZZLE_BITS = 64  # offsets are at most 64-bit addresses


@dataclass(frozen=True)
class Swizzle:
    bits: int
    base: int
    shift: int

    def __post_init__(self):
        if self.bits < 0 or self.base < 0 or abs(self.shift) < self.bits:
            raise ValueError(f"Swizzle<{self.bits},{self.base},{self.shift}> is not a valid swizzle (need |S| >= B)")
        if self.bits + self.base + abs(self.shift) > MAX_SWIZZLE_BITS:
            raise ValueError(f"Swizzle<{self.bits},{self.base},{self.shift}> reaches bit "
                             f"{self.bits + self.base + abs(self.shift)}; an offset has {MAX_SWIZZLE_BITS} bits")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, self.shift))

    def __call__(self, offset: int) -> int:
        if self.shift >= 0:
            return offset ^ ((offset & self.yyy_mask) >> self.shift)
        return offset ^ ((offset & (((1 << self.bits) - 1) << self.base)) << -self.shift)

    def apply(self, offsets: np.ndarray) -> np.ndarray:
        """The swizzle of every offset of an int64 array at once; exactly as __call__ on each one (in Python's
        unbounded ints, as an object array) when the swizzle's bits or the offsets reach past 62 bits."""
        span = self.bits + self.base + abs(self.shift)
        if span < 62 and (offsets.size == 0 or (offsets.min() >= 0 and offsets.max() < 1 << (62 - span))):
            return self(offsets)
        return np.array([self(int(x)) for x in offsets.ravel()], dtype=object).reshape(offsets.shape)

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
