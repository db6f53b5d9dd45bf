"""The causal tile walk (mmatom/kernels/attention/walk.py): the per-CTA lists the host balances and passes the
kernel as a table (mmatom.ListedWalk) -- every tile listed once, the busiest CTA near the mean where a static raster
leaves it 8-30% above, the tiles in flight on few heads -- and the table the kernel's loads decode."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mmatom
from mmatom.kernels.attention import walk as walks
from mmatom.kernels.attention.config import WALK_ENTRY

SHAPES = [(4, 16, 4096, 4096, 128, 80), (2, 16, 8192, 8192, 128, 128), (1, 16, 16384, 16384, 128, 128),
          (8, 16, 1024, 1024, 128, 128), (16, 16, 512, 512, 128, 128), (4, 32, 4096, 4096, 128, 128),
          (3, 5, 1000, 700, 128, 128), (1, 2, 517, 333, 192, 112)]


def _ctas(batch, heads, seqlen_q, block_m):
    return min(132, batch * heads * -(-seqlen_q // block_m))


def _raster_busiest(cost, q_blocks, heads, batch, ctas):
    """The plain raster's busiest CTA (CTA c: units c, c + ctas, ...; heads fastest), and with a head's query blocks
    fastest: what the kernel walked before the lists."""
    loads = []
    for rows in (np.arange(q_blocks).repeat(heads), np.tile(np.arange(q_blocks), heads)):
        tiles = np.tile(cost[rows], batch)
        loads.append(np.bincount(np.arange(tiles.size) % ctas, weights=tiles, minlength=ctas).max())
    return min(loads)


def test_tile_costs_count_key_blocks_and_the_tiles_own():
    assert list(walks.tile_costs(8, 1024, 1024, 128, 128)) == [9, 8, 7, 6, 5, 4, 3, 2]  # longest first
    # bottom-right: the first 384 of 512 queries see no key, and a tile reads one block even then
    assert list(walks.tile_costs(4, 512, 128, 128, 128)) == [2, 2, 2, 2]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_every_tile_is_listed_once(shape):
    batch, heads, seqlen_q, seqlen_k, block_m, block_n = shape
    ctas = _ctas(batch, heads, seqlen_q, block_m)
    lists = walks.balanced_lists(batch, heads, seqlen_q, seqlen_k, block_m, block_n, ctas)
    assert len(lists) == ctas and all(lists)
    assert sorted(u for units in lists for u in units) == list(range(batch * heads * -(-seqlen_q // block_m)))


@pytest.mark.parametrize("shape, most", [(SHAPES[0], 1.03), (SHAPES[1], 1.03), (SHAPES[2], 1.01), (SHAPES[3], 1.01),
                                         (SHAPES[4], 1.04), (SHAPES[5], 1.03)])
def test_the_busiest_cta_is_near_the_mean_and_below_the_rasters(shape, most):
    batch, heads, seqlen_q, seqlen_k, block_m, block_n = shape
    ctas, q_blocks = _ctas(batch, heads, seqlen_q, block_m), -(-seqlen_q // block_m)
    cost = walks.tile_costs(q_blocks, seqlen_q, seqlen_k, block_m, block_n)
    mean = cost.sum() * heads * batch / ctas
    busiest = walks.busiest(walks.balanced_lists(*shape, ctas), cost, heads)
    assert busiest <= most * mean
    assert busiest < _raster_busiest(cost, q_blocks, heads, batch, ctas)


def test_the_tiles_in_flight_share_few_heads():
    """A CTA's n-th tiles come from a handful of heads (their K and V stay in L2), not from every head at once."""
    batch, heads, seqlen, ctas = 4, 16, 4096, 132
    lists = walks.balanced_lists(batch, heads, seqlen, seqlen, 128, 80, ctas)
    head_of = lambda unit: unit % heads + unit // (heads * 32) * heads  # noqa: E731 - (batch, head) as one number
    for n in range(3):
        assert len({head_of(units[n]) for units in lists}) <= 12


