"""GPU: operands whose rows do not start on 16 bytes (fp8 with K % 16 != 0, bf16 with K % 8 != 0, a base address
off 16 bytes) are read in place and realigned by the kernel's producer (kernels/gemm/realigned_loads.py), not
copied: D is bit for bit the D of the same config on aligned copies of the operands, and within rounding of the
float64 reference; NaN between the rows (past K) never reaches D; no copy is made. Calls realign where
choices.realign_pays says it costs less than the copy (host.REALIGN_UNALIGNED None), always (True) or never
(False); these tests set it (marker `gpu`; D poisoned, inputs fresh random)."""

import pytest

pytestmark = pytest.mark.gpu

TYPES = {"bf16": "bfloat16", "e4m3": "float8_e4m3fn"}


def _operand(torch, rows, k, dtype, skew=0, gap=0, fill=float("nan")):
    """rows x k of `dtype`, rows k + gap elements apart, `skew` elements past a 16-byte-aligned address, the gap
    and the skew filled with `fill` (what a kernel reading past K would pick up)."""
    t = getattr(torch, TYPES[dtype])
    pitch = k + gap
    flat = torch.full((skew + rows * pitch + 64,), fill, device="cuda").to(t)
    x = flat[skew:skew + rows * pitch].view(rows, pitch)[:, :k]
    x.copy_((torch.randn(rows, k, device="cuda") * 0.5).to(t))
    return x


def _aligned(torch, x):
    """An aligned, contiguous copy of `x` (TMA reads it as it is)."""
    t = x.dtype
    cols = -(-x.shape[1] // 16) * 16
    return torch.zeros(x.shape[0], cols, device="cuda", dtype=t)[:, :x.shape[1]].copy_(x)


CASES = [  # m, n, k, dtype, config, a's skew / gap, b's skew / gap
    (6, 1000, 2701, "e4m3", "128x16x8w1t", (0, 0), (0, 0)),  # odd K, swapped operands: both realigned
    (37, 515, 1111, "e4m3", "128x64x8w1t", (3, 5), (1, 9)),  # bases off 16 bytes, gaps between rows
    (300, 777, 4095, "e4m3", "128x128x6w1", (0, 0), (0, 0)),  # a 4095^3-like square's rows, two tiles of M
    (129, 250, 37, "e4m3", "128x64x8w1", (5, 0), (0, 3)),  # K shorter than one step
    (5, 700, 1999, "bf16", "128x32x8w1t", (0, 0), (1, 0)),  # bf16, K % 8 = 7
    (200, 300, 1003, "bf16", "128x128x6w1", (0, 2), (3, 0)),
    (64, 384, 13982, "bf16", "64x128x8w1p", (0, 0), (0, 0)),  # ping-pong consumers, a long K
    (3, 2735, 2857, "bf16", "128x16x8w1st", (0, 0), (0, 0)),  # swapped, split-K: each slice realigns its K
    (9, 470, 3222, "e4m3", "128x64x8w1s", (1, 0), (0, 7)),  # split-K, the slices' K steps off the rows' start
]


@pytest.mark.parametrize("m, n, k, dtype, config, a_at, b_at", CASES)
def test_realigned_operands_give_the_aligned_copies_d(monkeypatch, m, n, k, dtype, config, a_at, b_at):
    import torch

    import mmatom
    from mmatom.kernels.gemm import choices as gemm_choices
    from mmatom.kernels.gemm import host
    a, b = _operand(torch, m, k, dtype, *a_at), _operand(torch, n, k, dtype, *b_at)
    scales = {"scale_a": torch.full((1,), 0.5, device="cuda"), "scale_b": torch.full((1,), 2.0, device="cuda")} \
        if dtype == "e4m3" else {}
    cfg = mmatom.GemmConfig.from_name(config)
    want = mmatom.gemm(_aligned(torch, a), _aligned(torch, b), config=cfg, **scales)

    def no_copy(*args, **kwargs):
        raise AssertionError("an operand was copied")
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", True)
    # split-K: the aligned call's slice count (a realigning call takes as many as fill the SMs; other slices, other
    # roundings), so that the two D are the same bits
    monkeypatch.setattr(host, "realign_splits", lambda *args: gemm_choices.splits(*args))
    monkeypatch.setattr(host, "row_copier", no_copy)
    monkeypatch.setattr(host, "padded_copy", no_copy)
    for step in range(2):  # the first call, and its replay
        out = torch.full((m, n), float("nan"), device="cuda", dtype=want.dtype)
        mmatom.gemm(a, b, out=out, config=cfg, **scales)
        torch.cuda.synchronize()
        assert torch.equal(out, want), (step, (out.float() - want.float()).abs().max())
    ref = a.double() @ b.double().T
    bound = (2.0 ** -10 if dtype == "e4m3" else k * 2.0 ** -23) * (a.double().abs() @ b.double().abs().T).max() \
        + ref.abs() * 2.0 ** -7
    assert bool(((out.double() - ref).abs() <= bound).all())


@pytest.mark.parametrize("realign", [True, False, None])
@pytest.mark.parametrize("dtype", ["e4m3", "bf16"])
def test_untuned_call_on_odd_rows(monkeypatch, dtype, realign):
    """The prior's config, whatever it is, realigns or copies (REALIGN_UNALIGNED on, off, or where it pays) -- D
    right either way."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import host
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", realign)
    m, n, k = 9, 4090, 3001
    a, b = _operand(torch, m, k, dtype), _operand(torch, n, k, dtype, gap=1)
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} \
        if dtype == "e4m3" else {}
    d = mmatom.gemm(a, b, **scales)
    torch.cuda.synchronize()
    ref = a.double() @ b.double().T
    bound = (2.0 ** -10 if dtype == "e4m3" else k * 2.0 ** -23) * (a.double().abs() @ b.double().abs().T).max() \
        + ref.abs() * 2.0 ** -7
    assert torch.isfinite(d).all() and bool(((d.double() - ref).abs() <= bound).all())


def test_a_long_odd_k_realigns_in_slices_that_fill_the_sms():
    """Small M, a long odd K (9 x 4090 x 23434): by default the prior's swapped tile runs as its split-K variant,
    realigning both operands in place (no copy) in slices that fill the SMs -- D within rounding of the reference."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import host
    from mmatom.kernels.gemm.choices import sm_count
    m, n, k = 9, 4090, 23434
    a, b = _operand(torch, m, k, "bf16"), _operand(torch, n, k, "bf16", gap=3)
    p = host._problem(torch, a, b, None, None, "k")
    config, planned = host.configured(torch, p, "bf16", None, sm_count())
    assert config.split_k and planned.copies == () and all(planned.unaligned), config.name
    assert host._splits_of(planned._replace(config=config), sm_count()) >= 4
    d = mmatom.gemm(a, b)
    torch.cuda.synchronize()
    ref = a.double() @ b.double().T
    bound = k * 2.0 ** -23 * (a.double().abs() @ b.double().abs().T).max() + ref.abs() * 2.0 ** -7
    assert torch.isfinite(d).all() and bool(((d.double() - ref).abs() <= bound).all())
