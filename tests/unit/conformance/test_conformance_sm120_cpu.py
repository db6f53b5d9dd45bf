"""SM120/121 conformance on CPU (no SM120 GPU here): every kernel assembles for every claimed target and
is rejected on sm_90a, sm_100a and sm_120; the numpy reference model of block scaling and of the
scale-factor registers is checked against the ISA's rules written out independently here."""

import numpy as np
import pytest

from mmatom import conformance
from mmatom.atoms.catalogue.fragments import tv_layouts
from mmatom.conformance import sm120
from mmatom.conformance.register import _image
from mmatom.atoms.numerics import decode


def test_every_sm120_case_assembles_and_is_rejected_elsewhere():
    report = conformance.assemble("sm120")
    assert len(report.outcomes) == len(sm120.cases()) == 374
    assert not report.failed, "\n".join(o.detail for o in report.failed[:20])
    # every case is rejected on each REJECT_ON target it does not claim (fp8-only f8f6f4 is legal on sm_100a)
    for o in report.outcomes:
        unclaimed = [t for t in sm120.REJECT_ON if t not in o.case.targets]
        assert o.detail.endswith(f"rejected on {len(unclaimed)}"), (o.case.label, o.detail)


def test_cases_cover_kinds_selectors_and_element_mixes():
    labels = [c.label for c in sm120.cases()]
    mixes = {(c.atom.a, c.atom.b) for c in sm120.cases() if c.atom.family == "mma" and c.atom.acc[0] == "f32"}
    assert len(mixes) == 25  # every A x B of e4m3, e5m2, e3m2, e2m3, e2m1
    for kind_vec in ("mxf8f6f4.block_scale.scale_vec::1X", "mxf4.block_scale.scale_vec::2X",
                     "mxf4nvf4.block_scale.scale_vec::2X", "mxf4nvf4.block_scale.scale_vec::4X"):
        assert any(kind_vec in s and "mma.sp" in s for s in labels), kind_vec
    assert {s.rsplit(" ", 1)[1] for s in labels if "kind::mxf8f6f4" in s and "byte-id" in s} == {"0", "1", "2", "3"}
    assert {s.rsplit(" ", 1)[1] for s in labels if "kind::mxf4." in s and "byte-id" in s} == {"0", "2"}


def _reference_register(role: str, lane: int, sf: np.ndarray, chunks: int, byte_id: int) -> list:
    """What the ISA says lane `lane` must hold in byte byte_id + j (reference ptx-fragments.md section 4):
    A: even lane of a pair -> row g, odd lane -> row g + 8; B: column n = g."""
    g = lane // 4
    row = (g + 8 * (lane % 2)) if role == "SFA" else g
    return [sf[row, j] for j in range(chunks)]


@pytest.mark.parametrize("label_part", ["scale_vec::1X", "mxf4.block_scale.scale_vec::2X", "scale_vec::4X"])
def test_scale_factor_registers_hold_what_the_isa_reads(label_part):
    for case in (c for c in sm120.cases() if label_part in c.label and "byte-id" in c.label and "mma.sp" not in c.label):
        atom = case.atom
        chunks = sm120.CHUNKS[atom.scale_vec]
        for role, rows, stride in (("SFA", 16, 16), ("SFB", 8, 8)):
            sf = np.arange(rows * chunks).reshape(rows, chunks) + 1  # distinct values, index m + rows * j
            layout = tv_layouts(atom)[role]
            for lane in range(32):
                # the bytes of the lane's register: layout(lane, v) is a tile index m + rows * j
                reg = [sf[i % rows, i // rows] for i in (layout((lane, v)) for v in range(4))]
                want = _reference_register(role, lane, sf, chunks, atom.byte_id)
                assert reg[atom.byte_id:atom.byte_id + chunks] == want, (case.label, role, lane)


def test_block_scaled_product_scales_each_k_block():
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((16, 64)), rng.standard_normal((8, 64))
    sfa, sfb = 2.0 ** rng.integers(-3, 4, (16, 4)), 2.0 ** rng.integers(-3, 4, (8, 4))
    naive = np.zeros((16, 8))
    for m in range(16):
        for n in range(8):
            naive[m, n] = sum(a[m, k] * sfa[m, k // 16] * b[n, k] * sfb[n, k // 16] for k in range(64))
    assert np.allclose(sm120.block_scaled_product(a, b, sfa, sfb), naive, rtol=1e-12, atol=1e-12)


def test_reference_detects_a_wrong_result_and_a_wrong_scale():
    case = next(c for c in sm120.cases() if "kind::mxf4nvf4.block_scale.scale_vec::4X" in c.label
                and "mma.sp" not in c.label)
    inputs = sm120.make_inputs(case, np.random.default_rng(3))
    ref = inputs.reference[0].astype(np.float32)
    layout = sm120.memory_layouts(case.atom)["C"]
    image = lambda r: _image("f32", r.view(np.uint32).astype(np.uint64)[None], layout)  # noqa: E731
    assert sm120.check(case, inputs, image(ref))[0]
    wrong = ref.copy()
    wrong[3, 5] *= 2  # what a misplaced power-of-two scale factor does to one element
    assert not sm120.check(case, inputs, image(wrong))[0]
    assert "never written" in sm120.check(case, inputs, inputs.arrays[3])[2]


def test_fp4_in_an_8_bit_container_sits_in_bits_5_to_2():
    assert decode("e2m1_c8", np.array([0b00011000, 0b00000100, 0b00111100])).tolist() == [4.0, 0.5, -6.0]
    assert decode("e3m2_c8", np.array([0b00011111])).tolist() == decode("e3m2", np.array([0b011111])).tolist()
