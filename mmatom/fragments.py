"""Where a TiledMma fragment's values lie, as runtime values, and reductions over its rows.

Every fragment of the catalogue is separable: value v of thread t lies at base(t) + offset(v) in the step tile, base
an affine map of the thread index (a layout: shifts and masks of tid.x) and offset a constant per value. A kernel
pays for the thread part once and for one add per coordinate it reads:

    coords = tiled.fragment_coords(kb, "C")          # base row and column of this thread: a few shifts and masks
    row, col = coords[5]                             # value 5's (row, col): base + constants
    s = tiled.map_with_coords(kb, s, lambda x, row, col: mmatom.select(col <= row, x, float("-inf")))
    m = tiled.reduce_rows(kb, s, "max")              # one Value per row this thread holds: local, then shfl.bfly
    p = kb.map(s, lambda x, v: kb.ex2(x - m[tiled.value_rows("C")[v]]))

`Placement` is the Python side (read off the fragment's TV layout, checked on every thread and value);
`FragmentCoords` and `reduce_rows` emit it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mmatom.layout import Layout, coalesce
from mmatom.layout.int_tuple import flatten

from .errors import api_error
from .values import Value, max_value, min_value

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder

WARP = 32
Coordinate = tuple[int, int]
# reduce_rows' combiners: name -> (how two Values meet)
COMBINERS: dict[str, Callable[[Value, Value], Value]] = {
    "max": max_value, "min": min_value, "sum": lambda a, b: a + b,
}


@dataclass(frozen=True)
class Placement:
    """One role's fragment: thread t's value v is at origin + (rows(t), cols(t)) + offsets[v] in the step tile."""

    what: str                       # e.g. "C of wgmma.mma_async...m64n64k16" for diagnostics
    threads: int
    rows: Layout                    # thread -> its value 0's row, less the origin's
    cols: Layout                    # thread -> its value 0's column, less the origin's
    origin: Coordinate
    offsets: tuple[Coordinate, ...]

    def at(self, thread: int, value: int) -> Coordinate:
        dr, dc = self.offsets[value]
        return self.origin[0] + self.rows(thread) + dr, self.origin[1] + self.cols(thread) + dc

    @property
    def row_offsets(self) -> tuple[int, ...]:
        """The distinct row offsets of a thread's values, ascending: reduce_rows' results, in order."""
        return tuple(sorted({dr for dr, _ in self.offsets}))

    @property
    def value_rows(self) -> tuple[int, ...]:
        """For each value, the index of its row among the thread's rows (`row_offsets`)."""
        index = {dr: i for i, dr in enumerate(self.row_offsets)}
        return tuple(index[dr] for dr, _ in self.offsets)

    def row_lane_masks(self) -> tuple[int, ...]:
        """The lane-index bits whose flip keeps a thread on the same rows: the shfl.bfly masks that reduce a row
        across the threads that share it. A CompileError where threads sharing a row are not such a group of
        lanes of one warp."""
        return _row_lane_masks(self)


