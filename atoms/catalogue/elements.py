"""Element types of the tensor cores: bit widths and how they pack into 32-bit registers."""

from __future__ import annotations

BITS = {
    "f64": 64, "f32": 32, "tf32": 32, "s32": 32,
    "f16": 16, "bf16": 16,
    "s8": 8, "u8": 8, "e4m3": 8, "e5m2": 8,
    "e3m2": 6, "e2m3": 6, "e2m1": 4,
    "s4": 4, "u4": 4, "b1": 1,
    "ue8m0": 8, "ue4m3": 8,
    "b32": 32,  # an opaque 32-bit word: sparse metadata
    # fp6/fp4 in 8-bit containers, as kind::f8f6f4 and kind::mxf8f6f4 read them from registers and SMEM:
    # fp4 in bits [5:2] of the byte, fp6 in bits [5:0] (reference E3, "Element packing")
    "e3m2_c8": 8, "e2m3_c8": 8, "e2m1_c8": 8,
}
CONTAINED = {"e3m2_c8": ("e3m2", 0), "e2m3_c8": ("e2m3", 0), "e2m1_c8": ("e2m1", 2)}  # name -> (element, shift)

FP8 = ("e4m3", "e5m2")
F8F6F4 = ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1")
TRANSPOSABLE = ("f16", "bf16")  # wgmma: the element types an SMEM operand may hold MN-major (imm-trans)
INT8 = ("s8", "u8")
INT4 = ("s4", "u4")
SCALE_TYPES = ("ue8m0", "ue4m3")
ALL_ELEMENT_TYPES = tuple(BITS)


def container_bits(elem: str, kind: str | None) -> int:
    """Bits an element occupies in a register. Under kind::f8f6f4 / mxf8f6f4, fp6 and fp4 sit in
    8-bit containers (fp4 in bits [5:2], fp6 in [5:0]); mxf4 kinds pack e2m1 without padding."""
    if kind in ("f8f6f4", "mxf8f6f4") and elem in F8F6F4:
        return 8
    return BITS[elem]


def base_element(elem: str) -> str:
    """The element a storage name carries: e2m1_c8 -> e2m1."""
    return CONTAINED[elem][0] if elem in CONTAINED else elem


def storage_element(elem: str, kind: str | None) -> str:
    """How `elem` is stored in fragments and SMEM under `kind`: e2m1 -> e2m1_c8 under kind::f8f6f4."""
    if container_bits(elem, kind) == 8 and BITS[elem] < 8:
        return f"{elem}_c8"
    return elem


def register_type(elem: str) -> str:
    """The PTX register type that carries a fragment of `elem` values."""
    if elem == "f64":
        return ".f64"
    if elem == "f32":
        return ".f32"
    return ".b32"


def registers(elements_per_thread: int, elem: str, kind: str | None = None) -> int:
    """Registers per thread for a fragment: 64-bit registers for f64, else 32-bit ones."""
    bits = container_bits(elem, kind)
    if elem == "f64":
        return elements_per_thread
    return max(1, elements_per_thread * bits // 32)
