"""GPU: an RS wgmma fed by a converted accumulator (examples/rs_wgmma.py; marker `gpu`): one CTA of two warpgroups
computes O = (Q K^T) V -- S = Q K^T an SS tile, S converted in registers to the bf16 A of the RS tile O = P V, V read
N-major (wgmma's transposed B) or K-major from SMEM -- against numpy float64 on random inputs, O poisoned."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
PATH = Path(__file__).resolve().parents[2] / "examples" / "rs_wgmma.py"
spec = importlib.util.spec_from_file_location("rs_wgmma", PATH)
rs_wgmma = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rs_wgmma)


@pytest.mark.parametrize("bn, v_major", [(64, "mn"), (128, "mn"), (64, "k")])
def test_o_is_q_kt_v_through_the_register_a(bn, v_major, tmp_path, monkeypatch):
    import torch

    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    d = 64
    module, launch = rs_wgmma.attention_step(bn, d, v_major)
    kernel = mmatom.compile(module)
    q, k, v = (torch.randn(rows, d, device="cuda").to(torch.bfloat16) for rows in (128, bn, bn))
    o = torch.full((128, d), float("nan"), device="cuda")
    kernel(q, k, v if v_major == "mn" else v.t().contiguous(), o, grid=(1,), block=launch.block)
    torch.cuda.synchronize()
    q64, k64, v64 = (x.double().cpu().numpy() for x in (q, k, v))
    s = q64 @ k64.T  # the kernel's S is f32 (exact products, f32 sums), then rounded to bf16 in registers
    p = torch.from_numpy(s).float().to(torch.bfloat16).double().numpy()
    got = o.cpu().numpy().astype(np.float64)
    assert np.all(np.isfinite(got)), "O has unwritten (NaN) elements"
    # P may differ from the kernel's by one bf16 ulp where S's f32 sum rounds otherwise; a misplaced value is O(1)
    bound = 2.0 ** -7 * (np.abs(p) @ np.abs(v64)) + bn * 2.0 ** -22 * (np.abs(p) @ np.abs(v64))
    assert np.all(np.abs(got - p @ v64) <= bound + 1e-30), np.max(np.abs(got - p @ v64))
