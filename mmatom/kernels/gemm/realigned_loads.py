"""The GEMM producer's loads of an operand whose rows TMA cannot address -- rows that do not start on 16 bytes
(fp8 with K not a multiple of 16, bf16 / f16 with K not a multiple of 8), read in place instead of copied per call.

The two producer warpgroups' 256 threads copy, for each K step, every row's 144 bytes of aligned 16-byte chunks
that hold the step's 128 bytes of it into a raw slot (cp.async: nothing held in registers, `depth - 1` steps in
flight, one group a step; chunks past the row's end or of rows past the operand's zero-filled). A row is one warp's:
8 lanes copy its chunks and the same 8 realign it, so once a step's copies landed (each thread's wait, then its
warp's bar.warp.sync -- no barrier across the producers) each thread realigns one 16-byte chunk of every 32nd row:
it reads the 5 words of the raw row its chunk spans (4-byte loads at the row's offset rounded down to a word), joins
them with funnel shifts, zeroes the bytes past K (the last step; rows past the operand are zero already), and stores
the chunk where the tile's 128B-swizzled layout places it. Then it fences its stores to the async proxy and arrives
on the stage's full barrier (the ring counts 256 producers more than TMA's one), so the consumers' wgmma read the
tile as a TMA-loaded one. What no K step changes -- each row's address, whether it is in the operand -- is worked
out once a tile. Measured on the H100 (records/GEMM.md, sessions 19-20, 26, 29): slower per K step than TMA (~1.1 us
a step of 144 rows in session 26; one producer warpgroup took ~1.5) -- the copies' and the realignment's
instructions, each warp's chain of them -- so the host realigns where a CTA walks few K steps (small and odd
problems: no copy launch) and copies the rows first where it walks many (choices.realign_pays,
host.REALIGN_UNALIGNED).

    loads = RealignedLoads(kb, tid, {"a": (rows, "e4m3", layout)}, depth, {"a": m})  # before the tile loop
    rows = {"a": loads.tile_rows(loads.operands["a"], m0)}   # per tile
    loads.issue(rows, step, k0)                              # a K step's copies, depth - 1 steps ahead
    loads.realign(stage, rows, step, k0)                     # a landed step into the ring's stage

On the public API only, like the kernel: kb.cp_async, load_scalar / store_chunk, funnel_shift_right, kb.layout.
"""

from __future__ import annotations

from contextlib import nullcontext
from types import SimpleNamespace

import mmatom

from .config import ELEM_BYTES

# two producer warpgroups, two warps on each scheduler to overlap the realignment's latencies (records/GEMM.md,
# session 26); the consumers keep REALIGNING_REGISTERS' 200 registers, the producers the rest of the 64K
PRODUCER_WARPGROUPS = 2
PRODUCER_THREADS = 128 * PRODUCER_WARPGROUPS  # every producer thread copies and realigns
ROW_BYTES = 128  # a K step of one row: the 128B swizzle's span (block_k of any element type)
RAW_CHUNKS = ROW_BYTES // 16 + 1  # the aligned 16-byte chunks 128 bytes at any alignment lie in
RAW_ROW_BYTES = RAW_CHUNKS * 16
ROWS_AT_ONCE = PRODUCER_THREADS // 8  # 8 threads a row (a chunk each): 32 rows at once
SMEM_SPAN = 1 << 18  # byte offsets within a CTA's shared memory


def raw_bytes(rows: int, depth: int) -> int:
    """The SMEM of one operand's raw slots: `depth` steps of `rows` rows of RAW_CHUNKS chunks."""
    return depth * rows * RAW_ROW_BYTES


