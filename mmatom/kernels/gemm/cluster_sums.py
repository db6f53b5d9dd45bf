"""Split-K in a cluster (GemmConfig.cluster_k): the `slices` CTAs of a cluster compute one tile, each over its slice
of K, and add their partial sums up through shared memory -- no workspace, no gpu-scope fence, no counter.

Split-K through global memory (split_sums.py) costs a slice 2.5-3.5 us past its K loop on a decode row (H200,
records/gemm-2026-12-07-s37: the partial sums written, a gpu-scope fence, the counter's atomic, the last slice's
reads). Here a consumer warpgroup hands its 16 KB of f32 sums to its peer's warpgroup with st.async
(cluster.store_async: each word lands in the peer's staging boxes and is counted on the peer's barrier, which its
waiters acquire at cluster scope), in a tree of pairs: at round i the ranks with bit i set send to the rank
without it, which adds them after its own (lower slices first: the same bits every run) -- two slices one round,
four two. Rank 0 then stores the tile. Measured (H100, two slices, nine decode rows): 0.4-3.8% faster than
split-K through global memory on one wave of tiles, 11% on two -- the hand-over, its ready signal's round trip
after the K loop included, costs nearly what the fix-up it replaces did; four slices lose (clusters of four fit 120
of the 132 SMs). So the prior does not pick it (config.CLUSTER_K_CONFIGS: the autotuner's candidates).

Per consumer warpgroup w two barriers each CTA: `full[w]` (the peer's arrive.expect_tx of the bytes, then its
words) and `ready[w]` (the receiving peer's arrival: its staging boxes are free -- its TMA stores of them read,
its threads done reading the last hand-over). A sender waits on its own `ready[w]`, a receiver on its `full[w]`;
each is used once per tile per hand-over, so a phase's parity is the count of this CTA's tiles (times its hand-overs
a tile) plus the round's.

    sums = ClusterSums(kb, slices, staging, consumer_tid, fragment_type, warpgroup, barriers)
    sums.reduce(acc, tile_count, lambda total: epilogue(total))   # after the K loop: rank 0 stores the tile
"""

from __future__ import annotations

import mmatom

HANDOVER_BARRIERS = 4  # full[0], full[1], ready[0], ready[1]: 8 bytes each


def rounds(slices: int) -> int:
    """The tree's rounds: log2 of the slices."""
    return slices.bit_length() - 1


def receives(rank: int, slices: int) -> int:
    """How many hand-overs rank `rank` receives a tile: one a round while its bits up to that round are clear."""
    return sum(1 for i in range(rounds(slices)) if rank % (2 << i) == 0)


class ClusterSums:
    """One consumer warpgroup's part of a cluster's hand-overs (cooperative tiles: each warpgroup its own rows)."""

    def __init__(self, kb: mmatom.KernelBuilder, slices: int, staging, consumer_tid, fragment_type, warpgroup,
                 barriers):
        """`staging`: this warpgroup's staging boxes (SmemTiles, 16 KB: its sums' landing place); `barriers`:
        the HANDOVER_BARRIERS barriers (kb.smem, initialised to one arrival each before the cluster met)."""
        self.kb, self.slices, self.staging, self.warpgroup = kb, slices, staging, warpgroup
        self.thread = consumer_tid & 127
        self.values = fragment_type.layout.data[1].size()  # f32 accumulators a thread
        self.chunks = self.values // 4
        self.full = barriers + 8 * warpgroup
        self.ready = barriers + 16 + 8 * warpgroup
        self.barrier_id = warpgroup + 1  # named barrier 1 or 2: the warpgroup's 128 threads (the epilogue's)

    @staticmethod
    def init(kb: mmatom.KernelBuilder, barriers) -> None:
        for i in range(HANDOVER_BARRIERS):
            kb.mbarrier.init(barriers + 8 * i, 1)

    def _chunk(self, base, c: int):
        """This thread's 16-byte chunk c of a warpgroup's hand-over: chunk-major, a warp's 512 bytes contiguous."""
        return base + (c * 128 + self.thread) * 16

    def _free_and_signal(self, peer) -> None:
        """This warpgroup's staging free (its TMA stores read it, every thread past its reads), then one arrival on
        the peer's ready barrier."""
        kb = self.kb
        with kb.if_(self.thread == 0):
            kb.tma.wait_group(0, read=True)
        kb.sync.named_barrier(self.barrier_id, 128)
        with kb.if_(self.thread == 0):
            kb.mbarrier.arrive(kb.cluster.map_shared(self.ready, peer))

    def reduce(self, acc, tile, store) -> None:
        """Every rank's part of the tree for this CTA's `tile`-th tile (i32: its tiles before it); rank 0 then
        calls `store` with the tile's sums. Straight-line code per rank: no value leaves a rank's branch."""
        kb = self.kb
        rank = kb.cluster.rank()
        for r in range(self.slices):
            with kb.if_(rank == r):
                total = self._tree(acc, r, tile)
                if r == 0:
                    store(total)

    def _tree(self, acc, rank: int, tile):
        """Rank `rank`'s rounds: receive and add while its bits are clear, then send to the rank below."""
        received = 0
        for i in range(rounds(self.slices)):
            mask = 1 << i
            if rank & mask:
                self._send(acc, rank - mask, tile)
                return acc
            acc = self._receive(acc, rank + mask, tile * receives(rank, self.slices) + received)
            received += 1
        return acc

    def _send(self, acc, peer: int, tile) -> None:
        """Wait for the peer's staging to be free, then hand it this warpgroup's sums (st.async, 16 bytes a chunk)
        and post their bytes on its full barrier."""
        kb = self.kb
        kb.mbarrier.wait(self.ready, tile & 1)
        landing, full = kb.cluster.map_shared(self.staging.base, peer), kb.cluster.map_shared(self.full, peer)
        for c in range(self.chunks):
            words = [kb.bitcast(kb.extract(acc, 4 * c + i), "i32") for i in range(4)]
            kb.cluster.store_async(words, self._chunk(landing, c), full)
        with kb.if_(self.thread == 0):
            kb.mbarrier.arrive_expect_tx(full, self.chunks * 16 * 128)

    def _receive(self, acc, peer: int, use):
        """Free this warpgroup's staging and tell the peer, wait for its sums and add them after this CTA's (the
        peer's slices are the later ones)."""
        kb = self.kb
        self._free_and_signal(peer)
        kb.mbarrier.wait(self.full, use & 1, scope="cluster")
        for c in range(self.chunks):
            words = kb.load_chunk(self._chunk(self.staging.base, c))
            for i, word in enumerate(words):
                acc = kb.insert(kb.extract(acc, 4 * c + i) + kb.bitcast(word, "f32"), acc, 4 * c + i)
        kb.sync.named_barrier(self.barrier_id, 128)  # every read done: the staging may be stored to again
        return acc


__all__ = ["HANDOVER_BARRIERS", "ClusterSums", "receives", "rounds"]
