"""The repack kernel: rows of one or two matrices copied into rows ROW_PITCH_BYTES apart that TMA can address -- what
the host does to an operand whose rows are not a multiple of 16 bytes apart (TMA's boxes must start on a 16-byte
column: benchmarks/tma_inner_alignment.py), at any alignment of its rows, in one launch for A and B.

Each warp copies SEGMENT_WORDS consecutive 32-bit words of a row per step: a word starting off a 4-byte boundary is
joined from the two aligned words it straddles (a funnel shift), so every load and store is an aligned 32-bit access
and a warp's 32 of them are 128 contiguous bytes. A row's last word may carry bytes past the row into the padding, which
nothing reads (the tensor map's extent stops at the row's end). torch's copy of 1- and 2-byte elements into strided
rows runs at a third of DRAM's speed (host.padded_copy); this one at the speed of its 4-byte words.

    kernel = repack_kernel()   # then host.RowRepack packs a launch of it for a pair of (padded, source) matrices
"""

from __future__ import annotations

import functools

import mmatom
from mmatom import ceil_div

THREADS = 256
WARP = 32
WORDS_PER_LANE = 4  # a warp's step: 4 x 128 contiguous bytes of a row, all loaded before any is stored
SEGMENT_WORDS = WORDS_PER_LANE * WARP
OPERANDS = ("a", "b")


PER_OPERAND = (("src", "ptr"), ("dst", "ptr"), ("rows", "i32"), ("src_pitch", "i64"), ("src_pitch_mod4", "i32"),
               ("src_base_mod4", "i32"), ("dst_pitch", "i64"))


def _params() -> list[tuple[str, str]]:
    """Per operand: source and destination, rows, the source's pitch (bytes, and mod 4), its base's address mod 4,
    the destination's pitch (bytes, a multiple of 4); then the bytes a row holds (the same for both)."""
    return [(f"{name}_{x}", kind) for x in OPERANDS for name, kind in PER_OPERAND] + [("row_bytes", "i32")]


class RowRepack:
    """Builds the kernel: a grid of warps striding over (row, segment) units of A's rows, then B's; a segment is
    WORDS_PER_LANE x 32 consecutive words, a lane's words 32 apart."""

    def build(self):
        kb = self.kb = mmatom.KernelBuilder("repack_rows", _params(), "sm_90a", threads=THREADS)
        self.words = ceil_div(kb.param("row_bytes"), 4)  # a row's 32-bit words, the last maybe partial
        segments = ceil_div(self.words, SEGMENT_WORDS)
        units = (kb.param("rows_a") + kb.param("rows_b")) * segments
        warps = THREADS // WARP
        first, every = kb.ctaid() * warps + kb.warp_id(), kb.nctaid() * warps
        with (loop := kb.for_range(first, units, every)) as (unit, _):
            self.copy_segment(unit // segments, unit % segments * SEGMENT_WORDS + (kb.tid() & (WARP - 1)))
            loop.yield_()
        return kb.finish()

    def operand(self, row):
        """(row within its matrix, that matrix's parameters by name): rows past A's count are B's."""
        kb = self.kb
        in_b = row >= kb.param("rows_a")
        pick = {name: mmatom.select(in_b, kb.param(f"{name}_b"), kb.param(f"{name}_a"))
                for name, _ in PER_OPERAND if name != "rows"}
        return mmatom.select(in_b, row - kb.param("rows_a"), row), pick

    def copy_segment(self, row, lane_word) -> None:
        """Words lane_word + 32 i (i < WORDS_PER_LANE) of row `row` (of A's rows, then B's): bytes [4 w, 4 w + 4)
        of the source row each, stored aligned at the same place of the destination row. Every load is issued before
        any store (the stores may alias them as far as the compiler knows): a warp keeps its segment's bytes in flight
        at once."""
        kb = self.kb
        row, p = self.operand(row)
        row_start = row * p["src_pitch"]  # bytes from the source's base (i64)
        skew = (p["src_base_mod4"] + row * p["src_pitch_mod4"]) % 4  # the row start's address mod 4: every word's
        last = row_start + kb.param("row_bytes") - 1
        last = last - (skew + kb.param("row_bytes") - 1) % 4  # the aligned word holding the row's last byte
        words = [mmatom.min_value(lane_word + WARP * i, self.words - 1) for i in range(WORDS_PER_LANE)]
        firsts = [row_start + w * 4 - skew for w in words]  # the aligned word holding each word's first byte
        lows = [kb.load_scalar(p["src"] + f, "i32") for f in firsts]
        highs = [kb.load_scalar(p["src"] + mmatom.min_value(f + 4, last), "i32") for f in firsts]  # never past the row
        bits = skew * 8
        for i, (low, high) in enumerate(zip(lows, highs)):
            joined = mmatom.select(skew == 0, low, (low >> bits) | (high << (32 - bits)))
            with kb.if_(lane_word + WARP * i < self.words):
                kb.store_scalar(joined, p["dst"] + row * p["dst_pitch"] + (lane_word + WARP * i) * 4)


def build_repack():
    """The repack kernel's module and launch config."""
    return RowRepack().build()


@functools.cache
def repack_kernel() -> mmatom.Kernel:
    """The compiled repack kernel: loaded once per process (a call that copies must not reload it: ~1 ms), cached on
    disk like the GEMM's."""
    return mmatom.compile_generated(("mmatom.gemm.repack_rows", 1), lambda: build_repack()[0])


def repack_arguments(pairs) -> tuple[list, int]:
    """The kernel's arguments for one or two (destination, source) matrices of the same row bytes -- rows
    contiguous in both, the destination's pitch a multiple of 4 bytes -- and the units of work its warps stride
    over (rows x SEGMENT_WORDS-word segments). With one pair, B is the same matrix with no rows."""
    row_bytes = pairs[0][1].shape[1] * pairs[0][1].element_size()
    args, rows = [], 0
    for i, (dst, src) in enumerate((pairs * 2)[:2]):
        count, size = src.shape[0] if i < len(pairs) else 0, src.element_size()
        pitch = src.stride(0) * size
        args += [src, dst, count, pitch, pitch % 4, src.data_ptr() % 4, dst.stride(0) * size]
        rows += count
    segments = -(-row_bytes // (4 * SEGMENT_WORDS))  # a row's segments
    return args + [row_bytes], rows * segments


__all__ = ["THREADS", "build_repack", "repack_arguments", "repack_kernel"]
