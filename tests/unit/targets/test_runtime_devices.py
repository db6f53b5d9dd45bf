"""Which GPU a launch runs on, without a GPU: the device of each argument (a torch tensor's, the one a tensor map
was encoded for, the driver's answer for a raw pointer), arguments on two GPUs or a stream of another GPU
refused before anything is launched, the kernel loaded on each GPU that launches it, and the launch made in
that GPU's context without moving the caller's (a fake driver records the context current at each call)."""

import types

import numpy as np
import pytest

from mmatom.targets import runtime

P = runtime.Param


class TorchLike:
    """What the runtime reads of a torch tensor."""

    def __init__(self, address: int, device: int | None):
        self.address, self.device, self.is_cuda = address, device, device is not None

    def data_ptr(self) -> int:
        return self.address

    def get_device(self) -> int:
        return -1 if self.device is None else self.device


class CudaArray:
    def __init__(self, address: int):
        self.__cuda_array_interface__ = {"data": (address, False), "shape": (1,), "typestr": "<f4", "version": 3}


def tensor_map(device: int | None) -> runtime.TensorMap:
    return runtime.TensorMap(0x1000, 1, 1, 1, "bf16", 2, 1, 1, "128b", types.SimpleNamespace(getPtr=lambda: 0),
                             device)


def test_each_argument_names_its_gpu(monkeypatch):
    monkeypatch.setattr(runtime, "pointer_device", lambda address: {0x7000: 3}[address])
    assert runtime.device_of(TorchLike(0x10, 2)) == 2
    assert runtime.device_of(tensor_map(1)) == 1
    assert runtime.device_of(CudaArray(0x7000)) == 3  # no device in the interface: the driver is asked
    for off_gpu in (TorchLike(0x10, None), np.zeros(2), 7, 1.5):
        assert runtime.device_of(off_gpu) is None


def test_a_launch_runs_on_its_arguments_gpu_or_gpu_0_without_any():
    assert runtime.launch_device("k", [tensor_map(1), TorchLike(0x10, 1), 5]) == 1
    assert runtime.launch_device("k", [5, np.zeros(2)]) == 0


def test_arguments_on_two_gpus_are_refused_naming_each_ones_gpu():
    with pytest.raises(runtime.LaunchError, match=r"kernel 'k': its arguments are on different GPUs \(argument 0 "
                                                  r"on cuda:0, argument 2 on cuda:1\); a launch runs on one GPU"):
        runtime.launch_device("k", [tensor_map(0), 16, TorchLike(0x10, 1)])


class ContextDriver:
    """The driver calls a launch makes, each recorded with the context current when it was made."""

    def __init__(self, current: str, stream_contexts: dict[int, str]):
        self.stack, self.calls, self.stream_contexts = [current], [], stream_contexts
        self.CUresult = types.SimpleNamespace(CUDA_SUCCESS=0)
        self.CUstream = int
        self.CUfunction_attribute = types.SimpleNamespace(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES=8)

    def cuCtxGetCurrent(self):  # noqa: N802 (the driver's spelling, as below)
        return 0, self.stack[-1]

    def cuCtxPushCurrent(self, context):  # noqa: N802
        self.stack.append(context)
        return (0,)

    def cuCtxPopCurrent(self):  # noqa: N802
        return 0, self.stack.pop()

    def cuCtxGetDevice(self):  # noqa: N802
        return 0, int(self.stack[-1].removeprefix("ctx"))

    def cuStreamGetCtx(self, stream):  # noqa: N802
        return 0, self.stream_contexts[stream]

    def cuFuncSetAttribute(self, func, attribute, value):  # noqa: N802
        self.calls.append(("cuFuncSetAttribute", func, value, self.stack[-1]))
        return (0,)

    def cuLaunchKernel(self, func, *args):  # noqa: N802
        self.calls.append(("cuLaunchKernel", func, args[7], self.stack[-1]))  # args[7]: the stream
        return (0,)


class PerDeviceModule:
    """Module.function's contract: the kernel's function on a given GPU, loaded there once."""

    def __init__(self):
        self.loaded = []

    def function(self, name: str, dev: runtime.Device) -> str:
        self.loaded.append(dev.ordinal)
        return f"{name}@{dev.ordinal}"


