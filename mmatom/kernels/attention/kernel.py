"""The H100 attention forward kernel, O = softmax(Q K^T * scale) V, on mmatom's public API (FlashAttention-3's
structure).

sm_90a, bf16 or f16, persistent (one CTA per SM walking the (query block, head, batch) tiles the host listed for it:
causal ones balanced by length, walk.py) and warp-specialized: warpgroup 0 is the producer -- one thread TMA-loads
the CTA's Q tile once (into one of two buffers where SMEM has room: the next tile's Q lands while this one runs) and
the K and V tiles of each KV step through N-stage SmemRings, its registers given away with setmaxnreg -- and the
other warpgroups (two, or three; one for decoding's packed tiles) are the consumers, 64 query rows each:

    S = Q K^T            SS wgmma, one 64-column chunk of the head dim at a time (a 128-byte swizzle row)
    online softmax       row max and sum across the four lanes that share a row (reduce_rows), exp2 with the
                         scale folded into one fma, the previous O rescaled
    O += P V             P converted in registers to the A operand of an RS wgmma; V read N-major (transpose bit)

The consumers take turns on the tensor cores (named barriers: one's softmax under the other's GEMMs), and within
a consumer the next block's S = Q K^T is issued before this block's P V, so the softmax of block j overlaps the
wgmma of block j-1 (FA3 section 3.2). KV blocks are walked from the last to the first, so the blocks that need a mask
(the sequence tail, the causal diagonal) come first and the rest run unmasked; causal skips the blocks above the
diagonal. The epilogue normalizes O, stmatrix-es it into the tile's Q buffer (Q is no longer read) and TMA-stores it,
clipped at the sequence end, and writes each row's log-sum-exp (-inf where a row sees no key). Built with
`split_kv`, the kernel also takes tiles the host cut into KV ranges over several CTAs (few tiles, long keys): each
part writes its rows to a workspace, the last adds them up and stores the tile (split_kv.py). Built with `pack` > 1,
a tile holds that many query heads of one GQA group -- block_m / pack query positions of each, one block of rows a
head (config.py) -- and reads their KV head's K and V once for all of them.

    module, launch = HopperAttention("bf16", default_config(128), causal=True).build()
"""

from __future__ import annotations

import functools
import math
import operator
from types import SimpleNamespace

import mmatom
from mmatom import ceil_div, max_value, min_value, select

from .config import BOX_COLUMNS, WALK_ENTRY, AttentionConfig
from .split_kv import PartialRows

SPLIT_FIELDS = WALK_ENTRY.index("counter")  # a walk entry's fields from here on describe a split tile's part

LN2 = math.log(2.0)
EPILOGUE_BARRIER = 1     # 1 + w: consumer w's 128 threads (its staging boxes)
# 1 + consumers + w: consumer w waits there for its turn on the tensor cores (after consumer w - 1's GEMMs); 1 + 2 x
# consumers: every consumer thread, a split tile's part counting itself (split_kv.py)


