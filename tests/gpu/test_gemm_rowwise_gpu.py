"""GPU: fp8 mmatom.gemm with rowwise scales (scale_a of M, scale_b of N elements: D[i, j] = scale_a[i] *
scale_b[j] * (A . B^T)[i, j], as torch._scaled_mm's rowwise scaling) against a float64 reference and against
torch._scaled_mm itself; tails (M, N not multiples of the tile), mixed fp8 kinds, every shipped config and the
split-K ones. Outputs NaN-poisoned first (an unwritten element fails). The scales are powers of two (so the
reference scales exactly) that differ from row to row and column to column, each side with its own range (a
swapped or misplaced scale is off by a power of two). Marker `gpu`."""

import pytest

pytestmark = pytest.mark.gpu

TYPES = {"e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}


def _problem(m, n, k, a_type="e4m3", b_type="e4m3", seed=0):
    import torch

    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, device="cuda", generator=g).to(getattr(torch, TYPES[a_type]))
    b = torch.randn(n, k, device="cuda", generator=g).to(getattr(torch, TYPES[b_type]))
    sa = 2.0 ** torch.randint(-3, 4, (m,), device="cuda", generator=g).float()   # 1/8 .. 8
    sb = 2.0 ** torch.randint(-6, -1, (n,), device="cuda", generator=g).float()  # 1/64 .. 1/4
    return a, b, sa, sb


def _reference_check(d, a, b, sa, sb):
    """D against float64, rows in blocks: fp8 wgmma's accumulation keeps ~14 bits on Hopper (DeepSeek-V3's report;
    tests/gpu/test_gemm_gpu.py says more), so the bound is that, plus the rounding of D."""
    import torch

    assert torch.isfinite(d).all(), "some of D was never written (still NaN)"
    k = a.shape[1]
    for r in range(0, a.shape[0], 4096):
        rows = slice(r, r + 4096)
        scale = sa[rows].double()[:, None] * sb.double()[None, :]
        ref = (a[rows].double() @ b.double().T) * scale
        bound = (k / 32) ** 0.5 * 2.0 ** -13 * (a[rows].double().abs() @ b.double().abs().T) * scale
        err = (d[rows].double() - ref).abs()
        tol = bound + ref.abs() * 2.0 ** -7 + 1e-30
        assert bool((err <= tol).all()), f"rows {r}..: max error {err.max().item():.3g}, worst ratio " \
                                         f"{(err / tol).max().item():.3g}"


def _gemm(a, b, sa, sb, **kw):
    import torch

    import mmatom
    d = torch.full((a.shape[0], b.shape[0]), float("nan"), device="cuda", dtype=torch.bfloat16)
    mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb, **kw)
    torch.cuda.synchronize()
    return d


@pytest.mark.parametrize("m, n, k", [(1024, 1024, 1024), (4096, 4096, 4096), (2048, 11008, 4096), (64, 4096, 8192)],
                         ids=str)
def test_rowwise_matches_scaled_mm(m, n, k):
    """Against float64 and against torch._scaled_mm's rowwise kernel (scale_a (M, 1), scale_b (1, N)): the error
    within 2x cuBLAS's (max and Frobenius norm) plus D's rounding."""
    import torch

    a, b, sa, sb = _problem(m, n, k)
    d = _gemm(a, b, sa[:, None], sb[None, :])
    _reference_check(d, a, b, sa, sb)
    vendor = torch._scaled_mm(a, b.T, scale_a=sa[:, None], scale_b=sb[None, :], out_dtype=torch.bfloat16,
                              use_fast_accum=True)
    ref = (a.double() @ b.double().T) * sa.double()[:, None] * sb.double()[None, :]
    err, vendor_err = d.double() - ref, vendor.double() - ref
    assert bool((err.abs() <= 2 * vendor_err.abs().max() + ref.abs() * 2.0 ** -8).all()), \
        f"max error {err.abs().max().item():.3g}; torch._scaled_mm {vendor_err.abs().max().item():.3g}"
    assert err.norm() <= 2 * vendor_err.norm() + 2.0 ** -8 * ref.norm()


@pytest.mark.parametrize("m, n, k", [(300, 520, 200), (4095, 4095, 4095), (1, 4104, 4096), (17, 1000, 512),
                                     (129, 257, 128)], ids=str)
def test_rowwise_tails(m, n, k):
    """M and N not multiples of any tile (and fp8 rows not 16-byte multiples: the host pads them): the tail
    tiles' clamped scale reads, D clipped at M and N."""
    a, b, sa, sb = _problem(m, n, k)
    _reference_check(_gemm(a, b, sa, sb), a, b, sa, sb)


@pytest.mark.parametrize("a_type, b_type", [("e4m3", "e5m2"), ("e5m2", "e4m3")])
def test_rowwise_mixed_fp8_kinds(a_type, b_type):
    a, b, sa, sb = _problem(1000, 1030, 512, a_type, b_type)
    _reference_check(_gemm(a, b, sa, sb), a, b, sa, sb)


def test_rowwise_every_config():
    """Every shipped config and the split-K ones (the slices' sums added up, then scaled) on a shape where each
    CTA takes two or three tiles and every tile has a tail in N; the scale shapes (M,) / (N,) and (M, 1) / (1, N)
    give the same D."""
    import torch

    from mmatom.kernels.gemm import CONFIGS, SPLIT_K_CONFIGS, STREAM_K_CONFIGS
    a, b, sa, sb = _problem(2304, 2056, 320)
    first = None
    for config in CONFIGS + SPLIT_K_CONFIGS + STREAM_K_CONFIGS:
        d = _gemm(a, b, sa, sb, config=config)
        _reference_check(d, a, b, sa, sb)
        if not (config.split_k or config.stream_k):  # the same K blocks in the same order per element: the same D
            first = d if first is None else first
            assert torch.equal(d, first), config.name
    assert torch.equal(_gemm(a, b, sa[:, None], sb[None, :]), _gemm(a, b, sa, sb))
