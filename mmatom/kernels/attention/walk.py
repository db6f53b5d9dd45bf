"""Which walk over the (query block, head, batch) tiles spreads a causal attention's work evenly over the persistent
CTAs (the kernel's walk_group and walk_snake arguments, mmatom.scheduler.TileScheduler).

Causal tiles differ in length: query block i reads about i + 1 key blocks. A persistent CTA c takes units c, c + G,
c + 2G, ... (G CTAs), so the walk decides which lengths land on which CTA: heads fastest (walk_group 1) or a head's
query blocks fastest (walk_group = the query blocks), each with odd whole waves backwards or not (snake). With 132
CTAs, 8 query blocks and heads fastest, CTA 0 takes only the longest blocks of every wave and CTA 64 only short ones:
its most loaded CTA carries 1.7x the mean. `walk(...)` computes every CTA's load under the four walks (numpy, cached
per shape) and returns the one whose most loaded CTA carries least; without a mask every tile is one length and the
walk is the plain one.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

TILE_OVERHEAD_BLOCKS = 1.0  # a tile's own cost (Q load, first S, epilogue) in key blocks' worth


@lru_cache(maxsize=1024)
def walk(batch: int, heads: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int, ctas: int,
         causal: bool) -> tuple[int, int]:
    """(walk_group, walk_snake) for a launch of `ctas` persistent CTAs: the walk whose most loaded CTA carries the
    least (ties: the plain walk, heads fastest)."""
    q_blocks = -(-seqlen_q // block_m)
    if not causal or q_blocks == 1:
        return 1, 0
    cost = _tile_costs(q_blocks, seqlen_q, seqlen_k, block_m, block_n)
    walks = [(1, 0), (q_blocks, 0), (1, 1), (q_blocks, 1)]
    loads = [_busiest(cost, q_blocks, heads, batch, ctas, group, snake) for group, snake in walks]
    return walks[int(np.argmin(loads))]


def _tile_costs(q_blocks: int, seqlen_q: int, seqlen_k: int, block_m: int, block_n: int) -> np.ndarray:
    """Per row tile (0: the kernel's first, the last query block), its key blocks plus TILE_OVERHEAD_BLOCKS; causal
    aligned bottom-right as the kernel reads it (kv_blocks)."""
    q_block = q_blocks - 1 - np.arange(q_blocks)
    horizon = np.clip(q_block * block_m + block_m + seqlen_k - seqlen_q, 0, seqlen_k)
    return np.maximum(-(-horizon // block_n), 1) + TILE_OVERHEAD_BLOCKS


def _busiest(cost: np.ndarray, q_blocks: int, heads: int, batch: int, ctas: int, group: int, snake: int) -> float:
    """The most loaded CTA's work under a walk (loop index t is CTA t % ctas's)."""
    rows = walked_rows(q_blocks, heads, batch, ctas, group, snake)
    t = np.arange(len(rows))
    return float(np.bincount(t % ctas, weights=cost[rows], minlength=ctas).max())


def walked_rows(q_blocks: int, heads: int, batch: int, ctas: int, group: int, snake: int) -> np.ndarray:
    """The row tile of every loop index t: mmatom.scheduler's walk in numpy (snake_unit, then TileScheduler.coords'
    grouped raster within a layer) -- tests/unit/api/test_attention_walk.py holds the two equal."""
    units = q_blocks * heads * batch
    t = np.arange(units)
    wave_start = t - t % ctas
    backward = 2 * wave_start + ctas - 1 - t
    unit = np.where(snake & ((t // ctas) % 2 == 1) & (wave_start + ctas <= units), backward, t)
    within_layer = unit % (q_blocks * heads)
    span = group * heads
    first_m = within_layer // span * group
    return first_m + (within_layer % span) % np.minimum(q_blocks - first_m, group)


__all__ = ["TILE_OVERHEAD_BLOCKS", "walk", "walked_rows"]
