"""GPU: docs/guide.md's final kernel (a TMA-fed SmemRing, producer and consumer warpgroups, wgmma) on the H100,
against a float64 reference on fresh random inputs, D poisoned with NaN first (marker `gpu`). The kernel is taken
from the guide itself -- its examples run as doctest, their names kept -- so what runs here is what the guide shows."""

import doctest
from pathlib import Path

import pytest

import mmatom

pytestmark = pytest.mark.gpu
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"


def guide_names() -> dict:
    """The names the guide's examples define (`ring_matmul`, `BM`, ...), after running every one of them."""
    test = doctest.DocTestParser().get_doctest(GUIDE.read_text(), {}, "guide.md", str(GUIDE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, clear_globs=False)
    assert result.failed == 0, f"{result.failed} of docs/guide.md's examples failed"
    return test.globs  # the DocTest's own copy of the namespace, which the examples filled


# one K step, a ring that wraps (K / 64 > 4 stages), several CTAs in both directions
@pytest.mark.parametrize("M, N, K", [(128, 128, 64), (256, 256, 1024), (384, 256, 640)])
def test_guide_kernel_matches_float64(M, N, K, tmp_path, monkeypatch):
    import torch

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    guide = guide_names()
    module, launch, grid = guide["ring_matmul"](M, N, K)
    kernel = mmatom.compile(module)
    a = torch.randn(M, K, device="cuda").to(torch.bfloat16)
    b = torch.randn(N, K, device="cuda").to(torch.bfloat16)
    d = torch.full((M, N), float("nan"), device="cuda")
    maps = mmatom.tensor_map(a, guide["BM"], guide["BK"]), mmatom.tensor_map(b, guide["BN"], guide["BK"])
    kernel.launch(*maps, d, grid=grid)
    torch.cuda.synchronize()
    a64, b64, got = a.double().cpu(), b.double().cpu(), d.double().cpu()
    assert torch.isfinite(got).all(), "some of D was never written"
    ref = a64 @ b64.T
    # f32 accumulation of K exact bf16 products
    bound = K * 2.0 ** -23 * (a64.abs() @ b64.abs().T)
    assert (got - ref).abs().le(bound + 1e-30).all(), f"max error {(got - ref).abs().max().item():.3g}"
