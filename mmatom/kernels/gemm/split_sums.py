"""Split-K (and stream-K's split tiles) inside one launch: a tile's K slices run on different CTAs; each writes its
f32 partial sums to a workspace slot and counts itself done on the tile's counter (kb.sync.last_to_arrive), and the
slice that counts last adds up every slice's partial sums -- in slice order, so the result does not depend on which
CTA finished last -- and stores the tile like any other (converted to D's type, TMA-stored). No launch before
(zeroing) or after (converting) the kernel.

Each consumer thread writes and reads its own accumulator values: 16-byte chunks (four f32 values each) laid out
chunk-major over the tile's threads, so a warp's chunk is 512 contiguous bytes. The counter is published and read
the CUDA way (last_to_arrive): a barrier (every thread's partial sums written), then one thread's gpu-scope fence
and atomic increment; the thread that sees the count reach `splits - 1` fences again, and a reducing barrier
(bar.red.or: no SMEM word, which the bulk-store verifier could not tell from a staging box) hands the others that
finding and what it acquired.

Split-K's last slice of a tile (its last layer of units) walks more K steps than the others (choices.slice_steps:
about what their publishing takes -- the 2.4-3.8 us fix-up records/gemm-2026-12-07-s37's probe_split_fixup
measured on H200 decode rows, writes, fence and atomic) and asks first (last_to_arrive's `ask_first`): when the
others counted while it walked, it is last without fencing or counting and only reads their sums back. When they
did not, it counts like them. No slice waits for another, so any grid is safe. That thread also sets the counter back to 0 for the next launch (which the stream
orders after this one: the workspace is the stream's own, kernels/split_workspace.py).
"""

from __future__ import annotations

import mmatom
from mmatom import ceil_div

SPLIT_BARRIER = 6  # named barrier 6: a cooperative tile's 256 consumer threads (ping-pong: the warpgroup's own)
TOTAL_CHUNKS, SUMMED_AT_ONCE = 8, 64  # total(): chunks at a time past 64 accumulators a thread, all up to it
TIGHT_SUMMED_AT_ONCE = 16  # total()'s accumulators a pass where the kernel's registers are tight (its caller says)
# a realigning kernel's consumers (200 registers) sum 32 at a time without spilling (64 spill 68 bytes): half the
# passes over the slices of 16, each an L2 round trip for every slice pair -- the last slice's reading back is bound
# by the loads it holds in flight, not by bandwidth
REALIGNED_SUMMED_AT_ONCE = 32


