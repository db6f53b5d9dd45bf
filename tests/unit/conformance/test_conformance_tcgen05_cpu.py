"""tcgen05 conformance on CPU (no SM100 GPU here): every kernel assembles for every claimed target and is
rejected on sm_90a, sm_100 and sm_120a; the instruction descriptor in each kernel decodes back to the
case's atom; the TMEM model of D and the reference check are right on hand-checkable data."""

import re

import numpy as np
import pytest

from mmatom import conformance
from mmatom.compiler import lower_for_ptx
from mmatom.conformance import tcgen05
from mmatom.conformance.register import _image
from mmatom.atoms.catalogue.tcgen05 import TCGEN05
from mmatom.atoms.instr_desc import unpack
from mmatom.targets.ptx_emitter import PTXEmitter


def test_every_tcgen05_case_assembles_and_is_rejected_elsewhere():
    report = conformance.assemble("tcgen05")
    assert len(report.outcomes) == len(tcgen05.cases()) == 216
    assert not report.failed, "\n".join(f"{o.case.label}: {o.detail}" for o in report.failed[:20])
    assert all(o.detail.endswith("rejected on 3") for o in report.outcomes)


def test_cases_cover_every_spelling_both_residencies_and_k96():
    from mmatom.atoms.catalogue import spelled_forms

    labels = [c.label for c in tcgen05.cases()]
    for form in spelled_forms("tcgen05.mma"):
        assert any(s.startswith(form.spelling + " ") and s.endswith("A:smem") for s in labels), form.spelling
        assert any(s.startswith(form.spelling + " ") and s.endswith("A:tmem") for s in labels), form.spelling
    assert sum("k96" in s for s in labels) == 6
    assert {c.atom.cta_group for c in tcgen05.cases()} == {1, 2}


@pytest.mark.parametrize("part", ["kind::f16 m64n8k16 f16xf16->f16", "kind::tf32 m128n256k8",
                                  "sp.cta_group::1.kind::i8 m128n8k64", "cta_group::2.kind::f8f6f4 m256n16k32",
                                  "kind::mxf4nvf4.block_scale.scale_vec::4X m256n256k96"])
def test_the_kernel_idesc_decodes_to_the_case_atom(part):
    case = next(c for c in tcgen05.cases() if part in c.label)
    text = PTXEmitter(lower_for_ptx(tcgen05.build_module([case], case.targets[0]))).emit()
    mma = next(ln for ln in text.splitlines() if "tcgen05.mma" in ln)
    idesc_reg = re.split(r",\s*", mma.split(" ", 1)[1])[4 if case.atom.sparse else 3]
    value = int(re.search(rf"mov\.b32 {re.escape(idesc_reg)}, (\d+);", text).group(1))
    f = unpack(value, case.atom.kind)
    atom = case.atom
    assert (f.a, f.b, f.m, f.n, f.sparse) == (atom.a, atom.b, atom.m, atom.n, atom.sparse)
    assert f.transpose_a is False and f.transpose_b is False  # the kernels' SMEM tiles are K-major
    if not f.block_scaled:
        assert f.d == atom.d
    else:
        assert f.scale_type == atom.scale_type and f.k96 == (atom.k == 96)


def _tcgen05_atom(**geometry):
    """An f16 tcgen05 atom of the given M, N, cta_group and sparsity (all that the TMEM D layout reads)."""
    return TCGEN05.make(dict(kind="f16", scale_vec=None, a="f16", b="f16", d="f32", scale_type=None, k=16,
                             a_residency="smem_desc", **geometry))


@pytest.mark.parametrize("m,g,sparse", [(128, 1, False), (64, 1, False), (256, 2, False), (128, 2, False), (128, 2, True)])
def test_tmem_d_layout_is_one_to_one(m, g, sparse):
    n = 64
    atom = _tcgen05_atom(m=m, n=n, cta_group=g, sparse=sparse)
    cells = {tcgen05.tmem_d_position(atom, i, j) for i in range(m) for j in range(n)}
    assert len(cells) == m * n
    assert all(0 <= lane < 128 and 0 <= col < n for _, lane, col in cells)


def test_layout_f_puts_rows_16w_in_warp_w():
    # reference 5.3: reading layout F back, warp w (lanes 32w..) holds rows 16w..16w+15
    atom = _tcgen05_atom(m=64, n=8, cta_group=1, sparse=False)
    for m in range(64):
        _, lane, _ = tcgen05.tmem_d_position(atom, m, 0)
        assert lane // 32 == m // 16 and lane % 32 == m % 16


def test_reference_check_reads_d_through_the_tmem_model():
    case = next(c for c in tcgen05.cases() if "kind::f16 m64n8k16 f16xf16->f16" in c.label)
    atom = case.atom
    inputs = tcgen05.make_inputs(case, np.random.default_rng(4))
    cells = np.full((128, atom.n), 0xFFFFFFFF, dtype=np.uint64)
    ref16 = inputs.reference.astype(np.float16).view(np.uint16)
    for i in range(atom.m):
        for j in range(atom.n):
            _, lane, col = tcgen05.tmem_d_position(atom, i, j)
            cells[lane, col] = ref16[i, j]
    image = lambda c: _image("s32", c[None], tcgen05.Layout((128, atom.n), (atom.n, 1)))  # noqa: E731
    assert tcgen05.check(case, inputs, image(cells))[0]
    wrong = cells.copy()
    wrong[[0, 16]] = wrong[[16, 0]]  # rows in the wrong lanes (layout D instead of F)
    assert not tcgen05.check(case, inputs, image(wrong))[0]
    not_modelled = next(c for c in tcgen05.cases() if c.atom.sparse)
    assert "not checkable" in tcgen05.check(not_modelled, tcgen05.make_inputs(not_modelled, np.random.default_rng(1)),
                                            None)[2]
