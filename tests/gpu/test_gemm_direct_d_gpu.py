"""GPU: an `out` TMA cannot store to -- rows an odd number of elements long or apart, a column slice ending inside a
16-byte granule, a base 2 bytes off, rows 16 bytes apart ending inside a granule -- written in place by the kernel storing D through its pointer (direct_d): D as
the float64 reference says and bit-equal to the TMA-stored D of the same config, the elements around it untouched.
Every consumer schedule, swapped operands, a cluster, an f32 D (marker `gpu`; outputs NaN-poisoned)."""

import pytest

pytestmark = pytest.mark.gpu

CONFIGS = ["128x256x4", "128x128x6w1", "64x128x8w1p", "128x256x4c2x1", "128x16x8w1t", "128x64x8w1t"]


def _outs(torch, m, n, dtype):
    """(name, out, the storage around it) for outs TMA cannot store to."""
    odd = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)  # rows n elements apart
    wide = torch.full((m, n + 9), float("nan"), device="cuda", dtype=dtype)  # a slice of wider rows
    flat = torch.full((m * n + 1,), float("nan"), device="cuda", dtype=dtype)  # a base one element off
    # rows a multiple of 16 bytes apart, ending inside a granule: every row's chunks aligned
    granular = torch.full((m, n + 8 - n % 8), float("nan"), device="cuda", dtype=dtype)
    return [("odd", odd, odd), ("slice", wide[:, :n], wide), ("offset", flat[1:].view(m, n), flat),
            ("16-byte rows", granular[:, :n], granular)]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("out_dtype", ["bf16", "f32"])
def test_out_at_any_pitch_is_written_in_place(config, out_dtype):
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig
    c = GemmConfig.from_name(config)
    if out_dtype == "f32" and c.swap_ab:
        pytest.skip("swapped operands stage a 16-bit D")
    m, n, k = (201, 1001, 4096) if c.swap_ab else (300, 1001, 1024)  # swapped: D's columns, M, span boxes
    a, b = torch.randn(m, k, device="cuda").bfloat16(), torch.randn(n, k, device="cuda").bfloat16()
    t = torch.float32 if out_dtype == "f32" else torch.bfloat16
    aligned = mmatom.gemm(a, b, config=c, out_dtype=out_dtype)  # D padded to aligned rows: TMA-stored
    for name, out, around in _outs(torch, m, n, t):
        before = torch.isnan(around).sum().item() - m * n
        d = mmatom.gemm(a, b, out=out, config=c)
        torch.cuda.synchronize()
        assert d.data_ptr() == out.data_ptr(), name
        assert torch.equal(out, aligned), name
        assert torch.isnan(around).sum().item() == before, f"{name}: elements around out were written"
    ref = a.double() @ b.double().T
    err = (aligned.double() - ref).abs().max().item()
    assert err <= k * 2.0 ** -23 * ref.abs().max().item() + ref.abs().max().item() * 2.0 ** -8, err


def test_fp8_with_odd_n_rowwise_scales():
    import torch

    import mmatom
    m, n, k = 200, 777, 1024
    a, b = (torch.randn(x, k, device="cuda").to(torch.float8_e4m3fn) for x in (m, n))
    sa, sb = torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, n, device="cuda") + 0.5
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    mmatom.gemm(a, b, out=out, scale_a=sa, scale_b=sb)
    torch.cuda.synchronize()
    ref = (a.double() @ b.double().T) * sa.double() * sb.double()
    bound = 2.0 ** -10 * ((a.double().abs() @ b.double().abs().T) * sa.double() * sb.double()).max() \
        + ref.abs() * 2.0 ** -7
    assert torch.isfinite(out).all() and bool(((out.double() - ref).abs() <= bound).all())
