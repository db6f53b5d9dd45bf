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
