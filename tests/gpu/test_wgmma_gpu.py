"""GPU: the SM90a wgmma example (SMEM staging, descriptors from the layouts, fence/commit/wait)."""

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).parents[2]


def test_wgmma_example_matches_float64(tmp_path, monkeypatch):
    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    rng = np.random.default_rng()
    a = rng.standard_normal((64, 16)).astype(np.float16)
    b = rng.standard_normal((64, 16)).astype(np.float16)  # N x K
    c = rng.standard_normal((64, 64)).astype(np.float32)
    d = np.full((64, 64), np.nan, dtype=np.float32)
    kernel = mmatom.compile((ROOT / "examples" / "wgmma_m64n64k16_f16.mlir").read_text())
    kernel(a, b, c, d, grid=(1,), block=(128,), shared_bytes=8192 + 2048)
    ref = a.astype(np.float64) @ b.astype(np.float64).T + c
    assert np.all(np.isfinite(d))
    assert np.max(np.abs(d - ref)) / np.max(np.abs(ref)) < 1e-5


def test_wgmma_tile_two_warpgroups_matches_float64(tmp_path, monkeypatch):
    """128x128x128 on two warpgroups: eight K steps per warpgroup, descriptors advanced by the layout,
    64 KiB of dynamic SMEM (above the 48 KiB default, so the runtime opts the kernel in)."""
    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    rng = np.random.default_rng()
    a = rng.standard_normal((128, 128)).astype(np.float16)
    b = rng.standard_normal((128, 128)).astype(np.float16)  # N x K
    c = rng.standard_normal((128, 128)).astype(np.float32)
    d = np.full((128, 128), np.nan, dtype=np.float32)
    kernel = mmatom.compile((ROOT / "examples" / "wgmma_tile_128x128x128_f16.mlir").read_text())
    kernel(a, b, c, d, grid=(1,), block=(256,), shared_bytes=65536)
    ref = a.astype(np.float64) @ b.astype(np.float64).T + c
    assert np.all(np.isfinite(d))
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)).T + np.abs(c)
    assert np.max(np.abs(d - ref)) / np.max(scale) < 2.0 ** -20
