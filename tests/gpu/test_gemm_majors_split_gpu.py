"""GPU: mmatom.gemm on operands stored transposed (A as K x M, B as K x N: read M- / N-major by wgmma, no copy)
and split-K (few output tiles, long K: the K slices' partial sums added up by each tile's last slice, in one
launch). NaN-poisoned outputs, fresh random inputs, a float64 reference (marker `gpu`)."""

import pytest

pytestmark = pytest.mark.gpu

TYPES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "e4m3": "float8_e4m3fn"}


def _assert_close(d, ref, k, rel_out):
    import torch

    assert torch.isfinite(d).all(), "some of D was never written (still NaN)"
    bound = k * 2.0 ** -23 * ref.abs().max() + ref.abs() * rel_out + 1e-30
    err = (d.double() - ref).abs()
    assert bool((err <= bound).all()), f"max error {err.max().item():.3g} (bound {bound.min().item():.3g}..)"


def _operand(rows, k, dtype, stored_transposed):
    """A rows x K operand of `dtype`, stored row-major or as the transpose of a K x rows tensor."""
    import torch

    t = getattr(torch, TYPES[dtype])
    if stored_transposed:
        return torch.randn(k, rows, device="cuda").to(t).t()
    return torch.randn(rows, k, device="cuda").to(t)


@pytest.mark.parametrize("m, n, k", [(256, 512, 192), (300, 520, 200), (2304, 2048, 320), (64, 4096, 1024)], ids=str)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
@pytest.mark.parametrize("a_t, b_t", [(True, False), (True, True), (False, True)])
def test_transposed_storage_is_read_as_it_is(m, n, k, dtype, a_t, b_t):
    """A stored K x M (a transposed view) and/or B stored K x N: read MN-major, the result as torch's."""
    import torch

    import mmatom
    a, b = _operand(m, k, dtype, a_t), _operand(n, k, dtype, b_t)
    d = torch.full((m, n), float("nan"), device="cuda", dtype=a.dtype)
    mmatom.gemm(a, b, out=d)
    torch.cuda.synchronize()
    _assert_close(d, a.double() @ b.double().T, k, 2.0 ** -8)


@pytest.mark.parametrize("name", ["128x256x4", "128x128x6w1", "128x192x4w1", "128x64x8", "128x256x4c2x1",
                                  "128x128x6w1p", "64x128x8w1p", "256x128x4"])
def test_every_m_major_config(name):
    import torch

    import mmatom
    config = mmatom.GemmConfig.from_name(name)
    a, b = _operand(2304, 320, "bf16", True), _operand(2056, 320, "bf16", False)
    d = mmatom.gemm(a, b, config=config)
    torch.cuda.synchronize()
    _assert_close(d, a.double() @ b.double().T, 320, 2.0 ** -8)
    with pytest.raises(mmatom.CompileError, match="an MN-major A takes 16-bit types and no cluster multicasting it"):
        mmatom.gemm(a, b, config=mmatom.GemmConfig(256, 128, 4, cluster_n=2))


def test_fp8_stored_transposed_is_copied_k_major():
    import torch

    import mmatom
    a, b = _operand(256, 384, "e4m3", True), _operand(320, 384, "e4m3", True)
    one = torch.ones(1, device="cuda")
    d = mmatom.gemm(a, b, scale_a=one, scale_b=one, out_dtype="f32")
    torch.cuda.synchronize()
    # fp8 wgmma keeps ~14 bits of its sums (test_gemm_gpu.test_fp8): its bound, not f32's
    bound = (384 / 32) ** 0.5 * 2.0 ** -13 * (a.double().abs() @ b.double().abs().T)
    assert torch.isfinite(d).all() and bool(((d.double() - a.double() @ b.double().T).abs() <= bound).all())


@pytest.mark.parametrize("m, n, k", [(1, 4096, 11008), (8, 4096, 4096), (64, 1000, 20000), (37, 520, 7777)],
                         ids=str)
@pytest.mark.parametrize("out_dtype", ["bf16", "f32"])
def test_split_k_configs(m, n, k, out_dtype):
    """Each split-K config -- and (16-bit D) each swapped-operand config's split variant whose tile covers M --
    with the K slices the model picks, against float64: every slice's sums land, in the same bits call after call
    (the counters left at 0 by each launch; the last slice adds the slices up in order)."""
    from dataclasses import replace

    import torch

    import mmatom
    from mmatom.kernels.gemm import SPLIT_K_CONFIGS, SWAP_AB_CONFIGS
    from mmatom.kernels.gemm.choices import sm_count, splits
    a, b = _operand(m, k, "bf16", False), _operand(n, k, "bf16", False)
    swapped = [replace(c, split_k=True) for c in SWAP_AB_CONFIGS if m <= c.block_n and out_dtype != "f32"]
    for config in SPLIT_K_CONFIGS + tuple(swapped):
        assert splits(config, m, n, k, "bf16", sm_count()) > 1, config.name
        runs = []
        for _ in range(3):
            d = torch.full((m, n), float("nan"), device="cuda", dtype=getattr(torch, TYPES[out_dtype]))
            mmatom.gemm(a, b, out=d, config=config)
            runs.append(d)
        torch.cuda.synchronize()
        _assert_close(runs[0], a.double() @ b.double().T, k, 2.0 ** -8 if out_dtype == "bf16" else 2.0 ** -20)
        assert torch.equal(runs[0], runs[1]) and torch.equal(runs[0], runs[2]), config.name


