"""Split KV: one attention tile's KV blocks run by several CTAs, its parts (walk.py plans them), added up in one.

Each part ends with this tile's rows of O unnormalized, each row's maximum (log2 units) and sum of 2^(s - max). It
writes them to its workspace slot -- each consumer thread its own values, in 16-byte chunks laid out chunk-major over
the tile's threads (a warp's chunk: 512 contiguous bytes), its two rows' maxima and sums as one chunk more -- and
counts itself on the tile's counter (kb.sync.last_to_arrive). The part that counts last reads every part's chunks
back, in part order (the same bits on every run), each rescaled to the rows' overall maximum M:

    O = sum_p O_p 2^(m_p - M),    l = sum_p l_p 2^(m_p - M)

and stores the tile as a whole one would. Each thread reads only what it wrote in the other parts (the same thread
of another CTA): no exchange between the threads of a CTA. A thread whose rows hold no query (past the sequence's
end: most of a packed decoding tile's, config.py) neither writes nor reads: their rows are never stored.

On the public API only, like the kernel.
"""

from __future__ import annotations

import mmatom

SUMMED_AT_ONCE = 8  # chunks of O a thread adds up at a time (d 256: 32 chunks, all at once would spill)


class PartialRows:
    """The consumer warpgroups' side of the split tiles (the tile's `threads` consumer threads, `thread` this one's
    index among them; `o_type` O's fragment type, `o_rows[v]` which of the thread's two rows value v is in;
    `barrier` the named barrier (id, threads) the consumers count on)."""

    def __init__(self, kb: mmatom.KernelBuilder, thread, threads: int, o_type, o_rows, barrier: tuple[int, int]):
        self.kb, self.thread, self.threads, self.barrier = kb, thread, threads, barrier
        self.o_type, self.o_rows = o_type, o_rows
        if sorted(set(o_rows)) != [0, 1]:
            raise mmatom.CompileError(f"split KV: a thread's O values lie in rows {sorted(set(o_rows))}; the "
                                      f"workspace's last chunk holds two rows' maxima and sums")
        self.values = o_type.layout.data[1].size()
        self.chunks = self.values // 4  # O's chunks; chunk `chunks` holds the rows' maxima and sums
        self.partials, self.counters = kb.param("partials"), kb.param("counters")

    def _chunk(self, slot, chunk: int):
        """The address of this thread's 16-byte chunk `chunk` in workspace slot `slot`."""
        first = self.kb.int_cast(slot * (self.chunks + 1), "i64")  # 2^31 bytes and more: in i64
        return self.partials + (first * self.threads + (chunk * self.threads + self.thread)) * 16

    def publish(self, o, maxima, sums, part, live) -> mmatom.Value:
        """This part's rows to its slot (where `live`: this thread's rows hold a query), counted on the tile's
        counter: an i1, true in every consumer thread of the part that counted last (`part`: the walk entry's
        fields)."""
        kb = self.kb
        slot = part.first_slot + part.part
        with kb.if_(live):
            for c in range(self.chunks):
                kb.store_chunk([kb.bitcast(kb.extract(o, 4 * c + i), "i32") for i in range(4)], self._chunk(slot, c))
            kb.store_chunk([kb.bitcast(x, "i32") for x in (*maxima, *sums)], self._chunk(slot, self.chunks))
        return kb.sync.last_to_arrive(self.counters, part.counter, part.parts, *self.barrier,
                                      leader=self.thread == 0)

    def total(self, part) -> tuple:
        """(O, row maxima, row sums) of every part added up, as one whole tile's would be."""
        kb = self.kb
        with (top := kb.for_range(0, part.parts, 1, [float("-inf")] * 2)) as (p, maxima):
            stats = self._stats(part, p)
            top.yield_(*(mmatom.max_value(m, x) for m, x in zip(maxima, stats[:2])))
        maxima = list(top.results)
        base = [mmatom.select(m == float("-inf"), 0.0, m) for m in maxima]  # a row no part saw a key of: 0, not NaN
        with (summed := kb.for_range(0, part.parts, 1, [0.0] * 2)) as (p, sums):
            stats = self._stats(part, p)
            summed.yield_(*(s + l_p * kb.ex2(m_p - b) for s, l_p, m_p, b in zip(sums, stats[2:], stats[:2], base)))
        return self._rows(part, base), maxima, list(summed.results)

    def _rows(self, part, base):
        """O: every part's values times 2^(m_p - M) for their row, SUMMED_AT_ONCE chunks at a time."""
        kb = self.kb
        out = kb.fill(0.0, self.o_type)
        for group in range(0, self.chunks, SUMMED_AT_ONCE):
            chunks = range(group, min(group + SUMMED_AT_ONCE, self.chunks))
            with (rows := kb.for_range(0, part.parts, 1, [0.0] * (4 * len(chunks)))) as (p, sums):
                stats = self._stats(part, p)
                scale = [kb.ex2(m_p - b) for m_p, b in zip(stats[:2], base)]
                sums = list(sums)
                for j, c in enumerate(chunks):
                    for i, word in enumerate(kb.load_chunk(self._chunk(part.first_slot + p, c))):
                        sums[4 * j + i] = sums[4 * j + i] + kb.bitcast(word, "f32") * scale[self.o_rows[4 * c + i]]
                rows.yield_(*sums)
            for j, c in enumerate(chunks):
                for i in range(4):
                    out = kb.insert(rows.results[4 * j + i], out, 4 * c + i)
        return out

    def _stats(self, part, p) -> list:
        """Part p's (row maxima, row sums) of this thread's two rows."""
        return [self.kb.bitcast(w, "f32") for w in self.kb.load_chunk(self._chunk(part.first_slot + p, self.chunks))]


__all__ = ["PartialRows", "SUMMED_AT_ONCE"]
