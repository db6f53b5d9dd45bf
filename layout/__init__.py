"""CuTe layout algebra in pure Python (no xDSL import): used by the verifiers, the lowering,
descriptor packing, the tools and the docs alike."""

from .int_tuple import IntTuple, crd2idx, flatten, idx2crd, product
from .layout import (
    Layout,
    LayoutError,
    blocked_product,
    coalesce,
    complement,
    composition,
    left_inverse,
    logical_divide,
    logical_product,
    make_layout,
    raked_product,
    right_inverse,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)
from .notation import NotationError, parse_any_layout, parse_int_tuple, parse_layout
from .swizzle import ComposedLayout, Swizzle

__all__ = [
    "ComposedLayout", "IntTuple", "Layout", "LayoutError", "NotationError", "Swizzle",
    "blocked_product", "coalesce", "complement", "composition", "crd2idx", "flatten", "idx2crd",
    "left_inverse", "logical_divide", "logical_product", "make_layout", "parse_any_layout",
    "parse_int_tuple", "parse_layout", "product", "raked_product", "right_inverse", "tiled_divide",
    "tiled_product", "zipped_divide", "zipped_product",
]