def test_split_k_on_two_streams_at_once():
    """Two streams, each with split-K calls in flight beside the other's: each stream's workspace is its own, so
    neither counts the other's slices (a shared counter would let a tile be stored before all its slices land)."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import SPLIT_K_CONFIGS
    config = SPLIT_K_CONFIGS[1]
    a, b = _operand(128, 16384, "bf16", False), _operand(1024, 16384, "bf16", False)
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    outs = [[torch.full((128, 1024), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(8)]
            for _ in streams]
    torch.cuda.synchronize()
    for i in range(8):
        for stream, d in zip(streams, outs):
            with torch.cuda.stream(stream):
                mmatom.gemm(a, b, out=d[i], config=config)
    torch.cuda.synchronize()
    ref = a.double() @ b.double().T
    _assert_close(outs[0][0], ref, 16384, 2.0 ** -8)
    assert all(torch.equal(d, outs[0][0]) for ds in outs for d in ds)


def test_split_k_fp8_and_transposed_and_replayed():
    import torch

    import mmatom
    from mmatom.kernels.gemm import SPLIT_K_CONFIGS
    a, b = _operand(16, 8192, "e4m3", False), _operand(2048, 8192, "e4m3", False)
    sa, sb = torch.tensor([0.5], device="cuda"), torch.tensor([2.0], device="cuda")
    d = torch.full((16, 2048), float("nan"), device="cuda", dtype=torch.bfloat16)
    for _ in range(3):  # the second and third calls replay the packed launch (the same workspace)
        d.fill_(float("nan"))
        mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb, config=SPLIT_K_CONFIGS[0])
        torch.cuda.synchronize()
        err = (d.double() - a.double() @ b.double().T).abs()
        assert torch.isfinite(d).all() and err.max() <= 2.0 ** -6 * (a.double().abs() @ b.double().abs().T).max()
    at, bt = _operand(16, 4096, "bf16", True), _operand(2048, 4096, "bf16", True)
    d = mmatom.gemm(at, bt, config=SPLIT_K_CONFIGS[1])
    torch.cuda.synchronize()
    _assert_close(d, at.double() @ bt.double().T, 4096, 2.0 ** -8)


def test_the_prior_splits_decode_shapes_even_when_deterministic():
    """Split-K adds its slices in a fixed order: under torch.use_deterministic_algorithms the prior still takes it,
    and two calls give the same bits."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import choose_config
    assert choose_config(1, 4096, 11008, "bf16", swap_ab=False).split_k
    assert not choose_config(1, 4096, 11008, "bf16", split_k=False).split_k
    a, b = _operand(1, 11008, "bf16", False), _operand(4096, 11008, "bf16", False)
    torch.use_deterministic_algorithms(True)
    try:
        first, second = mmatom.gemm(a, b, config=choose_config(1, 4096, 11008, "bf16", swap_ab=False)), \
            mmatom.gemm(a, b)
        again = mmatom.gemm(a, b)
        torch.cuda.synchronize()
        assert torch.equal(second, again)
    finally:
        torch.use_deterministic_algorithms(False)
    _assert_close(first, a.double() @ b.double().T, 11008, 2.0 ** -8)
    _assert_close(second, a.double() @ b.double().T, 11008, 2.0 ** -8)


@pytest.mark.parametrize("case", ["k_major", "b_k_by_n", "a_transposed", "shared_b", "odd_k", "f16_out_given"])
def test_batched(case):
    """A (L, M, K) with B (L, N, K) / (L, K, N) or a shared B: one launch over the layers (3-d tensor maps), or the
    batch folded into M; each layer against float64."""
    import torch

    import mmatom
    layers, m, n, k = 3, 300, 520, 200 if case != "odd_k" else 203
    t = torch.float16 if case == "f16_out_given" else torch.bfloat16
    a = torch.randn(layers, m, k, device="cuda", dtype=t)
    if case == "a_transposed":
        a = torch.randn(layers, k, m, device="cuda", dtype=t).transpose(1, 2)
    b = torch.randn(layers, n, k, device="cuda", dtype=t)
    kwargs = {}
    if case == "b_k_by_n":
        b, kwargs = torch.randn(layers, k, n, device="cuda", dtype=t), {"b_major": "n"}
    if case == "shared_b":
        b = torch.randn(n, k, device="cuda", dtype=t)
    if case == "f16_out_given":
        kwargs = {"out": torch.full((layers, m, n), float("nan"), device="cuda", dtype=t)}
    d = mmatom.gemm(a, b, **kwargs)
    torch.cuda.synchronize()
    assert d.shape == (layers, m, n) and (case != "f16_out_given" or d is kwargs["out"])
    b_nk = b.transpose(-1, -2) if case == "b_k_by_n" else b
    for layer in range(layers):
        b_layer = b_nk if b_nk.dim() == 2 else b_nk[layer]
        _assert_close(d[layer], a[layer].double() @ b_layer.double().T, k, 2.0 ** -8)


@pytest.mark.parametrize("name", ["128x256x4", "128x128x6w1", "128x256x4c2x1", "256x128x4c1x2", "64x128x8w1p"])
def test_batched_configs(name):
    import torch

    import mmatom
    a = torch.randn(4, 520, 320, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4, 1032, 320, device="cuda", dtype=torch.bfloat16)
    d = mmatom.gemm(a, b, config=mmatom.GemmConfig.from_name(name))
    torch.cuda.synchronize()
    _assert_close(d, a.double() @ b.double().transpose(1, 2), 320, 2.0 ** -8)
