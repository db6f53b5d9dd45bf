"""Launch checks without a GPU: the block a kernel declares (nvvm.reqntid) is the one it runs with; block sizes
and dynamic shared memory past the GPU's limits are refused naming the limit; after a sticky CUDA error every
later error says the context is lost."""

import types

import pytest

import mmatom
from mmatom.targets import runtime

KERNEL = """
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel@ATTRS@} {
    llvm.return
  }
}
"""


def entry(attrs: str):
    return mmatom.compile(KERNEL.replace("@ATTRS@", attrs)).entries["k"]


def test_the_declared_block_is_the_default_and_the_only_one_accepted():
    e = entry(", nvvm.reqntid = array<i32: 32>")
    assert e.check_block("k", None) == (32, 1, 1)
    assert e.check_block("k", (32,)) == (32, 1, 1)
    for wrong in [(16,), (64,), (32, 2)]:
        with pytest.raises(runtime.LaunchError, match=r"declared for block \(32, 1, 1\).*launched with block="):
            e.check_block("k", wrong)


def test_a_kernel_without_a_thread_count_is_not_launched_blind():
    with pytest.raises(runtime.LaunchError, match=r"declares no thread count: give its llvm.func `nvvm.reqntid"):
        entry("").check_block("k", (32,))


def test_launch_bounds_reach_the_ptx():
    ptx = mmatom.compile(KERNEL.replace("@ATTRS@", ", nvvm.reqntid = array<i32: 128, 2>, nvvm.minctasm = 1 : i32")).ptx
    assert ".entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 128, 2, 1\n.minnctapersm 1\n{" in ptx


@pytest.mark.parametrize("grid, block, smem, message", [
    ((1,), (2048,), 0, r"block \(2048,\) is 2048 threads; a CTA has at most 1024"),
    ((1,), (0,), 0, r"must have 1 to 3 positive extents"),
    ((1,), (128,), 300 * 1024, r"307200 bytes of dynamic shared memory; this GPU allows at most 232448 \(227 KiB\)"),
])
def test_launch_shapes_past_the_gpu_limits_name_the_limit(grid, block, smem, message):
    with pytest.raises(runtime.LaunchError, match=message):
        runtime.check_launch_shape("k", grid, block, smem, shared_limit=227 * 1024)


class FakeDriver:
    """cuda.bindings.driver's error reporting, enough for runtime._check."""

    class CUresult:
        CUDA_SUCCESS = 0

    NAMES = {700: b"CUDA_ERROR_ILLEGAL_ADDRESS", 2: b"CUDA_ERROR_OUT_OF_MEMORY"}

    def cuGetErrorName(self, err):
        return 0, self.NAMES[err]

    def cuGetErrorString(self, err):
        return 0, b"description"


def test_after_a_sticky_error_every_error_says_the_context_is_lost(monkeypatch):
    monkeypatch.setattr(runtime, "_driver", lambda: FakeDriver())
    monkeypatch.setattr(runtime, "_context_lost", None)
    with pytest.raises(runtime.CudaError) as plain:
        runtime._check((2,), "cuMemAlloc")
    assert "context is lost" not in str(plain.value)
    with pytest.raises(runtime.ContextLostError, match=r"(?s)cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS.*"
                                                       r"The CUDA context is lost.*Restart the process"):
        runtime._check((700,), "cuCtxSynchronize", "k")
    with pytest.raises(runtime.ContextLostError, match=r"(?s)cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY.*sticky "
                                                       r"error: kernel 'k': cuCtxSynchronize failed"):
        runtime._check((2,), "cuMemAlloc")
