"""GPU: split-K in a cluster (GemmConfig.cluster_k: 2 or 4 CTAs of a cluster on one tile's slices of K, their sums
handed down a tree of pairs with st.async into a peer's staging boxes) -- swapped and plain tiles, 16-bit and fp8,
tails in M, N and K (a last slice running past K), several tiles a cluster (the hand-over barriers' phases), and
the same bits run to run. Outputs NaN-poisoned first. Marker `gpu`."""

import pytest
from test_gemm_swap_ab_gpu import _check  # tests/gpu is on sys.path (pytest's rootdir-relative imports)

pytestmark = pytest.mark.gpu

CONFIGS = ["128x64x8w1c1x1x2t", "128x16x8w1c1x1x2t", "128x32x8w1c1x1x4t", "128x64x8w1c1x1x2"]
# (m, n, k): one tile, tails, more tiles than clusters fit at once (each cluster several tiles), K shorter than
# the slices' steps (a slice of zeros)
SHAPES = [(64, 4096, 14336), (17, 1000, 520), (45, 300, 200), (8, 40960, 2048), (33, 4104, 100), (200, 1030, 4096)]


def _usable(name: str, m: int) -> bool:
    from mmatom.kernels.gemm import GemmConfig
    config = GemmConfig.from_name(name)
    return not config.swap_ab or m <= 64


@pytest.mark.parametrize("m, n, k", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_cluster_k_16bit(m, n, k, dtype):
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig
    t = torch.bfloat16 if dtype == "bf16" else torch.float16
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(n, k, device="cuda").to(t)
    ref = a.double() @ b.double().T
    for name in CONFIGS:
        if not _usable(name, m):
            continue
        d = torch.full((m, n), float("nan"), device="cuda", dtype=t)
        mmatom.gemm(a, b, out=d, config=GemmConfig.from_name(name))
        torch.cuda.synchronize()
        _check(d, ref, k, 2.0 ** -8)
        again = torch.full_like(d, float("nan"))
        mmatom.gemm(a, b, out=again, config=GemmConfig.from_name(name))
        assert torch.equal(d, again), f"{name}: not the same bits run to run"


@pytest.mark.parametrize("m, n, k", [(64, 4096, 14336), (17, 1000, 520), (32, 4104, 2048)], ids=str)
def test_cluster_k_fp8(m, n, k):
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    sa, sb = torch.tensor([0.5], device="cuda"), torch.tensor([0.25], device="cuda")
    ref = (a.double() @ b.double().T) * 0.125
    bound = (k / 32) ** 0.5 * 2.0 ** -13 * (a.double().abs() @ b.double().abs().T) * 0.125 + ref.abs() * 2.0 ** -7
    for name in CONFIGS:
        if not _usable(name, m):
            continue
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb, config=GemmConfig.from_name(name))
        torch.cuda.synchronize()
        assert torch.isfinite(d).all(), f"{name}: some of D was never written"
        err = (d.double() - ref).abs()
        assert bool((err <= bound + 1e-30).all()), f"{name}: max error {err.max().item():.3g}"


@pytest.mark.parametrize("dtype, k", [("bf16", 4097), ("e4m3", 4095)])
def test_cluster_k_copies_rows_tma_cannot_address(dtype, k):
    """Rows TMA cannot address (K not a multiple of 16 bytes): a cluster config keeps its kernel, whose operands
    are TMA-loaded only, and the host copies those rows into aligned ones first (as for stream-K). Added in session
    37 after its last device call: first run in the next."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig
    t = torch.bfloat16 if dtype == "bf16" else torch.float8_e4m3fn
    a, b = torch.randn(40, k, device="cuda").to(t), torch.randn(1000, k, device="cuda").to(t)
    s = {} if dtype == "bf16" else {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")}
    ref = a.double() @ b.double().T
    for name in ("128x64x8w1c1x1x2t", "128x64x8w1c1x1x2"):
        d = torch.full((40, 1000), float("nan"), device="cuda", dtype=torch.bfloat16)
        mmatom.gemm(a, b, out=d, config=GemmConfig.from_name(name), **s)
        torch.cuda.synchronize()
        _check(d, ref, k, 2.0 ** -7)
