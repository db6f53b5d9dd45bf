"""The repack kernel: rows of one or two matrices copied into rows ROW_PITCH_BYTES apart that TMA can address -- what
the host does to an operand whose rows are not a multiple of 16 bytes apart (TMA's boxes must start on a 16-byte
column: benchmarks/tma_inner_alignment.py), at any alignment of its rows, in one launch for A and B.

Each warp copies SEGMENT_CHUNKS consecutive 16-byte chunks of a row per step: a chunk starting off a 16-byte boundary
is joined from the two aligned chunks it straddles (the window's words picked by the row's offset, then funnel
shifts), so every load and store is an aligned 16-byte access and a warp's 32 of them are 512 contiguous bytes. A row's
last chunk may carry bytes past the row into the padding, which nothing reads (the tensor map's extent stops at the
row's end); a load never reaches past the aligned chunk that holds the row's last byte. torch's copy of 1- and 2-byte
elements into strided rows runs at a third of DRAM's speed (host.padded_copy); this one at the speed of 16-byte
accesses (4-byte words, its first form, reached 0.55-0.70 of DRAM's peak on the H100).

    kernel = repack_kernel()   # then host.RowRepack packs a launch of it for a pair of (padded, source) matrices
"""

from __future__ import annotations

import functools

import mmatom
from mmatom import ceil_div

THREADS = 256
WARP = 32
CHUNKS_PER_LANE = 4  # a warp's step: 4 x 512 contiguous bytes of a row, all loaded before any is stored
SEGMENT_CHUNKS = CHUNKS_PER_LANE * WARP
OPERANDS = ("a", "b")


PER_OPERAND = (("src", "ptr"), ("dst", "ptr"), ("rows", "i32"), ("src_pitch", "i64"), ("src_pitch_mod16", "i32"),
               ("src_base_mod16", "i32"), ("dst_pitch", "i64"))


def _params() -> list[tuple[str, str]]:
    """Per operand: source and destination, rows, the source's pitch (bytes, and mod 16), its base's address mod 16,
    the destination's pitch (bytes, a multiple of 16); then the bytes a row holds (the same for both)."""
    return [(f"{name}_{x}", kind) for x in OPERANDS for name, kind in PER_OPERAND] + [("row_bytes", "i32")]


class RowRepack:
    """Builds the kernel: a grid of warps striding over (row, segment) units of A's rows, then B's; a segment is
    CHUNKS_PER_LANE x 32 consecutive 16-byte chunks, a lane's chunks 32 apart."""

    def build(self):
        kb = self.kb = mmatom.KernelBuilder("repack_rows", _params(), "sm_90a", threads=THREADS)
        self.chunks = ceil_div(kb.param("row_bytes"), 16)  # a row's 16-byte chunks, the last maybe partial
        segments = ceil_div(self.chunks, SEGMENT_CHUNKS)
        units = (kb.param("rows_a") + kb.param("rows_b")) * segments
        warps = THREADS // WARP
        first, every = kb.ctaid() * warps + kb.warp_id(), kb.nctaid() * warps
        with (loop := kb.for_range(first, units, every)) as (unit, _):
            self.copy_segment(unit // segments, unit % segments * SEGMENT_CHUNKS + (kb.tid() & (WARP - 1)))
            loop.yield_()
        return kb.finish()

    def operand(self, row):
        """(row within its matrix, that matrix's parameters by name): rows past A's count are B's."""
        kb = self.kb
        in_b = row >= kb.param("rows_a")
        pick = {name: mmatom.select(in_b, kb.param(f"{name}_b"), kb.param(f"{name}_a"))
                for name, _ in PER_OPERAND if name != "rows"}
        return mmatom.select(in_b, row - kb.param("rows_a"), row), pick

    def copy_segment(self, row, lane_chunk) -> None:
        """Chunks lane_chunk + 32 i (i < CHUNKS_PER_LANE) of row `row` (of A's rows, then B's): bytes [16 c, 16 c + 16)
        of the source row each, stored aligned at the same place of the destination row. Every load is issued before
        any store (the stores may alias them as far as the compiler knows): a warp keeps its segment's bytes in flight
        at once."""
        kb = self.kb
        row, p = self.operand(row)
        row_start = row * p["src_pitch"]  # bytes from the source's base (i64)
        skew = (p["src_base_mod16"] + row * p["src_pitch_mod16"]) & 15  # the row start's address mod 16: every chunk's
        # the aligned chunk holding the row's last byte (its offset from the source's base)
        last = row_start - skew + ((skew + kb.param("row_bytes") - 1) & ~15)
        chunks = [mmatom.min_value(lane_chunk + WARP * i, self.chunks - 1) for i in range(CHUNKS_PER_LANE)]
        firsts = [row_start + c * 16 - skew for c in chunks]  # the aligned chunk holding each chunk's first byte
        lows = [kb.load_chunk(p["src"] + f) for f in firsts]
        highs = [kb.load_chunk(p["src"] + mmatom.min_value(f + 16, last)) for f in firsts]  # never past the row
        dst_row = p["dst"] + row * p["dst_pitch"]
        for i, (low, high) in enumerate(zip(lows, highs)):
            with kb.if_(lane_chunk + WARP * i < self.chunks):
                kb.store_chunk(self.window(low + high, skew), dst_row + (lane_chunk + WARP * i) * 16)

    @staticmethod
    def window(words: list, skew) -> list:
        """The 4 words that start `skew` (0 to 15) bytes into the 8 words of two aligned chunks: words skew / 4 to
        skew / 4 + 4 picked, then joined pairwise by funnel shifts of (skew % 4) bytes."""
        quarter = skew >> 2

        def picked(t):  # word quarter + t
            return mmatom.select(quarter == 0, words[t], mmatom.select(quarter == 1, words[t + 1], mmatom.select(
                quarter == 2, words[t + 2], words[t + 3])))
        span = [picked(t) for t in range(5)]
        bits = (skew & 3) * 8
        return [mmatom.funnel_shift_right(span[t], span[t + 1], bits) for t in range(4)]


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
    contiguous in both, the destination's base and pitch multiples of 16 bytes -- and the units its warps stride
    over (rows x SEGMENT_CHUNKS-chunk segments). With one pair, B is the same matrix with no rows."""
    row_bytes = pairs[0][1].shape[1] * pairs[0][1].element_size()
    args, rows = [], 0
    for i, (dst, src) in enumerate((pairs * 2)[:2]):
        count, size = src.shape[0] if i < len(pairs) else 0, src.element_size()
        pitch = src.stride(0) * size
        args += [src, dst, count, pitch, pitch % 16, src.data_ptr() % 16, dst.stride(0) * size]
        rows += count
    segments = -(-row_bytes // (16 * SEGMENT_CHUNKS))  # a row's segments
    return args + [row_bytes], rows * segments


__all__ = ["THREADS", "build_repack", "repack_arguments", "repack_kernel"]
