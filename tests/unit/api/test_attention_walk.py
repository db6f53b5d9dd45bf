"""The causal tile walk (mmatom/kernels/attention/walk.py): which of the four walks the host passes the kernel, from
every CTA's simulated load -- the even spread the plain walk misses on short causal sequences."""

from __future__ import annotations

import numpy as np
import pytest

from mmatom.kernels.attention import walk as walks


def _efficiency(batch, heads, seqlen, chosen):
    q_blocks = -(-seqlen // 128)
    cost = walks._tile_costs(q_blocks, seqlen, seqlen, 128, 128)
    mean = cost.sum() * batch * heads / 132
    return mean / walks._busiest(cost, q_blocks, heads, batch, 132, *chosen)


def test_the_loads_count_every_tile_once():
    cost = walks._tile_costs(8, 1024, 1024, 128, 128)
    assert list(cost) == [9, 8, 7, 6, 5, 4, 3, 2]  # longest first, one block of overhead each
    for group, snake in ((1, 0), (8, 0), (1, 1), (8, 1)):  # one CTA takes them all, whatever the walk
        assert walks._busiest(cost, 8, 16, 8, 1, group, snake) == cost.sum() * 16 * 8


@pytest.mark.parametrize("batch, heads, seqlen, floor", [(8, 16, 1024, 0.9), (16, 16, 512, 0.85), (1, 16, 16384, 0.98)])
def test_short_causal_sequences_get_a_walk_that_spreads_them(batch, heads, seqlen, floor):
    chosen = walks.walk(batch, heads, seqlen, seqlen, 128, 128, 132, True)
    assert _efficiency(batch, heads, seqlen, chosen) >= floor > _efficiency(batch, heads, seqlen, (1, 0))


def test_without_a_mask_or_with_one_query_block_the_walk_is_plain():
    assert walks.walk(4, 16, 4096, 4096, 128, 144, 132, False) == (1, 0)
    assert walks.walk(4, 16, 100, 4096, 128, 128, 132, True) == (1, 0)


def test_a_query_longer_than_the_keys_reads_one_block_where_it_sees_none():
    cost = walks._tile_costs(4, 512, 128, 128, 128)  # bottom-right: the first 384 queries see no key
    assert np.array_equal(cost, [2, 2, 2, 2])


@pytest.mark.parametrize("q_blocks, heads, batch, ctas", [(8, 16, 2, 132), (5, 3, 4, 7), (4, 16, 16, 132)])
@pytest.mark.parametrize("group_of_rows", [False, True])
@pytest.mark.parametrize("snake", [0, 1])
def test_the_simulated_walk_is_the_schedulers(q_blocks, heads, batch, ctas, group_of_rows, snake):
    """walked_rows against mmatom.scheduler itself: snake_unit on Python ints, then TileScheduler.coords folded."""
    import mmatom
    from mmatom.scheduler import snake_unit

    group = q_blocks if group_of_rows else 1
    kb = mmatom.KernelBuilder("walk", [], "sm_90a", threads=128)
    sched = kb.tile_scheduler(q_blocks, heads, group_m=group, layers=batch)
    units = q_blocks * heads * batch
    rows = [sched.coords(kb.const(snake_unit(t, ctas, units) if snake else t))[0].constant for t in range(units)]
    assert list(walks.walked_rows(q_blocks, heads, batch, ctas, group, snake)) == rows
