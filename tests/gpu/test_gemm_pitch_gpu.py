"""GPU: operands whose rows are an odd multiple of 16 bytes apart, repacked by the host where choices.pitch_plan says
the copy pays (and rows a multiple of 32 bytes apart, read in place): D as torch's (a float64 reference), and bitwise
the D of the same config reading them in place. Outputs NaN-poisoned, inputs fresh random (marker `gpu`)."""

import pytest

pytestmark = pytest.mark.gpu

TYPES = {"bf16": "bfloat16", "f16": "float16", "e4m3": "float8_e4m3fn"}


def _assert_close(d, ref, k, rel_out):
    import torch

    assert torch.isfinite(d).all(), "some of D was never written (still NaN)"
    bound = k * 2.0 ** -23 * ref.abs().max() + ref.abs() * rel_out + 1e-30
    err = (d.double() - ref).abs()
    assert bool((err <= bound).all()), f"max error {err.max().item():.3g}"


def _nan(torch, shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=dtype)


@pytest.mark.parametrize("m, n, k, dtype, a_t, b_major, repacked", [
    (3000, 5000, 7000, "bf16", False, "k", (True, True)),
    (3000, 5000, 7000, "bf16", True, "k", (True, True)),  # A stored K x M, 6000-byte rows: repacked M-major
    (3000, 5000, 7000, "bf16", False, "n", (True, True)),  # B given K x N, 10000-byte rows: repacked N-major
    (2048, 2048, 4008, "f16", False, "k", (False, True)),  # B alone pays for its copy
    (4096, 4096, 1040, "e4m3", False, "k", (True, True)),  # copied in 8-byte words
    (2048, 1024, 2080, "e4m3", False, "k", (False, False)),  # 2080-byte rows: 32 x 65, read at full speed in place
], ids=str)
def test_repacked_operands_give_torchs_d_and_the_in_place_d(monkeypatch, m, n, k, dtype, a_t, b_major, repacked):
    import torch

    import mmatom
    from mmatom.kernels.gemm import choices, host
    t = getattr(torch, TYPES[dtype])
    a = (torch.randn(k, m, device="cuda").t() if a_t else torch.randn(m, k, device="cuda")).to(t)
    b = torch.randn(n, k, device="cuda").to(t) if b_major == "k" else torch.randn(k, n, device="cuda").to(t)
    scales = {"scale_a": torch.tensor([0.5], device="cuda"), "scale_b": torch.tensor([4.0], device="cuda")} \
        if dtype == "e4m3" else {}
    p = host._problem(torch, a, b, scales.get("scale_a"), scales.get("scale_b"), b_major)
    config, q = host.configured(torch, p, "bf16", None, choices.sm_count())
    assert (q.a is not p.a, q.b is not p.b) == repacked, config.name
    out = torch.bfloat16 if dtype != "f16" else torch.float16
    d = mmatom.gemm(a, b, out=_nan(torch, (m, n), out), config=config, b_major=b_major, **scales)
    monkeypatch.setattr(choices, "ODD_PITCH_STEP_SLOWDOWN", 1.0)  # no loss to weigh: read in place
    in_place = mmatom.gemm(a, b, out=_nan(torch, (m, n), out), config=config, b_major=b_major, **scales)
    torch.cuda.synchronize()
    b_kn = b.double().T if b_major == "k" else b.double()
    if dtype == "e4m3":  # fp8 wgmma accumulates in fewer than f32's bits (test_gemm_inputs_gpu's bound), D bf16
        ref = a.double() @ b_kn * 2.0
        bound = 2.0 ** -10 * 2.0 * (a.double().abs() @ b_kn.abs()).max() + ref.abs() * 2.0 ** -8
        assert torch.isfinite(d).all() and bool(((d.double() - ref).abs() <= bound).all())
    else:
        _assert_close(d, a.double() @ b_kn, k, 2.0 ** -8 if out == torch.bfloat16 else 2.0 ** -11)
    assert torch.equal(d, in_place)


def test_a_repacked_batch_gives_torchs_d_and_the_in_place_d(monkeypatch):
    import torch

    import mmatom
    from mmatom.kernels.gemm import batched, choices, host
    layers, m, n, k = 4, 3000, 5000, 1000
    a = torch.randn(layers, m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(layers, n, k, device="cuda", dtype=torch.bfloat16)
    config, a3, b3 = batched.configured(torch, host._problem(torch, a[0], b[0], None, None, "k"), (a, b), ("k", "k"),
                                        layers, None)
    assert a3 is not a and b3 is not b, config.name
    d = mmatom.gemm(a, b, out=_nan(torch, (layers, m, n), torch.bfloat16), config=config)
    monkeypatch.setattr(choices, "ODD_PITCH_STEP_SLOWDOWN", 1.0)
    in_place = mmatom.gemm(a, b, out=_nan(torch, (layers, m, n), torch.bfloat16), config=config)
    torch.cuda.synchronize()
    _assert_close(d, torch.bmm(a.double(), b.double().mT), k, 2.0 ** -8)
    assert torch.equal(d, in_place)
