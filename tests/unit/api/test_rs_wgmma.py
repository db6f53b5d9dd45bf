"""RS wgmma tiles (A in registers) on the public API: TiledMma.fragment_type("A") against the ISA's register-A
fragment, the accumulator -> A conversion (kb.convert, the same TV map, checked in numpy by simt_eval), mma_regs and
its errors, and examples/rs_wgmma.py (S = Q K^T SS, convert, O = P V RS) assembling clean with ptxas."""

import os
import sys

import numpy as np
import pytest

import mmatom

from simt_eval import run

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))


def ss_atom(n):
    return mmatom.atom("sm_90a", "wgmma", m=64, n=n, k=16, a="bf16", b="bf16", d="f32")


def rs_atom(n, a="bf16", k=16):
    return mmatom.atom("sm_90a", "wgmma", m=64, n=n, k=k, a=a, b=a, d="f32", a_residency="register")


def isa_a(thread, value, warpgroups, m, k, atom_k=16, pack=2):
    """(row, col) of an RS A value in the M x K tile, from ptx-fragments.md section 3 (16-bit: row = 16w + g +
    8((i>>1)&1), col = 2t + (i&1) + 8(i>>2)) with the K steps, then the M repeats, after the atom's values."""
    per_atom, steps = 64 * atom_k // 128, k // atom_k
    i, j, rep = value % per_atom, (value // per_atom) % steps, value // (per_atom * steps)
    lane, warp = thread % 32, thread // 32
    g, t = lane // 4, lane % 4
    if pack == 2:
        row, col = g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
    else:  # 8-bit: row = 16w + g + 8((i>>2)&1), col = 4t + (i&3) + 16(i>>3)
        row, col = g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)
    return 64 * warpgroups * rep + 16 * warp + row, atom_k * j + col


def at(place, thread, value):
    """(row, col) in the step tile of a thread's value, as the placement (fragment_type's TV layout) says."""
    return (place.origin[0] + place.rows(thread) + place.offsets[value][0],
            place.origin[1] + place.cols(thread) + place.offsets[value][1])


@pytest.mark.parametrize("warpgroups, m, n, k, a, atom_k", [(1, 64, 64, 64, "bf16", 16), (2, 128, 64, 128, "f16", 16),
                                                           (1, 128, 32, 32, "bf16", 16), (2, 256, 16, 16, "bf16", 16),
                                                           (1, 64, 64, 64, "e4m3", 32)])
def test_the_register_a_fragment_is_the_isas(warpgroups, m, n, k, a, atom_k):
    tiled = mmatom.TiledMma(rs_atom(n, a, atom_k), (warpgroups, 1, 1), permutation=(m, n, k))
    ftype = tiled.fragment_type("A")
    assert ftype.role.data == "A" and ftype.elem.data == a
    values = ftype.layout.data[1].size()
    assert values == m * k // tiled.threads
    pack = 2 if a in ("bf16", "f16") else 4
    place = tiled.placement("A")
    for thread in range(tiled.threads):
        for v in range(values):
            assert at(place, thread, v) == isa_a(thread, v, warpgroups, m, k, atom_k, pack), (thread, v)


def test_an_smem_atom_has_no_register_a():
    tiled = mmatom.TiledMma(ss_atom(64), (1, 1, 1), permutation=(64, 64, 64))
    with pytest.raises(mmatom.CompileError, match=r"reads A from SMEM; .* a_residency='register'"):
        tiled.fragment_type("A")
    with pytest.raises(mmatom.CompileError, match=r"takes A in registers \(fragment_type\('A'\)\)"):
        mmatom.TiledMma(rs_atom(64)).smem_desc_type("A")


def attention_tiles(bn=64, d=64, warpgroups=2, pv_warpgroups=2):
    tiled_qk = mmatom.TiledMma(ss_atom(bn), (warpgroups, 1, 1), permutation=(128, bn, d))
    tiled_pv = mmatom.TiledMma(rs_atom(d), (pv_warpgroups, 1, 1), permutation=(128, d, bn))
    return tiled_qk, tiled_pv


