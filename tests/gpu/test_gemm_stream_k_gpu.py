"""GPU: stream-K configs (each CTA an equal run of all the tiles' K steps; scheduler.StreamKWalk, split_sums.py):
D within rounding of the float64 reference on partial waves, M / N / K tails, a K of one step, fewer tiles than
SMs and many waves; the same bits on every run (the tile's segments are added in run order whichever finishes
last); fp8 with per-tensor and rowwise scales, an f32 D, an `out` TMA cannot store to. (Marker `gpu`; D poisoned,
inputs fresh random.)"""

import pytest

pytestmark = pytest.mark.gpu

TYPES = {"bf16": "bfloat16", "e4m3": "float8_e4m3fn", "f16": "float16"}

CASES = [  # m, n, k, dtype, config
    (1472, 1088, 5632, "bf16", "128x128x6w1k"),  # 108 tiles on 132 SMs: every tile split between two runs
    (1024, 4608, 3584, "bf16", "128x256x4k"),  # 144 tiles: 1.09 waves
    (2496, 704, 6528, "e4m3", "128x192x4k"),  # fp8, N not a multiple of the tile
    (300, 500, 64, "bf16", "128x64x8w1k"),  # one K step per tile: runs of whole tiles and single steps
    (8000, 6000, 1000, "bf16", "256x128x4k"),  # many waves, M / N / K tails
    (129, 257, 4099, "e4m3", "128x128x6w1k"),  # 6 tiles, K tail: runs many steps short of a tile
    (4096, 4096, 4096, "f16", "128x256x4k"),
]


def _inputs(torch, m, n, k, dtype):
    t = getattr(torch, TYPES[dtype])
    a, b = (torch.randn(m, k, device="cuda") * 0.5).to(t), (torch.randn(n, k, device="cuda") * 0.5).to(t)
    scales = {"scale_a": torch.full((1,), 0.5, device="cuda"), "scale_b": torch.full((1,), 2.0, device="cuda")} \
        if dtype == "e4m3" else {}
    return a, b, scales


def _within_rounding(out, a, b, k, dtype, scale=1.0):
    ref = (a.double() @ b.double().T) * scale
    bound = (2.0 ** -10 if dtype == "e4m3" else k * 2.0 ** -23) * (a.double().abs() @ b.double().abs().T).max() \
        * scale + ref.abs() * 2.0 ** -7
    return bool(((out.double() - ref).abs() <= bound).all())


@pytest.mark.parametrize("m, n, k, dtype, config", CASES)
def test_stream_k_d_is_right_and_the_same_bits_every_run(m, n, k, dtype, config):
    import torch

    import mmatom
    a, b, scales = _inputs(torch, m, n, k, dtype)
    cfg = mmatom.GemmConfig.from_name(config)
    out_dtype = torch.float16 if dtype == "f16" else torch.bfloat16
    runs = []
    for _ in range(3):
        out = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
        mmatom.gemm(a, b, out=out, config=cfg, **scales)
        runs.append(out)
    torch.cuda.synchronize()
    assert all(torch.equal(runs[0], r) for r in runs[1:])
    assert _within_rounding(runs[0], a, b, k, dtype)


@pytest.mark.parametrize("name", ["128x128x6w1k", "128x256x4k"])
def test_stream_k_f32_d_rowwise_scales_and_an_odd_pitch_out(name):
    """128x256x4k's odd-pitch out runs on 128x256x4 (a D stored through its pointer beside the fixup of 128
    accumulators spilled: host._staging_for)."""
    import torch

    import mmatom
    m, n, k = 1000, 1500, 3000
    a, b, _ = _inputs(torch, m, n, k, "e4m3")
    sa, sb = torch.rand(m, device="cuda") + 0.5, torch.rand(n, device="cuda") + 0.5
    cfg = mmatom.GemmConfig.from_name(name)
    out = torch.full((m, n + 1), float("nan"), device="cuda", dtype=torch.bfloat16)[:, :n]  # rows 3002 B apart
    mmatom.gemm(a, b, out=out, scale_a=sa, scale_b=sb, config=cfg)
    f32 = mmatom.gemm(a, b, scale_a=sa, scale_b=sb, config=cfg, out_dtype="f32")
    torch.cuda.synchronize()
    ref = (a.double() @ b.double().T) * sa.double()[:, None] * sb.double()[None, :]
    bound = 2.0 ** -9 * 2.25 * (a.double().abs() @ b.double().abs().T).max() + ref.abs() * 2.0 ** -7
    assert bool(((out.double() - ref).abs() <= bound).all())
    assert bool(((f32.double() - ref).abs() <= bound).all()) and f32.dtype == torch.float32


def test_stream_k_on_two_streams_at_once():
    """Two streams' stream-K launches in flight together: each its own workspace and counters."""
    import torch

    import mmatom
    cfg = mmatom.GemmConfig.from_name("128x256x4k")
    problems = [_inputs(torch, 1024, 4608, 3584, "bf16") for _ in range(2)]
    streams = [torch.cuda.Stream() for _ in problems]
    outs = []
    for (a, b, _), stream in zip(problems, streams):
        with torch.cuda.stream(stream):
            outs.append([mmatom.gemm(a, b, config=cfg) for _ in range(3)])
    torch.cuda.synchronize()
    for (a, b, _), runs in zip(problems, outs):
        assert all(torch.equal(runs[0], r) for r in runs[1:]) and _within_rounding(runs[0], a, b, 3584, "bf16")