@functools.lru_cache(maxsize=64)
def _row_lane_masks(placement: Placement) -> tuple[int, ...]:
    """Placement.row_lane_masks, once per placement (a pure function of it, and placements are shared per process:
    TiledMma.placement): every reduce_rows asks, and each answer reads every thread's rows. Errors are not cached."""
    holders: dict[frozenset[int], list[int]] = {}
    for t in range(placement.threads):
        holders.setdefault(frozenset(placement.rows(t) + dr for dr in placement.row_offsets), []).append(t)
    _check_disjoint(placement, holders)
    masks = tuple(1 << b for b in range(5) if all(placement.rows(t) == placement.rows(t ^ (1 << b))
                                                    for t in range(placement.threads) if t ^ (1 << b) < placement.threads))
    span = _span(masks)
    for group in holders.values():
        if len({t // WARP for t in group}) > 1:
            raise api_error(f"reduce_rows: threads {group[0]} and {next(t for t in group if t // WARP != group[0] // WARP)} "
                            f"of {placement.what} hold the same row in different warps; a row reduction across warps "
                            f"needs shared memory (reduce within each warp, then combine)")
        if sorted(t ^ group[0] for t in group) != span:
            raise api_error(f"reduce_rows: threads {group} of {placement.what} share their rows, which is no "
                            f"butterfly group of lanes (shfl.bfly reaches lane ^ mask)")
    return masks


def _check_disjoint(placement: Placement, holders: dict[frozenset[int], list[int]]) -> None:
    owner: dict[int, frozenset[int]] = {}
    for rows in holders:
        for r in rows:
            if owner.setdefault(r, rows) != rows:
                raise api_error(f"reduce_rows: row {r} of {placement.what} is held by threads {holders[owner[r]][0]} "
                                f"and {holders[rows][0]}, which hold different sets of rows")


def _span(masks: Sequence[int]) -> list[int]:
    out = [0]
    for m in masks:
        out += [x | m for x in out]
    return sorted(out)


def affine(shape: tuple[int, ...], f: Callable[[int], int], what: str) -> Layout:
    """The layout of `shape` equal to f(t) - f(0) on every index t, its strides read at unit steps of each mode; a
    CompileError if f is not affine in those modes."""
    strides, step = [], 1
    for s in shape:
        strides.append(f(step) - f(0) if s > 1 else 0)
        step *= s
    layout = Layout(tuple(shape), tuple(strides))
    bad = next((t for t in range(step) if layout(t) + f(0) != f(t)), None)
    if bad is not None:
        raise api_error(f"{what}: thread {bad}'s place is no affine map of the thread index over {shape}")
    return coalesce(layout)


def placement(what: str, thread_shape: Sequence, values: Callable[[int], list[Coordinate]]) -> Placement:
    """The Placement of the fragment whose thread t holds `values(t)` (coordinates in value order), threads over
    `thread_shape`; a CompileError naming the thread and value where the table is not separable."""
    shape = tuple(flatten(tuple(thread_shape)))
    threads = 1
    for s in shape:
        threads *= s
    table = [values(t) for t in range(threads)]
    origin = table[0][0]
    offsets = tuple((r - origin[0], c - origin[1]) for r, c in table[0])
    for t, vals in enumerate(table):
        base = vals[0]
        for v, (r, c) in enumerate(vals):
            if (r - base[0], c - base[1]) != offsets[v]:
                raise api_error(f"{what}: thread {t}'s value {v} at ({r}, {c}) is not its value 0 plus the offset "
                                f"{offsets[v]} thread 0 has; its coordinates have no per-thread base")
    rows = affine(shape, lambda t: table[t][0][0], f"{what} (rows)")
    cols = affine(shape, lambda t: table[t][0][1], f"{what} (columns)")
    return Placement(what, threads, rows, cols, origin, offsets)


class FragmentCoords(Sequence):
    """(row, col) of each of this thread's fragment values in the step tile, as i32 Values: `coords[v]` emits two
    adds (a constant offset that is 0 costs none) at the builder's insertion point, from the thread's base row and
    column emitted once where the FragmentCoords was made. `rows[i]` is the row of reduce_rows' i-th result."""

    def __init__(self, kb: KernelBuilder, placement: Placement, thread: Value):
        self.kb, self.placement = kb, placement
        self.base_row = kb.layout(placement.rows, thread) + placement.origin[0]
        self.base_col = kb.layout(placement.cols, thread) + placement.origin[1]

    def __len__(self) -> int:
        return len(self.placement.offsets)

    def __getitem__(self, v):
        if isinstance(v, slice):
            return [self[i] for i in range(*v.indices(len(self)))]
        dr, dc = self.placement.offsets[v]
        return self.base_row + dr, self.base_col + dc

    @property
    def rows(self) -> list[Value]:
        return [self.base_row + dr for dr in self.placement.row_offsets]


def _tree(combine: Callable[[Value, Value], Value], xs: list[Value]) -> Value:
    """Pairwise: log2(n) dependent steps instead of n - 1 (ptxas does not reassociate float adds)."""
    while len(xs) > 1:
        xs = [combine(xs[i], xs[i + 1]) if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]


def reduce_rows(kb: KernelBuilder, fragment: Value, placement: Placement, op: str) -> list[Value]:
    """One Value per row the thread holds (placement.row_offsets' order): its values of that row combined by `op`,
    then across the lanes that share the row (shfl.bfly over placement.row_lane_masks()), so every lane holding a
    row gets the whole row's result."""
    if op not in COMBINERS:
        raise api_error(f"reduce_rows: op {op!r} is not one of {', '.join(COMBINERS)}")
    combine = COMBINERS[op]
    masks = placement.row_lane_masks()
    values: dict[int, list[Value]] = {}
    for v, row in enumerate(placement.value_rows):
        values.setdefault(row, []).append(kb.extract(fragment, v))
    out = []
    for row in range(len(placement.row_offsets)):
        x = _tree(combine, values[row])
        for mask in masks:
            x = combine(x, kb.shfl.bfly(x, mask))
        out.append(x)
    return out


__all__ = ["COMBINERS", "FragmentCoords", "Placement", "affine", "placement", "reduce_rows"]
