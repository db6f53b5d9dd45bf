"""GPU, two or more (marker `gpu`; skipped with fewer): a launch runs on its arguments' GPU -- any kernel and the
GEMM, first call and packed replay -- without moving torch's current device; arguments on two GPUs, and a stream
of another GPU, are refused before the launch (the process's CUDA state stays usable)."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")
if torch.cuda.device_count() < 2:
    pytest.skip("needs 2 GPUs", allow_module_level=True)

import mmatom  # noqa: E402
from mmatom.targets import runtime  # noqa: E402
from gpu_kernels import STORE_SCALARS  # tests/gpu is on sys.path (pytest's rootdir-relative imports)


def test_a_kernel_runs_on_the_gpu_its_tensor_is_on():
    kernel = mmatom.compile(STORE_SCALARS)
    for index in (1, 0, 1):
        out = torch.zeros(2, dtype=torch.int32, device=f"cuda:{index}")
        kernel.launch(out, 7 + index, 0.5, stream=torch.cuda.current_stream(index))
        torch.cuda.synchronize(index)
        assert out[0].item() == 7 + index and out[1:].view(torch.float32).item() == 0.5
    assert torch.cuda.current_device() == 0  # the launches on cuda:1 left torch's device where it was


def test_the_synchronous_launch_copies_numpy_to_its_tensors_gpu():
    import numpy as np
    kernel = mmatom.compile(STORE_SCALARS)
    out = np.zeros(2, np.uint32)
    kernel(out, 9, 1.0)  # no device argument: GPU 0
    assert out[0] == 9
    assert torch.cuda.current_device() == 0


@pytest.mark.parametrize("m, n, k", [(256, 384, 512), (300, 520, 200)])
def test_the_gemm_on_cuda_1_matches_torch(m, n, k):
    a = torch.randn(m, k, device="cuda:1").to(torch.bfloat16)
    b = torch.randn(n, k, device="cuda:1").to(torch.bfloat16)
    d = torch.full((m, n), float("nan"), device="cuda:1", dtype=torch.bfloat16)
    for _ in range(2):  # the first call and the packed replay
        mmatom.gemm(a, b, out=d)
        torch.cuda.synchronize(1)
        torch.testing.assert_close(d.float(), (a.float() @ b.float().T).bfloat16().float(), rtol=2 ** -7, atol=0.05)
    allocated = mmatom.gemm(a, b)
    assert allocated.device == a.device and torch.cuda.current_device() == 0
    d0 = mmatom.gemm(a.to("cuda:0"), b.to("cuda:0"))  # GPU 0 after GPU 1: each has its module
    torch.testing.assert_close(d0.cpu(), allocated.cpu())


def test_operands_on_two_gpus_are_refused_naming_each_gpu():
    a = torch.randn(128, 64, device="cuda:0").to(torch.bfloat16)
    b = torch.randn(128, 64, device="cuda:1").to(torch.bfloat16)
    with pytest.raises(mmatom.CompileError, match=r"the operands are on different devices \(\{'a': "
                                                   r"device\(type='cuda', index=0\), 'b': device\(type='cuda', index=1\)"):
        mmatom.gemm(a, b)  # the GEMM's host path names its operands; a kernel's launch names its arguments:
    d = torch.empty(128, 128, device="cuda:0", dtype=torch.bfloat16)
    maps = mmatom.tensor_map(a, 128, 64), mmatom.tensor_map(b, 256, 64), mmatom.tensor_map(d, 64, 64)
    with pytest.raises(runtime.LaunchError, match=r"arguments are on different GPUs \(argument 0 on cuda:0, "
                                                  r"argument 1 on cuda:1"):
        mmatom.gemm_kernel().launch(*maps, 128, 128, 64, grid=(1,))
    assert mmatom.gemm(a, b.to("cuda:0")).isfinite().all()  # nothing was launched: CUDA still works


def test_a_stream_of_another_gpu_is_refused():
    kernel = mmatom.compile(STORE_SCALARS)
    out = torch.zeros(2, dtype=torch.int32, device="cuda:1")
    with pytest.raises(runtime.LaunchError, match=r"is on cuda:0 and the arguments on cuda:1"):
        kernel.launch(out, 1, 1.0, stream=torch.cuda.Stream(device=0))
    torch.cuda.synchronize(1)
    assert out.sum().item() == 0
