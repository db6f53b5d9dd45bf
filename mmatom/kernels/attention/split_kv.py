"""Split KV: one attention tile's KV blocks run by several CTAs, its parts (walk.py plans them), added up in one.

Each part ends with this tile's rows of O unnormalized, each row's maximum (log2 units) and sum of 2^(s - max). It
writes them to its workspace slot -- each consumer thread its own values, in 16-byte chunks laid out chunk-major over
the tile's threads (a warp's chunk: 512 contiguous bytes), its two rows' maxima and sums as one chunk more -- and
counts itself on a counter (kb.sync.last_to_arrive). The part that counts last reads the slots back, in slot order
(the same bits on every run), each rescaled to the rows' overall maximum M:

    O = sum_p O_p 2^(m_p - M),    l = sum_p l_p 2^(m_p - M)

The adding up is a chain of L2 round trips, parts one after another, so a tile of many parts adds them up in two
levels (walk.py): its parts in groups, each group's last part adding up the group's slots and publishing the sum to
a group slot in turn, the last group's adding up the groups and storing the tile as a whole one would -- about
2 sqrt(parts) parts' reads in a row instead of `parts`. Each thread reads only what it wrote in the other parts (the
same thread of another CTA): no exchange between the threads of a CTA. A thread whose rows hold no query (past the
sequence's end: most of a packed decoding tile's, config.py) neither writes nor reads: their rows are never stored.

On the public API only, like the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import mmatom

# The part that counts last adds every part up through chains of L2 round trips (~0.65 us each, H100), so the
# loads of several parts go out at once: STATS_AT_ONCE parts' maxima and sums, and up to ROW_PARTS_AT_ONCE parts'
# chunks of O -- SUMMED_AT_ONCE (or, where registers are short, FEWER_SUMMED) chunks of each, as many as a consumer
# thread's registers hold besides its O values and RESERVED_WORDS (addresses, counters; d 256 at 240 registers: 4
# chunks of 3 parts, d 128: 8 of 3)
STATS_AT_ONCE, ROW_PARTS_AT_ONCE, SUMMED_AT_ONCE, FEWER_SUMMED, RESERVED_WORDS = 4, 4, 8, 4, 44


@dataclass(frozen=True)
class Level:
    """One level of a split tile's adding up (walk.py): `count` slots from `first_slot`, this part's the `index`th,
    counted on counter `counter` (i32 values of the walk entry)."""

    first_slot: object
    index: object
    count: object
    counter: object


class PartialRows:
    """The consumer warpgroups' side of the split tiles (the tile's `threads` consumer threads, `thread` this one's
    index among them; `o_type` O's fragment type, `o_rows[v]` which of the thread's two rows value v is in;
    `barrier` the named barrier (id, threads) the consumers count on)."""

    def __init__(self, kb: mmatom.KernelBuilder, thread, threads: int, o_type, o_rows, barrier: tuple[int, int],
                 registers: int):
        self.kb, self.thread, self.threads, self.barrier = kb, thread, threads, barrier
        self.registers = registers
        self.o_type, self.o_rows = o_type, o_rows
        if sorted(set(o_rows)) != [0, 1]:
            raise mmatom.CompileError(f"split KV: a thread's O values lie in rows {sorted(set(o_rows))}; the "
                                      f"workspace's last chunk holds two rows' maxima and sums")
        self.values = o_type.layout.data[1].size()
        self.chunks = self.values // 4  # O's chunks; chunk `chunks` holds the rows' maxima and sums
        self.partials, self.counters = kb.param("partials"), kb.param("counters")

    def _chunk(self, slot, chunk: int):
        """The address of this thread's 16-byte chunk `chunk` in workspace slot `slot`: the thread's first chunk of
        the slot plus a constant (an immediate offset of the load: per-chunk addresses in registers, hoisted out
        of the loops, would hold ~66 registers)."""
        first = self.kb.int_cast(slot * (self.chunks + 1), "i64")  # 2^31 bytes and more: in i64
        return self.partials + (first * self.threads + self.thread) * 16 + chunk * self.threads * 16

    def add_up_tile(self, o, maxima, sums, t, live) -> tuple:
        """A split tile's part (`t`: its walk entry): its rows published to its group's slot; with several groups,
        the part that counts last in its group relays the group's sum to the group's slot, chunk by chunk. The part
        that counts last overall adds up the slots of the last level. Returns (O, row maxima, row sums, store):
        store an i32, 1 in that part; O zeros elsewhere (no one stores it)."""
        kb = self.kb
        parts = Level(t.first_slot, t.part, t.parts, t.counter)
        groups = Level(t.group_slots, t.group, t.groups, t.tile_counter)
        self.store(o, maxima, sums, parts.first_slot + parts.index, live)
        last = self.count(parts)
        with (second := kb.if_(last & (t.groups > 1), otherwise=[last])):
            with kb.if_(live):
                self.relay(parts, groups.first_slot + groups.index)
            second.yield_(self.count(groups))
        last = second.results[0]
        level = Level(*(mmatom.select(t.groups > 1, getattr(groups, f.name), getattr(parts, f.name))
                        for f in fields(Level)))  # the last level's slots
        with (added := kb.if_(last & live, otherwise=[kb.fill(0.0, self.o_type), *maxima, *sums])):
            total, total_maxima, total_sums = self.total(level)
            added.yield_(total, *total_maxima, *total_sums)
        o, *rows = added.results
        return o, rows[:2], rows[2:], mmatom.select(last, 1, 0)

    def store(self, o, maxima, sums, slot, live) -> None:
        """This thread's O values, row maxima and sums to workspace slot `slot`, where `live` (its rows hold a
        query)."""
        kb = self.kb
        with kb.if_(live):
            for c in range(self.chunks):
                kb.store_chunk([kb.bitcast(kb.extract(o, 4 * c + i), "i32") for i in range(4)], self._chunk(slot, c))
            self._store_stats(maxima, sums, slot)

    def _store_stats(self, maxima, sums, slot) -> None:
        self.kb.store_chunk([self.kb.bitcast(x, "i32") for x in (*maxima, *sums)], self._chunk(slot, self.chunks))

    def count(self, level: Level) -> mmatom.Value:
        """This part counted on the level's counter: an i1, true in every consumer thread of the part that counted
        last (its slot stored before: last_to_arrive's fence orders the CTA's stores before the count)."""
        return self.kb.sync.last_to_arrive(self.counters, level.counter, level.count, *self.barrier,
                                           leader=self.thread == 0)

    def total(self, level: Level) -> tuple:
        """(O, row maxima, row sums) of the level's slots added up, as one whole tile's would be."""
        maxima, sums = self._merged_stats(level)
        out = self.kb.fill(0.0, self.o_type)
        for chunks, values in self._summed(level, maxima):
            for j, c in enumerate(chunks):
                for i in range(4):
                    out = self.kb.insert(values[4 * j + i], out, 4 * c + i)
        return out, maxima, sums

    def relay(self, level: Level, slot) -> None:
        """The level's slots added up into workspace slot `slot`, a batch of chunks at a time (no tile's O held in
        registers)."""
        kb = self.kb
        maxima, sums = self._merged_stats(level)
        for chunks, values in self._summed(level, maxima):
            for j, c in enumerate(chunks):
                kb.store_chunk([kb.bitcast(values[4 * j + i], "i32") for i in range(4)], self._chunk(slot, c))
        self._store_stats(maxima, sums, slot)

    def _batch(self, level: Level, p, width: int) -> list[tuple]:
        """Slots p .. p + width - 1 of `level` as (slot, in range): one past its last reads the last one's (its
        loads stay in the workspace) and counts for nothing."""
        last = level.count - 1
        return [(level.first_slot + mmatom.min_value(p + u, last), p + u <= last) for u in range(width)]

    def _merged_stats(self, level: Level) -> tuple[list, list]:
        """The rows' overall maxima M and sums sum_p l_p 2^(m_p - M), STATS_AT_ONCE parts' loads at a time: the
        sums so far rescaled to each batch's new maximum (2^(-inf) = 0: a row empty so far adds nothing)."""
        kb = self.kb
        with (merged := kb.for_range(0, level.count, STATS_AT_ONCE, [float("-inf")] * 2 + [0.0] * 2)) as (p, acc):
            batch = [(self._stats_at(slot), valid) for slot, valid in self._batch(level, p, STATS_AT_ONCE)]
            maxima, sums = [], []
            for row in range(2):
                seen = [mmatom.select(valid, stats[row], float("-inf")) for stats, valid in batch]
                top = acc[row]
                for m in seen:
                    top = mmatom.max_value(top, m)
                base = mmatom.select(top == float("-inf"), 0.0, top)
                total = acc[2 + row] * kb.ex2(acc[row] - base)
                for m, (stats, _) in zip(seen, batch):
                    total = total + stats[2 + row] * kb.ex2(m - base)
                maxima.append(top)
                sums.append(total)
            merged.yield_(*maxima, *sums)
        return list(merged.results[:2]), list(merged.results[2:])

    def _summed(self, level: Level, maxima):
        """Per batch of chunks of O: (the chunks, their values summed over the level's slots, each slot's times
        2^(m_p - M) for its row), several slots' loads at a time."""
        kb = self.kb
        base = [mmatom.select(m == float("-inf"), 0.0, m) for m in maxima]  # a row no part saw a key of: 0, not NaN
        summed, at_once = self._row_batches()
        for group in range(0, self.chunks, summed):
            chunks = range(group, min(group + summed, self.chunks))
            with (rows := kb.for_range(0, level.count, at_once, [0.0] * (4 * len(chunks)))) as (p, sums):
                sums = list(sums)
                for slot, valid in self._batch(level, p, at_once):
                    stats = self._stats_at(slot)
                    scale = [mmatom.select(valid, kb.ex2(m_p - b), 0.0) for m_p, b in zip(stats[:2], base)]
                    for j, c in enumerate(chunks):
                        for i, word in enumerate(kb.load_chunk(self._chunk(slot, c))):
                            sums[4 * j + i] = sums[4 * j + i] + kb.bitcast(word, "f32") * scale[self.o_rows[4 * c + i]]
                rows.yield_(*sums)
            yield chunks, list(rows.results)

    def _row_batches(self) -> tuple[int, int]:
        """(chunks of O, parts) a batch of _rows' loads: as many chunks in flight as the registers hold."""
        room = (self.registers - self.values - RESERVED_WORDS) // 4
        summed = min(self.chunks, SUMMED_AT_ONCE if room >= 3 * (SUMMED_AT_ONCE + 1) else FEWER_SUMMED)
        return summed, max(1, min(ROW_PARTS_AT_ONCE, room // (summed + 1)))

    def _stats_at(self, slot) -> list:
        """Workspace slot `slot`'s (row maxima, row sums) of this thread's two rows."""
        return [self.kb.bitcast(w, "f32") for w in self.kb.load_chunk(self._chunk(slot, self.chunks))]


__all__ = ["Level", "PartialRows"]
