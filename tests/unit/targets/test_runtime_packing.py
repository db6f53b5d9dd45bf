"""The runtime's launch path without a GPU: arguments packed once, in the widths the kernel's parameters declare,
for the synchronous and the prepared launch alike; the driver call each launch makes (grid, block, SMEM,
stream, cluster); cuda.core's errors under the sticky-error rule; the cubin cache under cache_dir("cubin")."""

import ctypes
import types

import numpy as np
import pytest

from mmatom.targets import runtime

P = runtime.Param


class DeviceArray:
    def __init__(self, address: int):
        self.__cuda_array_interface__ = {"data": (address, False), "shape": (1,), "typestr": "<f4", "version": 3}


class TorchLike:
    is_cuda = True

    def __init__(self, address: int):
        self.address = address

    def data_ptr(self) -> int:
        return self.address


class TensorMapHandle:
    def __init__(self):
        self.storage = (ctypes.c_uint64 * 16)(*range(16))

    def getPtr(self) -> int:  # noqa: N802 (cuda.bindings' spelling)
        return ctypes.addressof(self.storage)


def tensor_map() -> runtime.TensorMap:
    return runtime.TensorMap(0, 1, 1, 1, "bf16", 2, 1, 1, "128b", TensorMapHandle())


def value_at(packed: runtime.PackedArguments, index: int, ctype):
    return ctypes.cast(packed.pointers[index], ctypes.POINTER(ctype)).contents.value


def test_each_argument_is_packed_in_the_width_its_parameter_declares():
    tmap = tensor_map()
    params = [P("ptr"), P("ptr"), P("u32"), P("u64"), P("f32"), P("f64"), P("tmap")]
    packed = runtime.pack_arguments("k", params, [DeviceArray(0x1000), TorchLike(0x2000), 7, 2**40 + 3, 1.5,
                                                  0.1, tmap])
    assert [value_at(packed, 0, ctypes.c_uint64), value_at(packed, 1, ctypes.c_uint64)] == [0x1000, 0x2000]
    assert value_at(packed, 2, ctypes.c_uint32) == 7 and value_at(packed, 3, ctypes.c_uint64) == 2**40 + 3
    assert value_at(packed, 4, ctypes.c_float) == 1.5 and value_at(packed, 5, ctypes.c_double) == 0.1
    starts = [packed.pointers[i] for i in range(6)]  # a slot each, wide enough for any parameter's value
    assert all(b - a >= 8 for a, b in zip(sorted(starts), sorted(starts)[1:]))
    assert packed.pointers[6] == tmap.handle.getPtr()  # the map's own 128 bytes, passed by value
    assert packed.address == ctypes.addressof(packed.pointers)


@pytest.mark.parametrize("params, args, message", [
    ([P("ptr")], [], r"kernel 'k' takes 1 arguments, got 0"),
    ([P("ptr")], [np.zeros(4)], r"argument 0: an asynchronous launch takes device arrays, got ndarray"),
    ([P("u32"), P("tmap")], [1, DeviceArray(16)], r"argument 1: expected a tensor map \(mmatom.tensor_map\), "
                                                  r"got DeviceArray"),
])
def test_arguments_that_do_not_fit_are_refused_naming_the_argument(params, args, message):
    with pytest.raises(TypeError, match=message):
        runtime.pack_arguments("k", params, args)


@pytest.mark.parametrize("kind, value", [("u32", -1), ("u32", 2**32), ("u64", 2**64), ("f32", "x")])
def test_a_scalar_its_parameter_cannot_hold_is_refused_naming_it(kind, value):
    with pytest.raises(runtime.LaunchError, match=rf"kernel 'k' argument 1: {value!r} does not fit its {kind} "
                                                  r"parameter"):
        runtime.pack_arguments("k", [P("u32"), P(kind)], [1, value])


def test_the_synchronous_launch_gives_a_pointer_for_what_is_not_on_the_device():
    host = np.zeros(4, np.float32)
    seen = []
    packed = runtime.pack_arguments("k", [P("ptr"), P("ptr")], [DeviceArray(0x40), host],
                                    lambda i, a: seen.append((i, a)) or 0x80)
    assert [value_at(packed, i, ctypes.c_uint64) for i in (0, 1)] == [0x40, 0x80]
    assert seen == [(1, host)]  # the device array needed no copy


class RecordingDriver:
    """cuLaunchKernel / cuLaunchKernelEx record their arguments; the real launch-config types."""

    def __init__(self):
        from cuda.bindings import driver
        self.real, self.calls = driver, []
        self.CUresult = types.SimpleNamespace(CUDA_SUCCESS=0)
        self.CUlaunchConfig, self.CUlaunchAttribute = driver.CUlaunchConfig, driver.CUlaunchAttribute
        self.CUlaunchAttributeID, self.CUstream = driver.CUlaunchAttributeID, driver.CUstream

    def cuLaunchKernel(self, *args):  # noqa: N802
        self.calls.append(("cuLaunchKernel", args))
        return (0,)

    def cuLaunchKernelEx(self, cfg, func, params, extra):  # noqa: N802
        dim = cfg.attrs[0].value.clusterDim
        self.calls.append(("cuLaunchKernelEx", (cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ, cfg.blockDimX,
                                                cfg.sharedMemBytes, int(cfg.hStream), (dim.x, dim.y, dim.z),
                                                func, params)))
        return (0,)


@pytest.fixture
def driver(monkeypatch):
    pytest.importorskip("cuda.bindings.driver")
    fake = RecordingDriver()
    monkeypatch.setattr(runtime, "_driver", lambda: fake)
    return fake


