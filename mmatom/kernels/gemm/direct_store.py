"""The GEMM epilogue's stores through D's pointer (the kernel's `direct_d` variant): a caller's `out` TMA cannot
store to -- rows at any pitch and alignment, an N that ends inside a 16-byte granule. Each staged box (rows of 128
bytes, 128B-swizzled as TMA would store it) is read back by the consumer warpgroup that staged it and stored in
aligned 16-byte chunks where it lies inside D's columns, 4 bytes a lane where it holds D's last column.

    direct = DirectStore(kb, tid, config, out_dtype)   # in the consumer, before its tile loop: the lane constants
    direct.store(box, row0, col0)                      # a staged box to D[row0:, col0:], after the warpgroup's barrier

On the public API only, like the kernel: load_chunk / store_chunk, funnel_shift_right, kb.layout for the box.
"""

from __future__ import annotations

from types import SimpleNamespace

import mmatom

from .config import GemmConfig, output_box


class DirectStore:
    """A consumer warpgroup's stores of its staged boxes through D's pointer (`d`, its pitch `ldd` and base address
    mod 16 `d_align` are kernel parameters)."""

    def __init__(self, kb: mmatom.KernelBuilder, tid, config: GemmConfig, out_dtype: str):
        self.kb, self.tid, self.config, self.out_dtype = kb, tid, config, out_dtype
        self.out_bytes = 4 if out_dtype == "f32" else 2
        self.lane = self.lane_constants()

    def store(self, box, row0, col0) -> None:
        """A staged box (rows of 128 bytes, 128B-swizzled as TMA would store it) to D[row0:, col0:] through D's
        pointer, masked at D's extents -- rows at any pitch (`ldd`) and alignment: as 16-byte stores where the box
        lies inside D's columns (chunks), else (the box holding D's last column, or a box whose rows are
        not 128 bytes) 4 bytes a lane (words)."""
        kb = self.kb
        m, n = kb.param("m"), kb.param("n")
        if self.config.swap_ab:  # the box is D^T's block put back: D's rows are the kernel's N, its columns M
            m, n = n, m
        rows, cols = output_box(self.config, self.out_dtype)
        if rows % 16 or cols * self.out_bytes != 128:
            self.words(box, row0, col0, m, n)
            return
        with kb.if_(col0 + cols <= n) as inside:
            self.chunks(box, row0, col0, m)
        with inside.otherwise():
            self.words(box, row0, col0, m, n)

    def lane_constants(self) -> SimpleNamespace:
        """(direct_d) What this consumer thread's 16-byte stores of a staged box need, the same for every box (the
        boxes start on multiples of 16 rows and 128 bytes of D): its row in each 16 rows of the box; the box
        offsets of its 16-byte chunk of that row and of the next chunk (the last chunk's next: the first; rows of
        128 bytes, their chunks XOR-ed with the row mod 8); `skip`, how far the row's start sits below D's next
        16-byte boundary, as the window's first word of those 8 (`quarter`) and the bits to shift across; where
        past the row's start its 16 bytes go; and for the row's last lane where skip > 0 (`ends`), where each word
        of its window goes (row_ends)."""
        kb = self.kb
        lane = self.tid % 32
        chunk, first_row = lane % 8, self.tid // 32 % 4 * 4 + lane // 8
        pitch = kb.int_cast(kb.param("ldd"), "i32") * self.out_bytes  # D's row pitch in bytes, its low bits
        skip = -(first_row * pitch + kb.param("d_align")) & 15
        tail = 16 - skip  # the ends' window: its bytes that end the row; the rest begin it
        return SimpleNamespace(
            # the box's 128B swizzle at 16-byte granularity (Sw<3,4,3> on bytes): chunk c of row r at r x 128 + (c ^
            # r mod 8) x 16, the same for every step (rows 16 apart)
            first_row=first_row, places=[first_row * 128 + (((chunk + c) & 7) ^ (first_row % 8)) * 16 for c in (0, 1)],
            quarter=((skip & 8) != 0, (skip & 4) != 0),
            bits=(skip & 3) * 8, dest=chunk * 16 + skip, whole=(chunk < 7) | (skip == 0),
            ends=(chunk == 7) & (skip != 0), step_bytes=kb.param("ldd") * (16 * self.out_bytes),
            # word w of the ends' window: at the row's end (112 + skip + 4w past its start) or start (skip - 16 + 4w);
            # a 16-bit D's word that straddles the two goes as the row's last and first elements alone
            end_places=[mmatom.select(4 * w < tail, 112 + skip, skip - 16) + 4 * w for w in range(4)],
            end_whole=[(4 * w + 4 <= tail) | (4 * w >= tail) for w in range(4)], split=(skip & 3) != 0)

    def chunks(self, box, row0, col0, m) -> None:
        """The box's rows as aligned 16-byte stores (lane_constants): 8 lanes a row, a warp 4 rows a step, rows 16
        apart. A lane reads its chunk and the next (16-byte loads, conflict-free: a row's 8 lanes read its 8
        chunks) and joins its window of the 8 words (selects, funnel shifts) -- no shuffles, whose convergence
        checks would cut the steps into separate blocks. The row's last lane, its row off 16 bytes, then stores
        the two partial chunks at the row's ends (row_ends): after every step's chunk, all predicated, so
        that the steps are one stretch of code whose latencies overlap. (Measured on the H100, e4m3 13440 x 7943
        x 512: 4 bytes a lane a row, D written at 0.52-0.65 TB/s; these stores, rows 16-byte aligned 1.31 TB/s,
        rows at odd pitch 0.73 TB/s -- the partial chunks' small stores -- against 1.73 TB/s for TMA's:
        benchmarks/gemm_direct_store.py.)"""
        kb, lane = self.kb, self.lane
        rows = output_box(self.config, self.out_dtype)[0]
        row = row0 + lane.first_row
        at = kb.param("d") + (row * kb.param("ldd") + col0) * self.out_bytes
        steps = []
        for step in range(rows // 16):
            own, following = (kb.load_chunk(box.ptr + place + step * 16 * 128) for place in lane.places)
            words = own + following
            for half, width in zip(lane.quarter, (2, 1)):  # the words from `quarter` on
                words = [mmatom.select(half, words[k + width], words[k]) for k in range(len(words) - width)]
            window = [mmatom.funnel_shift_right(words[k], words[k + 1], lane.bits) for k in range(4)]
            row_in, at_row = row + 16 * step < m, at + step * lane.step_bytes
            with kb.if_(row_in & lane.whole):
                kb.store_chunk(window, at_row + lane.dest)
            steps.append((window, row_in, at_row, (own[3], following[0])))
        with kb.if_(lane.ends):
            for step in steps:
                self.row_ends(*step)

    def row_ends(self, window, row_in, at, edge_words) -> None:
        """The row's last lane, its row off 16 bytes (lane_constants' `ends`): its window's first 16 - skip bytes end
        the row, the rest begin it, each word to its place -- a 16-bit D's word that straddles the two as the row's
        last and first elements alone (`edge_words`: the row's last word and its first)."""
        kb, lane = self.kb, self.lane
        for word, place, whole in zip(window, lane.end_places, lane.end_whole):
            with kb.if_(row_in & whole):
                kb.store_scalar(word, at + place)
        if self.out_bytes == 2:
            last, first = edge_words
            with kb.if_(row_in & lane.split):
                kb.store_scalar(kb.int_cast(last >> 16, "i16"), at + 126)
            with kb.if_(row_in & lane.split):
                kb.store_scalar(kb.int_cast(first, "i16"), at)

    def words(self, box, row0, col0, m, n) -> None:
        """The box as 4 bytes a lane: each warp of the warpgroup a quarter of its rows, a lane the 4 bytes of a row
        at 4 x lane (read from SMEM where the box's layout placed them), masked at D's last column too. Every row's
        word is read (and shuffled) before the first branch."""
        kb = self.kb
        rows = output_box(self.config, self.out_dtype)[0]
        # the box as 32-bit words: rows of 32, the 128B swizzle's 16-byte chunks XOR-ed with the row mod 8
        words = f"Sw<3,2,3> o 0 o ({rows},32):(32,1)"
        lane, warp = self.tid % 32, self.tid // 32 % 4
        mine = [warp + 4 * i for i in range(rows // 4)]
        at = [box.ptr + kb.layout(words, (r, lane)) * 4 for r in mine]
        if self.out_dtype == "f32":
            values = [kb.load_scalar(a, "f32") for a in at]
            for r, value in zip(mine, values):
                with kb.if_((row0 + r < m) & (col0 + lane < n)):
                    kb.store_scalar(value, kb.param("d"), (row0 + r) * kb.param("ldd") + col0 + lane)
            return
        pairs = [kb.load_scalar(a, "i32") for a in at]
        following = [kb.shfl.down(word, 1) for word in pairs]  # every lane, before any branch
        for r, a, word, after in zip(mine, at, pairs, following):
            self.row_pairs(a, (word, after), row0 + r, col0, lane, n, m)

    def row_pairs(self, at, words: tuple, row, col0, lane, n, m) -> None:
        """One box row of a 16-bit D, 64 elements, as aligned 32-bit stores: lane l's pair (2l, 2l + 1) where the
        row's element col0 is 4-byte aligned in D, else the pair (2l + 1, 2l + 2) -- its second element the next
        lane's word (`words`: this lane's and the next lane's) -- with the row's first element, and a last one no
        pair covers, stored alone (read again from the box at `at`)."""
        kb = self.kb
        word, following = words
        first = row * kb.param("ldd") + col0  # the element's index in D (i64)
        d = kb.param("d")
        with kb.if_(row < m):
            odd = ((first * 2 + kb.param("d_align")) & 3) != 0  # D's element col0 sits 2 bytes past a 4-byte boundary
            col = col0 + 2 * lane + mmatom.select(odd, 1, 0)
            pair = mmatom.select(odd, (word >> 16) | (following << 16), word)
            whole = (col + 1 < n) & ((lane < 31) | (odd == 0))
            with kb.if_(whole) as both:
                kb.store_scalar(pair, d + (first + col - col0) * 2)
            with both.otherwise():  # the row's last element of the box, or the last of D
                with kb.if_(col < n):
                    kb.store_scalar(kb.load_scalar(at, self.out_dtype, mmatom.select(odd, 1, 0)), d,
                                    first + col - col0)
            with kb.if_(odd & (lane == 0) & (col0 < n)):  # the element before lane 0's pair
                kb.store_scalar(kb.load_scalar(at, self.out_dtype), d, first)


__all__ = ["DirectStore"]
