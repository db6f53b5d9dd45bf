"""The stream-K walk (mmatom.scheduler.StreamKWalk) as the host models it (Python ints: the kernel's arithmetic):
whole waves of tiles walked tile by tile, the last partial wave's K steps in equal runs, one per CTA -- every
(tile, K step) computed exactly once, a tile whole where one CTA has all its steps, its segments' CTAs consecutive,
and no two partial segments in one workspace slot."""

import random
from types import SimpleNamespace

import pytest

import mmatom
from mmatom.scheduler import StreamKWalk


def _walks(tiles: int, k_steps: int, ctas: int) -> list[StreamKWalk]:
    sched = SimpleNamespace(units=tiles, cluster_size=1, layers=1)
    return [StreamKWalk(None, sched, k_steps, grid=(ctas, c)) for c in range(ctas)]


CASES = [(108, 88, 132), (144, 56, 132), (2048, 128, 132), (132, 64, 132), (64, 64, 132), (20, 290, 132),
         (1, 1, 132), (5, 3, 132), (300, 1, 132), (7, 1000, 16)] + \
    [(random.Random(s).randint(1, 700), random.Random(s + 1).randint(1, 300), random.Random(s + 2).randint(1, 140))
     for s in range(40)]


@pytest.mark.parametrize("tiles, k_steps, ctas", CASES)
def test_every_tile_step_once_and_the_fixup_slots_apart(tiles, k_steps, ctas):
    if tiles * k_steps < ctas:  # the host launches no more CTAs than steps (host.persistent_ctas)
        ctas = tiles * k_steps
    walks = _walks(tiles, k_steps, ctas)
    seen, segments, slots = {}, {}, {}
    for c, walk in enumerate(walks):
        for unit in range(walk.waves + walk.last_wave_tiles):
            tile = walk.tile(unit)
            first, steps = walk.segment(tile)
            assert 0 <= tile < tiles and steps >= 1 and 0 <= first and first + steps <= k_steps, (c, unit)
            for k in range(first, first + steps):
                assert (tile, k) not in seen, (tile, k, c, seen.get((tile, k)))
                seen[tile, k] = c
            assert walk.whole(tile) == (steps == k_steps)
            if steps < k_steps:
                segments.setdefault(tile, []).append(c)
                slot = walk.slot(c, tile)
                assert 0 <= slot < 2 * ctas and slot not in slots, (c, tile, slot, slots.get(slot))
                slots[slot] = (c, tile)
    assert len(seen) == tiles * k_steps
    for tile, ctas_of in segments.items():
        first, count = walks[ctas_of[0]].segments(tile)
        assert ctas_of == list(range(first, first + count)), (tile, ctas_of, first, count)
        assert all(walks[c].slot(c, tile) == walks[0].slot(c, tile) for c in ctas_of)  # any CTA names the slot


def test_whole_waves_walk_as_the_tile_scheduler_does():
    """With whole waves (tiles a multiple of the grid) nothing is split: CTA c takes tiles c, c + ctas, ..."""
    walks = _walks(396, 40, 132)
    for c, walk in enumerate(walks):
        units = walk.waves + walk.last_wave_tiles
        assert [walk.tile(u) for u in range(units)] == [c, c + 132, c + 264]
        assert all(walk.whole(walk.tile(u)) for u in range(units))


@pytest.mark.parametrize("cluster_size, layers", [(2, 1), (1, 3)])
def test_a_walk_over_clusters_or_layers_is_refused(cluster_size, layers):
    sched = SimpleNamespace(units=100, cluster_size=cluster_size, layers=layers)
    with pytest.raises(mmatom.CompileError, match=r"stream_k: a walk over one layer of single-CTA tiles \(no "
                                                  r"cluster, no layers\)"):
        StreamKWalk(None, sched, 10, grid=(132, 0))