def test_the_accumulator_converts_in_place_to_the_register_a():
    """S's value (t, v) sits at S's (row, col); after the conversion, value (t, v) of P is that element rounded
    to bf16, and P's own placement puts it at the same (row, col): the coordinates are seeded as the values."""
    tiled_qk, tiled_pv = attention_tiles()
    kb = mmatom.KernelBuilder("k", [], "sm_90a", threads=256)
    s = kb.fill(0.0, tiled_qk.fragment_type("C"))
    p = kb.convert(s, tiled_pv.fragment_type("A"))
    place_s, place_p = tiled_qk.placement("C"), tiled_pv.placement("A")
    for coord in (0, 1):  # rows (< 128) then columns (< 64): exact in bf16
        seeded = np.array([[at(place_s, t, v)[coord] for v in range(32)] for t in range(256)], np.float32)
        env = run(kb.block, 256, {s.ssa: seeded})
        want = np.array([[at(place_p, t, v)[coord] for v in range(32)] for t in range(256)], np.float32)
        assert np.array_equal(env[p.ssa], want)


def test_a_conversion_to_another_split_names_both_layouts():
    tiled_qk, tiled_pv = attention_tiles(pv_warpgroups=1)
    kb = mmatom.KernelBuilder("k", [], "sm_90a", threads=256)
    kb.convert(kb.fill(0.0, tiled_qk.fragment_type("C")), tiled_pv.fragment_type("A"))
    with pytest.raises(mmatom.CompileError, match=r"mma\.convert: result layout \(\(4,8,4\),.* is not the source "
                                                  r"layout \(\(4,8,8\),.*256 threads x 32 values, the result 128 x 64"
                       ) as info:
        mmatom.compile(kb.finish()[0], options={"cache": False})
    assert info.value.diagnostics[0].file == __file__


def test_mma_regs_takes_the_register_a_and_refuses_others():
    tiled_qk, tiled_pv = attention_tiles()
    kb = mmatom.KernelBuilder("k", [], "sm_90a", threads=256)
    v_tile = kb.smem_tiles(1, tiled_pv.smem_desc_type("B", major="mn"))[0]
    s = kb.fill(0.0, tiled_qk.fragment_type("C"))
    with pytest.raises(mmatom.CompileError, match=r"mma_regs: A has type !mma\.frag<C, f32, .*; this tile's register "
                                                  r"A is !mma\.frag<A, bf16"):
        tiled_pv.mma_regs(kb, s, v_tile.desc(), kb.fill(0.0, tiled_pv.fragment_type("C")))
    with pytest.raises(mmatom.CompileError, match=r"mma_smem: .* takes A in registers; use mma_regs"):
        tiled_pv.mma_smem(kb, v_tile.desc(), v_tile.desc(), s)
    with pytest.raises(mmatom.CompileError, match=r"mma_regs: .* reads A from SMEM; take an atom with "
                                                  r"a_residency='register', or use mma_smem"):
        tiled_qk.mma_regs(kb, s, v_tile.desc(), s)
    p = kb.convert(s, tiled_pv.fragment_type("A"))
    o = tiled_pv.mma_regs(kb, p, v_tile.desc(), kb.fill(0.0, tiled_pv.fragment_type("C")))
    assert o.ssa.owner.name == "mma.wgmma_tile" and o.type == tiled_pv.fragment_type("D")


@pytest.mark.ptxas
@pytest.mark.parametrize("bn, v_major", [(64, "mn"), (128, "mn"), (64, "k")])
def test_the_attention_step_assembles_clean(bn, v_major):
    from rs_wgmma import attention_step
    module, launch = attention_step(bn, 64, v_major)
    kernel = mmatom.compile(module, options={"cache": False})
    ptx, meta = kernel.ptx, kernel.metadata
    assert meta.spill_bytes == 0 and meta.warnings == (), meta  # no C75xx: the RS chain is not serialized
    assert launch.block == (256, 1, 1)
    rs = [line for line in ptx.splitlines() if "wgmma.mma_async" in line and "{%r" in line]
    assert len(rs) == bn // 16  # one warpgroup repeat: bn/16 RS atoms, all in one fenced chain
    assert all(line.rstrip().endswith(f", 1, 1, 1, {int(v_major == 'mn')};") for line in rs)
    assert ptx.count("cvt.rn.bf16x2.f32") == bn // 4  # P: 64 x bn per warpgroup, two values per register
    assert ptx.count("wgmma.fence.sync.aligned") == 3  # before S, before O, and the chain's own after its copies
