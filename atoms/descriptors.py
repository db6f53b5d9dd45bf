"""Shared-memory matrix descriptors (SM90 wgmma, SM100 tcgen05) built from the layout algebra.

A canonical SMEM operand layout is a CuTe composed layout: a swizzle on byte addresses, over a
layout from (row, k) of the operand tile (A: M x K, B: N x K) to element offsets. With T = 16 bytes
of elements and W_e = swizzle width in elements (CUTLASS mma_sm90_desc.hpp, in our words):

  K-major, no swizzle : ((8, R/8), (T, K/T)) : ((T, SBO), (1, LBO))      core matrix 8 rows x 16 B
  K-major, W-byte swz : ((8, R/8), K)        : ((W_e, SBO), 1)           LBO unused (encoded 1)
  MN-major, no swizzle: ((T, R/T), (8, K/8)) : ((1, SBO), (T, LBO))
  MN-major, W-byte swz: ((W_e, R/W_e), (8, K/8)) : ((1, LBO), (W_e, SBO))

Bit layouts: `../shared/reference/ptx-mma.md` C6 (SM90) and D7 (SM100). Seed 004's SM90 layout is
wrong (every field shifted); these follow the ISA and CUTLASS.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mmatom.layout import ComposedLayout, Layout, Swizzle, composition

from .limits import LimitError, check_smem_tile

SWIZZLE_BYTES = {"none": 0, "32b": 32, "64b": 64, "128b": 128, "128b_base32b": 128}
SM90_SWIZZLE_CODE = {"none": 0, "128b": 1, "64b": 2, "32b": 3}
SM100_SWIZZLE_CODE = {"none": 0, "128b_base32b": 1, "128b": 2, "64b": 4, "32b": 6}
MAJORS = ("k", "mn")
DESCRIPTOR_ADDRESS_LIMIT = 1 << 18  # a descriptor's start address, LBO and SBO: 14-bit fields of 16-byte units


class DescriptorError(ValueError):
    pass


def swizzle_of(mode: str) -> Swizzle:
    """The byte-address swizzle of a descriptor mode: 16-byte chunks XOR-ed with the row index."""
    width = SWIZZLE_BYTES[mode]
    if width == 0:
        return Swizzle(0, 4, 3)
    if mode == "128b_base32b":
        # 32-byte chunks XOR-ed with the row index mod 4: CUTLASS SWIZZLE_128B_BASE32B = Swizzle<2,5,2>
        # (cute/arch/mma_sm100_desc.hpp, on byte addresses like the other modes).
        return Swizzle(2, 5, 2)
    return Swizzle({32: 1, 64: 2, 128: 3}[width], 4, 3)


def mode_of_swizzle(sw: Swizzle) -> str | None:
    for mode in SWIZZLE_BYTES:
        if swizzle_of(mode) == sw or (mode == "none" and sw.bits == 0):
            return mode
    return None


@dataclass(frozen=True)
class SmemOperand:
    """What a descriptor describes: the tile, its element width, major mode and swizzle."""

    rows: int  # M or N
    k: int
    elem_bits: int
    major: str  # "k" or "mn"
    swizzle: str  # none, 32b, 64b, 128b, 128b_base32b (SM100 only)

    @property
    def t(self) -> int:
        return 128 // self.elem_bits

    def width_elems(self) -> int:
        return SWIZZLE_BYTES[self.swizzle] * 8 // self.elem_bits


def canonical_layout(op: SmemOperand, lbo: int, sbo: int) -> ComposedLayout:
    """The canonical layout for `op` with LBO/SBO in bytes (element offsets inside)."""
    to_e = lambda nbytes: nbytes * 8 // op.elem_bits  # noqa: E731
    t, r, k = op.t, op.rows, op.k
    if op.swizzle == "128b_base32b" and op.major == "k":
        # Neither the ISA's canonical-layout tables nor CUTLASS (Layout_MN_SW128_32B_Atom only) give a K-major atom.
        raise DescriptorError("swizzle 128b_base32b has only an MN-major canonical layout; K-major is not defined")
    if op.major == "k":
        if op.swizzle == "none":
            if k % t or r % 8:
                raise DescriptorError(f"a {r}x{k} K-major tile does not split into 8-row x 16-byte core matrices")
            layout = Layout(((8, r // 8), (t, k // t)), ((t, to_e(sbo)), (1, to_e(lbo))))
        else:
            w = op.width_elems()
            if k > w:
                raise DescriptorError(
                    f"K={k} spans {k * op.elem_bits // 8} bytes, more than one {op.swizzle} swizzle row")
            layout = Layout(((8, r // 8), k), ((w, to_e(sbo)), 1))
    else:
        if op.swizzle == "none":
            if r % t or k % 8:
                raise DescriptorError(f"a {r}x{k} MN-major tile does not split into 16-byte x 8 core matrices")
            layout = Layout(((t, r // t), (8, k // 8)), ((1, to_e(sbo)), (t, to_e(lbo))))
        else:
            w = op.width_elems()
            if r % w and r > w:
                raise DescriptorError(f"{r} rows are not a multiple of the {op.swizzle} width ({w} elements)")
            group = _k_rows_per_atom(op)
            if k % group and k > group:
                raise DescriptorError(f"K={k} is not a multiple of the {op.swizzle} atom's {group} rows")
            layout = Layout(((min(w, r), max(1, r // w)), (group, max(1, k // group))),
                            ((1, to_e(lbo)), (w, to_e(sbo))))
    return ComposedLayout(swizzle_of(op.swizzle), 0, layout)


def _k_rows_per_atom(op: SmemOperand) -> int:
    """K rows in one MN-major swizzle atom: 8 (the XOR pattern's period), 4 for 128b_base32b (Swizzle<2,5,2>)."""
    return 4 if op.swizzle == "128b_base32b" else 8


def _byte_addresses(layout: ComposedLayout | Layout, op: SmemOperand) -> np.ndarray:
    """Swizzled byte address of every element, in (row, k) colexicographic order (as one array: a tile's
    thousands of elements are a compile's hot spot one by one)."""
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    sw = layout.swizzle if isinstance(layout, ComposedLayout) else Swizzle(0, 4, 3)
    off = layout.offset if isinstance(layout, ComposedLayout) else 0
    modes = (inner[0].offsets()[:op.rows], inner[1].offsets()[:op.k]) if _rank2(inner) else (inner.offsets(),)
    # the farthest byte the offsets reach, either way, must fit a descriptor before it meets 64-bit arrays
    reach = (abs(off) + sum(max(map(abs, m)) for m in modes)) * op.elem_bits // 8
    if reach >= DESCRIPTOR_ADDRESS_LIMIT:
        raise DescriptorError(f"SMEM layout {layout} reaches byte {reach}; a descriptor addresses shared memory below "
                              f"{DESCRIPTOR_ADDRESS_LIMIT} bytes (14 bits of 16-byte units)")
    if len(modes) == 2:
        rows_at, cols_at = (np.asarray(m, dtype=np.int64) for m in modes)
        elems = off + rows_at[None, :] + cols_at[:, None]  # [k, row]: row fastest when flattened
    else:
        elems = off + np.asarray(modes[0], dtype=np.int64)
    return sw.apply(elems.ravel() * op.elem_bits // 8)


def _rank2(layout: Layout) -> bool:
    return isinstance(layout.shape, tuple) and len(layout.shape) == 2


def derive_offsets(layout: ComposedLayout | Layout, op: SmemOperand) -> tuple[int, int]:
    """Read LBO and SBO (bytes) off a layout, from the steps the canonical form assigns them."""
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    at = lambda row, kk: inner((row, kk)) * op.elem_bits // 8  # noqa: E731
    base = at(0, 0)
    if op.major == "k":
        sbo = at(8, 0) - base if op.rows > 8 else 0
        lbo = at(0, op.t) - base if (op.swizzle == "none" and op.k > op.t) else 16
    elif op.swizzle == "none":
        sbo = at(op.t, 0) - base if op.rows > op.t else 0
        lbo = at(0, 8) - base if op.k > 8 else 16
    else:
        w = op.width_elems()
        group = _k_rows_per_atom(op)
        lbo = at(w, 0) - base if op.rows > w else 16
        sbo = at(0, group) - base if op.k > group else 0
    return lbo, sbo


@lru_cache(maxsize=4096)
def check_layout(layout: ComposedLayout | Layout, op: SmemOperand) -> tuple[int, int]:
    """The (LBO, SBO) that make `layout` the canonical layout of `op`; DescriptorError if none does."""
    try:  # bounded before anything below enumerates the layout
        check_smem_tile(layout, op.rows, op.k, f"{op.elem_bits}-bit", op.elem_bits, "SMEM layout")
    except LimitError as err:
        raise DescriptorError(str(err)) from None
    sw = layout.swizzle if isinstance(layout, ComposedLayout) else Swizzle(0, 4, 3)
    declared_mode = mode_of_swizzle(sw)
    if declared_mode is None or (declared_mode != op.swizzle and not (sw.bits == 0 and op.swizzle == "none")):
        raise DescriptorError(
            f"descriptor swizzle {op.swizzle} disagrees with the SMEM layout's {sw}"
            f" ({declared_mode or 'not a tensor-core swizzle'}); the tensor core would read permuted data")
    if layout.size() != op.rows * op.k:
        raise DescriptorError(f"SMEM layout has {layout.size()} elements; the tile is {op.rows}x{op.k}")
    lbo, sbo = derive_offsets(layout, op)
    for name, v in (("LBO", lbo), ("SBO", sbo)):
        if v < 0 or v % 16:
            raise DescriptorError(f"{name}={v} bytes is not a non-negative multiple of 16")
    canon = canonical_layout(op, lbo, sbo)
    addresses = _byte_addresses(layout, op)
    if op.elem_bits >= 8 and len(np.unique(addresses)) != len(addresses):
        raise DescriptorError(f"SMEM layout {layout} maps elements of the tile to overlapping addresses")
    if not np.array_equal(_byte_addresses(canon, op), addresses):
        raise DescriptorError(
            f"SMEM layout {layout} is not the canonical {op.major.upper()}-major {op.swizzle} layout "
            f"{canon} (LBO={lbo}, SBO={sbo} bytes)")
    return lbo, sbo


# -- bit packing ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class DescriptorFields:
    start_address: int  # bytes
    lbo: int  # bytes
    sbo: int  # bytes
    base_offset: int  # 3 bits
    swizzle: str
    lbo_mode: int = 0  # SM100 only: 0 relative, 1 absolute
    fixed_46_48: int = 0  # SM100: must be 0b001


def _enc(x: int, what: str) -> int:
    if x % 16 or not 0 <= x < DESCRIPTOR_ADDRESS_LIMIT:
        raise DescriptorError(f"{what}={x} bytes is not a 16-byte multiple below 256 KiB")
    return (x & 0x3FFFF) >> 4


def encode_sm90(f: DescriptorFields) -> int:
    if f.swizzle not in SM90_SWIZZLE_CODE:
        raise DescriptorError(f"SM90 descriptors have no {f.swizzle} swizzle; legal: none, 32b, 64b, 128b")
    return (_enc(f.start_address, "start address") | (_enc(f.lbo, "LBO") << 16) | (_enc(f.sbo, "SBO") << 32)
            | ((f.base_offset & 7) << 49) | (SM90_SWIZZLE_CODE[f.swizzle] << 62))


def decode_sm90(desc: int) -> DescriptorFields:
    code = (desc >> 62) & 3
    return DescriptorFields(
        start_address=(desc & 0x3FFF) << 4, lbo=((desc >> 16) & 0x3FFF) << 4, sbo=((desc >> 32) & 0x3FFF) << 4,
        base_offset=(desc >> 49) & 7, swizzle={v: k for k, v in SM90_SWIZZLE_CODE.items()}[code])


def encode_sm100(f: DescriptorFields) -> int:
    if f.swizzle not in SM100_SWIZZLE_CODE:
        raise DescriptorError(f"SM100 descriptors have no {f.swizzle} swizzle")
    return (_enc(f.start_address, "start address") | (_enc(f.lbo, "LBO") << 16) | (_enc(f.sbo, "SBO") << 32)
            | (0b001 << 46) | ((f.base_offset & 7) << 49) | ((f.lbo_mode & 1) << 52)
            | (SM100_SWIZZLE_CODE[f.swizzle] << 61))


def decode_sm100(desc: int) -> DescriptorFields:
    code = (desc >> 61) & 7
    names = {v: k for k, v in SM100_SWIZZLE_CODE.items()}
    if code not in names:
        raise DescriptorError(f"swizzle code {code} at bits 61-63 is invalid on SM100 (3, 5, 7 are reserved)")
    return DescriptorFields(
        start_address=(desc & 0x3FFF) << 4, lbo=((desc >> 16) & 0x3FFF) << 4, sbo=((desc >> 32) & 0x3FFF) << 4,
        base_offset=(desc >> 49) & 7, swizzle=names[code], lbo_mode=(desc >> 52) & 1,
        fixed_46_48=(desc >> 46) & 7)


def base_offset(start_address: int, swizzle: str) -> int:
    """(pattern start >> 7) & 7: zero when the swizzle pattern starts on its repeat boundary."""
    return 0 if swizzle == "none" else (start_address >> 7) & 7


def check_pattern_start(offset: int, swizzle: str) -> None:
    """An atom read at `offset` bytes into a tile (whose base sits on the swizzle's repeat boundary) through the
    tile's descriptor advanced by `offset`: the descriptor's base offset stays 0, so the atom must start in
    phase with the pattern -- rows 0 mod 8 of it (a shift along a 128-byte row, K steps, is fine)."""
    width = SWIZZLE_BYTES[swizzle]
    if width and offset // 128 % (width // 16):
        raise DescriptorError(
            f"starts at byte {offset}, row {offset // 128 % (width // 16)} of a {width}B swizzle pattern that "
            f"repeats every {8 * width} bytes; an atom must start in phase (a multiple of {8 * width} bytes, plus "
            f"less than 128 along a row)")


def make_descriptor(layout: ComposedLayout | Layout, op: SmemOperand, start_address: int, arch: str = "sm90") -> int:
    """Check `layout` against `op` and pack the descriptor the tensor core needs to read it."""
    lbo, sbo = check_layout(layout, op)
    fields = DescriptorFields(start_address, lbo, sbo, base_offset(start_address, op.swizzle), op.swizzle)
    return encode_sm90(fields) if arch == "sm90" else encode_sm100(fields)


# -- sub-tiles: one atom's view of a larger SMEM tile ---------------------------------------------------

def sub_tile(layout: ComposedLayout | Layout, row0: int, rows: int, col0: int, cols: int,
             elem_bits: int) -> tuple[int, ComposedLayout]:
    """(byte offset, layout) of rows [row0, row0+rows) x cols [col0, col0+cols) of a (rows, K) SMEM tile.

    The atom's descriptor is the tile's with its start address advanced by the byte offset (the swizzle
    acts on absolute addresses, so the sub-tile keeps the tile's swizzle). A window is only a sub-tile if
    the tile's layout is a translation there: mode(start + i) = mode(start) + mode(i) for every i."""
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    sw = layout.swizzle if isinstance(layout, ComposedLayout) else Swizzle(0, 4, 3)
    modes = []
    for mode, start, extent, what in ((inner[0], row0, rows, "rows"), (inner[1], col0, cols, "K")):
        table = mode.offsets()
        if start + extent > len(table):
            raise DescriptorError(f"{what} [{start}, {start + extent}) run past the tile's {len(table)}")
        if any(table[start + i] - table[start] != table[i] for i in range(extent)):
            raise DescriptorError(f"the SMEM layout {layout} is not a translation over {what} [{start}, "
                                  f"{start + extent}): that window has no descriptor of its own")
        modes.append(composition(mode, Layout(extent, 1)))
    offset_elems = inner[0].offsets()[row0] + inner[1].offsets()[col0]
    if offset_elems * elem_bits % 128:
        raise DescriptorError(f"the sub-tile at (row {row0}, k {col0}) starts off a 16-byte boundary")
    sub = Layout((modes[0].shape, modes[1].shape), (modes[0].stride, modes[1].stride))
    return offset_elems * elem_bits // 8, ComposedLayout(sw, 0, sub)