class HopperAttention:
    """One attention kernel: element type, tiles and causality fixed at construction, the sizes runtime values."""

    def __init__(self, dtype: str = "bf16", config: AttentionConfig = AttentionConfig(), causal: bool = False,
                 target: str = "sm_90a", split_kv: bool = False, pack: int = 1):
        config.check(dtype, causal, split_kv, pack)
        self.dtype, self.config, self.causal, self.target, self.split_kv = dtype, config, causal, target, split_kv
        self.d, self.bm, self.bn = config.head_dim, config.block_m, config.block_n
        # a tile's query positions: a head's block of rows (the whole tile unpacked)
        self.pack, self.positions = pack, self.bm // pack
        self.chunks = self.d // BOX_COLUMNS
        self.consumers, self.consumer_threads = config.consumers, 128 * config.consumers
        self.turn_barrier = EPILOGUE_BARRIER + self.consumers
        qk = mmatom.atom(target, "wgmma", m=64, n=self.bn, k=16, a=dtype, b=dtype, d="f32")
        pv = mmatom.atom(target, "wgmma", m=64, n=self.d, k=16, a=dtype, b=dtype, d="f32", a_residency="register")
        self.tiled_qk = mmatom.TiledMma(qk, (self.consumers, 1, 1), permutation=(self.bm, self.bn, BOX_COLUMNS))
        self.tiled_pv = mmatom.TiledMma(pv, (self.consumers, 1, 1), permutation=(self.bm, self.d, self.bn))
        # a 64-row, one-swizzle-row box (the epilogue's staging) and a 64-column box of V
        box = mmatom.atom(target, "wgmma", m=64, n=BOX_COLUMNS, k=16, a=dtype, b=dtype, d="f32")
        self.staging_box = mmatom.TiledMma(box, permutation=(64, BOX_COLUMNS, BOX_COLUMNS)).smem_desc_type("A")
        self.v_box = mmatom.TiledMma(box, (self.consumers, 1, 1), permutation=(self.bm, BOX_COLUMNS, self.bn)) \
            .smem_desc_type("B", major="mn")
        if pack > 1:  # a packed head's block of rows: the box its Q lands in and its O leaves from
            head_box = mmatom.atom(target, "wgmma", m=64, n=self.positions, k=16, a=dtype, b=dtype, d="f32")
            self.head_box = mmatom.TiledMma(head_box, permutation=(64, self.positions, BOX_COLUMNS)) \
                .smem_desc_type("B")
        # O's rows are S's: the softmax's per-row statistics apply to O's values row by row
        self.s_rows, self.o_rows = self.tiled_qk.value_rows("C"), self.tiled_pv.value_rows("C")
        assert self.tiled_qk.placement("C").row_offsets == self.tiled_pv.placement("C").row_offsets

    # -- the kernel ---------------------------------------------------------------------------------------------

    def build(self) -> tuple[object, mmatom.LaunchConfig]:
        """The kernel's module and launch config (the grid is the host's: a CTA per SM, at most one per tile)."""
        kb = self.kb = self._declare()
        self.tid = kb.tid()
        with kb.if_(self.tid == 0):
            for ring in (self.q_ring, self.k_ring, self.v_ring):
                ring.init()
        kb.sync.barrier()
        with kb.if_(kb.warpgroup_id() == 0) as role:
            self.producer()
        with role.otherwise():
            self.consumer()
        return kb.finish()

    def _declare(self) -> mmatom.KernelBuilder:
        boxes = self.config.boxes(self.pack)
        params = [(name, mmatom.TensorMapType(self.dtype, *boxes[name], "128b", batched=True)) for name in "qkvo"]
        params += [(name, "i32") for name in ("batch", "seqlen_q", "seqlen_k", "heads", "group")]
        params += [("scale_log2", "f32")] + [(name, "ptr") for name in ("lse", "walk", "partials", "counters")]
        kb = mmatom.KernelBuilder("attention", params, self.target, threads=128 + self.consumer_threads,
                                  min_ctas_per_sm=1)
        chunk_q, chunk_k = self.tiled_qk.smem_desc_type("A"), self.tiled_qk.smem_desc_type("B")
        self.q_ring = kb.smem_ring(self.config.q_stages, self.consumer_threads,
                                   **{f"q{c}": chunk_q for c in range(self.chunks)})
        # K and V in rings of their own: a K stage is free once S is in, before the softmax (FA3's two pipelines)
        stages, readers = self.config.stages, self.consumer_threads
        self.k_ring = kb.smem_ring(stages, readers, **{f"k{c}": chunk_k for c in range(self.chunks)})
        self.v_ring = kb.smem_ring(stages, readers, v=self.tiled_pv.smem_desc_type("B", major="mn"))
        self.q_blocks = ceil_div(kb.param("seqlen_q"), self.positions)
        # each CTA's tiles and their KV blocks, as the host listed them (walk.py): causal tiles balanced by length,
        # few tiles split over every CTA; packed, a tile's head is the group's KV head
        heads = kb.param("heads") if self.pack == 1 else kb.param("heads") // self.pack
        units = kb.tile_scheduler(self.q_blocks, heads, layers=kb.param("batch"))
        self.scheduler = kb.listed_walk(units, kb.param("walk"), words=len(WALK_ENTRY))
        return kb

    def tile(self, index) -> SimpleNamespace:
        """The walk entry at list index `index`: the tile's first query row q0, head (packed: the KV head of its
        query heads) and layer (batch); the KV blocks [lo, hi) it reads, walked last to first, those from
        `unmasked` on needing a mask; and the split tile fields (counter -1: whole). Causal numbers the query blocks
        last to first (row tile 0 the longest)."""
        # the split fields are read by finish, where it uses them
        unit, lo, hi = self.scheduler.entry(index, 0, SPLIT_FIELDS)
        row_tile, head = self.scheduler.coords(unit)
        q_block = self.q_blocks - 1 - row_tile if self.causal else row_tile
        q0 = q_block * self.positions
        blocks, unmasked = self.kv_blocks(q0)
        # whole tiles (every kernel but split_kv's) take all their blocks, counted from the sizes: bounds read from
        # the table cost d 256's KV loop its uniform datapath (R2UR 1 -> 43 a loop pass, records/ATTENTION.md)
        lo, hi = (lo, select(hi < 0, blocks, hi)) if self.split_kv else (0, blocks)
        return SimpleNamespace(q0=q0, head=head, layer=self.scheduler.layer(unit), lo=lo, hi=hi, unmasked=unmasked,
                               index=index)

    def kv_blocks(self, q0) -> tuple:
        """(KV blocks the tile at query row q0 reads, how many of the first ones need no mask). Causal is aligned
        bottom-right: query i sees keys j <= i + seqlen_k - seqlen_q; a tile reads at least one block."""
        seqlen_k = self.kb.param("seqlen_k")
        if not self.causal:
            return ceil_div(seqlen_k, self.bn), seqlen_k // self.bn
        offset = seqlen_k - self.kb.param("seqlen_q")
        horizon = min_value(_at_least_zero(q0 + self.positions + offset), seqlen_k)  # keys any row of the tile sees
        # a tile whose rows see no key still reads one block, all masked (its rows come out 0, log-sum-exp -inf):
        # every tile waits on the ring, which its protocol needs (seqlen_k >= 1: the host launches nothing else)
        blocks = max_value(ceil_div(horizon, self.bn), 1)
        unmasked = min_value(_at_least_zero(q0 + offset + 1) // self.bn, seqlen_k // self.bn)
        return blocks, min_value(unmasked, blocks)

    # -- producer: one thread issues every TMA load --------------------------------------------------------------

    def producer(self) -> None:
        kb = self.kb
        kb.sync.setmaxnreg("decrease", self.config.registers(self.pack)[0])
        with kb.if_(self.tid == 0):
            with (tiles := self.scheduler.loop([0, 0])) as (index, (q_it, it)):
                t = self.tile(index)
                self.load_q(self.q_ring.producer_acquire(q_it), t)
                kv_head = t.head if self.pack > 1 else t.head // kb.param("group")
                columns = kv_head * self.d  # the KV head's first column
                with (kv_loop := kb.for_range(0, t.hi - t.lo, 1, [it])) as (i, (it_i,)):
                    self.load_kv(it_i, (t.hi - 1 - i) * self.bn, columns, t.layer)
                    kv_loop.yield_(it_i + 1)
                tiles.yield_(q_it + 1, kv_loop.results[0])

    def load_q(self, q, t) -> None:
        """The tile's Q: a box per 64 columns of the head dim, packed one per head too (a loop over the heads)."""
        kb = self.kb
        if self.pack == 1:
            for c in range(self.chunks):
                kb.tma.load(kb.param("q"), t.q0, t.head * self.d + c * BOX_COLUMNS, getattr(q, f"q{c}"), q.full,
                            layer=t.layer)
            return
        with (heads := kb.for_range(0, self.pack, 1)) as (j, _):
            for c in range(self.chunks):
                column = self.query_head(t, j) * self.d + c * BOX_COLUMNS
                kb.tma.load(kb.param("q"), t.q0, column, self.head_block(getattr(q, f"q{c}"), j), q.full,
                            layer=t.layer)
            heads.yield_()

    def head_block(self, tile, j):
        """Block j of `tile`'s rows, one packed head's (the tile itself unpacked)."""
        return tile if self.pack == 1 else tile.row_block(j, self.positions, self.head_box)

    def query_head(self, t, j):
        """The query head of the tile's head block j (a Value or int)."""
        return t.head if self.pack == 1 else t.head * self.pack + j

    def load_kv(self, it, row, columns, layer) -> None:
        """The K, then the V tile of keys [row, row + block_n): a box per 64 columns of the head dim each."""
        kb = self.kb
        k = self.k_ring.producer_acquire(it)
        for c in range(self.chunks):
            kb.tma.load(kb.param("k"), row, columns + c * BOX_COLUMNS, getattr(k, f"k{c}"), k.full, layer=layer)
        v = self.v_ring.producer_acquire(it)
        for c in range(self.chunks):
            kb.tma.load(kb.param("v"), row, columns + c * BOX_COLUMNS, v.v.row_block(c, BOX_COLUMNS, self.v_box),
                        v.full, layer=layer)

    # -- consumers ---------------------------------------------------------------------------------------------

    def consumer(self) -> None:
        """The consumer warpgroups: each tile's KV loop and epilogue, taking turns on the tensor cores."""
        kb = self.kb
        kb.sync.setmaxnreg("increase", self.config.registers(self.pack)[1])
        self.warpgroup = kb.warpgroup_id() - 1
        # the tile's 64-row block the wgmma tiles give this warpgroup (tid.x / 128 modulo the consumers)
        self.half = kb.warpgroup_id() % self.consumers
        self.scale = kb.param("scale_log2")
        self.coords = self.tiled_qk.fragment_coords(kb, "C")
        if self.split_kv:
            self.parts = PartialRows(kb, self.tid - 128, self.consumer_threads, self.tiled_pv.fragment_type("C"),
                                     self.o_rows, (EPILOGUE_BARRIER + 2 * self.consumers, self.consumer_threads),
                                     self.config.registers(self.pack)[1])
        with kb.if_(self.warpgroup == self.consumers - 1):
            self.pass_turn()  # the first turn is warpgroup 0's
        with (tiles := self.scheduler.loop([0, 0, 0])) as (index, (q_it, k_it, v_it)):
            t = self.tile(index)
            q = self.q_ring.consumer_wait(q_it)
            k_next, v_next = self.work_on(q, (k_it, v_it), t)
            self.q_ring.consumer_release(q)
            tiles.yield_(q_it + 1, k_next, v_next)
        with kb.if_(self.warpgroup == 0):
            self.take_turn()  # the last consumer's last pass

    def work_on(self, q, counters, t) -> tuple:
        """The tile's KV loop and epilogue -- or, where this warpgroup's 64 rows all lie past the sequence's end (a
        last query block shorter than the tile: 4096 rows leave 64 of a 192-row tile), only its part in the rings
        and the turns (idle): its GEMMs and softmax would compute rows nobody stores. Three consumers only, on whole
        unpacked tiles: there a short last block idles up to two of them (d 64 on the H100: 4x32x4096 0.98 -> 1.01x
        cuDNN), where with two the branch around the KV loop cost more than it saved (d 128, 1-2%); a split tile's
        parts add up over every consumer, a packed tile's rows are several heads'. Returns the K and V rings' next
        iterations, which each branch yields where its waits stopped (verify-pipeline follows them)."""
        kb = self.kb
        if self.split_kv or self.pack > 1 or self.consumers < 3:
            k_next, v_next, o, m, l = self.attend(q, counters, t)
            self.finish(o, m, [self.lane_sum(x) for x in l], q, t)
            return k_next, v_next
        first_row = t.q0 + self.half * 64  # this warpgroup's first row of the tile
        # lane 0's answer in every lane: a branch ptxas can tell is warp-uniform keeps the KV loop's ring addresses
        # in uniform registers
        live = kb.shfl.idx(select(first_row < kb.param("seqlen_q"), 1, 0), 0)
        with (working := kb.if_(live != 0, otherwise=counters)):
            k_next, v_next, o, m, l = self.attend(q, counters, t)
            self.finish(o, m, [self.lane_sum(x) for x in l], q, t)
            working.yield_(k_next, v_next)
        with (idling := kb.if_(live == 0, otherwise=working.results)):
            idling.yield_(*self.idle(working.results, t))
        return idling.results

    def idle(self, counters, t) -> tuple:
        """A warpgroup without a query in the tile: each KV block's K and V stages waited for and released (a ring
        counts every consumer's release) and its turns on the tensor cores passed on, in attend's order; returns
        the rings' next iterations."""
        kb = self.kb
        k_it, v_it = counters
        k = self.k_ring.consumer_wait(k_it)
        self.take_turn()
        self.pass_turn()
        self.k_ring.consumer_release(k)
        with (steps := kb.for_range(1, t.hi - t.lo, 1, [k_it + 1, v_it])) as (_, (k_at, v_at)):
            k, v = self.k_ring.consumer_wait(k_at), self.v_ring.consumer_wait(v_at)
            self.take_turn()
            self.pass_turn()
            self.k_ring.consumer_release(k)
            self.v_ring.consumer_release(v)
            steps.yield_(k_at + 1, v_at + 1)
        k_end, v_at = steps.results
        v = self.v_ring.consumer_wait(v_at)
        self.take_turn()
        self.pass_turn()
        self.v_ring.consumer_release(v)
        return k_end, v_at + 1

    def take_turn(self) -> None:
        """Wait until the consumer before this one issued its GEMMs (256 threads: the two warpgroups; a lone
        consumer takes no turns)."""
        if self.consumers > 1:
            self.kb.sync.named_barrier(self.turn_barrier + self.warpgroup, 256)

    def pass_turn(self) -> None:
        """The next consumer may issue its GEMMs."""
        if self.consumers > 1:
            self.kb.sync.named_barrier_arrive(self.turn_barrier + (self.warpgroup + 1) % self.consumers, 256)

    def finish(self, o, maxima, sums, q, t) -> None:
        """A whole tile's epilogue; with split_kv, a split tile's part writes its rows, and the part that counts
        last adds every part's up and stores the tile (split_kv.py). Only the split_kv kernel carries that code:
        its barriers under a branch on the walk's loaded fields cost the main loop its uniform registers (the
        ring's addresses in vector registers: 92 more instructions in a 527-instruction KV step, measured 4-6%
        slower on whole tiles, records/ATTENTION.md)."""
        kb = self.kb
        if not self.split_kv:
            self.epilogue(o, maxima, sums, q, t)
            return
        # results: O, the row maxima and sums to store, and whether to store them (a whole tile: 1, as it is); a
        # thread whose rows hold no query (past the sequence's end) skips the workspace: its rows are not stored
        queries = kb.param("seqlen_q") - t.q0
        live = functools.reduce(operator.or_, (self.position(row) < queries for row in self.coords.rows))
        # the entry's split fields, read here: held over the KV loop, they cost packed d 256 spills
        split = SimpleNamespace(**dict(zip(WALK_ENTRY[SPLIT_FIELDS:], self.scheduler.entry(t.index, SPLIT_FIELDS))))
        with (parts := kb.if_(split.counter >= 0, otherwise=[o, *maxima, *sums, 1])):
            o, maxima, sums, store = self.parts.add_up_tile(o, maxima, sums, split, live)
            parts.yield_(o, *maxima, *sums, store)
        o, *rows, store = parts.results
        with kb.if_(store != 0):
            self.epilogue(o, rows[:2], rows[2:], q, t)

    def attend(self, q, counters, t) -> tuple:
        """The tile's KV blocks [t.lo, t.hi), last to first, from the K and V rings' iterations `counters`: (the
        next tile's K and V iterations, O unnormalized, row maxima (log2 units), this thread's row sums)."""
        kb = self.kb
        k_it, v_it = counters
        k = self.k_ring.consumer_wait(k_it)  # block t.hi - 1: masked if any block is
        s = kb.fill(0.0, self.tiled_qk.fragment_type("C"))  # (registers for S: their values are not read)
        self.take_turn()
        kb.wgmma.fence()
        s = self.scores(q, k, s)
        kb.wgmma.commit_group()
        self.pass_turn()
        kb.wgmma.wait_group(0)
        self.k_ring.consumer_release(k)
        s = self.mask(s, t.hi - 1, t.q0)
        m, p, _, l = self.softmax(s, None, None)
        # carried: the K and V rings' next iterations, S's registers, P, O, the row maxima, sums and the factors O
        # is still to be scaled by (applied under the next S: FA3's order)
        state = [k_it + 1, v_it, s, kb.convert(p, self.tiled_pv.fragment_type("A")),
                 kb.fill(0.0, self.tiled_pv.fragment_type("C")), *m, *l, *[kb.const(1.0)] * len(m)]
        # walked block i is t.hi - 1 - i: masked while it is t.unmasked or past
        walked = t.hi - t.lo
        first_unmasked = max_value(min_value(t.hi - t.unmasked, walked), 1)
        for lo, hi, masked in ((1, first_unmasked, True), (first_unmasked, walked, False)):
            with (loop := kb.for_range(lo, hi, 1, state)) as (i, carried):
                loop.yield_(*self.step(q, t.hi - 1 - i, carried, masked, t.q0))
            state = list(loop.results)
        k_end, v_it, _, p, o, *rows = state
        m, l, alpha = rows[:2], rows[2:4], rows[4:]
        o = self.rescale(o, alpha)
        v = self.v_ring.consumer_wait(v_it)
        self.take_turn()
        kb.wgmma.fence()
        o = self.tiled_pv.mma_regs(kb, p, v.v.desc(), o)
        kb.wgmma.commit_group()
        self.pass_turn()
        kb.wgmma.wait_group(0)
        self.v_ring.consumer_release(v)
        return k_end, v_it + 1, o, m, l

    def step(self, q, block, carried, masked: bool, q0) -> list:
        """One KV block: S of this block issued, O rescaled by how far the row maxima moved (under the S), then the
        previous block's P V; K released once S is in, this block's softmax under the P V."""
        kb = self.kb
        k_it, v_it, s, p, o, *rows = carried
        k = self.k_ring.consumer_wait(k_it)
        v = self.v_ring.consumer_wait(v_it)  # the previous block's V
        self.take_turn()
        kb.wgmma.fence()
        s = self.scores(q, k, s)
        kb.wgmma.commit_group()
        o = self.rescale(o, rows[4:])
        kb.wgmma.fence()  # O's registers were written since the last fence
        o = self.tiled_pv.mma_regs(kb, p, v.v.desc(), o)
        kb.wgmma.commit_group()
        self.pass_turn()
        kb.wgmma.wait_group(1)  # S is in; P V may still run
        self.k_ring.consumer_release(k)
        if masked:
            s = self.mask(s, block, q0)
        m, p, alpha, l = self.softmax(s, rows[:2], rows[2:4], on_fma=0 if masked else self.config.ex2_on_fma)
        kb.wgmma.wait_group(0)
        self.v_ring.consumer_release(v)
        o = kb.convert(o, self.tiled_pv.fragment_type("C"))
        return [k_it + 1, v_it + 1, s, kb.convert(p, self.tiled_pv.fragment_type("A")), o, *m, *l, *alpha]

    def rescale(self, o, alpha):
        """O times each row's factor (alpha[r] for the thread's row r)."""
        return self.kb.map(self.kb.convert(o, self.tiled_pv.fragment_type("C")),
                           lambda x, v: x * alpha[self.o_rows[v]])

    def scores(self, q, k, s):
        """S = Q K^T over the head dim's chunks (the first overwrites S: its old value is not read)."""
        kb, c_type = self.kb, self.tiled_qk.fragment_type("C")
        for c in range(self.chunks):
            d = self.tiled_qk.mma_smem(kb, getattr(q, f"q{c}").desc(), getattr(k, f"k{c}").desc(), s,
                                       accumulate=c > 0)
            s = kb.convert(d, c_type)
        return s

    def mask(self, s, block, q0):
        """-inf where a key is past the sequence or (causal) after the query's horizon."""
        kb = self.kb
        key0 = block * self.bn
        keys_left = kb.param("seqlen_k") - key0  # columns col < keys_left are keys of the sequence
        if not self.causal:
            return self.tiled_qk.map_with_coords(kb, s, lambda x, row, col: select(col < keys_left, x, float("-inf")),
                                                 self.coords)
        # key0 + col <= q0 + position(row) + seqlen_k - seqlen_q
        horizon = q0 + keys_left - kb.param("seqlen_q")
        return self.tiled_qk.map_with_coords(
            kb, s, lambda x, row, col: select((col < keys_left) & (col - self.position(row) <= horizon), x,
                                              float("-inf")), self.coords)

    def position(self, row):
        """A tile row's query position past the tile's first (packed: its place in its head's block)."""
        return row if self.pack == 1 else row & (self.positions - 1)

    def softmax(self, s, m_old, l_old, on_fma: int = 0) -> tuple:
        """This block's row maxima folded into the running ones (log2 units), P = 2^(S scale - max), the factor
        the running sums and O scale by, and the running sums (this thread's values only: the lanes sharing a row
        add theirs once, at the end). `on_fma` of every 8 values take 2^x on the FMA pipes (no -inf among them:
        unmasked blocks only)."""
        kb = self.kb
        block_max = self.tiled_qk.reduce_rows(kb, s, "max")
        m = [x * self.scale if m_old is None else max_value(m_old[r], x * self.scale) for r, x in enumerate(block_max)]
        # a row that has seen no key yet has max -inf: subtract 0 there instead (its P is 0 either way)
        base = [select(x == float("-inf"), 0.0, x) for x in m]
        shift = [-x for x in base]
        values: dict[int, list] = {}

        def exp2(x, v):
            power = kb.fma(x, self.scale, shift[self.s_rows[v]])
            y = kb.ex2_fma(power) if v % 8 < on_fma else kb.ex2(power)
            values.setdefault(self.s_rows[v], []).append(y)
            return y
        p = kb.map(s, exp2)
        sums = [_tree_sum(values[r]) for r in range(len(m))]
        if m_old is None:
            return m, p, None, sums
        alpha = [kb.ex2(old - b) for old, b in zip(m_old, base)]
        return m, p, alpha, [l_r * a + x for l_r, a, x in zip(l_old, alpha, sums)]

    # -- epilogue ------------------------------------------------------------------------------------------------

    def epilogue(self, o, m, sums, q, t) -> None:
        """O / (row sum) through the Q tile's SMEM (this warpgroup's rows of it) to O; each row's log-sum-exp (`m`
        the row maxima, `sums` the rows' whole sums)."""
        kb = self.kb
        inverse = [select(x == 0.0, 0.0, kb.rcp(x)) for x in sums]
        out = kb.map(kb.convert(o, self.tiled_pv.fragment_type("D")), lambda x, v: x * inverse[self.o_rows[v]])
        out = kb.convert(out, self.dtype)
        issuer, barrier = self.tid & 127 == 0, EPILOGUE_BARRIER + self.warpgroup
        for c in range(self.chunks):
            box = getattr(q, f"q{c}").row_block(self.half, 64, self.staging_box)
            kb.stmatrix_tile(out, c, box)
            kb.sync.fence_proxy_async()
            kb.sync.named_barrier(barrier, 128)
            with kb.if_(issuer):
                self.store_rows(box, t, c)
        with kb.if_(issuer):
            kb.tma.commit_group()
            kb.tma.wait_group(0, read=True)
        self.store_lse(m, sums, t)
        kb.sync.named_barrier(barrier, 128)  # the boxes were read: Q's SMEM may be released

    def store_rows(self, box, t, c) -> None:
        """This warpgroup's 64 rows of O's chunk c, staged in `box`, to O: one box, or packed one per head block."""
        if self.pack == 1:
            self.kb.tma.store(box, self.kb.param("o"), t.q0 + self.half * 64, t.head * self.d + c * BOX_COLUMNS,
                              layer=t.layer)
            return
        heads_per_warpgroup = 64 // self.positions
        for j in range(heads_per_warpgroup):
            head = self.query_head(t, self.half * heads_per_warpgroup + j)
            self.kb.tma.store(self.head_block(box, j), self.kb.param("o"), t.q0, head * self.d + c * BOX_COLUMNS,
                              layer=t.layer)

    def lane_sum(self, x):
        """A row's sum over the lanes that share it."""
        for mask in self.tiled_qk.placement("C").row_lane_masks():
            x = x + self.kb.shfl.bfly(x, mask)
        return x

    def store_lse(self, m, sums, t) -> None:
        """ln(sum_j e^(s_ij scale)) per query row (-inf where the row saw no key, as FlashAttention-3), by the first
        of the lanes that share the row."""
        kb = self.kb
        seqlen_q = kb.param("seqlen_q")
        sharing = sum(self.tiled_qk.placement("C").row_lane_masks())  # the lane bits that keep the row
        first_lane = (self.tid & sharing) == 0
        for row, m_r, l_r in zip(self.coords.rows, m, sums):
            query = t.q0 + self.position(row)
            head = t.head if self.pack == 1 else self.query_head(t, row // self.positions)
            lse = select(l_r == 0.0, float("-inf"), (m_r + kb.lg2(l_r)) * LN2)
            with kb.if_(first_lane & (query < seqlen_q)):
                kb.store_scalar(lse, kb.param("lse"), (t.layer * kb.param("heads") + head) * seqlen_q + query)


def _at_least_zero(x):
    return select(x > 0, x, 0)


def _tree_sum(xs: list):
    while len(xs) > 1:
        xs = [xs[i] + xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]


def build_attention(dtype: str = "bf16", config: AttentionConfig = AttentionConfig(), causal: bool = False,
                    target: str = "sm_90a", split_kv: bool = False,
                    pack: int = 1) -> tuple[object, mmatom.LaunchConfig]:
    """The attention kernel's module (every batch, sequence length and head count: runtime arguments) and its
    launch config; parameters: tensor maps of q, k, v, o (3-d: batch, sequence, heads x head dim), batch,
    seqlen_q, seqlen_k, heads, group (query heads per KV head), scale_log2 (softmax scale x log2 e), lse (f32 B x H
    x Sq), the walk table (each CTA's tiles: mmatom.ListedWalk, walk.py) and the split tiles' workspace (partials,
    counters; read by the `split_kv` kernel only, whose tiles may be cut over several CTAs); `pack` query heads of
    a GQA group to a tile (group must be pack then)."""
    return HopperAttention(dtype, config, causal, target, split_kv, pack).build()


__all__ = ["HopperAttention", "build_attention"]