def test_a_prepared_launch_replays_the_same_driver_call_on_each_stream(driver):
    packed = runtime.pack_arguments("k", [P("u32")], [5])
    launch = runtime.bind_launch("FUNC", "k", (3, 1, 1), (128, 1, 1), 1024, None, packed)
    launch(0)
    launch(77)
    expected = ("FUNC", 3, 1, 1, 128, 1, 1, 1024)
    assert driver.calls == [("cuLaunchKernel", expected + (s, packed.address, 0)) for s in (0, 77)]


def test_a_cluster_launch_names_the_cluster_and_the_grid_in_ctas(driver):
    packed = runtime.pack_arguments("k", [], [])
    runtime.bind_launch("FUNC", "k", (4, 2, 1), (384, 1, 1), 200_000, (2, 1, 1), packed)(9)
    assert driver.calls == [("cuLaunchKernelEx", (4, 2, 1, 384, 200_000, 9, (2, 1, 1), "FUNC", packed.address))]


def test_a_grid_that_is_not_whole_clusters_is_refused():
    assert runtime.grid_of_clusters("k", (4, 2), (2, 1, 1)) == (4, 2, 1)
    assert runtime.grid_of_clusters("k", (3,), None) == (3, 1, 1)
    with pytest.raises(runtime.LaunchError, match=r"kernel 'k': grid \(3, 1, 1\) is not a whole number of "
                                                  r"clusters \(2, 1, 1\)"):
        runtime.grid_of_clusters("k", (3,), (2, 1, 1))


def test_cuda_core_errors_follow_the_sticky_error_rule(monkeypatch):
    monkeypatch.setattr(runtime, "_context_lost", None)
    with pytest.raises(runtime.CudaError, match=r"kernel 'k': ObjectCode.get_kernel failed: CUDA_ERROR_NOT_FOUND "
                                                r"\(named symbol not found\)") as plain:
        with runtime._core_call("ObjectCode.get_kernel", "k"):
            raise RuntimeError("CUDA_ERROR_NOT_FOUND: named symbol not found")
    assert not isinstance(plain.value, runtime.ContextLostError)
    with pytest.raises(runtime.ContextLostError, match=r"(?s)CUDA_ERROR_ILLEGAL_ADDRESS.*context is lost"):
        with runtime._core_call("Stream.sync", "k"):
            raise RuntimeError("CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered")
    with pytest.raises(ValueError, match="not a CUDA error"):  # anything else passes through untouched
        with runtime._core_call("Device.set_current"):
            raise ValueError("not a CUDA error")
    monkeypatch.setattr(runtime, "_context_lost", None)


def test_cubins_are_cached_under_the_cubin_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(runtime, "_ptxas_for", lambda arch: None)  # no ptxas: the driver's JIT
    gpu = runtime.Device(chip="sm_90", driver_version=13000)
    jits = []
    monkeypatch.setattr(runtime, "jit_cubin", lambda ptx, label: jits.append(label) or b"CUBIN")
    assert runtime.load_cubin("ptx", "k", gpu) == (b"CUBIN", False)
    assert runtime.load_cubin("ptx", "k", gpu) == (b"CUBIN", True) and jits == ["k"]
    key = runtime.cache_key("ptx", "sm_90", "driver-13000")
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.cubin")] == [f"cubin/{key}.cubin"]


def test_a_cubin_found_by_the_ptx_digest_its_record_kept(tmp_path, monkeypatch):
    """A load given the PTX's digest (a cached kernel's) finds the cubin the PTX's own hash names, without hashing
    the PTX."""
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(runtime, "_ptxas_for", lambda arch: None)
    monkeypatch.setattr(runtime, "jit_cubin", lambda ptx, label: b"CUBIN")
    gpu = runtime.Device(chip="sm_90", driver_version=13000)
    digest = runtime.ptx_digest("ptx")
    assert runtime.load_cubin("ptx", "k", gpu) == (b"CUBIN", False)
    monkeypatch.setattr(runtime, "ptx_digest", lambda ptx: pytest.fail("the PTX was hashed again"))
    assert runtime.load_cubin("ptx", "k", gpu, digest) == (b"CUBIN", True)
    assert runtime.cache_key("ptx", "sm_90", "driver-13000", digest) == \
        runtime.cache_key("other text, not read", "sm_90", "driver-13000", digest)


def test_ptxas_assembles_when_found_for_the_chip(tmp_path, monkeypatch):
    """A found ptxas assembles (the code the ptxas gates checked runs), for the chip with the PTX's arch suffix;
    its release names the cache entry."""
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    assembled = []
    tool = runtime.ptxas.Ptxas(tmp_path / "ptxas", (13, 0), (9, 0))
    monkeypatch.setattr(runtime, "_ptxas_for", lambda arch: tool)
    monkeypatch.setattr(runtime.ptxas, "assemble_cubin",
                        lambda ptx, arch: assembled.append(arch) or runtime.ptxas.Cubin(b"SASS", "", {}))
    monkeypatch.setattr(runtime, "jit_cubin", lambda ptx, label: pytest.fail("the JIT ran with a ptxas found"))
    ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
    gpu = runtime.Device(chip="sm_90", driver_version=13000)
    assert runtime.load_cubin(ptx, "k", gpu) == (b"SASS", False) and assembled == ["sm_90a"]
    key = runtime.cache_key(ptx, "sm_90", "ptxas-13.0")
    assert (tmp_path / "cubin" / f"{key}.cubin").read_bytes() == b"SASS"
    assert runtime.ptxas_arch(ptx.replace("sm_90a", "sm_80"), "sm_90") == "sm_90"  # older PTX: the chip's SASS
