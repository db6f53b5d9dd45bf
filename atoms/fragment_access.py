"""How a thread reaches its fragment values in memory: the plan behind load/store_fragment.

Given a fragment's TV layout ((thread, value) -> tile index) and a memory layout ((row, col) -> element
offset), the element offset of value v of thread t is mem(tv(t, v)). For every layout we emit, this
splits into a thread part and a value part, offset(t, v) = T(t) + V(v), with T itself a CuTe layout
over the thread mode (so T(t) is a sum of (t / divisor % extent) * stride terms). The plan checks
that split for every (t, v) instead of assuming it.

Registers: a 32-bit register holds 32 / bits values (64-bit for f64). When its values are consecutive
in memory it moves with one access of the register's width; otherwise each value moves on its own
(8- and 16-bit elements only: sub-byte values must be contiguous within their register).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mmatom.layout import Layout, parse_layout
from mmatom.layout.int_tuple import flatten, prefix_product
from mmatom.atoms.catalogue.elements import BITS

from .limits import LimitError, check_fragment, check_global_tile


class FragmentAccessError(ValueError):
    pass


@dataclass(frozen=True)
class ThreadTerm:
    divisor: int
    extent: int
    stride: int  # elements


@dataclass(frozen=True)
class RegisterAccess:
    index: int  # register number in the fragment
    offsets: tuple[int, ...]  # value part V(v) of each of its values, in elements
    contiguous: bool  # one access of the register's width


@dataclass(frozen=True)
class AccessPlan:
    threads: int  # threads the TV layout spans (8: an SM70 quad pair, 32: a warp, 128: a warpgroup)
    thread_terms: tuple[ThreadTerm, ...]
    registers: tuple[RegisterAccess, ...]
    bits: int  # element width
    values_per_register: int


def values_per_register(elem: str) -> int:
    bits = BITS[elem]
    return 1 if bits >= 32 else 32 // bits


def plan_access(frag, mem: Layout | str) -> AccessPlan:
    """The access plan of a fragment type (anything with .elem and a parsed TV layout .layout.data) through
    `mem`."""
    return _plan(str(frag.elem.data), frag.layout.data, parse_layout(mem) if isinstance(mem, str) else mem)


@lru_cache(maxsize=1024)
def _plan(elem: str, tv: Layout, mem: Layout) -> AccessPlan:
    bits = BITS[elem]
    try:  # bounded (and addressable) before the tables below enumerate either layout
        check_fragment(tv, elem, bits, "fragment layout")
        check_global_tile(mem, elem, bits, "memory layout")
    except LimitError as err:
        raise FragmentAccessError(str(err)) from None
    per_reg = values_per_register(elem)
    n_thr, n_val = tv[0].size(), tv[1].size()
    offset = _offsets(tv, mem)
    base = offset(0, 0)
    value_part = [offset(0, v) - base for v in range(n_val)]
    terms = _thread_terms(tv[0], offset, base)
    _check_split(tv, mem, offset, terms, value_part)
    if n_val % per_reg:
        raise FragmentAccessError(f"{n_val} {elem} values do not fill whole registers of {per_reg}")
    regs = tuple(_register_access(r, value_part[r * per_reg:(r + 1) * per_reg], terms, elem, mem)
                 for r in range(n_val // per_reg))
    return AccessPlan(n_thr, terms, regs, bits, per_reg)


def _offsets(tv: Layout, mem: Layout):
    """offset(t, v): `mem`(row, col) of the tile index tv(t, v) = row + ROWS * col, read from tables over (t, v)."""
    n_thr, rows = tv[0].size(), mem[0].size()
    row_offsets, col_offsets = mem[0].offsets(), mem[1].offsets()
    tile = tv.offsets()  # index t + n_thr * v

    def offset(t: int, v: int) -> int:
        i = tile[t + n_thr * v]
        return row_offsets[i % rows] + col_offsets[i // rows]
    return offset


def _thread_terms(thr: Layout, offset, base: int) -> tuple[ThreadTerm, ...]:
    """The thread mode's nontrivial strides in memory: one term per mode of the thread shape that moves."""
    shape = flatten(thr.shape) if isinstance(thr.shape, tuple) else (thr.shape,)
    divisors = flatten(prefix_product(thr.shape)) if isinstance(thr.shape, tuple) else (1,)
    terms = []
    for extent, divisor in zip(shape, divisors):
        if extent == 1:
            continue
        stride = offset(divisor, 0) - base
        if stride:
            terms.append(ThreadTerm(divisor, extent, stride))
    return tuple(terms)


def _check_split(tv: Layout, mem: Layout, offset, terms: tuple[ThreadTerm, ...], value_part: list[int]) -> None:
    """Every (thread, value) offset is the thread's part plus the value's, from offset 0."""
    base = offset(0, 0)
    for t in range(tv[0].size()):
        expected = base + sum((t // term.divisor % term.extent) * term.stride for term in terms)
        for v in range(tv[1].size()):
            if offset(t, v) != expected + value_part[v]:
                raise FragmentAccessError(
                    f"memory layout {mem} does not split into thread and value offsets for TV layout {tv} "
                    f"(thread {t}, value {v})")
    if base:
        raise FragmentAccessError(f"memory layout {mem} does not start the tile at offset 0")


def _register_access(r: int, offsets: list[int], terms: tuple[ThreadTerm, ...], elem: str,
                     mem: Layout) -> RegisterAccess:
    """Register r's values at `offsets`: one access of the register's width where they are consecutive and
    aligned to it, else value by value (refused for sub-byte values, which cannot move alone)."""
    bits, per_reg = BITS[elem], values_per_register(elem)
    offs = tuple(offsets)
    contiguous = all(o == offs[0] + i for i, o in enumerate(offs))
    if per_reg > 1 and not contiguous and bits < 8:
        raise FragmentAccessError(
            f"register {r} of the {elem} fragment holds values at element offsets {list(offs)}; "
            f"{bits}-bit values must be contiguous in memory within a register (use a layout whose "
            f"register values are consecutive)")
    if contiguous and per_reg > 1:
        if offs[0] % per_reg or any(term.stride % per_reg for term in terms):
            contiguous = False  # not aligned to the register width: move values one by one
            if bits < 8:
                raise FragmentAccessError(
                    f"register {r} of the {elem} fragment is not aligned to 32 bits in memory layout {mem}")
    return RegisterAccess(r, offs, contiguous)
