"""GPU: a K loop carrying its accumulator through scf.for, and mma.convert's numerics (marker `gpu`)."""

from pathlib import Path

import numpy as np
import pytest

from mmatom.atoms.numerics import bf16_bits, decode

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).parents[2]


def test_k_loop_accumulates_and_converts_to_f16(tmp_path, monkeypatch):
    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    rng = np.random.default_rng()
    a = rng.standard_normal((16, 64)).astype(np.float16)
    b = rng.standard_normal((8, 64)).astype(np.float16)
    d = np.full((16, 8), np.nan, dtype=np.float16)  # poisoned
    kernel = mmatom.compile((ROOT / "examples" / "m16n8k16_kloop.mlir").read_text())
    kernel(a, b, d, grid=(1,), block=(32,))
    exact = a.astype(np.float64) @ b.astype(np.float64).T
    # f32 accumulation over 64 products, then one f16 rounding (half an f16 ulp, 2^-11 relative)
    bound = np.abs(exact) * 2.0 ** -11 + 64 * 2.0 ** -23 * np.abs(a).max() * np.abs(b).max() * 2
    assert np.all(np.isfinite(d))
    assert np.all(np.abs(d.astype(np.float64) - exact) <= bound)


def test_conversions_round_as_stated(tmp_path, monkeypatch):
    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    source = (ROOT / "tests" / "filecheck" / "targets" / "ptx_loops_converts.mlir").read_text().split("// -----")[1]
    rng = np.random.default_rng()
    c = (rng.standard_normal((16, 8)) * 100).astype(np.float32)
    h = np.full((16, 8), np.nan, dtype=np.float16)
    bf = np.full((16, 8), 0xFFFF, dtype=np.uint16)
    i = np.full((16, 8), -1, dtype=np.int32)
    f = np.full((16, 8), np.nan, dtype=np.float32)
    g = np.full((16, 8), np.nan, dtype=np.float32)
    mmatom.compile(source)(c, h, bf, i, f, g, grid=(1,), block=(32,))
    assert np.array_equal(h, c.astype(np.float16))  # f32 -> f16, nearest even
    assert np.array_equal(bf, bf16_bits(h.astype(np.float32)))  # f16 -> bf16 through f32, nearest even
    assert np.array_equal(i, np.trunc(c).astype(np.int32))  # f32 -> s32 toward zero (arith.fptosi)
    assert np.array_equal(f, i.astype(np.float32))  # s32 -> f32 -> f64 -> f32, exact here
    assert np.array_equal(g.astype(np.float64), decode("bf16", bf))  # bf16 -> f32 is exact
