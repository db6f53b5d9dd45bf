"""Which causal attention tiles each persistent CTA runs, in which order: a list per CTA, balanced on the host and
passed to the kernel as a table (mmatom.ListedWalk).

Causal tiles differ in length: query block i reads about i + 1 key blocks. A static raster over (query block, head,
batch) -- CTA c taking units c, c + G, ... -- leaves its busiest CTA 8-30% above the mean on the common shapes
(4 x 16 x 4096: 1.12x), whichever of the raster's orders. The lists here come from list scheduling: units in a
given order, each to the CTA that is least loaded so far (what a dynamic scheduler would do, decided on the host
from each tile's cost in key blocks). Two orders are scheduled and the one whose busiest CTA carries least is kept:

- **head by head**, each head's query blocks longest first: the CTAs running at once share few heads' K and V in L2;
- **pairs**: query blocks i and n - 1 - i of one head as one unit (their sum the same for every pair), head by head;
  the pairs of a last, partial wave split again into single tiles and taken longest first.

Both keep the tiles in flight on few heads (a wave of 132 CTAs over ~4-10 heads), which the kernel's K/V reads need:
longest-first over every head at once balances as well but puts ~64 heads' K and V in flight (d 256: 256 MiB).
Without a mask every tile is one length and the kernel walks the plain raster (no table).
"""

from __future__ import annotations

import heapq
from functools import lru_cache

import numpy as np

from mmatom import ListedWalk

TILE_OVERHEAD_BLOCKS = 1.0  # a tile's own cost (Q load, first S, epilogue) in key blocks' worth


@lru_cache(maxsize=256)
def walk_table(batch: int, heads: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int,
               ctas: int) -> np.ndarray:
    """The causal kernel's walk table (i32, ListedWalk.table) for a launch of `ctas` CTAs."""
    return ListedWalk.table(balanced_lists(batch, heads, seqlen_q, seqlen_k, block_m, block_n, ctas))


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


__all__ = ["TILE_OVERHEAD_BLOCKS", "balanced_lists", "busiest", "tile_costs", "walk_table"]
