"""GPU tests (marker `gpu`; CI has no GPU and skips them). Each checks its own numerics."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

KERNEL = """
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @atom(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = mma.load_fragment %pa layout("(16,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    %b = mma.load_fragment %pb layout("(8,16):(16,1)") : !llvm.ptr<1> -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}
"""


def _inputs(rng):
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((8, 16)).astype(np.float16)  # N x K (B column-major)
    c = rng.standard_normal((16, 8)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64).T + c
    return a, b, c, ref


def test_compile_and_run_numpy(tmp_path, monkeypatch):
    import mmatom

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    rng = np.random.default_rng()
    a, b, c, ref = _inputs(rng)
    d = np.full((16, 8), np.nan, dtype=np.float32)  # poisoned
    kernel = mmatom.compile(KERNEL)
    kernel(a, b, c, d, grid=(1,), block=(32,))
    assert np.all(np.isfinite(d))
    assert np.max(np.abs(d - ref)) / np.max(np.abs(ref)) < 1e-5
    assert len(list(tmp_path.glob("*.cubin"))) == 1  # cached, keyed by PTX + chip + driver


def test_torch_tensors_and_cache_hit(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")
    import mmatom
    from mmatom.targets import runtime

    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    rng = np.random.default_rng()
    a, b, c, ref = _inputs(rng)
    for attempt in range(2):
        kernel = mmatom.compile(KERNEL)
        ta, tb, tc = (torch.from_numpy(x).cuda() for x in (a, b, c))
        td = torch.full((16, 8), float("nan"), device="cuda")
        kernel(ta, tb, tc, td)
        torch.cuda.synchronize()
        got = td.cpu().numpy()
        assert np.max(np.abs(got - ref)) / np.max(np.abs(ref)) < 1e-5
        assert kernel._module.from_cache == (attempt == 1)
    assert isinstance(runtime.device().chip, str)


def test_cuda_error_names_the_kernel():
    import mmatom
    from mmatom.targets.runtime import CudaError

    kernel = mmatom.compile(KERNEL)
    arrays = [np.zeros(256, np.float32) for _ in range(4)]
    with pytest.raises(CudaError, match="kernel 'atom': cuLaunchKernel"):
        kernel(*arrays, grid=(1,), block=(4096,))  # more threads than a block may have: not a sticky error


def test_register_conformance_on_this_gpu():
    from mmatom import conformance

    report = conformance.run("register")
    assert report.outcomes, "no register atoms ran"
    assert not report.failed, "\n".join(report.lines()[-20:])
