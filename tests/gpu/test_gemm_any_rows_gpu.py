"""GPU: a serving loop's calls -- the same B, scales and D's layout, a new M each call -- go through the any-rows
template (host._AnyRows: no input checks or planning again, only the config for the new M, two tensor maps and the
launch) and compute what the full path computes: bf16 and fp8, D given or allocated, B given K x N, M small enough
for the swapped-operand configs and large enough for the 128-row tiles. Outputs NaN-poisoned, inputs fresh
random, the reference float64 (marker `gpu`)."""

import pytest

pytestmark = pytest.mark.gpu

ROWS = [1, 7, 16, 33, 64, 65, 200, 1000, 3001]


def _loop(dtype: str, b_major: str, with_out: bool, monkeypatch):
    import torch

    import mmatom
    from mmatom.kernels.gemm import host

    n, k = 1536, 1024
    fp8 = dtype == "e4m3"
    torch_type = torch.float8_e4m3fn if fp8 else torch.bfloat16
    a_all = torch.randn(max(ROWS), k, device="cuda").to(torch_type)
    weight = torch.randn(n, k, device="cuda").to(torch_type)
    b = weight.t().contiguous() if b_major == "n" else weight  # K x N for `a @ b`
    scales = {"scale_a": torch.tensor([0.5], device="cuda"), "scale_b": torch.tensor([2.0], device="cuda")} \
        if fp8 else {}
    out_all = torch.empty(max(ROWS), n, device="cuda", dtype=torch.bfloat16)
    host.forget_prepared_calls()
    full = []
    real_problem = host._problem
    monkeypatch.setattr(host, "_problem", lambda *args: full.append(1) or real_problem(*args))
    results = []
    for m in ROWS:
        a = a_all[:m]
        out = out_all[:m].fill_(float("nan")) if with_out else None
        results.append((m, mmatom.gemm(a, b, out=out, b_major=b_major, **scales)))
    torch.cuda.synchronize()
    for m, d in results:
        ref = a_all[:m].double() @ weight.double().T  # the scales' product is 1
        assert d.shape == (m, n) and torch.isfinite(d).all(), f"M = {m}: some of D was never written"
        err = (d.double() - ref).abs().max().item()
        assert err <= 2.0 ** -7 * ref.abs().max().item() + 1e-3, f"M = {m}: max error {err:.3g}"
    return full


@pytest.mark.parametrize("dtype, b_major", [("bf16", "k"), ("bf16", "n"), ("e4m3", "k")])
@pytest.mark.parametrize("with_out", [True, False], ids=["out", "allocated"])
def test_new_rows_take_the_template_and_compute_what_the_full_path_does(dtype, b_major, with_out, monkeypatch):
    full = _loop(dtype, b_major, with_out, monkeypatch)
    # the first call plans in full; later ones through the template (split-K too)
    assert len(full) == 1, f"{len(full)} of {len(ROWS)} calls planned in full"
