"""GPU tests (marker `gpu`; CI has no GPU and skips them). Each checks its own numerics."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

KERNEL = """
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @atom(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
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
    assert len(list(tmp_path.glob("cubin/*.cubin"))) == 1  # cached, keyed by PTX + chip + driver


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


def test_a_launch_must_match_the_declared_block():
    import mmatom
    from mmatom.targets import runtime

    kernel = mmatom.compile(KERNEL)
    arrays = [np.zeros(256, np.float32) for _ in range(4)]
    for block in [(16,), (64,), (4096,)]:  # a short block left 64 elements of D unwritten, silently
        with pytest.raises(runtime.LaunchError, match=r"kernel 'atom' is declared for block \(32, 1, 1\)"):
            kernel(*arrays, block=block)
    # below the API the driver enforces .reqntid itself: a plain CudaError naming the kernel, not a sticky one
    with pytest.raises(runtime.CudaError, match="kernel 'atom': cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE"):
        runtime.launch(kernel._module or runtime.Module(kernel.ptx, "atom"), "atom", kernel.entries["atom"].params,
                       arrays, block=(64,))
    with pytest.raises(runtime.LaunchError, match=r"this GPU allows at most 232448 \(227 KiB\) per CTA"):
        kernel(*arrays, shared_bytes=228 * 1024)
    kernel(*arrays)  # the context is still usable


FAULT = """
import numpy as np, mmatom
from mmatom.targets import runtime

class Wild:  # a device pointer nobody allocated
    __cuda_array_interface__ = {"data": (16, False), "shape": (1,), "typestr": "<f4", "version": 3}

kernel = mmatom.compile(KERNEL)
arrays = [np.zeros(256, np.float32) for _ in range(3)]
for attempt in range(2):
    try:
        kernel(*arrays, Wild()) if attempt == 0 else kernel(*arrays, np.zeros(256, np.float32))
    except runtime.ContextLostError as err:
        print(f"attempt {attempt}: {err}")
"""


def test_after_a_fault_every_error_says_the_context_is_lost():
    import subprocess
    import sys

    script = f"KERNEL = {KERNEL!r}\n" + FAULT  # a lost context cannot be recovered: its own process
    out = subprocess.run([sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, later = out.stdout.strip().split("\nattempt 1: ")
    assert first.startswith("attempt 0: kernel 'atom': cuCtxSynchronize (the kernel faulted) failed: "
                            "CUDA_ERROR_ILLEGAL_ADDRESS") and "The CUDA context is lost" in first
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in later and "The CUDA context is lost" in later
    assert "Restart the process" in later


def test_register_conformance_on_this_gpu():
    from mmatom import conformance

    report = conformance.run("register")
    assert report.outcomes, "no register atoms ran"
    assert not report.failed, "\n".join(report.lines()[-20:])
