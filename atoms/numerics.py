"""Element formats as numpy sees them: draw representable values, encode them to the bits the tensor
cores read, and decode bits back to float64 for references.

fp8 follows the OCP FP8 definitions the PTX ISA uses: e4m3 (bias 7, no infinities, S.1111.111 is NaN,
max 448) and e5m2 (bias 15, IEEE-like infinities and NaNs, max 57344). The OCP MX formats: e3m2 (bias 3,
max 28), e2m3 (bias 1, max 7.5), e2m1 (bias 1, values 0, 0.5, 1, 1.5, 2, 3, 4, 6), all finite; scale
types ue8m0 (2^(e-127), 0xFF NaN) and ue4m3 (unsigned e4m3, max 448, 0x7F NaN). Decoding is exact (a
table per format built from the definition); `encode` rounds to nearest even and saturates; tests check
both against the formats' stated values.
"""

from __future__ import annotations

import numpy as np

from .catalogue.elements import BITS, CONTAINED

INTEGER = {"s8": (-128, 127), "u8": (0, 255), "s4": (-8, 7), "u4": (0, 15), "b1": (0, 1),
           "s32": (-(2 ** 31), 2 ** 31 - 1)}


def _minifloat_table(exp_bits: int, man_bits: int, bias: int, specials: str, signed: bool = True) -> np.ndarray:
    """Every code of a small float format, decoded from its definition. specials: "ieee" (all-ones exponent
    is inf/NaN: e5m2), "fn" (only all-ones exponent and mantissa is NaN: e4m3, ue4m3), "none" (every code
    finite: the FP6/FP4 formats)."""
    width = exp_bits + man_bits + (1 if signed else 0)
    out = np.empty(1 << width, dtype=np.float64)
    top = (1 << exp_bits) - 1
    for code in range(1 << width):
        sign = -1.0 if signed and code >> (width - 1) else 1.0
        e = (code >> man_bits) & top
        m = code & ((1 << man_bits) - 1)
        if specials == "ieee" and e == top:
            out[code] = sign * np.inf if m == 0 else np.nan
        elif specials == "fn" and e == top and m == (1 << man_bits) - 1:
            out[code] = np.nan
        elif e == 0:
            out[code] = sign * m * 2.0 ** (1 - bias - man_bits)
        else:
            out[code] = sign * (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
    return out


def _ue8m0_table() -> np.ndarray:
    """UE8M0 (OCP MX scale): 2^(e - 127); 0xFF is NaN."""
    out = 2.0 ** (np.arange(256, dtype=np.float64) - 127)
    out[255] = np.nan
    return out


E4M3 = _minifloat_table(4, 3, 7, "fn")
E5M2 = _minifloat_table(5, 2, 15, "ieee")
FP8_TABLES = {"e4m3": E4M3, "e5m2": E5M2}
# the narrow formats of kind::f8f6f4 / mx* (OCP MX v1.0): no inf or NaN, and the MX/NVFP4 scale types
SMALL_FLOAT_TABLES = {
    **FP8_TABLES,
    "e3m2": _minifloat_table(3, 2, 3, "none"),
    "e2m3": _minifloat_table(2, 3, 1, "none"),
    "e2m1": _minifloat_table(2, 1, 1, "none"),
    "ue8m0": _ue8m0_table(),
    # UE4M3 (NVFP4 scale): e4m3 without its sign bit; codes >= 0x80 are not UE4M3 values
    "ue4m3": _minifloat_table(4, 3, 7, "fn", signed=False),
}


def encode(elem: str, values: np.ndarray) -> np.ndarray:
    """float64 values -> codes of a small float format: round to nearest, ties to the even code (even
    mantissa), saturating to the largest finite magnitude (as cvt ... .satfinite does); NaN -> the
    format's NaN (an error for formats without one)."""
    table = SMALL_FLOAT_TABLES[elem]
    values = np.asarray(values, dtype=np.float64)
    finite = np.flatnonzero(np.isfinite(table))
    # prefer +0 over -0 and, among equal distances, the even code
    order = sorted(finite, key=lambda c: (table[c], c & 1, c))
    codes = np.array(order)
    grid = table[codes]
    out = np.empty(values.shape, dtype=np.uint64)
    nan_codes = np.flatnonzero(np.isnan(table))
    for idx, v in np.ndenumerate(values):
        if np.isnan(v):
            if not len(nan_codes):
                raise ValueError(f"{elem} has no NaN")
            out[idx] = nan_codes[0]
            continue
        v = float(np.clip(v, grid[0], grid[-1]))  # saturate
        dist = np.abs(grid - v)
        best = np.flatnonzero(dist == dist.min())
        out[idx] = min(codes[best], key=lambda c: (c & 1, abs(table[c]) if v >= 0 else -abs(table[c]), c))
    return out


def decode(elem: str, bits: np.ndarray) -> np.ndarray:
    """Stored element bits (as produced by `draw`) -> float64 values."""
    if elem in CONTAINED:  # fp6/fp4 in an 8-bit container
        base, shift = CONTAINED[elem]
        return decode(base, (bits.astype(np.uint64) >> shift) & ((1 << BITS[base]) - 1))
    if elem in SMALL_FLOAT_TABLES:
        return SMALL_FLOAT_TABLES[elem][bits.astype(np.uint8)]
    if elem == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if elem == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if elem in ("tf32", "f32"):
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if elem == "f64":
        return bits.astype(np.uint64).view(np.float64)
    if elem in INTEGER:
        lo, _ = INTEGER[elem]
        b = BITS[elem]
        v = bits.astype(np.int64) & ((1 << b) - 1)
        return np.where((lo < 0) & (v >= (1 << (b - 1))), v - (1 << b), v).astype(np.float64)
    raise KeyError(elem)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 values -> bf16 bits, rounded to nearest even (finite inputs), as cvt.rn.bf16.f32 does."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def draw(elem: str, shape: tuple[int, ...], rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    """Random representable values of `elem`, as their stored bits (uint arrays), never NaN or inf."""
    if elem in CONTAINED:
        base, shift = CONTAINED[elem]
        return (draw(base, shape, rng, scale).astype(np.uint64) << shift).astype(np.uint8)
    if elem in SMALL_FLOAT_TABLES:
        table = SMALL_FLOAT_TABLES[elem]
        codes = np.flatnonzero(np.isfinite(table) & (np.abs(table) <= 16))  # moderate magnitudes
        return rng.choice(codes, size=shape).astype(np.uint8)
    if elem in INTEGER:
        lo, hi = INTEGER[elem]
        if elem == "s32":
            lo, hi = -1000, 1000
        return (rng.integers(lo, hi + 1, size=shape) & ((1 << BITS[elem]) - 1)).astype(np.uint64)
    x = rng.standard_normal(shape) * scale
    if elem == "f16":
        return x.astype(np.float16).view(np.uint16)
    if elem == "bf16":
        return bf16_bits(x.astype(np.float32))
    if elem == "tf32":
        u = x.astype(np.float32).view(np.uint32)
        return ((u + 0xFFF + ((u >> 13) & 1)) & ~np.uint32(0x1FFF)).astype(np.uint32)
    if elem == "f32":
        return x.astype(np.float32).view(np.uint32)
    if elem == "f64":
        return x.view(np.uint64)
    raise KeyError(elem)


def pack(elem: str, flat_bits: np.ndarray) -> bytes:
    """Elements (stored bits, in memory order) -> the bytes in memory; sub-byte elements fill each byte
    from its low bits up (element i of a 32-bit register sits at bits [b*i, b*(i+1)))."""
    b = BITS[elem]
    if b >= 8:
        dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[b]
        return flat_bits.astype(dtype).tobytes()
    per_byte = 8 // b
    v = flat_bits.astype(np.uint8).reshape(-1, per_byte) & ((1 << b) - 1)
    shifts = (np.arange(per_byte) * b).astype(np.uint8)
    return np.bitwise_or.reduce(v << shifts, axis=1).astype(np.uint8).tobytes()


def unpack(elem: str, data: bytes, count: int) -> np.ndarray:
    b = BITS[elem]
    if b >= 8:
        dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[b]
        return np.frombuffer(data, dtype=dtype)[:count].astype(np.uint64)
    per_byte = 8 // b
    raw = np.frombuffer(data, dtype=np.uint8)
    shifts = (np.arange(per_byte) * b).astype(np.uint8)
    return ((raw[:, None] >> shifts) & ((1 << b) - 1)).reshape(-1)[:count].astype(np.uint64)