class SliceSums:
    """The workspace protocol of one consumer warpgroup (ping-pong: a tile each) or both (cooperative: one tile)."""

    def __init__(self, kb: mmatom.KernelBuilder, consumer_tid, fragment_type, warpgroups: int, warpgroup,
                 summed_at_once: int = SUMMED_AT_ONCE):
        """`consumer_tid`: this thread among the consumers (0 to 255); `warpgroup` (0 or 1): its consumer
        warpgroup; ping-pong's each count on their own named barrier; `summed_at_once`: the most accumulators
        total() adds up in one pass (fewer where the kernel's threads hold fewer registers)."""
        self.kb, self.summed_at_once = kb, summed_at_once
        self.threads = 128 * warpgroups  # the tile's consumer threads
        self.thread = consumer_tid if warpgroups == 2 else consumer_tid & 127  # this thread's place among them
        self.barrier = (SPLIT_BARRIER, 256) if warpgroups == 2 else (warpgroup + 1, 128)
        self.values = fragment_type.layout.data[1].size()  # f32 accumulators per thread
        self.chunks = self.values // 4
        self.fragment_type = fragment_type
        self.partials, self.counters = kb.param("partials"), kb.param("counters")

    def _chunk(self, slot, chunk: int):
        """The address of this thread's 16-byte chunk `chunk` of the partial sums in workspace slot `slot` (a
        tile's worth each: split-K's slice s of tile t is slot t x splits + s)."""
        kb = self.kb
        first = kb.int_cast(slot * self.chunks, "i64")  # 2^31 bytes and more: in i64
        return self.partials + (first * self.threads + (chunk * self.threads + self.thread)) * 16

    def publish(self, acc, tile, slot, slices, ask_first=None):
        """Write this slice's partial sums to workspace slot `slot` and count it on the tile's counter, which
        `slices` slices count: an i1, true in every thread of the tile if this slice was the last to count (it then
        adds them all up: total). `ask_first` (an i1): a slice expected to finish last first asks whether the
        others counted, and if so is last without its fences and count (kb.sync.last_to_arrive)."""
        kb = self.kb
        for c in range(self.chunks):
            words = [kb.bitcast(kb.extract(acc, 4 * c + i), "i32") for i in range(4)]
            kb.store_chunk(words, self._chunk(slot, c))
        return kb.sync.last_to_arrive(self.counters, tile, slices, *self.barrier, leader=self.thread == 0,
                                      ask_first=ask_first)

    def total(self, slices, slot_of):
        """Every slice's partial sums added up in slice order, slice s's in workspace slot `slot_of(s)` (the last
        slice's own among them, as it wrote them), two slices' loads in flight per step (an odd count's last pair
        reads its one slice twice and adds zeros for the second): all of the thread's chunks at a time, or for
        more than `summed_at_once` accumulators TOTAL_CHUNKS of them (fewer where `summed_at_once` says so) -- a
        128-accumulator tile's every chunk at once would hold 256 loaded words beside the sums, and ptxas spills
        (the 128x256 and 128x192 tiles; a realigning kernel's 64x128 ping-pong tile at 128 registers a thread)."""
        kb = self.kb
        out = kb.fill(0.0, self.fragment_type)
        last = slices - 1
        at_once = chunks_at_once(self.values, self.summed_at_once)
        for group in range(0, self.chunks, at_once):
            chunks = range(group, min(group + at_once, self.chunks))
            zero = [kb.const(0.0)] * (4 * len(chunks))
            with (pairs := kb.for_range(0, ceil_div(slices, 2), 1, zero)) as (pair, sums):
                first = pair * 2
                second, both = mmatom.min_value(first + 1, last), first < last
                sums = list(sums)
                for j, c in enumerate(chunks):
                    words = zip(kb.load_chunk(self._chunk(slot_of(first), c)),
                                kb.load_chunk(self._chunk(slot_of(second), c)))
                    for i, (one, other) in enumerate(words):
                        value = sums[4 * j + i] + kb.bitcast(one, "f32")
                        sums[4 * j + i] = value + mmatom.select(both, kb.bitcast(other, "f32"), 0.0)
                pairs.yield_(*sums)
            for j, c in enumerate(chunks):
                for i in range(4):
                    out = kb.insert(pairs.results[4 * j + i], out, 4 * c + i)
        return out


def chunks_at_once(values: int, summed_at_once: int) -> int:
    """The 16-byte chunks of a thread's `values` accumulators that total() sums in one pass over the slices."""
    return values // 4 if values <= summed_at_once else min(TOTAL_CHUNKS, summed_at_once // 4)


def workspace_sizes(tiles: int, splits: int, block_m: int, block_n: int) -> tuple[int, int]:
    """(bytes of partial sums, i32 counters) for `tiles` output tiles of block_m x block_n, each in `splits`
    slices."""
    return tiles * splits * block_m * block_n * 4, tiles


def stream_k_workspace_sizes(tiles: int, ctas: int, block_m: int, block_n: int) -> tuple[int, int]:
    """(bytes of partial sums, i32 counters) of a stream-K launch on `ctas` CTAs: two tiles' partial sums per CTA
    (its run's first and last segment: scheduler.StreamKWalk.slot), a counter per output tile."""
    return 2 * ctas * block_m * block_n * 4, tiles


__all__ = ["REALIGNED_SUMMED_AT_ONCE", "SPLIT_BARRIER", "SUMMED_AT_ONCE", "TIGHT_SUMMED_AT_ONCE", "SliceSums", "chunks_at_once",
           "stream_k_workspace_sizes", "workspace_sizes"]
