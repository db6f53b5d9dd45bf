"""Fragment coordinates, masks from them and row reductions (mmatom/fragments.py through TiledMma), checked on the
CPU: the emitted IR runs every thread at once in numpy (simt_eval) against the tile placed by CuTe's partition, and
the example kernels assemble (ptxas)."""

import os
import sys

import numpy as np
import pytest
from xdsl.dialects import arith

import mmatom
from mmatom.dialects.mma import FillOp
from mmatom.dialects.nvvm_warp import ShflOp

from simt_eval import run

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))

WGMMA = mmatom.atom("sm_90a", "wgmma", m=64, n=64, k=16, a="bf16", b="bf16", d="f32")
SYNC = mmatom.atom("sm_80", "mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32")
TILES = {  # name -> (TiledMma, its kernel's target)
    "wgmma 1 warpgroup": (mmatom.TiledMma(WGMMA), "sm_90a"),
    "wgmma 2 warpgroups, M repeats": (mmatom.TiledMma(WGMMA, (2, 1, 1), (256, 64, 16)), "sm_90a"),
    "mma.sync 2 warps, repeats": (mmatom.TiledMma(SYNC, (2, 1, 1), (64, 32, 16)), "sm_80"),
}


def kernel(tiled, target, role="C"):
    kb = mmatom.KernelBuilder("k", [], target, threads=tiled.threads)
    return kb, kb.fill(0.0, tiled.fragment_type(role))


def tile_values(tiled, role, rng):
    """A random tile and each thread's fragment of it, placed by CuTe's partition."""
    rows, cols = {"A": (0, 2), "C": (0, 1)}[role]
    tile = rng.standard_normal((tiled.tile_mnk[rows], tiled.tile_mnk[cols])).astype(np.float32)
    part = getattr(tiled, f"partition_{role}")
    return tile, np.array([[tile[r, c] for r, c in part(t)] for t in range(tiled.threads)], dtype=np.float32)


@pytest.mark.parametrize("name", TILES)
def test_coordinates_are_the_partition_of_every_thread(name):
    tiled, target = TILES[name]
    kb, _ = kernel(tiled, target)
    coords = tiled.fragment_coords(kb, "C")
    pairs = [coords[v] for v in range(len(coords))]
    env = run(kb.block, tiled.threads, {})
    got = np.stack([np.stack([env[r.ssa], env[c.ssa]], -1) for r, c in pairs], 1)
    expected = np.array([tiled.partition_C(t) for t in range(tiled.threads)])
    assert np.array_equal(got, expected)


def test_the_thread_part_is_emitted_once_and_each_coordinate_is_an_add():
    tiled, _ = TILES["wgmma 1 warpgroup"]
    kb, _ = kernel(tiled, "sm_90a")
    before = len(list(kb.block.ops))
    coords = tiled.fragment_coords(kb, "C")
    base = [op for op in list(kb.block.ops)[before:] if not isinstance(op, arith.ConstantOp)]
    # row = (tid >> 2 & 7) + (tid >> 5) * 16, col = (tid & 3) * 2: tid.x and 8 integer ops
    assert len(base) <= 9, [op.name for op in base]
    middle = len(list(kb.block.ops))
    for v in range(len(coords)):
        coords[v]
    adds = [op.name for op in list(kb.block.ops)[middle:] if not isinstance(op, arith.ConstantOp)]
    assert set(adds) == {"arith.addi"} and len(adds) < 2 * len(coords)  # value 0's offset (0, 0) costs nothing


def test_a_register_atoms_a_fragment_has_coordinates_too():
    tiled, _ = TILES["mma.sync 2 warps, repeats"]
    kb, _ = kernel(tiled, "sm_80", "A")
    pairs = list(tiled.fragment_coords(kb, "A"))  # each coordinate is emitted where it is read: read them first
    env = run(kb.block, tiled.threads, {})
    got = np.array([[(env[r.ssa][t], env[c.ssa][t]) for r, c in pairs] for t in range(tiled.threads)])
    assert np.array_equal(got, np.array([tiled.partition_A(t) for t in range(tiled.threads)]))


