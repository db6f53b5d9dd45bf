"""Staged SMEM tiles, the ring, and the tile scheduler: addresses by index (no byte offsets by hand), a slice of a
tile where the layout puts it, and a raster walk that visits every output tile once."""

from __future__ import annotations

import pytest

import mmatom


def wgmma_tiles(rows: int, cols: int = 128):
    atom = mmatom.atom("sm_90a", "wgmma", m=64, n=cols, k=16, a="bf16", b="bf16", d="f32")
    return mmatom.TiledMma(atom, atom_layout_mnk=(rows // 64, 1, 1), permutation=(rows, cols, 64))


def byte_offset(tile) -> int:
    """The constant byte offset of an SmemTile's address from the dynamic SMEM base (a chain of constant GEPs)."""
    total, op = 0, tile.ptr.ssa.owner
    while op.name == "llvm.getelementptr":
        total += op.rawConstantIndices.get_values()[0]
        op = op.ptr.owner
    return total


@pytest.fixture
def kb():
    return mmatom.KernelBuilder("smem", [], "sm_90a", threads=256)


def test_tiles_are_indexed_not_offset_by_hand(kb):
    boxes = kb.smem_tiles((2, 2), 8192)
    assert [byte_offset(boxes[i, j]) for i in range(2) for j in range(2)] == [0, 8192, 16384, 24576]
    assert byte_offset(boxes[1][1]) == 24576 and boxes[1].shape == (2,)
    a = kb.smem_tiles(3, wgmma_tiles(128).smem_desc_type("A"))
    assert a.tile_bytes == 128 * 64 * 2 and byte_offset(a[2]) == 32768 + 2 * 16384
    dynamic = a[kb.tid() % 3]
    assert dynamic.ptr.ssa.owner.name == "llvm.getelementptr" and dynamic.desc().type.name == "mma.smem_desc"
    with pytest.raises(mmatom.CompileError, match=r"index 3 outside \[0, 3\)"):
        a[3]
    with pytest.raises(mmatom.CompileError, match=r"2 indices for a buffer of shape \(3,\)"):
        a[0, 0]


def test_a_row_block_starts_where_the_layout_puts_its_rows(kb):
    tile = kb.smem_tiles(1, wgmma_tiles(128).smem_desc_type("A"))[0]
    half = wgmma_tiles(64).smem_desc_type("A")
    assert byte_offset(tile.row_block(1, 64, half)) == 64 * 128  # 64 rows of 128 bytes (one swizzle row each)
    with pytest.raises(mmatom.CompileError, match=r"blocks of 48 rows of a 128-row tile"):
        tile.row_block(1, 48, half)


def test_a_ring_stage_names_its_tiles_and_barriers(kb):
    tiled = wgmma_tiles(128)
    ring = kb.smem_ring(4, consumers=256, a=tiled.smem_desc_type("A"), b=tiled.smem_desc_type("B"))
    assert ring.stage_bytes == 2 * 128 * 64 * 2
    stage = ring.consumer_wait(kb.tid())
    assert stage.a.desc_type == tiled.smem_desc_type("A") and stage.full.type == stage.empty.type
    with pytest.raises(AttributeError, match=r"the ring holds tiles a, b; no 'c'"):
        stage.c
    with pytest.raises(mmatom.CompileError, match=r"tile a=64 is not an !mma.smem_desc type"):
        kb.smem_ring(2, consumers=128, a=64)


@pytest.mark.parametrize("tiles_m, tiles_n, group_m", [(7, 5, 2), (16, 3, 16), (1, 9, 4), (10, 10, 3)])
def test_the_raster_visits_every_tile_once(kb, tiles_m, tiles_n, group_m):
    sched = kb.tile_scheduler(tiles_m, tiles_n, group_m=group_m)
    seen = [tuple(v.constant for v in sched.coords(kb.const(unit))) for unit in range(sched.units)]
    assert sorted(seen) == [(m, n) for m in range(tiles_m) for n in range(tiles_n)]
    # grouped raster: down a group's rows first, then across
    assert seen[: min(group_m, tiles_m)] == [(m, 0) for m in range(min(group_m, tiles_m))]


@pytest.mark.parametrize("tiles_m, tiles_n, group_m, layers", [(3, 5, 2, 4), (1, 1, 1, 3), (4, 2, 8, 2)])
def test_layers_walk_each_grid_whole_one_after_another(kb, tiles_m, tiles_n, group_m, layers):
    sched = kb.tile_scheduler(tiles_m, tiles_n, group_m=group_m, layers=layers)
    seen = [(sched.layer(kb.const(u)).constant, *(v.constant for v in sched.coords(kb.const(u))))
            for u in range(sched.units)]
    assert sorted(seen) == [(l, m, n) for l in range(layers) for m in range(tiles_m) for n in range(tiles_n)]
    assert [layer for layer, _, _ in seen] == sorted(layer for layer, _, _ in seen)  # a layer's units are consecutive
    one_layer = kb.tile_scheduler(tiles_m, tiles_n, group_m=group_m)
    assert seen[: tiles_m * tiles_n] == [(0, *(v.constant for v in one_layer.coords(kb.const(u))))
                                         for u in range(tiles_m * tiles_n)]
    with pytest.raises(mmatom.CompileError, match=r"layers=0; each must be positive"):
        kb.tile_scheduler(2, 2, layers=0)


def test_a_cluster_scheduler_needs_a_cluster_kernel(kb):
    with pytest.raises(mmatom.CompileError, match=r"a 2x1 cluster in a kernel launched in clusters of None"):
        kb.tile_scheduler(4, 4, cluster=(2, 1))
    clustered = mmatom.KernelBuilder("c", [], "sm_90a", threads=128, cluster=(2, 1, 1))
    sched = clustered.tile_scheduler(5, 4, cluster=(2, 1))
    assert sched.units == 12 and sched.rank.ssa.owner.name.startswith("nvvm.read.ptx.sreg")
    runtime = clustered.tile_scheduler(mmatom.ceil_div(clustered.tid(), 128), 4, cluster=(2, 1))
    assert runtime.units.ssa.owner.name == "arith.muli"  # sizes as kernel arguments: the walk's end is a Value


def test_smem_allocated_in_a_branch_is_declared_at_the_top():
    """An SMEM region's address dominates every use wherever it was allocated (a ring's barriers come lazily)."""
    kb = mmatom.KernelBuilder("decl", [("p", "ptr")], "sm_90a", threads=128)
    with kb.if_(kb.tid() == 0):
        inner = kb.smem(64, align=8)
        kb.mbarrier.init(inner, 1)
    kb.mbarrier.arrive(inner)  # used outside the branch: the module verifies
    module, launch = kb.finish()
    assert launch.shared_bytes == 64
    assert inner.ssa.owner.parent_block() is kb.block


@pytest.mark.parametrize("units, ctas", [(1024, 132), (2048, 132), (140, 132), (131, 132), (1, 5), (17, 4)])
def test_a_snake_walk_takes_every_unit_once_odd_whole_waves_backwards(units, ctas):
    from mmatom.scheduler import snake_unit
    taken = {(c, w): snake_unit(c + w * ctas, ctas, units) for c in range(ctas) for w in range(units // ctas + 1)
             if c + w * ctas < units}
    assert sorted(taken.values()) == list(range(units))
    if units >= 2 * ctas:
        assert [taken[c, 1] for c in range(ctas)] == list(range(2 * ctas - 1, ctas - 1, -1))  # wave 1 backwards
    last = (units - 1) // ctas
    assert all(taken[c, last] == c + last * ctas for c in range(units - last * ctas))  # a partial wave forwards


def test_the_walk_may_be_a_kernel_argument(kb):
    """group_m and snake as runtime values (an i32, an i1): the coords are computed, not folded; a snake walk takes
    one unit at a time."""
    k = mmatom.KernelBuilder("walk", [("group", "i32"), ("snake", "i32")], "sm_90a", threads=128)
    sched = k.tile_scheduler(8, 16, group_m=k.param("group"), snake=k.param("snake") != 0)
    row, col = sched.coords(k.const(5))
    assert row.constant is None and col.constant is None
    assert "arith.select" in {op.name for op in k.block.ops}
    with pytest.raises(mmatom.CompileError, match=r"snake=True walks whole waves"):
        sched.loop([], every=2)
