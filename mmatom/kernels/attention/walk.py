"""Which attention tiles each persistent CTA runs, in which order, and over which KV blocks: a list of entries per
CTA, planned on the host and passed to the kernel as a table (mmatom.ListedWalk), each entry

    (unit, kv_lo, kv_hi, counter, first_slot, parts, part, tile_counter, group_slots, groups, group)

-- the tile's unit in the kernel's plain numbering ((layer x query blocks + row tile) x heads + head), the KV blocks
[kv_lo, kv_hi) it reads (kv_hi -1: all the tile's blocks, as the kernel counts them), and for a tile cut into parts
run by different CTAs, the part's group: its counter, its parts' first workspace slot, how many parts and which this
is (counter -1: a whole tile); a tile of several groups also has a counter of its own, the groups' first slot, how
many groups and which this part's is (tile_counter -1: one group). Each group's last part adds its group up; with
several groups, it publishes that sum to its group slot and the last group's adds the groups up (split_kv.py).

**Causal** tiles differ in length: query block i reads about i + 1 key blocks. A static raster over (query block,
head, batch) -- CTA c taking units c, c + G, ... -- leaves its busiest CTA 8-30% above the mean on the common shapes
(4 x 16 x 4096: 1.12x), whichever of the raster's orders. The lists here come from list scheduling: units in a
given order, each to the CTA that is least loaded so far (what a dynamic scheduler would do, decided on the host
from each tile's cost in key blocks). Two orders are scheduled and the one whose busiest CTA carries least is kept:

- **head by head**, each head's query blocks longest first: the CTAs running at once share few heads' K and V in L2;
- **pairs**: query blocks i and n - 1 - i of one head as one unit (their sum the same for every pair), head by head;
  the pairs of a last, partial wave split again into single tiles and taken longest first.

Both keep the tiles in flight on few heads (a wave of 132 CTAs over ~4-10 heads), which the kernel's K/V reads need:
longest-first over every head at once balances as well but puts ~64 heads' K and V in flight (d 256: 256 MiB).

**Without a mask** every tile is one length: whole tiles head by head, a head's query blocks one after another, so
that the CTAs running at once share a few heads' K and V in L2 (heads fastest, a wave of 132 CTAs spans every head:
d 256 x 16 heads, 64 MiB of K and V in flight against 50 MiB of L2; head by head measured 3-5% faster at d 128 and
d 256, order_ab.txt) -- and where there are fewer tiles than
SMs (a few heads' short query against long keys: decoding, a prefill chunk), each tile's KV blocks cut into equal
runs over every SM (split KV, as FlashDecoding). The parts' partial rows meet in a workspace, where the part that
finishes last adds them up (rescaled to one row maximum) and stores the tile; that takes the kernel built with
split_kv (kernel.finish).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mmatom import ListedWalk

from .config import WALK_ENTRY

TILE_OVERHEAD_BLOCKS = 1.0  # a tile's own cost (Q load, first S, epilogue) in key blocks' worth


ENTRY_WORDS = len(WALK_ENTRY)
# a split tile's own cost in KV blocks' worth: its parts' rows written and counted and the last part's epilogue after
# theirs (3 blocks: measured, a split that saved 1.25 blocks by this count ran 4% slower); and, per part added up in a
# row, the caller's `combine_blocks` (config.COMBINE_BLOCKS)
FIXUP_BLOCKS, TWO_LEVELS_FROM = 3.0, 9


@dataclass(frozen=True)
class WalkPlan:
    """A launch's walk: the table (i32, ListedWalk.table of ENTRY_WORDS-word entries), its CTAs, and the workspace
    slots and counters its split tiles need."""

    table: np.ndarray
    ctas: int
    slots: int
    counters: int


def plan_walk(batch: int, heads: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int, sms: int,
              causal: bool, combine_blocks: float = 0.35) -> WalkPlan:
    """The kernel's walk for a launch on a GPU of `sms` SMs (`combine_blocks`: adding up one part of a split tile,
    in KV blocks' worth). Without a mask the walk depends on the key count only through its blocks: one plan (and
    one table on the device) serves a decoding loop's block_n steps of a growing cache."""
    q_blocks = -(-seqlen_q // block_m)
    if causal:
        return _causal_plan(batch, heads, seqlen_q, seqlen_k, block_m, block_n, min(sms, batch * heads * q_blocks))
    return _unmasked_plan(batch, heads, q_blocks, -(-seqlen_k // block_n), sms, combine_blocks)


@lru_cache(maxsize=256)
def _causal_plan(batch: int, heads: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int,
                 ctas: int) -> WalkPlan:
    lists = balanced_lists(batch, heads, seqlen_q, seqlen_k, block_m, block_n, ctas)
    return WalkPlan(ListedWalk.table([[_whole(u) for u in units] for units in lists], ENTRY_WORDS), len(lists), 0, 0)


@lru_cache(maxsize=256)
def _unmasked_plan(batch: int, heads: int, q_blocks: int, blocks: int, sms: int, combine_blocks: float) -> WalkPlan:
    order = [unit for (unit,) in _head_by_head(q_blocks, heads, batch)]
    return _split_few(order, blocks, sms, combine_blocks)


def _whole(unit: int) -> tuple[int, ...]:
    """The entry of a whole tile: all its KV blocks, no counter (WALK_ENTRY's order)."""
    return _entry(unit=unit, kv_lo=0, kv_hi=-1, counter=-1, first_slot=0, parts=1, part=0)


def _entry(unit: int, kv_lo: int, kv_hi: int, counter: int, first_slot: int, parts: int, part: int,
           tile_counter: int = -1, group_slots: int = 0, groups: int = 1, group: int = 0) -> tuple[int, ...]:
    """An entry in WALK_ENTRY's order (a test pins the two alike; a tuple, not a dict: a plan per decoding step
    builds ~132); a tile of one group of parts (or whole) has no tile counter."""
    return unit, kv_lo, kv_hi, counter, first_slot, parts, part, tile_counter, group_slots, groups, group


@lru_cache(maxsize=1024)
def groups_of(parts: int) -> tuple[range, ...]:
    """A split tile's parts (numbered in KV order) in about sqrt(parts) groups of consecutive parts, as equal as they
    come: the adding up reads ~2 sqrt(parts) parts in a row instead of `parts` (fewer than TWO_LEVELS_FROM parts: one
    group, a second level would save a part's read or two and cost a publish and a count of its own)."""
    count = math.isqrt(parts) if parts >= TWO_LEVELS_FROM else 1
    bounds = [parts * g // count for g in range(count + 1)]
    return tuple(range(bounds[g], bounds[g + 1]) for g in range(count))


@lru_cache(maxsize=1024)
def chain(parts: int) -> int:
    """Parts' reads in a row while a tile of `parts` parts is added up: its largest group, then the groups."""
    groups = groups_of(parts)
    return max(len(g) for g in groups) + (len(groups) if len(groups) > 1 else 0)


def _split_few(order: list[int], blocks: int, sms: int, combine_blocks: float) -> WalkPlan:
    """Every tile whole, CTA c taking the units order[c], order[c + CTAs], ... -- or, with fewer tiles than SMs,
    their KV blocks (`blocks` a tile) in equal runs over the SMs, where that shortens the busiest CTA's work past the
    parts' own cost: the run whose blocks and adding up cost least (more parts: shorter runs, a longer chain). (A
    last, partial wave of many tiles stays whole: the kernel that can add parts up runs its KV steps 4-6% slower,
    kernel.finish, which costs more than the last wave's idle SMs on the measured shapes.)"""
    tiles = len(order)

    def cost(run: int) -> float:
        return run + FIXUP_BLOCKS + combine_blocks * chain(-(-blocks // run) + 1)  # a run may end inside a tile

    run = blocks if tiles >= sms else min(_fewest_blocks_runs(blocks, -(-tiles * blocks // sms)),
                                          key=lambda r: (cost(r), -r))
    if tiles >= sms or cost(run) >= blocks:
        ctas = min(sms, tiles)
        lists = [[_whole(u) for u in order[c::ctas]] for c in range(ctas)]
        return WalkPlan(ListedWalk.table(lists, ENTRY_WORDS), ctas, 0, 0)
    return _split(order, blocks, sms, run)


def _fewest_blocks_runs(blocks: int, shortest: int) -> set[int]:
    """For each count of parts a run of at least `shortest` blocks cuts a tile of `blocks` into, the shortest run
    that does it (a run's cost grows with its length at a given count): at most blocks / shortest + 1 runs, not
    every length -- a plan per decoding step's key count stays ~0.1 ms at any context."""
    return {max(shortest, -(-blocks // parts)) for parts in range(1, -(-blocks // shortest) + 1)}


def _split(order: list[int], blocks: int, sms: int, run: int) -> WalkPlan:
    """CTA c takes KV blocks [c run, (c + 1) run) of the tiles' blocks laid end to end; a tile cut in several
    pieces gets its parts' groups (groups_of), counters and slots."""
    lists: list[list[tuple[int, ...]]] = [[] for _ in range(sms)]
    pieces: dict[int, list[tuple[int, int, int]]] = {}  # tile -> its (CTA, lo, hi), in CTA order
    for c in range(sms):
        first, last = c * run, min((c + 1) * run, len(order) * blocks)
        for j in range(first // blocks, -(-last // blocks)):
            pieces.setdefault(j, []).append((c, max(first - j * blocks, 0), min(last - j * blocks, blocks)))
    slots = counters = 0
    for j, cut in pieces.items():
        if len(cut) == 1:
            lists[cut[0][0]].append(_whole(order[j]))
            continue
        groups = groups_of(len(cut))
        several = len(groups) > 1
        for g, group in enumerate(groups):
            # (tile_counter, group_slots, groups, group) with several groups; _entry's defaults with one
            tile = (counters + len(groups), slots + len(cut), len(groups), g) if several else ()
            for p in group:
                c, lo, hi = cut[p]
                lists[c].append(_entry(order[j], lo, hi, counters + g, slots + group.start, len(group),
                                       p - group.start, *tile))
        slots += len(cut) + several * len(groups)
        counters += len(groups) + several
    return WalkPlan(ListedWalk.table(lists, ENTRY_WORDS), sms, slots, counters)


def balanced_lists(batch: int, heads: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int,
                   ctas: int) -> list[list[int]]:
    """Per CTA, its units (the kernel's plain unit numbering: (layer x query blocks + row tile) x heads + head, row
    tile 0 the longest), the better balanced of the two orders."""
    q_blocks = -(-seqlen_q // block_m)
    cost = tile_costs(q_blocks, seqlen_q, seqlen_k, block_m, block_n)
    candidates = [_scheduled(_head_by_head(q_blocks, heads, batch), cost, heads, ctas),
                  _paired(q_blocks, heads, batch, cost, ctas)]
    return min(candidates, key=lambda lists: busiest(lists, cost, heads))


def tile_costs(q_blocks: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int) -> np.ndarray:
    """Per row tile (0: the kernel's first, the last query block), its key blocks plus TILE_OVERHEAD_BLOCKS; causal
    aligned bottom-right as the kernel reads it (kv_blocks)."""
    q_block = q_blocks - 1 - np.arange(q_blocks)
    horizon = np.clip(q_block * block_m + block_m + seqlen_k - seqlen_q, 0, seqlen_k)
    return np.maximum(-(-horizon // block_n), 1) + TILE_OVERHEAD_BLOCKS


def busiest(lists: list[list[int]], cost: np.ndarray, heads: int) -> float:
    """The most loaded CTA's work."""
    return max((float(cost[_row_tile(np.asarray(units), heads, len(cost))].sum()) for units in lists), default=0.0)


def _row_tile(unit, heads: int, q_blocks: int):
    return unit // heads % q_blocks


def _unit(layer: int, row_tile: int, head: int, heads: int, q_blocks: int) -> int:
    return (layer * q_blocks + row_tile) * heads + head


def _head_by_head(q_blocks: int, heads: int, batch: int) -> list[tuple[int, ...]]:
    """Every tile alone, head after head, each head's longest first."""
    return [(_unit(layer, r, head, heads, q_blocks),) for layer in range(batch) for head in range(heads)
            for r in range(q_blocks)]


def _paired(q_blocks: int, heads: int, batch: int, cost: np.ndarray, ctas: int) -> list[list[int]]:
    """Query blocks i and n - 1 - i of a head as one unit (the middle one of an odd n alone), head after head; the
    units past the last whole wave split into single tiles, longest first."""
    pairs = []
    for layer in range(batch):
        for head in range(heads):
            unit = [_unit(layer, r, head, heads, q_blocks) for r in range(q_blocks)]
            pairs += [(unit[i], unit[q_blocks - 1 - i]) for i in range(q_blocks // 2)]
            if q_blocks % 2:
                pairs.append((unit[q_blocks // 2],))
    whole = len(pairs) // ctas * ctas
    rest = sorted((u for pair in pairs[whole:] for u in pair), key=lambda u: _row_tile(u, heads, q_blocks))
    return _scheduled(pairs[:whole] + [(u,) for u in rest], cost, heads, ctas)


def _scheduled(units: list[tuple[int, ...]], cost: np.ndarray, heads: int, ctas: int) -> list[list[int]]:
    """List scheduling: each unit (one tile or a pair, run in its order) to the least loaded CTA so far (ties: the
    lowest CTA)."""
    q_blocks = len(cost)
    lists: list[list[int]] = [[] for _ in range(ctas)]
    loads = [(0.0, c) for c in range(ctas)]
    for unit in units:
        load, cta = heapq.heappop(loads)
        lists[cta] += unit
        heapq.heappush(loads, (load + sum(float(cost[_row_tile(u, heads, q_blocks)]) for u in unit), cta))
    return lists


__all__ = ["ENTRY_WORDS", "FIXUP_BLOCKS", "TILE_OVERHEAD_BLOCKS", "TWO_LEVELS_FROM", "WalkPlan", "balanced_lists",
           "busiest", "chain", "groups_of", "plan_walk", "tile_costs"]
