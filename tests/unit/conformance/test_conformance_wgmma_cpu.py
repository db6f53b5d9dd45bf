"""wgmma conformance on CPU: every case assembles for sm_90a and is rejected for sm_90 and sm_100a; the
cases cover the issue's cross product; SMEM images and the reference are right on hand-checkable data."""

import numpy as np
import pytest

from mmatom import conformance
from mmatom.targets import ptxas
from mmatom.compiler import lower_for_ptx
from mmatom.conformance import wgmma
from mmatom.atoms.descriptors import SmemOperand, check_layout, decode_sm90
from mmatom.targets.ptx_emitter import PTXEmitter, ptx_header
from mmatom.lowering.wgmma import descriptor_constant


def test_every_wgmma_case_assembles_for_sm90a():
    report = conformance.assemble("wgmma")
    assert len(report.outcomes) == len(wgmma.cases()) == 1993  # SS/RS x dense/sparse, records/GPU_RUN.md
    assert not report.failed, "\n".join(report.lines()[-30:])


@pytest.mark.parametrize("target", ["sm_90", "sm_100a"])
def test_wgmma_kernels_are_rejected_off_sm90a(target):
    cases = [c for c in wgmma.cases() if c.atom.n == 64][:4]
    text = ptx_header(target, (8, 8)) + wgmma.PREAMBLE
    text += "\n".join(t for _, t, _ in PTXEmitter(lower_for_ptx(wgmma.build_module(cases, "sm_90a"))).functions())
    result = ptxas.assemble(text, target)
    assert not result.ok and "wgmma" in result.log


def test_sparse_metadata_covers_every_chunk_per_warp():
    from mmatom.atoms.catalogue.fragments import sparse_metadata

    for case in (c for c in wgmma.cases() if c.atom.sparse and c.atom.n == 8):
        fields = sparse_metadata(case.atom)
        width = fields[0].width
        assert sorted((f.row, f.col) for f in fields) == sorted(
            (r, col) for r in range(64) for col in range(0, case.atom.k, width))
        # warp w's threads govern exactly rows 16w..16w+15 (ISA 9.7.15.6.2)
        assert all(f.lane // 32 == f.row // 16 for f in fields)
        assert {f.lane % 4 for f in fields} <= ({0, 1, 2, 3} if width == 4 and case.atom.k == 64 else
                                               {2 * case.atom.selector, 2 * case.atom.selector + 1})


def test_cross_product_is_covered():
    labels = {c.label for c in wgmma.cases()}
    for sw in ("none", "32b", "64b", "128b"):
        for n in (8, 64, 128, 256):
            for a, b in (("k", "k"), ("k", "mn"), ("mn", "k"), ("mn", "mn")):
                assert f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.bf16.bf16 A:{a} B:{b} {sw}" in labels
            assert f"wgmma.mma_async.sync.aligned.m64n{n}k32.satfinite.s32.u8.s8 A:k B:k {sw}" in labels
    for n in (8, 64, 128, 256):
        assert f"wgmma.mma_async.sync.aligned.m64n{n}k32.f16.e5m2.e4m3 A:regs B:k 32b" in labels
        for sel in (0, 1):
            assert f"wgmma.mma_async.sp.sync.aligned.m64n{n}k32.f32.bf16.bf16 A:mn B:mn 64b selector {sel}" in labels
            assert f"wgmma.mma_async.sp.sync.aligned.m64n{n}k32.f32.f16.f16 A:regs B:mn 128b selector {sel}" in labels
        assert f"wgmma.mma_async.sp.sync.aligned.m64n{n}k64.s32.s8.u8 A:regs B:k none selector 0" in labels
    every_n = {c.atom.n for c in wgmma.cases() if c.atom.a == "f16" and c.options.swizzle == "128b"}
    assert every_n == set(range(8, 257, 8))


@pytest.mark.parametrize("major, swizzle", [("k", "none"), ("k", "128b"), ("mn", "none"), ("mn", "64b")])
def test_packed_layouts_are_canonical_and_descriptors_decode(major, swizzle):
    op = SmemOperand(64, 16, 16, major, swizzle)
    layout = wgmma.smem_layout(op)
    lbo, sbo = check_layout(layout, op)
    case = next(c for c in wgmma.cases() if c.atom.a == "f16" and c.atom.d == "f32" and c.atom.n == 64
                and c.options.swizzle == swizzle and c.atom.trans_a == (major == "mn"))
    fields = decode_sm90(descriptor_constant(wgmma._desc_type(case.atom, "A", swizzle)))
    assert (fields.lbo, fields.sbo, fields.swizzle, fields.start_address) == (lbo, sbo, swizzle, 0)


def test_reference_detects_a_wrong_result():
    case = next(c for c in wgmma.cases() if c.atom.a == "bf16" and c.atom.n == 8)
    inputs = wgmma.make_inputs(case, np.random.default_rng(3))
    ref = inputs.reference[0].astype(np.float32)
    image = lambda r: wgmma._image("f32", r.view(np.uint32).astype(np.uint64)[None], wgmma.c_layout(case.atom))  # noqa: E731
    assert wgmma.check(case, inputs, image(ref))[0]
    ref[7, 3] += 0.25
    assert not wgmma.check(case, inputs, image(ref))[0]
    assert "never written" in wgmma.check(case, inputs, inputs.arrays[3])[2]