class RealignedLoads:
    """One producer thread's part of the realigned operands (`operands`: name -> (tile rows, element type, tile
    layout); each a kernel pointer parameter `<name>` with `ld<name>` (its row pitch in elements, i64) and
    `<name>_align` (its base address mod 16))."""

    def __init__(self, kb: mmatom.KernelBuilder, tid, operands: dict, depth: int, extents: dict):
        self.kb, self.depth, self.extents = kb, depth, extents
        self.chunk, self.first_row = tid % 8, tid // 8 % ROWS_AT_ONCE
        self.operands = {name: self._operand(name, *spec) for name, spec in operands.items()}

    def _operand(self, name: str, rows: int, elem: str, layout) -> SimpleNamespace:
        """An operand's constants: its raw slots, its element size, its pitch in bytes (low 32 bits: what the
        alignment needs), where this thread's chunk of its first row lands in a tile (the tile's own layout), how
        many rows apart the thread's rows are (`apart`: ROWS_AT_ONCE, or 16 for a tile of an odd number of 16-row
        blocks, whose threads past its first 16 rows then copy none of it: `active`) and the offset between them
        (swizzle periods of 8 rows)."""
        kb, esize = self.kb, ELEM_BYTES[elem]
        apart = ROWS_AT_ONCE if rows % ROWS_AT_ONCE == 0 else 16
        raw = kb.smem(raw_bytes(rows, self.depth), align=16)
        # the tile's layout: its element offsets, swizzled as byte addresses (CuTe's smem_ptr_flag: Sw<3,4,3> on
        # bytes for every element type)
        inner = kb.layout(layout.layout, (self.first_row, self.chunk * (16 // esize)))
        place = kb.layout(f"{layout.swizzle} o 0 o {SMEM_SPAN}:1", (inner + layout.offset) * esize)
        step = (layout.layout((apart, 0)) - layout.layout((0, 0))) * esize
        return SimpleNamespace(name=name, rows=rows, esize=esize, raw=raw, place=place, apart=apart,
                               apart_bytes=step, active=None if apart == ROWS_AT_ONCE else self.first_row < apart,
                               pitch=kb.int_cast(kb.param(f"ld{name}"), "i32") * esize)

    # -- copies ------------------------------------------------------------------------------------------------

    def tile_rows(self, op, origin) -> SimpleNamespace:
        """This thread's rows of a tile at `origin` (the operand's first row of it), what no K step changes: each
        row's first byte (`starts`; a row past the operand: an address its copies never read) and whether it lies in
        the operand (`inside`), and their offset past 16 bytes (`skip`, the same for rows 16 or 32 apart) -- worked
        out once a tile, so that a K step's copies are an address add and a select a row."""
        kb = self.kb
        row = origin + self.first_row
        extent = self.extents[op.name]
        pitch = kb.param(f"ld{op.name}") * op.esize
        start = kb.param(op.name) + mmatom.min_value(row, extent - 1) * pitch
        skip = (kb.param(f"{op.name}_align") + row * op.pitch) & 15
        count = op.rows // op.apart
        return SimpleNamespace(skip=skip, row=row, extent=extent,
                               starts=[start + (j * op.apart) * pitch for j in range(count)],
                               inside=[row + op.apart * j < extent for j in range(count)])

    def issue(self, rows_of: dict, step, k0) -> None:
        """This thread's copies of K step `step` (its first element k0) into raw slot step % depth; the caller
        closes the group, one per step (an empty one past the tile's last step: the wait counts groups)."""
        for op in self.operands.values():
            with self._active(op):
                self._copies(op, rows_of[op.name], step, k0)

    def _active(self, op):
        """The block in which this thread works on `op`: every thread, or those of its first 16 rows."""
        return nullcontext() if op.active is None else self.kb.if_(op.active)

    def _copies(self, op, rows, step, k0) -> None:
        """This thread's rows of `op`: the 9 aligned chunks that hold the step's 128 bytes, each a thread's but the
        ninth (the row's last thread's); chunks past K or of rows past the operand zero-filled (which is all the
        realignment needs to know of those rows)."""
        kb = self.kb
        slot = op.raw + (step & (self.depth - 1)) * (op.rows * RAW_ROW_BYTES) + self.first_row * RAW_ROW_BYTES
        k_bytes = kb.param("k") * op.esize
        first = k0 * op.esize - rows.skip  # the first aligned chunk, past the row's start (bytes; may be < 0)
        # each chunk's bytes to read, the same for every row of the step: 16, or 0 past K
        sizes = {chunk: mmatom.select(first + chunk * 16 < k_bytes, 16, 0) for chunk in (self.chunk, 8)}
        for j, (start, inside) in enumerate(zip(rows.starts, rows.inside)):
            dst, src = slot + j * op.apart * RAW_ROW_BYTES, start + first
            kb.cp_async.copy(dst + self.chunk * 16, src + self.chunk * 16, mmatom.select(inside, sizes[self.chunk], 0))
            with kb.if_(self.chunk == 7):
                kb.cp_async.copy(dst + 128, src + 128, mmatom.select(inside, sizes[8], 0))

    # -- realignment -------------------------------------------------------------------------------------------

    def realign(self, stage, rows_of: dict, step, k0) -> None:
        """K step `step`'s raw chunks (landed: after the thread's wait and its warp's sync) into the stage's tiles:
        this thread's chunk of each of its rows, its bytes past K zeroed where the step holds any (rows past the
        operand come zero from their zero-filled raw chunks)."""
        kb = self.kb
        for op in self.operands.values():
            rows = rows_of[op.name]
            valid = kb.param("k") * op.esize - k0 * op.esize - self.chunk * 16  # this chunk's bytes before K
            with self._active(op):
                with kb.if_(valid >= 16) as whole:
                    self._rows(op, stage, rows, step, None)
                with whole.otherwise():
                    self._rows(op, stage, rows, step, valid)

    def _rows(self, op, stage, rows, step, valid) -> None:
        """The thread's chunk of each of its rows, joined from the 5 words of the raw row it spans (4-byte loads at
        the row's offset rounded down to a word, funnel shifts); `valid` (its bytes before K) given, masked."""
        kb = self.kb
        first_word, bits = (rows.skip & 12) + self.chunk * 16, (rows.skip & 3) * 8
        base = op.raw + (step & (self.depth - 1)) * (op.rows * RAW_ROW_BYTES) + self.first_row * RAW_ROW_BYTES \
            + first_word
        tile = getattr(stage, op.name).ptr + op.place
        for j in range(op.rows // op.apart):
            words = [kb.load_scalar(base + j * op.apart * RAW_ROW_BYTES, "i32", w) for w in range(5)]
            window = [mmatom.funnel_shift_right(words[w], words[w + 1], bits) for w in range(4)]
            if valid is not None:
                window = self._masked(window, valid)
            kb.store_chunk(window, tile + j * op.apart_bytes)

    @staticmethod
    def _masked(window: list, valid) -> list:
        """The chunk's words with the bytes from `valid` on (past K; 0 to 15 of them kept) zeroed: a step's bytes
        past K may hold the next row's."""
        out = []
        for w, word in enumerate(window):
            keep = valid - 4 * w  # this word's bytes before K (any value: clamped by the selects)
            partial = word & ((1 << (keep * 8)) - 1)  # 0 < keep < 4 where it is chosen
            out.append(mmatom.select(keep >= 4, word, mmatom.select(keep > 0, partial, 0)))
        return out


__all__ = ["PRODUCER_THREADS", "PRODUCER_WARPGROUPS", "RealignedLoads", "raw_bytes"]