def test_the_table_is_what_the_kernel_loads():
    """ListedWalk.table: nctaid + 1 starts, then the units; the kernel's loop runs table[c] .. table[c + 1]."""
    table = mmatom.ListedWalk.table([[5, 1], [], [0, 2, 3]])
    assert table.dtype == np.int32 and list(table) == [0, 2, 2, 5, 5, 1, 0, 2, 3]


def test_a_listed_walk_decodes_the_plain_raster_only():
    kb = mmatom.KernelBuilder("walk", [("walk", "ptr")], "sm_90a", threads=128)
    with pytest.raises(mmatom.CompileError, match="plain walk"):
        kb.listed_walk(kb.tile_scheduler(4, 8, group_m=2), kb.param("walk"))
    with pytest.raises(mmatom.CompileError, match="plain walk"):
        kb.listed_walk(kb.tile_scheduler(4, 8, snake=True), kb.param("walk"))
    with pytest.raises(mmatom.CompileError, match=r"0 words an entry; at least 1 \(the unit\)"):
        kb.listed_walk(kb.tile_scheduler(4, 8), kb.param("walk"), words=0)



def _entries(plan):
    """The plan's table read back as the kernel reads it: per CTA, its entries as dicts of WALK_ENTRY's fields."""
    starts, rest = plan.table[:plan.ctas + 1], plan.table[plan.ctas + 1:].reshape(-1, walks.ENTRY_WORDS)
    return [[dict(zip(WALK_ENTRY, map(int, rest[i]))) for i in range(starts[c], starts[c + 1])]
            for c in range(plan.ctas)]


@pytest.mark.parametrize("shape", [(1, 8, 128, 32768, 128, 144), (1, 5, 300, 4096, 128, 144),
                                   (2, 3, 300, 5000, 128, 80), (1, 2, 517, 3001, 192, 112),
                                   (4, 16, 4096, 4096, 128, 144), (16, 16, 512, 512, 128, 128),
                                   (1, 1, 1, 65536, 16, 128), (2, 2, 1, 32768, 16, 80)],
                         ids=lambda s: "x".join(map(str, s)))
