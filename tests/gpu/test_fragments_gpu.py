"""GPU: the fragment API on real wgmma accumulators and warps (examples/fragment_rows.py; marker `gpu`). Each thread
scatters its S = A B^T values to their (row, col) -- S row-major iff the coordinates are right --, the row max is
exactly numpy's max of the (causally masked) S, the row sums and the softmax match numpy to ex2/rcp's ulps; every
shfl kind moves exactly the lane PTX names. Outputs poisoned."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu
PATH = Path(__file__).resolve().parents[2] / "examples" / "fragment_rows.py"
spec = importlib.util.spec_from_file_location("fragment_rows", PATH)
fragment_rows = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fragment_rows)


@pytest.mark.parametrize("n, warpgroups, causal", [(64, 1, True), (64, 1, False), (128, 2, True), (256, 1, False)])
def test_row_softmax_of_a_wgmma_tile(n, warpgroups, causal, tmp_path, monkeypatch):
    import torch

    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    module, launch = fragment_rows.row_softmax(n, warpgroups, causal)
    kernel = mmatom.compile(module)
    M, K = 64 * warpgroups, fragment_rows.K
    a = torch.randn(M, K, device="cuda").to(torch.bfloat16)
    b = torch.randn(n, K, device="cuda").to(torch.bfloat16)
    s, p = (torch.full((M, n), float("nan"), device="cuda") for _ in range(2))
    rowmax, rowsum = (torch.full((M,), float("nan"), device="cuda") for _ in range(2))
    kernel(a, b, s, rowmax, rowsum, p, grid=(1,), block=launch.block)
    torch.cuda.synchronize()
    a64, b64 = a.double().cpu().numpy(), b.double().cpu().numpy()
    got_s = s.cpu().numpy().astype(np.float64)
    bound = K * 2.0 ** -23 * (np.abs(a64) @ np.abs(b64).T)  # f32 accumulation of exact bf16 products
    assert np.all(np.abs(got_s - a64 @ b64.T) <= bound + 1e-30), "S is not A B^T where its coordinates say"
    masked = np.where(np.tril(np.ones((M, n), dtype=bool)), got_s, -np.inf) if causal else got_s
    np.testing.assert_array_equal(rowmax.cpu().numpy(), masked.max(1).astype(np.float32))  # max is exact
    e = np.exp2((masked - masked.max(1, keepdims=True)) * fragment_rows.LOG2E)
    np.testing.assert_allclose(rowsum.cpu().numpy(), e.sum(1), rtol=2e-5)
    np.testing.assert_allclose(p.cpu().numpy(), e / e.sum(1, keepdims=True), rtol=5e-5, atol=1e-7)


def _sources(kind: str, offset, threads: int) -> np.ndarray:
    t = np.arange(threads)
    lane, base = t % 32, t - t % 32
    src = {"bfly": lambda: lane ^ offset, "idx": lambda: np.full(threads, offset),
           "down": lambda: np.where(lane + (offset or 0) < 32, lane + (offset or 0), lane),
           "up": lambda: np.where(lane - (offset or 0) >= 0, lane - (offset or 0), lane),
           "idx_lane": lambda: (3 * t + 1) % 32}[kind]()
    return base + src


def test_every_shuffle_reads_the_lane_ptx_names(tmp_path, monkeypatch):
    import torch

    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    module, launch = fragment_rows.shuffles()
    kernel = mmatom.compile(module)
    threads, kinds = launch.block[0], fragment_rows.SHUFFLES
    x = torch.randn(threads, device="cuda")
    i = torch.randint(-2**31, 2**31 - 1, (threads,), device="cuda", dtype=torch.int32)
    out_f = torch.full((len(kinds) * threads,), float("nan"), device="cuda")
    out_i = torch.full((len(kinds) * threads,), -1, device="cuda", dtype=torch.int32)
    kernel(x, i, out_f, out_i, grid=(1,), block=launch.block)
    torch.cuda.synchronize()
    got_f, got_i = out_f.cpu().numpy().reshape(len(kinds), threads), out_i.cpu().numpy().reshape(len(kinds), threads)
    for k, (kind, offset) in enumerate(kinds):
        src = _sources(kind, offset, threads)
        np.testing.assert_array_equal(got_f[k], x.cpu().numpy()[src], err_msg=kind)
        np.testing.assert_array_equal(got_i[k], i.cpu().numpy()[src], err_msg=kind)


def test_ex2_on_the_fma_pipes_is_2_to_the_x(tmp_path, monkeypatch):
    """kb.ex2_fma over a range a softmax meets (and past it): within 7.5e-5 of 2^x relatively, ~2^-125 below -125;
    kb.ex2 beside it for scale. Output poisoned, inputs fresh."""
    import torch

    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    kb = mmatom.KernelBuilder("ex2_fma", [("x", "ptr"), ("y", "ptr"), ("z", "ptr")], "sm_90a", threads=256)
    i = kb.ctaid() * 256 + kb.tid()
    x = kb.load_scalar(kb.param("x"), "f32", i)
    kb.store_scalar(kb.ex2_fma(x), kb.param("y"), i)
    kb.store_scalar(kb.ex2(x), kb.param("z"), i)
    module, launch = kb.finish()
    kernel = mmatom.compile(module)
    x = torch.cat([torch.rand(1 << 16, device="cuda") * -140 + 10, torch.tensor([-0.5, 0.5, 0.0, -125.0, -300.0],
                                                                                  device="cuda")])
    x = torch.cat([x, torch.zeros(-len(x) % 256, device="cuda")])
    y, z = (torch.full_like(x, float("nan")) for _ in range(2))
    kernel(x, y, z, grid=(len(x) // 256,), block=launch.block)
    torch.cuda.synchronize()
    xs, ys = x.double().cpu().numpy(), y.double().cpu().numpy()
    normal = xs >= -125
    worst = np.abs(ys[normal] / np.exp2(xs[normal]) - 1)
    assert worst.max() < 8e-5, f"x = {xs[normal][worst.argmax()]}: {ys[normal][worst.argmax()]}"
    assert np.all((ys[~normal] > 0) & (ys[~normal] < 2.0 ** -124)), ys[~normal].max()
    mufu = np.abs(z.double().cpu().numpy()[xs > -120] / np.exp2(xs[xs > -120]) - 1)
    assert mufu.max() < 1e-6, mufu.max()  # ex2.approx: 2 ulp