@pytest.mark.parametrize("name", TILES)
@pytest.mark.parametrize("op, reference", [("max", np.max), ("sum", np.sum), ("min", np.min)])
def test_reduce_rows_gives_every_holder_its_whole_row(name, op, reference):
    tiled, target = TILES[name]
    kb, frag = kernel(tiled, target)
    tile, values = tile_values(tiled, "C", np.random.default_rng(1))
    results = tiled.reduce_rows(kb, frag, op)
    row_values = tiled.fragment_coords(kb, "C").rows
    env = run(kb.block, tiled.threads, {frag.ssa: values})
    rows = [env[r.ssa] for r in row_values]
    assert len(results) == len(rows) == len(set(tiled.value_rows("C")))
    for result, row in zip(results, rows):
        np.testing.assert_allclose(env[result.ssa], reference(tile, axis=1)[row], rtol=1e-5, atol=1e-5)
    shuffles = [op.kind.data.value for op in kb.block.ops if isinstance(op, ShflOp)]
    assert shuffles == ["bfly"] * 2 * len(results)  # two lanes' bits per row (the quad), no more


def test_a_causal_mask_and_a_softmax_from_coordinates():
    tiled, _ = TILES["wgmma 2 warpgroups, M repeats"]
    kb, frag = kernel(tiled, "sm_90a")
    tile, values = tile_values(tiled, "C", np.random.default_rng(2))
    masked = tiled.map_with_coords(kb, frag, lambda x, row, col: mmatom.select(col <= row, x, float("-inf")))
    rows = tiled.value_rows("C")
    m = tiled.reduce_rows(kb, masked, "max")
    e = kb.map(masked, lambda x, v: kb.ex2(x - m[rows[v]]))
    total = tiled.reduce_rows(kb, e, "sum")
    p = kb.map(e, lambda x, v: x * kb.rcp(total[rows[v]]))
    env = run(kb.block, tiled.threads, {frag.ssa: values})
    causal = np.where(np.tril(np.ones_like(tile, dtype=bool)), tile, -np.inf)
    expected = np.exp2(causal - causal.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    got = np.zeros_like(tile)
    for t in range(tiled.threads):
        for v, (r, c) in enumerate(tiled.partition_C(t)):
            got[r, c] = env[p.ssa][t, v]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)


def test_a_row_held_by_two_warps_is_an_error_at_the_dsl_line():
    tiled = mmatom.TiledMma(SYNC, (1, 2, 1))  # warps 0 and 1 split each row's columns
    kb, frag = kernel(tiled, "sm_80")
    with pytest.raises(mmatom.CompileError, match=r"reduce_rows: threads 0 and 32 of C of mma\.sync\.aligned\.m16n8k16"
                                                  r".* hold the same row in different warps") as info:
        tiled.reduce_rows(kb, frag, "max")
    assert info.value.diagnostics[0].file == __file__


def test_an_unknown_reduction_is_an_error():
    tiled, _ = TILES["wgmma 1 warpgroup"]
    kb, frag = kernel(tiled, "sm_90a")
    with pytest.raises(mmatom.CompileError, match=r"reduce_rows: op 'mean' is not one of max, min, sum"):
        tiled.reduce_rows(kb, frag, "mean")


def test_a_fragment_of_another_tile_is_an_error():
    tiled, _ = TILES["wgmma 1 warpgroup"]
    other, _ = TILES["wgmma 2 warpgroups, M repeats"]
    kb, frag = kernel(other, "sm_90a")
    with pytest.raises(mmatom.CompileError, match=r"TiledMma.reduce_rows: the fragment has type !mma.frag<C, f32, "
                                                  r"\"\(\(4,8,8\).*this tile's fragments are !mma.frag<C, f32"):
        tiled.reduce_rows(kb, frag, "max")
    with pytest.raises(mmatom.CompileError, match=r"TiledMma.map_with_coords: the fragment has type i32"):
        tiled.map_with_coords(kb, kb.const(1), lambda x, row, col: x)


