"""TiledMma's CuTe semantics: thread i of the tile holds exactly the values CuTe's partition gives, the threads
together cover the step tile (C once, A once per N atom, B once per M atom), and a built tile compiles."""

from collections import Counter

import pytest

import mmatom
from mmatom.kernel_builder import KernelBuilder
from mmatom.tiled_mma import TiledMma

ATOM = mmatom.atom("sm_80", "mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32")


def test_one_atom_is_the_atom_itself():
    tiled = TiledMma(ATOM)
    assert tiled.threads == 32 and tiled.tile_mnk == (16, 8, 16)
    # the PTX fragment table: lane 0 holds c0, c1 at row 0, cols 0-1 and c2, c3 at row 8
    assert tiled.partition_C(0) == [(0, 0), (0, 1), (8, 0), (8, 1)]
    assert tiled.partition_C(5) == [(1, 2), (1, 3), (9, 2), (9, 3)]


@pytest.mark.parametrize("layout, permutation", [((2, 2, 1), None), ((2, 2, 1), (64, 64, 16)), ((1, 4, 1), (32, 64, 32))])
def test_threads_cover_the_tile(layout, permutation):
    tiled = TiledMma(ATOM, layout, permutation)
    M, N, K = tiled.tile_mnk
    c = Counter(x for t in range(tiled.threads) for x in tiled.partition_C(t))
    assert set(c) == {(m, n) for m in range(M) for n in range(N)} and set(c.values()) == {1}
    a = Counter(x for t in range(tiled.threads) for x in tiled.partition_A(t))
    assert set(a) == {(m, k) for m in range(M) for k in range(K)} and set(a.values()) == {layout[1]}
    b = Counter(x for t in range(tiled.threads) for x in tiled.partition_B(t))
    assert set(b) == {(n, k) for n in range(N) for k in range(K)} and set(b.values()) == {layout[0]}


def test_origin_layout_places_each_warp():
    tiled = TiledMma(ATOM, (2, 2, 1), (64, 64, 16))
    assert [tiled.origin_layout("C", 64)(w) for w in range(4)] == [0, 16 * 64, 8, 16 * 64 + 8]
    assert [tiled.origin_layout("A", 256)(w) for w in range(4)] == [0, 16 * 256, 0, 16 * 256]
    assert [tiled.origin_layout("B", 256)(w) for w in range(4)] == [0, 0, 8 * 256, 8 * 256]
    assert tiled.repeats == (2, 4, 1) and tiled.repeat_offset("A", 256, 1) == 32 * 256
    assert tiled.repeat_offset("C", 64, 1, 3) == 32 * 64 + 3 * 16 and tiled.repeat_offset("B", 256, 2) == 32 * 256


def test_a_permutation_that_does_not_tile_is_an_error_at_the_dsl_line():
    with pytest.raises(mmatom.CompileError, match=r"permutation \(40, 64, 16\) must be \(M, N, K\) sizes that are "
                                                  r"multiples of the atoms' tile \(32, 16, 16\)") as info:
        TiledMma(ATOM, (2, 2, 1), (40, 64, 16))
    assert info.value.diagnostics[0].file == __file__


def test_a_tile_of_atoms_builds_and_compiles():
    tiled = TiledMma(ATOM, (2, 2, 1), (64, 64, 16))
    kb = KernelBuilder("tile", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], "sm_80", threads=tiled.threads)
    warp = kb.warp_id()
    a0 = kb.layout(tiled.origin_layout("A", 16), warp)
    b0 = kb.layout(tiled.origin_layout("B", 16), warp)
    rm, rn, _ = tiled.repeats
    a = [kb.load_fragment(kb.param("a"), "(16,16):(16,1)", ATOM.fragment_type("A"),
                          a0 + tiled.repeat_offset("A", 16, i)) for i in range(rm)]
    b = [kb.load_fragment(kb.param("b"), "(8,16):(16,1)", ATOM.fragment_type("B"), b0) for _ in range(rn)]
    c = [[kb.fill(0.0, ATOM.fragment_type("C")) for _ in range(rn)] for _ in range(rm)]
    d = tiled.mma(kb, a, b, c)
    for i in range(rm):
        for j in range(rn):
            kb.store_fragment(d[i][j], kb.param("d"), "(16,8):(64,1)", kb.const(i * 32 * 64 + j * 16))
    module, launch = kb.finish()
    assert launch.block == (128, 1, 1)
    kernel = mmatom.compile(module)
    assert kernel.ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 8
    assert ".reqntid 128, 1, 1" in kernel.ptx


@pytest.mark.parametrize("permutation", [(32, 32, 16), (64, 64, 32), (32, 16, 64)])
def test_a_groups_tile_fragment_holds_its_partition(permutation):
    """The mma.sync_tile fragment of warp 0 places value v where partition_X(thread) says, for every thread and
    role (the tile layout is the atom's TV layout placed in the tile, atom values first, then the repeats)."""
    tiled = TiledMma(ATOM, (1, 1, 1), permutation)
    M, N, K = tiled.tile_mnk
    for role, rows, part in (("A", M, tiled.partition_A), ("B", N, tiled.partition_B), ("C", M, tiled.partition_C)):
        layout = tiled.fragment_type(role).layout.data
        for thread in range(32):
            coords = part(thread)
            assert [(layout((thread, v)) % rows, layout((thread, v)) // rows) for v in range(len(coords))] == coords


def test_one_sync_tile_op_per_warp_lowers_to_its_atoms():
    tiled = TiledMma(ATOM, (2, 2, 1), (64, 64, 32))
    kb = KernelBuilder("tile", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], "sm_80", threads=tiled.threads)
    a = kb.load_fragment(kb.param("a"), "((16,2),32):((32,1024),1)", tiled.fragment_type("A"))
    b = kb.load_fragment(kb.param("b"), "((8,4),32):((32,512),1)", tiled.fragment_type("B"))
    d = tiled.mma_tile(kb, a, b, kb.fill(0.0, tiled.fragment_type("C")))
    kb.store_fragment(kb.convert(d, "bf16"), kb.param("d"), "((16,2),(8,4)):((64,2048),(1,16))")
    module, _ = kb.finish()
    assert [op.name for op in module.walk()].count("mma.sync_tile") == 1
    kernel = mmatom.compile(module)
    # a 32x32x32 warp tile of m16n8k16: 2 x 4 atoms x 2 K steps
    assert kernel.ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 16
    assert kernel.metadata.spill_bytes == 0