@pytest.fixture
def two_gpus(monkeypatch):
    pytest.importorskip("cuda.bindings.driver")  # bind_launch reads its result codes
    gpus = {i: runtime.Device(i, None, f"ctx{i}", "sm_90", 13000, 227 * 1024) for i in (0, 1)}
    monkeypatch.setattr(runtime, "_DEVICES", gpus)
    monkeypatch.setattr(runtime, "_STREAM_DEVICES", {})
    driver = ContextDriver("ctx0", {0x100: "ctx0", 0x200: "ctx1"})
    monkeypatch.setattr(runtime, "_driver", lambda: driver)
    return driver


def test_a_launch_on_gpu_1_loads_there_and_runs_in_its_context_leaving_the_callers(two_gpus):
    module = PerDeviceModule()
    launcher = runtime.AsyncLaunch(module, "k", [P("ptr"), P("u32")], (128,), 100_000)
    launcher([TorchLike(0x10, 1), 3], (2,), 0x200)
    launcher([TorchLike(0x20, 1), 4], (2,), 0x200)
    launcher([TorchLike(0x30, 0), 5], (2,), 0x100)
    assert module.loaded == [1, 0]  # once per GPU
    assert two_gpus.calls == [("cuFuncSetAttribute", "k@1", 100_000, "ctx1"),
                              ("cuLaunchKernel", "k@1", 0x200, "ctx1"), ("cuLaunchKernel", "k@1", 0x200, "ctx1"),
                              ("cuFuncSetAttribute", "k@0", 100_000, "ctx0"), ("cuLaunchKernel", "k@0", 0x100, "ctx0")]
    assert two_gpus.stack == ["ctx0"]  # the caller's context is current again


def test_a_stream_of_another_gpu_is_refused_before_the_launch(two_gpus):
    launcher = runtime.AsyncLaunch(PerDeviceModule(), "k", [P("ptr")], (128,), 0)
    with pytest.raises(runtime.LaunchError, match=r"kernel 'k': the stream 0x100 is on cuda:0 and the arguments on "
                                                  r"cuda:1; launch on a stream of cuda:1"):
        launcher([TorchLike(0x10, 1)], (1,), 0x100)
    assert two_gpus.calls == [] and two_gpus.stack == ["ctx0"]


def test_mixed_gpus_are_refused_before_the_kernel_is_loaded(two_gpus):
    module = PerDeviceModule()
    with pytest.raises(runtime.LaunchError, match=r"argument 0 on cuda:1, argument 1 on cuda:0"):
        runtime.AsyncLaunch(module, "k", [P("ptr"), P("ptr")], (128,), 0)([TorchLike(0x10, 1), tensor_map(0)], (1,))
    with pytest.raises(runtime.LaunchError, match=r"argument 0 on cuda:1, argument 1 on cuda:0"):
        runtime.launch(module, "k", [P("ptr"), P("ptr")], [TorchLike(0x10, 1), TorchLike(0x20, 0)], (1,), (128,))
    assert module.loaded == [] and two_gpus.calls == []


class TorchMatrix(TorchLike):
    shape, dtype = (64, 64), "torch.bfloat16"

    def stride(self):
        return (64, 1)

    def element_size(self) -> int:
        return 2


def test_a_tensor_map_remembers_its_tensors_gpu_and_refuses_host_memory(monkeypatch):
    import mmatom
    encoded = []
    monkeypatch.setattr(runtime, "tensor_map_2d", lambda *args: encoded.append(args) or "MAP")
    assert mmatom.tensor_map(TorchMatrix(0x1000, 1), 64, 64) == "MAP"
    assert encoded == [(0x1000, 64, 64, 64, "bf16", 2, 64, 64, "128b", 1)]  # the last: the GPU
    with pytest.raises(runtime.LaunchError, match=r"tensor_map: the tensor is not on a GPU .*TMA reads GPU memory"):
        mmatom.tensor_map(TorchMatrix(0x1000, None), 64, 64)
