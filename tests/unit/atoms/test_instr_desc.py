"""The tcgen05 instruction descriptor: every field lands on the bits of reference D6 and decodes back.

ptxas accepts any 32-bit idesc, so these tests are the only check of the packing. Expected bit
positions are written out here from the reference tables, not taken from the module under test."""

from itertools import product

import pytest

from mmatom.atoms.catalogue.tcgen05 import TCGEN05 as FAM
from mmatom.atoms.instr_desc import InstrDesc, InstrDescError, for_atom, pack, unpack


def bits(word, lo, n):
    return (word >> lo) & ((1 << n) - 1)


def test_known_word_bf16_m128_n64():
    # 0x08100490 (assembled in the reference's ptxas runs): D f32, A = B = bf16, N = 64, M = 128
    f = unpack(0x08100490, "f16")
    assert (f.d, f.a, f.b, f.n, f.m, f.sparse) == ("f32", "bf16", "bf16", 64, 128, False)
    assert pack(f) == 0x08100490


@pytest.mark.parametrize("kind,a,code", [
    ("f16", "f16", 0), ("f16", "bf16", 1), ("tf32", "tf32", 2), ("f8f6f4", "e4m3", 0), ("f8f6f4", "e5m2", 1),
    ("f8f6f4", "e2m3", 3), ("f8f6f4", "e3m2", 4), ("f8f6f4", "e2m1", 5), ("i8", "u8", 0), ("i8", "s8", 1)])
def test_unscaled_fields(kind, a, code):
    d = "s32" if kind == "i8" else "f32"
    w = pack(InstrDesc(kind=kind, a=a, b=a, d=d, m=256, n=248, sparse=True, selector=3, saturate=kind == "i8",
                       transpose_a=True, negate_b=kind != "i8", ws_shift=16))
    assert bits(w, 0, 2) == 3 and bits(w, 2, 1) == 1 and bits(w, 3, 1) == (kind == "i8")
    assert bits(w, 4, 2) == {"f32": 1, "s32": 2}[d] and bits(w, 6, 1) == 0
    assert bits(w, 7, 3) == code and bits(w, 10, 3) == code
    assert bits(w, 13, 1) == 0 and bits(w, 14, 1) == (kind != "i8") and bits(w, 15, 1) == 1 and bits(w, 16, 1) == 0
    assert bits(w, 17, 6) == 248 >> 3 and bits(w, 23, 1) == 0 and bits(w, 24, 5) == 16 and bits(w, 29, 1) == 0
    assert bits(w, 30, 2) == 2


@pytest.mark.parametrize("kind,a,code,b_width", [
    ("mxf8f6f4", "e4m3", 0, 3), ("mxf8f6f4", "e2m1", 5, 3), ("mxf8f6f4", "e3m2", 4, 3),
    ("mxf4", "e2m1", 1, 2), ("mxf4nvf4", "e2m1", 1, 2)])
def test_block_scaled_fields(kind, a, code, b_width):
    scale = "ue4m3" if kind == "mxf4nvf4" else "ue8m0"
    w = pack(InstrDesc(kind=kind, a=a, b=a, m=256, n=16, sparse=True, scale_type=scale, sf_id_a=2, sf_id_b=2,
                       transpose_b=kind == "mxf8f6f4", k96=kind != "mxf8f6f4"))
    assert bits(w, 0, 2) == 0 and bits(w, 2, 1) == 1 and bits(w, 3, 1) == 0
    assert bits(w, 4, 2) == 2 and bits(w, 29, 2) == 2  # scale-factor IDs: B at 4-5, A at 29-30
    assert bits(w, 7, 3) == code and bits(w, 10, b_width) == code
    assert bits(w, 16, 1) == (kind == "mxf8f6f4") and bits(w, 17, 6) == 2
    assert bits(w, 23, 1) == (scale == "ue8m0") and bits(w, 24, 3) == 0 and bits(w, 27, 2) == 2
    assert bits(w, 31, 1) == (kind != "mxf8f6f4")


def test_block_scaled_m_matches_cutlass_m_shift_4():
    # CUTLASS writes M >> 4 into bits 24-28; for M = 128 and 256 that is the same pattern as M >> 7 at 27-28
    for m in (128, 256):
        w = pack(InstrDesc(kind="mxf4", a="e2m1", b="e2m1", m=m, n=64, scale_type="ue8m0"))
        assert bits(w, 24, 5) == m >> 4


def test_every_catalogue_atom_round_trips():
    checked = 0
    for r in FAM.rows:
        pools = {k: sorted(r.allowed(k)) for k in ("a", "b", "d", "m", "n", "k", "scale_type", "kind", "sparse")}
        for a, b, d, m, n in product(pools["a"], pools["b"], pools["d"], pools["m"], pools["n"][::7]):
            atom = FAM.make(dict(kind=pools["kind"][0], sparse=pools["sparse"][0], a=a, b=b, d=d, m=m,
                                 n=n, k=pools["k"][0], scale_type=pools["scale_type"][-1]))
            f = for_atom(atom, transpose_a=True, sf_id_a=0, sf_id_b=0)
            assert unpack(pack(f), f.kind) == f
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("fields,message", [
    (dict(kind="mxf4", a="e2m1", b="e2m1", m=128, n=64, scale_type="ue8m0", sf_id_a=1), "scale-factor ID 1"),
    (dict(kind="f16", a="e4m3", b="f16", m=128, n=64), "A type e4m3"),
    (dict(kind="f16", a="f16", b="f16", m=128, n=60), "N=60"),
    (dict(kind="f16", a="f16", b="f16", m=128, n=64, ws_shift=4), "B-reuse shift 4"),
])
def test_rejects_unencodable_fields(fields, message):
    with pytest.raises(InstrDescError, match=message):
        pack(InstrDesc(**fields))
