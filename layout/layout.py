"""CuTe layouts: a hierarchical shape paired with a congruent stride, a function from coordinates
(or colexicographic linear indices) to offsets; and the algebra over them.

The algorithms follow the definitions in CuTe's layout algebra (coalesce, composition, complement,
inverses, divides and products); tests/unit/test_layout_algebra.py checks each against a brute-force
definition on random layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Iterable, Sequence

from .int_tuple import (
    IntTuple,
    congruent,
    crd2idx,
    depth,
    flatten,
    format_int_tuple,
    idx2crd,
    is_int,
    is_tuple,
    prefix_product,
    product,
)


class LayoutError(ValueError):
    """An operation of the algebra was given layouts it is not defined for."""


@dataclass(frozen=True)
class Layout:
    shape: IntTuple
    stride: IntTuple

    def __init__(self, shape: IntTuple, stride: IntTuple | None = None):
        if stride is None:
            stride = prefix_product(shape)
        if not congruent(shape, stride):
            raise LayoutError(
                f"stride {format_int_tuple(stride)} is not congruent with shape {format_int_tuple(shape)}"
            )
        if any(s < 0 for s in flatten(shape)):
            raise LayoutError(f"shape {format_int_tuple(shape)} has a negative extent")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "stride", stride)

    # -- queries --------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.shape) if is_tuple(self.shape) else 1

    def __getitem__(self, i: int) -> "Layout":
        if is_tuple(self.shape):
            return Layout(self.shape[i], self.stride[i])  # type: ignore[index]
        if i != 0:
            raise IndexError(f"mode {i} of a rank-1 layout")
        return self

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def size(self) -> int:
        return product(self.shape)

    def cosize(self) -> int:
        """One past the largest offset (the codomain's extent)."""
        if self.size() == 0:
            return 0
        return max(self(i) for i in self._extreme_indices()) + 1

    def _extreme_indices(self) -> list[int]:
        # the largest offset sits at a corner: each flat mode at 0 or at its end
        shapes, strides = flatten(self.shape), flatten(self.stride)
        crd = tuple((s - 1) if d > 0 else 0 for s, d in zip(shapes, strides))
        return [crd2idx(crd, shapes, prefix_product(shapes))]

    def rank(self) -> int:
        return len(self)

    def depth(self) -> int:
        return depth(self.shape)

    def __call__(self, crd: IntTuple) -> int:
        return crd2idx(crd, self.shape, self.stride)

    def offsets(self) -> list[int]:
        """The offset of every linear index, in colexicographic order."""
        return list(_offsets(self.shape, self.stride))

    def is_injective(self) -> bool:
        offs = self.offsets()
        return len(set(offs)) == len(offs)

    def equivalent(self, other: "Layout") -> bool:
        """Same size and the same function of the linear index (CuTe's layouts are equal as
        functions even when their shapes are grouped differently)."""
        return self.size() == other.size() and self.offsets() == other.offsets()

    def __str__(self) -> str:
        return f"{format_int_tuple(self.shape)}:{format_int_tuple(self.stride)}"

    def __repr__(self) -> str:
        return f"Layout({self})"

    def crd(self, idx: int) -> IntTuple:
        return idx2crd(idx, self.shape)

    def flat_modes(self) -> list[tuple[tuple[int, ...], int, int]]:
        """(path, extent, stride) of every flat mode, where path indexes the hierarchy: (0, 1) is mode 1 of
        mode 0. Cheap (no offset is enumerated), so bounds can be checked before anything enumerates."""
        return list(_flat_modes(self.shape, self.stride, ()))


def make_layout(*layouts: Layout | Iterable[Layout]) -> Layout:
    """Concatenate layouts as the modes of a new layout."""
    if len(layouts) == 1 and not isinstance(layouts[0], Layout):
        layouts = tuple(layouts[0])  # type: ignore[assignment]
    items: list[Layout] = list(layouts)  # type: ignore[arg-type]
    return Layout(tuple(l.shape for l in items), tuple(l.stride for l in items))


def coalesce(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """The simplest layout with the same function: drop size-1 modes, merge contiguous ones."""
    if profile is not None and is_tuple(profile):
        if len(layout) < len(profile):
            raise LayoutError(f"coalesce: profile {profile} is deeper than {layout}")
        return make_layout(
            chain(
                (coalesce(layout[i], profile[i]) for i in range(len(profile))),
                (layout[i] for i in range(len(profile), len(layout))),
            )
        )
    shapes: list[int] = [1]
    strides: list[int] = [0]
    for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
        if s == 1:
            continue
        if shapes[-1] == 1:
            shapes[-1], strides[-1] = s, d
        elif shapes[-1] * strides[-1] == d:
            shapes[-1] *= s
        else:
            shapes.append(s)
            strides.append(d)
    if len(shapes) == 1:
        return Layout(shapes[0], strides[0])
    return Layout(tuple(shapes), tuple(strides))


Tiler = Layout | int | Sequence["Tiler"] | None


def _by_mode(op, a: Layout, tilers: Sequence) -> Layout:
    """Apply `op` mode by mode: mode i of A with tiler i; A's extra modes pass through."""
    if len(a) < len(tilers):
        raise LayoutError(f"{op.__name__}: tiler {tilers} has more modes than {a}")
    return make_layout(
        chain((op(a[i], tilers[i]) for i in range(len(tilers))), (a[i] for i in range(len(tilers), len(a))))
    )


def _as_layout(x: Layout | int) -> Layout:
    return Layout(x) if is_int(x) else x  # type: ignore[arg-type]


def composition(a: Layout, b: Tiler) -> Layout:
    """R = A o B: R(c) = A(B(c)), with the shape of B. A tuple of tilers composes mode by mode."""
    if b is None:
        return a
    if is_int(b):
        return composition(a, Layout(b))
    if isinstance(b, (tuple, list)):
        return _by_mode(composition, a, b)
    assert isinstance(b, Layout)
    if is_tuple(b.shape):
        return make_layout(composition(a, bi) for bi in b)
    if b.stride == 0:
        return Layout(b.shape, 0)
    result_shape: list[int] = []
    result_stride: list[int] = []
    rest_shape: int = b.shape  # type: ignore[assignment]
    rest_stride: int = b.stride  # type: ignore[assignment]
    flat_a = coalesce(a)
    a_shapes, a_strides = flatten(flat_a.shape), flatten(flat_a.stride)
    for cur_shape, cur_stride in zip(a_shapes[:-1], a_strides[:-1]):
        if not (cur_shape % rest_stride == 0 or rest_stride % cur_shape == 0):
            raise LayoutError(
                f"composition {a} o {b}: stride {rest_stride} does not divide shape {cur_shape} (or vice versa)"
            )
        new_shape = min(max(1, cur_shape // rest_stride), rest_shape)
        if new_shape != 1:
            result_shape.append(new_shape)
            result_stride.append(rest_stride * cur_stride)
        if rest_shape % new_shape != 0:
            raise LayoutError(f"composition {a} o {b}: shape {rest_shape} is not divisible by {new_shape}")
        rest_shape //= new_shape
        rest_stride = -(-rest_stride // cur_shape)
    if rest_shape != 1 or not result_shape:
        result_shape.append(rest_shape)
        result_stride.append(rest_stride * a_strides[-1])
    if len(result_shape) == 1:
        return Layout(result_shape[0], result_stride[0])
    return Layout(tuple(result_shape), tuple(result_stride))


def complement(layout: Layout | int, cosize_hi: int = 1) -> Layout:
    """The layout of the offsets in [0, cosize_hi) that `layout` does not reach, ordered so that
    (layout, complement) is a bijection onto a compact range."""
    layout = _as_layout(layout)
    result_shape: list[int] = []
    result_stride: list[int] = []
    current = 1
    for stride, shape in sorted(zip(flatten(layout.stride), flatten(layout.shape))):
        if stride == 0 or shape == 1:
            continue
        if current > shape * stride or stride % current != 0:
            raise LayoutError(f"complement: {layout} is not injective with divisible strides")
        result_shape.append(stride // current)
        result_stride.append(current)
        current = shape * stride
    result_shape.append(-(-cosize_hi // current))
    result_stride.append(current)
    return coalesce(Layout(tuple(result_shape), tuple(result_stride)))


def right_inverse(layout: Layout | int) -> Layout:
    """R such that layout(R(i)) == i for i in [0, size(R))."""
    layout = _as_layout(layout)
    result_shape: list[int] = []
    result_stride: list[int] = []
    current = 1
    flat_shape = flatten(layout.shape)
    flat_stride = flatten(layout.stride)
    for stride, shape, rstride in sorted(zip(flat_stride, flat_shape, flatten(prefix_product(flat_shape)))):
        if shape == 1:
            continue
        if current != stride:
            break
        result_shape.append(shape)
        result_stride.append(rstride)
        current = shape * stride
    return coalesce(Layout(tuple(result_shape), tuple(result_stride)))


def left_inverse(layout: Layout | int) -> Layout:
    """L such that L(layout(i)) == i for i in [0, size(layout)) (layout must be injective)."""
    layout = _as_layout(layout)
    return right_inverse(make_layout(layout, complement(layout)))


def logical_divide(a: Layout, b: Tiler) -> Layout:
    """Split A into (tile, rest): mode 0 is B's elements, mode 1 iterates over the tiles."""
    if b is None:
        return a
    if is_int(b):
        return logical_divide(a, Layout(b))
    if isinstance(b, (tuple, list)):
        return _by_mode(logical_divide, a, b)
    return composition(a, make_layout(b, complement(b, a.size())))


def logical_product(a: Layout, b: Tiler) -> Layout:
    """(A, B'): A repeated over B's shape, the repetitions laid out where A leaves room."""
    if b is None:
        return a
    if is_int(b):
        return logical_product(a, Layout(b))
    if isinstance(b, (tuple, list)):
        return _by_mode(logical_product, a, b)
    return make_layout(a, composition(complement(a, a.size() * b.cosize()), b))


def _hier_unzip(splitter, a: Layout, b: Tiler) -> Layout:
    if b is None:
        return make_layout(Layout(1, 0), a)
    if isinstance(b, (tuple, list)):
        if len(a) < len(b):
            raise LayoutError(f"tiler {b} has more modes than {a}")
        split = [_hier_unzip(splitter, a[i], b[i]) for i in range(len(b))]
        return make_layout(
            make_layout(s[0] for s in split),
            make_layout(chain((s[1] for s in split), (a[i] for i in range(len(b), len(a))))),
        )
    return splitter(a, b)


def zipped_divide(a: Layout, b: Tiler) -> Layout:
    """((tile modes...), (rest modes...))."""
    return _hier_unzip(logical_divide, a, b)


def tiled_divide(a: Layout, b: Tiler) -> Layout:
    """((tile modes...), rest0, rest1, ...)."""
    z = zipped_divide(a, b)
    return make_layout([z[0]] + [z[1][i] for i in range(len(z[1]))])


def zipped_product(a: Layout, b: Tiler) -> Layout:
    return _hier_unzip(logical_product, a, b)


def tiled_product(a: Layout, b: Tiler) -> Layout:
    z = zipped_product(a, b)
    return make_layout([z[0]] + [z[1][i] for i in range(len(z[1]))])


def blocked_product(a: Layout, b: Layout) -> Layout:
    """Each mode i of the result is (A_i, B_i): A's block repeated B times along mode i."""
    rank = max(len(a), len(b))
    a_pad = _append_modes(a, rank)
    b_pad = _append_modes(b, rank)
    p = logical_product(a_pad, b_pad)
    return make_layout(make_layout(p[0][i], p[1][i]) for i in range(rank))


def raked_product(a: Layout, b: Layout) -> Layout:
    """Each mode i of the result is (B_i, A_i): A's elements interleaved across B's repetitions."""
    rank = max(len(a), len(b))
    a_pad = _append_modes(a, rank)
    b_pad = _append_modes(b, rank)
    p = logical_product(a_pad, b_pad)
    return make_layout(make_layout(p[1][i], p[0][i]) for i in range(rank))


def _append_modes(layout: Layout, rank: int) -> Layout:
    modes = [layout[i] for i in range(len(layout))] if is_tuple(layout.shape) else [layout]
    while len(modes) < rank:
        modes.append(Layout(1, 0))
    return make_layout(modes)


def flat(layout: Layout) -> Layout:
    return Layout(flatten(layout.shape), flatten(layout.stride))


@lru_cache(maxsize=4096)
def _offsets(shape: IntTuple, stride: IntTuple) -> tuple[int, ...]:
    """Every offset of shape:stride, the first flattened mode fastest (what crd2idx gives per index)."""
    out = [0]
    for extent, step in zip(flatten(shape), flatten(stride)):
        out = [o + i * step for i in range(extent) for o in out]
    return tuple(out)


def _flat_modes(shape: IntTuple, stride: IntTuple, path: tuple[int, ...]):
    if is_tuple(shape):
        for i, (s, d) in enumerate(zip(shape, stride)):  # type: ignore[arg-type]
            yield from _flat_modes(s, d, path + (i,))
    else:
        yield path or (0,), shape, stride
