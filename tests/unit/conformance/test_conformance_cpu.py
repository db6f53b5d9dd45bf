"""Register conformance on CPU: every register atom assembles for every target the catalogue claims,
and the numpy reference machinery is right on hand-checkable cases."""

import numpy as np

from mmatom import conformance
from mmatom.conformance import register
from mmatom.atoms.numerics import E4M3, E5M2, decode, draw, pack, unpack


def test_every_register_atom_assembles_for_every_claimed_target():
    report = conformance.assemble("register")
    assert len(report.outcomes) == 262  # 110 dense spellings + 152 sparse (spelling x selector)
    assert not report.failed, "\n".join(report.lines()[-30:])


def test_cases_cover_the_register_tiers():
    labels = [c.label for c in register.cases()]
    assert sum("m8n8k4" in s and "f16" in s for s in labels) == 12  # 4 layouts x 3 accumulator pairs
    assert any(".xor.popc" in s for s in labels) and any(".and.popc" in s for s in labels)
    assert {s.split(" selector ")[1] for s in labels if "m16n8k16.row.col.f32.f16" in s and "sp" in s} == {"0", "1", "2", "3"}


def test_fp8_tables_match_the_format_definitions():
    assert E4M3[0x7E] == 448 and np.isnan(E4M3[0x7F]) and E4M3[0x01] == 2.0 ** -9
    assert E5M2[0x7B] == 57344 and np.isinf(E5M2[0x7C]) and np.isnan(E5M2[0x7D]) and E5M2[0x01] == 2.0 ** -16


def test_subbyte_pack_unpack_roundtrip():
    rng = np.random.default_rng(1)
    for elem in ("s4", "u4", "b1"):
        bits = draw(elem, (64,), rng)
        assert np.array_equal(unpack(elem, pack(elem, bits), 64), bits)
    assert decode("s4", np.array([0xF, 0x7, 0x8])).tolist() == [-1.0, 7.0, -8.0]


def test_reference_detects_a_wrong_result():
    case = next(c for c in register.cases() if c.label == "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32")
    inputs = register.make_inputs(case, np.random.default_rng(2))
    ref = inputs.reference[0].astype(np.float32)
    good = register._image("f32", ref.view(np.uint32).astype(np.uint64)[None], register.memory_layouts(case.atom)["C"])
    assert register.check(case, inputs, good)[0]
    ref[3, 5] += 0.5
    bad = register._image("f32", ref.view(np.uint32).astype(np.uint64)[None], register.memory_layouts(case.atom)["C"])
    assert not register.check(case, inputs, bad)[0]
    assert "never written" in register.check(case, inputs, inputs.arrays[3])[2]
