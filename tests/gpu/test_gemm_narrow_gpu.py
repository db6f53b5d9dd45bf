"""GPU: the narrow tiles (block_n 96, 160, 224: a 16-bit D staged in 32-column boxes of 64-byte rows, swizzled 64B and
TMA-stored through a "64b" map) -- every element type into every D type, tails in M and N, a batch, a D at a pitch
TMA cannot store to (the prior's narrow pick widened; a narrow config= refused), odd-K rows -- against a float64
reference on fresh random inputs, outputs NaN-poisoned (marker `gpu`)."""

import pytest

from mmatom.kernels.gemm import GemmConfig
from test_gemm_gpu import _check

pytestmark = pytest.mark.gpu

NARROW = ["128x96x6w1", "128x160x5w1", "128x224x4"]
# a tail in M and N (300 x 520: the last box of a tile half outside D), and every CTA two or three tiles
SHAPES = [(300, 520, 200), (2304, 2048, 320)]


def _operands(torch, m, n, k, dtype, layers=None):
    t = {"bf16": torch.bfloat16, "f16": torch.float16, "e4m3": torch.float8_e4m3fn}[dtype]
    lead = (layers,) if layers else ()
    a, b = torch.randn(*lead, m, k, device="cuda").to(t), torch.randn(*lead, n, k, device="cuda").to(t)
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} \
        if dtype == "e4m3" else {}
    return a, b, scales


@pytest.mark.parametrize("config", NARROW)
@pytest.mark.parametrize("dtype, out_dtype", [("bf16", "bf16"), ("bf16", "f32"), ("f16", "f16"), ("e4m3", "bf16"),
                                              ("e4m3", "f32")])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_narrow_tiles_compute_the_gemm(config, dtype, out_dtype, shape):
    import torch

    import mmatom
    m, n, k = shape
    a, b, scales = _operands(torch, m, n, k, dtype)
    t = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[out_dtype]
    d = torch.full((m, n), float("nan"), device="cuda", dtype=t)
    mmatom.gemm(a, b, out=d, config=GemmConfig.from_name(config), **scales)
    torch.cuda.synchronize()
    _check(d, a, b, 1.0, k, accumulate_ulp=2.0 ** -11 if dtype == "e4m3" else None)


def test_a_batch_on_a_narrow_tile():
    import torch

    import mmatom
    a, b, _ = _operands(torch, 300, 520, 200, "bf16", layers=3)
    d = mmatom.gemm(a, b, config=GemmConfig.from_name("128x160x5w1"))
    torch.cuda.synchronize()
    for layer in range(3):
        _check(d[layer], a[layer], b[layer], 1.0, 200)


def test_odd_k_rows_on_a_narrow_tile():
    """K = 1001: rows 2002 bytes apart, which TMA cannot address -- read in place by the realigning producer or
    copied, whichever the host plans."""
    import torch

    import mmatom
    a, b, _ = _operands(torch, 300, 520, 1001, "bf16")
    d = torch.full((300, 520), float("nan"), device="cuda", dtype=torch.bfloat16)
    mmatom.gemm(a, b, out=d, config=GemmConfig.from_name("128x96x6w1"))
    torch.cuda.synchronize()
    _check(d, a, b, 1.0, 1001)


def test_a_d_at_any_pitch_takes_a_wide_tile():
    """A 16-bit D stored through its pointer (rows an odd number of elements apart) reads boxes of 128-byte rows:
    where the prior picks a narrow tile, or config= names one, the host runs its 64-column neighbour; the kernel
    builder refuses the narrow tile for such a D."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import build_gemm, choose_config
    m, n, k = 2048, 1727, 2048  # the prior's pick on 132 SMs: 128 x 224 (8 column tiles, 128 of 132 SMs)
    if choose_config(m, n, k, "bf16").block_n % 64 != 32:
        pytest.skip(f"the prior picks {choose_config(m, n, k, 'bf16').name} on this GPU")
    a, b, _ = _operands(torch, m, n, k, "bf16")
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)  # rows 3454 bytes apart
    mmatom.gemm(a, b, out=d)
    torch.cuda.synchronize()
    _check(d, a, b, 1.0, k)
    d.fill_(float("nan"))
    mmatom.gemm(a, b, out=d, config=GemmConfig.from_name("128x224x4"))
    torch.cuda.synchronize()
    _check(d, a, b, 1.0, k)
    # another M into an out of the same pitch: the call's any-rows template (host._AnyRows) widens the tile too
    a2 = torch.randn(m - 128, k, device="cuda").bfloat16()
    d2 = torch.full((m - 128, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    mmatom.gemm(a2, b, out=d2)
    torch.cuda.synchronize()
    _check(d2, a2, b, 1.0, k)
    with pytest.raises(mmatom.CompileError, match="64-byte rows"):
        build_gemm("bf16", config=GemmConfig.from_name("128x224x4"), direct_d=True)
