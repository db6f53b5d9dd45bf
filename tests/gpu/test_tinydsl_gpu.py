"""GPU: the tutorial DSL's matmul (examples/tinydsl.py) on the H100, sm_80 (mma.sync, JIT for sm_90) and sm_90a
(wgmma from swizzled SMEM), against a float64 reference on fresh random inputs, output poisoned (marker `gpu`)."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
PATH = Path(__file__).resolve().parents[2] / "examples" / "tinydsl.py"
spec = importlib.util.spec_from_file_location("tinydsl", PATH)
tinydsl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tinydsl)


@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("M, N, K, out, relu", [(256, 512, 128, "f32", False), (128, 256, 512, "bf16", False),
                                                (256, 256, 256, "f32", True)])
def test_matmul_matches_float64(target, M, N, K, out, relu):
    import torch

    kernel, launch, grid = tinydsl.matmul(M, N, K, target, out=out, relu=relu)
    a = torch.randn(M, K, device="cuda").to(torch.bfloat16)
    b = torch.randn(N, K, device="cuda").to(torch.bfloat16)
    d = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float32 if out == "f32" else torch.bfloat16)
    kernel(a, b, d, grid=grid)
    torch.cuda.synchronize()
    ref = a.double().cpu().numpy() @ b.double().cpu().numpy().T
    if relu:  # the epilogue maps every accumulator element; f32 rounding cannot flip a sign
        ref = np.maximum(ref, 0.0)
    got = d.double().cpu().numpy()
    assert np.all(np.isfinite(got)), "some of D was never written"
    # f32 accumulation of K bf16 products (exact products); bf16 output adds one rounding (2^-9 relative)
    bound = K * 2.0 ** -23 * (np.abs(a.double().cpu().numpy()) @ np.abs(b.double().cpu().numpy()).T)
    if out == "bf16":
        bound = bound + np.abs(ref) * 2.0 ** -8
    assert np.all(np.abs(got - ref) <= bound + 1e-30), f"max error {np.max(np.abs(got - ref)):.3g}"
