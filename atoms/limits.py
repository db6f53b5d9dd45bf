"""Hardware limits that bound what a layout may describe, in one place, and the checks that apply them.

Every check reads only a layout's shape and strides (never its offsets), so a verifier runs it before
anything enumerates a layout: a layout of 2^31 elements is rejected at once instead of being walked
element by element. A LimitError says what exceeds which limit; the verifier prefixes the op and operand.
"""

from __future__ import annotations

from mmatom.layout import Layout

SMEM_BYTES = 227 * 1024  # the most dynamic SMEM one CTA can have (sm_90 / sm_100 opt-in limit)
REGISTERS_PER_THREAD = 255  # 32-bit registers
THREADS_PER_CTA = 1024
REGISTER_FILE = 65536  # 32-bit registers of one SM, the most one CTA's fragments can occupy
REGISTER_BITS = 32
# A global tile moves through one CTA's fragments or its SMEM tile, so it holds no more bits than
# THREADS_PER_CTA x REGISTERS_PER_THREAD registers (more than SMEM_BYTES): enough for every real tile,
# small enough that enumerating its offsets stays cheap.
GLOBAL_TILE_BITS = THREADS_PER_CTA * REGISTERS_PER_THREAD * REGISTER_BITS
# (TMEM tiles are bounded where !mma.tmem is parsed: catalogue/tmem.py LANES x COLUMNS.)
# Byte offsets at or past 2^31 do not survive 32-bit address arithmetic.
OFFSET_32BIT_LIMIT = 1 << 31


class LimitError(ValueError):
    pass


def format_bytes(n: int) -> str:
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit:
            v = n / unit
            return f"{v:.0f} {name}" if v == int(v) else f"{v:.1f} {name}"
    return f"{n} B"


def check_extents(layout: Layout, what: str, shown: object = None) -> None:
    """Every mode of a tile spans at least one element (an extent of 0 describes no memory at all).
    `shown` is the layout as the user wrote it (e.g. with its swizzle), when `layout` is a part of it."""
    for path, extent, _stride in layout.flat_modes():
        if extent < 1:
            raise LimitError(f"{what} {shown or layout} has extent {extent} in mode {_mode_name(path)}; every mode of a "
                             f"tile spans at least one element")


def check_nonnegative_strides(layout: Layout, what: str, shown: object = None) -> None:
    """Addresses are the base plus unsigned offsets: a negative stride reaches below the tile's base."""
    for path, _extent, stride in layout.flat_modes():
        if stride < 0:
            raise LimitError(f"{what} {shown or layout} has stride {stride} in mode {_mode_name(path)}; offsets from the "
                             f"base pointer are unsigned, so strides must be non-negative")


def check_smem_tile(layout, rows: int, k: int, elem: str, bits: int, what: str) -> None:
    """A (rows, K) tile of `bits`-bit elements, and every address its layout reaches, fit in SMEM."""
    inner = getattr(layout, "layout", layout)
    check_extents(inner, what, layout)
    tile_bytes = rows * k * bits // 8
    if tile_bytes > SMEM_BYTES:
        raise LimitError(f"{what} {layout} is {rows} x {k} {elem} = {format_bytes(tile_bytes)}; SMEM holds at "
                         f"most {format_bytes(SMEM_BYTES)}")
    check_nonnegative_strides(inner, what, layout)
    reach = largest_byte_offset(inner, bits) + max(1, bits // 8)
    if reach > SMEM_BYTES:
        raise LimitError(f"{what} {layout} reaches byte {reach - 1}; SMEM holds at most "
                         f"{format_bytes(SMEM_BYTES)}")


def check_fragment(tv: Layout, elem: str, bits: int, what: str) -> None:
    """A TV layout's threads fit in a CTA and each thread's values in its registers."""
    check_extents(tv, what)
    check_nonnegative_strides(tv, what)
    threads, values = tv[0].size(), tv[1].size()
    if threads > THREADS_PER_CTA:
        raise LimitError(f"{what} {tv} spans {threads} threads; a CTA has at most {THREADS_PER_CTA}")
    registers = -(-values * bits // REGISTER_BITS)
    # Not REGISTERS_PER_THREAD: a fragment may hold more (tcgen05.ld of 256 columns gives 256 per thread; ptxas
    # spills), but a CTA's fragment cannot exceed the register file.
    if threads * registers > REGISTER_FILE:
        raise LimitError(f"{what} {tv} holds {values} {elem} values per thread = {registers} 32-bit registers x "
                         f"{threads} threads; a CTA's register file has {REGISTER_FILE}")


def check_global_tile(layout: Layout, elem: str, bits: int, what: str) -> None:
    """A global tile is addressable (non-negative strides) and no larger than a CTA's fragments can hold."""
    check_extents(layout, what)
    check_nonnegative_strides(layout, what)
    size = layout.size()
    if size * bits > GLOBAL_TILE_BITS:
        raise LimitError(f"{what} {layout} covers {size} {elem} = {format_bytes(size * bits // 8)}; a tile moves "
                         f"through one CTA's registers, at most {THREADS_PER_CTA} threads x {REGISTERS_PER_THREAD} "
                         f"registers = {format_bytes(GLOBAL_TILE_BITS // 8)}")
    reach = largest_byte_offset(layout, bits)
    if reach >= GLOBAL_ADDRESS_BYTES:
        raise LimitError(f"{what} {layout} reaches byte {reach} from its base; a kernel addresses at most "
                         f"2^47 bytes (128 TiB) of global memory")


GLOBAL_ADDRESS_BYTES = 2**47  # the user half of the GPU's 48-bit virtual address space


def largest_byte_offset(layout: Layout, bits: int) -> int:
    """The byte offset of the layout's largest element offset (strides non-negative: its cosize - 1)."""
    return max(0, layout.cosize() - 1) * bits // 8


def needs_64bit_offsets(layout: Layout, bits: int) -> bool:
    """Whether 32-bit arithmetic could wrap on an offset of `layout`: the element offset times the bytes per
    element, or times the bits per element for sub-byte types (their bit offset is formed first)."""
    scale = bits // 8 if bits >= 8 else bits
    return max(0, layout.cosize() - 1) * scale >= OFFSET_32BIT_LIMIT


def _mode_name(path: tuple[int, ...]) -> str:
    return str(path[0]) if len(path) == 1 else "(" + ",".join(map(str, path)) + ")"


__all__ = [
    "GLOBAL_ADDRESS_BYTES", "GLOBAL_TILE_BITS", "LimitError", "OFFSET_32BIT_LIMIT", "REGISTERS_PER_THREAD", "REGISTER_FILE", "SMEM_BYTES",
    "THREADS_PER_CTA", "check_extents", "check_fragment", "check_global_tile", "check_nonnegative_strides",
    "check_smem_tile", "format_bytes", "largest_byte_offset", "needs_64bit_offsets",
]
