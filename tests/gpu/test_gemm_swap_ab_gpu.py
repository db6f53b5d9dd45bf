"""GPU: mmatom.gemm with a swapped-operand config (D^T = B . A^T, M <= 64 on wgmma's N, each warpgroup's block
staged transposed with stmatrix.trans into D's row-major TMA box): small M with tails in M and N, 16-bit and fp8
(per-tensor and rowwise scales), against a float64 reference and against the same problem under the default
config. Outputs NaN-poisoned first (an unwritten element fails). Marker `gpu`."""

import pytest

pytestmark = pytest.mark.gpu

SHAPES = [(1, 4096, 4096), (8, 4096, 4096), (16, 1000, 520), (17, 4104, 2048), (32, 128, 64), (64, 8192, 1024),
          (45, 300, 200)]


def _configs():
    from mmatom.kernels.gemm import SWAP_AB_CONFIGS
    return SWAP_AB_CONFIGS


def _check(d, ref, k, rel):
    import torch

    assert torch.isfinite(d).all(), "some of D was never written (still NaN)"
    err = (d.double() - ref).abs()
    bound = k * 2.0 ** -23 * ref.abs().max() + ref.abs() * rel + 1e-30
    assert bool((err <= bound).all()), f"max error {err.max().item():.3g}"


@pytest.mark.parametrize("m, n, k", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_swap_ab_16bit(m, n, k, dtype):
    """Every swapped config that covers M in one tile column or more (M > block_n: several column tiles)."""
    import torch

    import mmatom
    t = torch.bfloat16 if dtype == "bf16" else torch.float16
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(n, k, device="cuda").to(t)
    ref = a.double() @ b.double().T
    for config in _configs():
        d = torch.full((m, n), float("nan"), device="cuda", dtype=t)
        mmatom.gemm(a, b, out=d, config=config)
        torch.cuda.synchronize()
        _check(d, ref, k, 2.0 ** -8)


@pytest.mark.parametrize("m, n, k", [(8, 4096, 4096), (17, 1000, 512), (64, 2056, 1024)], ids=str)
@pytest.mark.parametrize("rowwise", [False, True])
def test_swap_ab_fp8(m, n, k, rowwise):
    """fp8 (scale_a / scale_b swap roles with the operands): the same D as the default config within fp8
    accumulation's bound, per tensor and rowwise."""
    import torch

    import mmatom
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e5m2)
    sa = 2.0 ** torch.randint(-3, 4, (m,) if rowwise else (1,), device="cuda").float()
    sb = 2.0 ** torch.randint(-6, -1, (n,) if rowwise else (1,), device="cuda").float()
    scale = (sa.double()[:, None] if rowwise else sa.double()) * (sb.double()[None, :] if rowwise else sb.double())
    ref = (a.double() @ b.double().T) * scale
    bound = (k / 32) ** 0.5 * 2.0 ** -13 * (a.double().abs() @ b.double().abs().T) * scale + ref.abs() * 2.0 ** -7
    for config in _configs():
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb, config=config)
        torch.cuda.synchronize()
        assert torch.isfinite(d).all(), f"{config.name}: some of D was never written"
        err = (d.double() - ref).abs()
        assert bool((err <= bound + 1e-30).all()), f"{config.name}: max error {err.max().item():.3g}"


@pytest.mark.parametrize("m, n, k", [(8, 4096, 4096), (17, 1000, 520), (64, 2056, 1024), (3, 1035, 700)], ids=str)
def test_swap_ab_reads_a_at_b_layouts(m, n, k):
    """`a @ b`'s B (K x N, N-major: the swapped kernel's M-major A) under every swapped config, and an M-major A
    (a transposed view: the swapped kernel's N-major B, in 64-column boxes) under the 64-wide one -- read M-major at
    M = 8 and 64; at M = 17 and 3 its rows are off 16 bytes and under 128, copied K-major; N = 1035 puts B's rows
    an odd pitch apart (copied row for row, still N-major)."""
    import torch

    import mmatom
    a, b_kn = torch.randn(m, k, device="cuda").to(torch.bfloat16), torch.randn(k, n, device="cuda").to(torch.bfloat16)
    ref = a.double() @ b_kn.double()
    for config in _configs():
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        mmatom.gemm(a, b_kn, out=d, b_major="n", config=config)
        torch.cuda.synchronize()
        _check(d, ref, k, 2.0 ** -8)
    wide = next(c for c in _configs() if c.block_n == 64)
    a_km = a.T.contiguous()
    for b, b_major in ((b_kn.T.contiguous(), "k"), (b_kn, "n")):
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        mmatom.gemm(a_km.T, b, out=d, b_major=b_major, config=wide)
        torch.cuda.synchronize()
        _check(d, ref, k, 2.0 ** -8)
    d = mmatom.gemm(a, b_kn, b_major="n")  # the prior's pick (swapped, at these M)
    torch.cuda.synchronize()
    _check(d, ref, k, 2.0 ** -8)


def test_swap_ab_refuses_what_it_cannot_take():
    import torch

    import mmatom
    a, b = torch.randn(64, 8, device="cuda").to(torch.bfloat16), torch.randn(128, 64, device="cuda").to(torch.bfloat16)
    with pytest.raises(mmatom.CompileError, match=r"an M-major A \(K x M storage\) is loaded in boxes of 64 "
                                                  r"columns of M; config 128x16x8w1t covers 16 rows of A: 128x64x8w1t"):
        mmatom.gemm(a.T, b, config=_configs()[0])
    a, b = torch.randn(8, 64, device="cuda").to(torch.bfloat16), torch.randn(128, 64, device="cuda").to(torch.bfloat16)
    with pytest.raises(mmatom.CompileError, match=r"into a 16-bit D"):
        mmatom.gemm(a, b, out_dtype="f32", config=_configs()[0])