def test_a_thread_part_that_is_not_affine_is_an_error():
    from mmatom.fragments import placement
    with pytest.raises(mmatom.CompileError, match=r"swizzled \(rows\): thread 2's place is no affine map of the "
                                                  r"thread index over \(4,\)"):
        placement("swizzled", (4,), lambda t: [(t ^ (t >> 1), 0)])
    with pytest.raises(mmatom.CompileError, match=r"apart: thread 1's value 1 at \(3, 0\) is not its value 0 plus "
                                                  r"the offset \(1, 0\) thread 0 has"):
        placement("apart", (2,), lambda t: [(t, 0), (1 + 2 * t, 0)])


def test_rows_shared_by_lanes_that_hold_different_rows_are_an_error():
    from mmatom.fragments import placement
    # thread t holds rows t and t + 1: rows overlap between threads that hold different sets
    with pytest.raises(mmatom.CompileError, match=r"row 1 of overlap is held by threads 0 and 1, which hold "
                                                  r"different sets of rows"):
        placement("overlap", (4,), lambda t: [(t, 0), (t + 1, 0)]).row_lane_masks()


@pytest.mark.ptxas
@pytest.mark.parametrize("n, warpgroups, causal", [(64, 1, True), (128, 2, False)])
def test_the_row_softmax_example_assembles(n, warpgroups, causal):
    from fragment_rows import row_softmax
    module, launch = row_softmax(n, warpgroups, causal)
    kernel = mmatom.compile(module, options={"cache": False})
    ptx = kernel.ptx
    assert ptx.count("shfl.sync.bfly.b32") == 2 * 2 * 2  # max and sum of each thread's 2 rows, over lane bits 0, 1
    assert "ex2.approx.ftz.f32" in ptx and "rcp.approx.ftz.f32" in ptx
    assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == ()
    assert launch.block == (128 * warpgroups, 1, 1)


def test_fill_is_seeded_only_where_a_test_reads_it():
    # the evaluator refuses an unseeded fragment rather than inventing its values
    tiled, _ = TILES["wgmma 1 warpgroup"]
    kb, frag = kernel(tiled, "sm_90a")
    kb.extract(frag, 0)
    assert isinstance(frag.ssa.owner, FillOp)
    with pytest.raises(AssertionError, match="seed every mma.fill"):
        run(kb.block, tiled.threads, {})


def test_a_map_lowers_in_place_and_a_shared_fragment_is_not_changed():
    """kb.map's chain of inserts (each link used by the next insert alone) lowers to one cast of the fragment's
    registers, updated in place -- not a new cast of all of them per value; a fragment something else still reads
    keeps its registers (the insert builds a new cast), and extracts of either read the right value."""
    from xdsl.dialects.builtin import UnrealizedConversionCastOp

    from mmatom.compiler import make_context
    from mmatom.lowering.convert_mma_to_nvvm import ConvertMmaToNvvm

    kb = mmatom.KernelBuilder("k", [("p", "ptr")], "sm_90a", threads=128)
    s = kb.fill(1.0, WGMMA.fragment_type("C"))
    doubled = kb.map(s, lambda x: x + x)                   # 32 values: a chain of 32 inserts
    kept = kb.insert(kb.extract(doubled, 3) * 3.0, doubled, 0)  # doubled is read after this insert too
    kb.store_scalar(kb.extract(kept, 0) + kb.extract(doubled, 0), kb.param("p"), kb.tid())
    module, _ = kb.finish()
    ConvertMmaToNvvm().apply(make_context(), module)
    casts = [op for op in module.walk() if isinstance(op, UnrealizedConversionCastOp) and len(op.inputs) == 32]
    assert len(casts) == 3  # the fill, the map's chain, the shared fragment's copy
    stored = next(op for op in module.walk() if op.name == "llvm.store")
    total = stored.operands[0].owner  # extract(kept, 0) + extract(doubled, 0): 6 + 2
    values = [operand.owner for operand in total.operands]
    assert [type(v) for v in values] == [arith.MulfOp, arith.AddfOp]  # kept[0] = 3 * doubled[3]; doubled[0] = x + x
