"""Tensor memory (SM100 family): allocation and tcgen05.ld/st facts as data (reference D1, D8).

Each CTA has 128 lanes x 512 columns of 32-bit cells; an address is lane << 16 | column. Warp w of a
warpgroup reaches lanes 32(w % 4) .. 32(w % 4) + 31 only.
"""

from __future__ import annotations

from ..chips import only

LANES = 128
COLUMNS = 512
ALLOC_COLUMNS = (32, 64, 128, 256, 512)  # a power of two in [32, 512] (ptxas checks it for alloc)
# every TMEM instruction (alloc, ld/st, cp, commit, fence, wait) is on the sm_100 family (reference D4)
TMEM_TARGETS = only("sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f")
# registers per thread for .x1 of each tcgen05.ld/st shape; .num doubles it up to the limit (Table 49)
LDST_FACTOR = {"32x32b": 1, "16x64b": 1, "16x32bx2": 1, "16x128b": 2, "16x256b": 4}
LDST_NUMS = (1, 2, 4, 8, 16, 32, 64, 128)
MAX_LDST_REGISTERS = 128


def check_alloc_columns(cols: int) -> None:
    if cols not in ALLOC_COLUMNS:
        raise ValueError(f"{cols} columns is not a legal allocation; ncols must be a power of two in [32, 512] "
                         f"({', '.join(map(str, ALLOC_COLUMNS))})")


def ldst_num(shape: str, registers: int) -> int:
    """The .num (x1..x128) of a tcgen05.ld/st moving `registers` 32-bit registers per thread."""
    if shape not in LDST_FACTOR:
        raise ValueError(f"shape .{shape} is not a tcgen05.ld/st shape; legal: {', '.join(LDST_FACTOR)}")
    factor = LDST_FACTOR[shape]
    legal = [n * factor for n in LDST_NUMS if n * factor <= MAX_LDST_REGISTERS]
    if registers not in legal:
        raise ValueError(f".{shape} moves {registers} registers per thread; legal: {', '.join(map(str, legal))} "
                         f"(.x1..x{legal[-1] // factor})")
    return registers // factor