def test_a_split_plan_reads_every_key_block_of_every_tile_once(shape):
    """Without a mask: whole tiles, or with fewer tiles than SMs their KV blocks cut over the SMs; each split tile's
    parts in groups, each group's parts numbered 0..parts-1 on its own counter and consecutive slots of their own, and
    a tile of several groups with a counter and consecutive group slots of its own."""
    batch, heads, seqlen_q, seqlen_k, block_m, block_n = shape
    plan = walks.plan_walk(*shape, 132, False)
    tiles, blocks = batch * heads * -(-seqlen_q // block_m), -(-seqlen_k // block_n)
    read, groups, tiles_of = [], {}, {}
    for entries in _entries(plan):
        for e in entries:
            hi = blocks if e["kv_hi"] < 0 else e["kv_hi"]
            read += [(e["unit"], b) for b in range(e["kv_lo"], hi)]
            if e["counter"] >= 0:
                groups.setdefault(e["counter"], []).append(e)
    assert sorted(read) == [(u, b) for u in range(tiles) for b in range(blocks)]
    slots, counters = [], list(groups)
    for members in groups.values():
        fields = {(e["unit"], e["first_slot"], e["parts"], e["tile_counter"], e["group_slots"], e["groups"], e["group"])
                  for e in members}
        assert len(fields) == 1  # one tile, one slot range, one count, one place among the tile's groups
        unit, first, n, tile_counter, group_slots, count, group = fields.pop()
        assert sorted(e["part"] for e in members) == list(range(n)) and n >= 1
        slots += range(first, first + n)
        if tile_counter >= 0:
            tiles_of.setdefault(tile_counter, set()).add((unit, group_slots, count, group))
        else:
            assert n >= 2 and count == 1
    for tile_counter, members in tiles_of.items():
        assert len({m[:3] for m in members}) == 1 and sorted(m[3] for m in members) == list(range(len(members)))
        unit, group_slots, count = next(iter(members))[:3]
        assert count == len(members) >= 2
        slots += range(group_slots, group_slots + count)
        counters.append(tile_counter)
    assert sorted(slots) == list(range(plan.slots)) and sorted(counters) == list(range(plan.counters))
    # the busiest CTA: no more than a whole tile's blocks, and with a split far fewer (what the split is for)
    most = max(sum((blocks if e["kv_hi"] < 0 else e["kv_hi"]) - e["kv_lo"] for e in entries)
               for entries in _entries(plan))
    assert most <= -(-tiles // plan.ctas) * blocks
    assert (plan.counters > 0) == (tiles < 132)  # these few-tile shapes all have keys enough to split
    if plan.counters:
        assert most <= blocks // 2


def test_a_growing_cache_replans_once_a_block():
    """Decoding appends a key a step: without a mask the plan (and the host's table of it) is the same object until
    the keys fill another block; causal plans depend on the key count itself."""
    plan = lambda sk, causal=False: walks.plan_walk(1, 8, 1, sk, 16, 128, 132, causal, 0.35)  # noqa: E731
    assert plan(65409) is plan(65536) and plan(65537) is not plan(65536)
    assert plan(300, True) is not plan(301, True)


def test_an_entry_lists_its_fields_in_the_kernels_order():
    assert walks._entry(**{name: i for i, name in enumerate(WALK_ENTRY)}) == tuple(range(len(WALK_ENTRY)))


@pytest.mark.parametrize("parts", range(1, 200))
def test_groups_of_parts_shorten_the_chain(parts):
    """Consecutive groups covering every part once; from TWO_LEVELS_FROM parts on, about sqrt(parts) of them, the
    chain of reads ~2 sqrt(parts)."""
    groups = walks.groups_of(parts)
    assert [p for g in groups for p in g] == list(range(parts))
    assert max(map(len, groups)) - min(map(len, groups)) <= 1
    if parts < walks.TWO_LEVELS_FROM:
        assert len(groups) == 1 and walks.chain(parts) == parts
    else:
        assert len(groups) == math.isqrt(parts) and walks.chain(parts) <= 2 * math.isqrt(parts) + 2 < parts


def test_more_parts_where_adding_up_is_cheap():
    """One tile of long keys: cut over every SM where a part costs little to add up, fewer parts where it costs
    more (a whole block each: the chain grows ~2 sqrt(parts))."""
    cheap = walks.plan_walk(1, 1, 1, 65536, 16, 128, 132, False, 0.25)
    dear = walks.plan_walk(1, 1, 1, 65536, 16, 128, 132, False, 4.0)
    assert cheap.slots > dear.slots > 2


def test_many_tiles_or_short_ones_are_not_split():
    assert walks.plan_walk(4, 33, 4096, 4096, 128, 128, 132, False).counters == 0  # 4224 tiles: 32 whole waves
    assert walks.plan_walk(4, 16, 4096, 4096, 128, 144, 132, False).counters == 0  # a partial last wave: whole
    assert walks.plan_walk(1, 3, 1, 256, 128, 128, 132, False).counters == 0  # 2 blocks a tile
    causal = walks.plan_walk(1, 3, 1, 32768, 128, 128, 132, True)
    assert causal.counters == 0 and causal.ctas == 3


def test_whole_tiles_without_a_mask_walk_head_by_head():
    """The CTAs running at once take few heads' tiles (a head's query blocks one after another), every tile once."""
    batch, heads, seqlen, ctas = 4, 16, 4096, 132
    plan = walks.plan_walk(batch, heads, seqlen, seqlen, 128, 128, ctas, False)
    starts, entries = plan.table[:ctas + 1], plan.table[ctas + 1:].reshape(-1, walks.ENTRY_WORDS)
    units = entries[:, 0]
    assert sorted(units) == list(range(batch * heads * 32)) and plan.counters == 0
    first_wave = units[starts[:ctas]]  # each CTA's first tile
    head_of = lambda unit: unit % heads + unit // (heads * 32) * heads  # noqa: E731 - (batch, head) as one number
    assert len({head_of(u) for u in first_wave}) == 5  # 132 tiles of 32-block heads
