"""mmatom.gemm's fp8 scales on the host, without a GPU (torch on the CPU; skipped without torch): per tensor (one
element each) or rowwise (scale_a of M, scale_b of N elements, as torch._scaled_mm), what each bad scale is told.
The kernel's rowwise epilogue: tests/unit/api/test_gemm_ptxas.py (ptxas) and tests/gpu/test_gemm_rowwise_gpu.py."""

import pytest

torch = pytest.importorskip("torch")

import mmatom  # noqa: E402
from mmatom.kernels.gemm.host import check_scales  # noqa: E402

CPU = torch.device("cpu")
M, N = 5, 7


def _check(scale_a, scale_b, fp8=True, device=CPU):
    return check_scales(torch, fp8, device, M, N, scale_a, scale_b)


def test_per_tensor_scales_are_taken_as_they_are():
    sa, sb = torch.tensor([0.5]), torch.tensor(0.25)  # a 0-d tensor is one element too
    scales = _check(sa, sb)
    assert scales.a is sa and scales.b is sb and not scales.rowwise and not scales.copied


@pytest.mark.parametrize("shape_a, shape_b", [((M,), (N,)), ((M, 1), (1, N)), ((M,), (1, N))], ids=str)
def test_rowwise_scales_of_m_and_n_elements(shape_a, shape_b):
    sa, sb = torch.rand(shape_a), torch.rand(shape_b)
    scales = _check(sa, sb)
    assert scales.rowwise and not scales.copied and scales.a is sa and scales.b is sb


def test_a_strided_rowwise_scale_is_copied_contiguous():
    sa = torch.rand(M, 3)[:, 1:2]  # (M, 1), rows 3 floats apart: the kernel reads M consecutive floats
    scales = _check(sa, torch.rand(N))
    assert scales.copied and scales.a.is_contiguous() and torch.equal(scales.a, sa)


def test_sixteen_bit_inputs_take_no_scales():
    assert _check(None, None, fp8=False) == (None, None, False, False)
    with pytest.raises(mmatom.CompileError, match="scale_a given for 16-bit inputs; scales are for fp8 inputs"):
        _check(torch.ones(1), None, fp8=False)


@pytest.mark.parametrize("scale_a, scale_b, message", [
    (torch.ones(M + 1), torch.ones(N), r"scale_a has shape \(6,\); rowwise scaling takes scale_a of shape \(5,\) "
                                       r"or \(5, 1\) and scale_b of shape \(7,\) or \(1, 7\) \(M = 5, N = 7\)"),
    (torch.ones(M), torch.ones(N, 1), r"scale_b has shape \(7, 1\); rowwise scaling"),
    (torch.ones(1), torch.ones(N), r"scale_a has shape \(1,\); rowwise scaling .* or both scales of one element"),
    (torch.ones(M, dtype=torch.float64), torch.ones(N),
     r"fp8 inputs take scale_a as a float32 tensor on cpu .*; got torch.float64 on cpu"),
    (torch.ones(1), None, r"fp8 inputs take scale_b as a float32 tensor on cpu \(one element, or rowwise N "
                          r"elements, as torch._scaled_mm\); got none"),
    (0.5, torch.ones(1), r"fp8 inputs take scale_a as a float32 tensor on cpu .*; got a float"),
], ids=["scale_a_length", "scale_b_column", "per_tensor_with_rowwise", "float64", "missing", "not_a_tensor"])
def test_bad_scales_are_named(scale_a, scale_b, message):
    with pytest.raises(mmatom.CompileError, match=message):
        _check(scale_a, scale_b)


def test_a_scale_on_another_device_is_named():
    with pytest.raises(mmatom.CompileError, match=r"fp8 inputs take scale_a as a float32 tensor on cuda:0 .*; got "
                                                  r"torch.float32 on cpu"):
        _check(torch.ones(M), torch.ones(N), device=torch.device("cuda", 0))


def test_rowwise_scales_with_a_batch_are_refused():
    a, b = torch.zeros(2, M, 16).to(torch.float8_e4m3fn), torch.zeros(N, 16).to(torch.float8_e4m3fn)
    with pytest.raises(mmatom.CompileError, match=r"rowwise scales with a batched A \(2, 5, 16\); they take a 2-d A"):
        mmatom.gemm(a, b, scale_a=torch.ones(2 * M), scale_b=torch.ones(N))
