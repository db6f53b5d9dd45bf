"""Host microseconds per launch: mmatom's packed launch (Kernel.prepare, what mmatom.gemm replays) against
cuda.core's `launch`, which packs its arguments at every call. Why targets/runtime.py launches through the driver.

    python -P benchmarks/launch_overhead.py         # CPU only: packing, and a replay whose driver call is a no-op
    python -P benchmarks/launch_overhead.py --gpu   # and real launches of a small kernel, queued, one sync at the end
"""

import ctypes
import sys
import time

import numpy as np

from mmatom.targets import runtime

N = 20_000
# the GEMM's fp8 launch: A, B, D tensor maps and two scale pointers
GEMM_PARAMS = [runtime.Param(k) for k in ("tmap", "tmap", "tmap", "ptr", "ptr")]


class _FakeTensorMapHandle:
    def __init__(self):
        self.storage = (ctypes.c_uint64 * 16)()

    def getPtr(self) -> int:  # noqa: N802 (cuda.bindings' spelling)
        return ctypes.addressof(self.storage)


class _DeviceArray:
    __cuda_array_interface__ = {"data": (0x7F0000000000, False), "shape": (1,), "typestr": "<f4", "version": 3}


def per_call_us(fn, n: int = N) -> float:
    for _ in range(100):
        fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def cpu_costs() -> None:
    maps = [runtime.TensorMap(0, 1, 1, 1, "bf16", 2, 1, 1, "128b", _FakeTensorMapHandle()) for _ in range(3)]
    args = maps + [_DeviceArray(), _DeviceArray()]
    print(f"mmatom pack_arguments (3 tensor maps + 2 device arrays): "
          f"{per_call_us(lambda: runtime.pack_arguments('gemm', GEMM_PARAMS, args)):.2f} us")
    try:
        from cuda.core._kernel_arg_handler import ParamHolder  # what cuda.core.launch builds at every call
    except ImportError:
        print("cuda.core is not installed: no ParamHolder to compare")
    else:
        plain = [0x7F0000000000] * 5  # ParamHolder takes no CUtensorMap: five pointers instead
        cost = per_call_us(lambda: ParamHolder(plain))
        print(f"cuda.core ParamHolder (5 pointers, at every cuda.core.launch): {cost:.2f} us")
    packed = runtime.pack_arguments("gemm", GEMM_PARAMS, args)

    class NoOpDriver:  # the driver call replaced by a no-op: what is left is the replay's own Python
        class CUresult:
            CUDA_SUCCESS = 0

        @staticmethod
        def cuLaunchKernel(*_):  # noqa: N802
            return (0,)

        @staticmethod
        def cuCtxGetCurrent():  # noqa: N802
            return 0, "ctx"

        cuCtxPushCurrent = cuCtxPopCurrent = None  # not called: the context is current already

    real = runtime._driver
    runtime._driver = lambda: NoOpDriver
    try:
        replay = runtime.bind_launch(object(), "gemm", (132, 1, 1), (384, 1, 1), 200_000, None, packed)
        gpu = runtime.Device(0, None, "ctx")
        on_gpu = runtime.bind_launch(object(), "gemm", (132, 1, 1), (384, 1, 1), 200_000, None, packed, gpu)
        runtime._STREAM_DEVICES[0x1000] = 0
    finally:
        runtime._driver = real
    print(f"mmatom prepared replay, driver call a no-op: {per_call_us(lambda: replay(0x1000)):.2f} us")
    print(f"  on its GPU (stream's GPU and current context checked; cuCtxGetCurrent a no-op too): "
          f"{per_call_us(lambda: on_gpu(0x1000)):.2f} us")


def gpu_costs() -> None:
    import cuda.core as core

    import mmatom
    kernel = mmatom.compile("""
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%p: !llvm.ptr<1>, %q: !llvm.ptr<1>, %n: i32, %x: f32)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    llvm.return
  }
}""")
    buf = np.zeros(1, np.float32)
    kernel(buf, buf, 1, 1.0)  # loads the module, JITs the cubin
    dev = runtime.device()
    ptr = runtime._check(runtime._driver().cuMemAlloc(64), "cuMemAlloc")
    arr = _DeviceArray()
    arr.__cuda_array_interface__ = {**arr.__cuda_array_interface__, "data": (int(ptr), False)}
    replay = kernel.prepare(arr, arr, 7, 1.5, grid=(1,))
    core_kernel = kernel._module._code[0].get_kernel("k")
    config = core.LaunchConfig(grid=1, block=32)
    stream = dev.handle.default_stream
    scalars = (int(ptr), int(ptr), np.uint32(7), np.float32(1.5))
    launcher = kernel._launcher(None, None)
    func, packed = launcher.function(dev), runtime.pack_arguments("k", launcher.params, [arr, arr, 7, 1.5])
    bindings_launch = runtime._driver().cuLaunchKernel
    for label, fn in [("mmatom prepared replay", lambda: replay(0)),
                      ("the same launch through cuda.bindings' cuLaunchKernel",
                       lambda: bindings_launch(func, 1, 1, 1, 32, 1, 1, 0, 0, packed.address, 0)),
                      ("mmatom Kernel.launch (pack + launch)", lambda: kernel.launch(arr, arr, 7, 1.5, grid=(1,))),
                      ("cuda.core launch (packs every call)",
                       lambda: core.launch(stream, config, core_kernel, *scalars))]:
        host = per_call_us(fn, 5000)
        runtime._check(runtime._driver().cuCtxSynchronize(), "cuCtxSynchronize")
        print(f"{label}: {host:.2f} us host per launch ({dev.name()})", flush=True)


if __name__ == "__main__":
    cpu_costs()
    if "--gpu" in sys.argv:
        gpu_costs()
