"""Hierarchical integer tuples (CuTe's IntTuple): an int, or a tuple of IntTuples.

Coordinates are evaluated colexicographically (the leftmost mode varies fastest), as in CuTe.
"""

from __future__ import annotations

from functools import reduce
from typing import Union

IntTuple = Union[int, tuple["IntTuple", ...]]


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_tuple(x: object) -> bool:
    return isinstance(x, tuple)


def flatten(t: IntTuple) -> tuple[int, ...]:
    if is_tuple(t):
        return tuple(i for a in t for i in flatten(a))
    return (t,)


def rank(t: IntTuple) -> int:
    return len(t) if is_tuple(t) else 1


def depth(t: IntTuple) -> int:
    if is_tuple(t):
        return 1 + max((depth(a) for a in t), default=0)
    return 0


def product(t: IntTuple) -> int:
    if is_tuple(t):
        return reduce(lambda acc, a: acc * product(a), t, 1)
    return t


def inner_product(a: IntTuple, b: IntTuple) -> int:
    if is_tuple(a):
        assert is_tuple(b) and len(a) == len(b), f"mismatched tuples {a} and {b}"
        return sum(inner_product(x, y) for x, y in zip(a, b))
    assert not is_tuple(b), f"mismatched tuples {a} and {b}"
    return a * b


def congruent(a: IntTuple, b: IntTuple) -> bool:
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return not is_tuple(a) and not is_tuple(b)


def prefix_product(shape: IntTuple, init: int = 1) -> IntTuple:
    """The compact column-major strides of `shape`, starting from `init`."""
    if is_tuple(shape):
        out = []
        current = init
        for mode in shape:
            out.append(prefix_product(mode, current))
            current *= product(mode)
        return tuple(out)
    return init


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's shape_div: divide `a` by `b`, consuming `b` from the left modes of `a`."""
    if is_tuple(a):
        if is_tuple(b):
            assert len(a) == len(b)
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        rest = b
        for mode in a:
            out.append(shape_div(mode, rest))
            rest = shape_div(rest, product(mode))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    assert a % b == 0 or b % a == 0, f"shape_div: {a} and {b} are not divisible"
    return a // b if a % b == 0 else (1 if b % a == 0 else a // b)


def idx2crd(idx: int, shape: IntTuple) -> IntTuple:
    """The natural (colexicographic) coordinate of linear index `idx` in `shape`."""
    if is_tuple(shape):
        out = []
        for mode in shape:
            size = product(mode)
            out.append(idx2crd(idx % size, mode))
            idx //= size
        return tuple(out)
    return idx


def crd2idx(crd: IntTuple, shape: IntTuple, stride: IntTuple) -> int:
    """Map a coordinate (an int, or a tuple congruent to or coarser than shape) to an offset."""
    if is_tuple(shape):
        if is_tuple(crd):
            assert len(crd) == len(shape), f"coordinate {crd} does not match shape {shape}"
            return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
        # an integer coordinate is unfolded over the modes colexicographically
        total = 0
        for s, d in zip(shape, stride):
            size = product(s)
            total += crd2idx(crd % size, s, d)
            crd //= size
        return total
    if is_tuple(crd):
        raise ValueError(f"coordinate {crd} is deeper than shape {shape}")
    return crd * stride


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    if is_tuple(a):
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def format_int_tuple(t: IntTuple) -> str:
    """CuTe notation: `(4,(2,2))`, `8`."""
    if is_tuple(t):
        return "(" + ",".join(format_int_tuple(a) for a in t) + ")"
    return str(t)
