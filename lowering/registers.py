"""Fragments as registers at the nvvm level, in upstream NVVM's operand types.

A fragment of E elements becomes len(values) / values-per-register registers of one type:
f16 pairs as vector<2xf16>, f32 and f64 scalars, everything else (bf16, tf32, integers, fp8, b1,
sparse metadata) as i32 bit containers.
"""

from __future__ import annotations

from xdsl.dialects.builtin import VectorType, f16, f32, f64, i32
from xdsl.ir import Attribute

from mmatom.atoms.catalogue.elements import BITS

F16X2 = VectorType(f16, [2])


def register_type(elem: str) -> Attribute:
    if elem == "f16":
        return F16X2
    if elem == "f32":
        return f32
    if elem == "f64":
        return f64
    return i32


def register_count(frag) -> int:
    """Registers per thread of a fragment type (anything with .elem and .layout)."""
    elem = frag.elem.data
    values = frag.layout.data[1].size()
    bits = BITS[elem]
    return values if bits >= 32 else values * bits // 32

