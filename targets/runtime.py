"""Run PTX on the GPU through cuda-python (cuda.bindings.driver).

PTX -> cubin by the driver's JIT linker (cuLinkCreate/AddData/Complete): it ships with every driver, so a
GPU machine needs nothing else, and it always knows the chip it runs on. nvJitLink would be one more
wheel of the same compiler for no gain here. Cubins are cached on disk under
$MMATOM_CACHE_DIR (default ~/.cache/mmatom/cubin), keyed by SHA-256 of (PTX text, chip, driver
version); writes go to a temporary file in the same directory and are renamed into place, so
concurrent processes never read a partial cubin.

Arguments: torch/cupy device tensors (anything with `__cuda_array_interface__`, or torch's
`data_ptr()`), numpy arrays (copied to the device before the launch and back after it), Python ints
and floats for scalar parameters. CUDA errors become `CudaError`, naming the kernel and the call.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np


class CudaError(RuntimeError):
    pass


class NoDriverError(CudaError):
    """A launch on a machine without a usable CUDA driver (or without cuda-python): compiling, `Kernel.ptx` and
    `Kernel.cubin` need none."""


class LaunchError(ValueError):
    """A launch that does not fit the kernel (block size, shared memory): refused before the driver sees it."""


class ContextLostError(CudaError):
    """The kernel faulted and the CUDA context is gone: every later CUDA call in this process fails too."""


# Errors after which the context is unusable (CUDA's "sticky" errors): a fault inside a kernel.
_STICKY = ("CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_MISALIGNED_ADDRESS",
           "CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_INVALID_PC", "CUDA_ERROR_HARDWARE_STACK_ERROR",
           "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_ASSERT", "CUDA_ERROR_TOO_MANY_BLOCKS_IN_CLUSTER")
_context_lost: str | None = None  # the first sticky error, repeated in every later one


@lru_cache(maxsize=1)
def _driver():
    try:
        from cuda.bindings import driver
    except ImportError as err:
        raise NoDriverError("cuda-python (cuda.bindings) is not installed; PTX is available without it") from err
    return driver


def _check(result, what: str, kernel: str = "") -> Any:
    global _context_lost
    drv = _driver()
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != drv.CUresult.CUDA_SUCCESS:
        _, name = drv.cuGetErrorName(err)
        _, text = drv.cuGetErrorString(err)
        where = f"kernel '{kernel}': " if kernel else ""
        name = name.decode() if name else str(err)
        message = f"{where}{what} failed: {name} ({text.decode() if text else 'no description'})"
        if _context_lost is None and name in _STICKY:
            _context_lost = message
        if _context_lost is not None:
            raise ContextLostError(f"{message}\nThe CUDA context is lost (a sticky error: {_context_lost}); every "
                                   f"later CUDA call in this process fails. Restart the process.")
        raise CudaError(message)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else tuple(rest)


@dataclass
class Device:
    """The primary context of one GPU (shared with torch and cupy)."""

    ordinal: int = 0
    handle: Any = None
    context: Any = None
    chip: str = ""
    driver_version: int = 0
    shared_bytes_optin: int = 0  # the most dynamic SMEM a CTA may opt in to (227 KiB on H100)
    threads_per_block: int = 1024
    sm_count: int = 1

    @classmethod
    def open(cls, ordinal: int = 0) -> "Device":
        drv = _driver()
        try:
            init = drv.cuInit(0)
        except Exception as err:  # no libcuda.so
            raise NoDriverError(f"no CUDA driver on this machine ({err}); compile to PTX only") from None
        if init[0] != drv.CUresult.CUDA_SUCCESS:
            raise NoDriverError(f"no usable CUDA driver (cuInit: {init[0]}); compile to PTX only")
        dev = _check(drv.cuDeviceGet(ordinal), "cuDeviceGet")
        ctx = _check(drv.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
        _check(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        attr = drv.CUdevice_attribute
        major = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "attr")
        minor = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "attr")
        version = _check(drv.cuDriverGetVersion(), "cuDriverGetVersion")
        smem = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev), "attr")
        threads = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev), "attr")
        sms = _check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), "attr")
        return cls(ordinal, dev, ctx, f"sm_{major}{minor}", version, smem, threads, sms)

    def name(self) -> str:
        drv = _driver()
        raw = _check(drv.cuDeviceGetName(256, self.handle), "cuDeviceGetName")
        return raw.split(b"\0", 1)[0].decode()


_DEVICE: Device | None = None


def device() -> Device:
    global _DEVICE
    if _DEVICE is None:
        _DEVICE = Device.open()
    else:
        _check(_driver().cuCtxSetCurrent(_DEVICE.context), "cuCtxSetCurrent")
    return _DEVICE


def cache_dir() -> Path:
    return Path(os.environ.get("MMATOM_CACHE_DIR", Path.home() / ".cache" / "mmatom" / "cubin"))


def cache_key(ptx: str, chip: str, toolchain: str) -> str:
    return hashlib.sha256(f"{chip}\0{toolchain}\0{ptx}".encode()).hexdigest()


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def jit_cubin(ptx: str, label: str) -> bytes:
    """PTX -> cubin with the driver's JIT linker, for the current context's device."""
    drv = _driver()
    state = _check(drv.cuLinkCreate(0, [], []), "cuLinkCreate", label)
    try:
        data = ptx.encode() + b"\0"
        res = drv.cuLinkAddData(state, drv.CUjitInputType.CU_JIT_INPUT_PTX, data, len(data), b"mmatom.ptx", 0, [], [])
        if res[0] != drv.CUresult.CUDA_SUCCESS:
            raise CudaError(f"kernel '{label}': the driver JIT rejected the PTX ({res[0]!r}); "
                            f"assemble it with ptxas for the log")
        cubin_ptr, size = _check(drv.cuLinkComplete(state), "cuLinkComplete", label)
        return ctypes.string_at(int(cubin_ptr), size)
    finally:
        drv.cuLinkDestroy(state)


def load_cubin(ptx: str, label: str) -> tuple[bytes, bool]:
    """(cubin, from_cache) for the current device, through the on-disk cache."""
    dev = device()
    path = cache_dir() / f"{cache_key(ptx, dev.chip, f'driver-{dev.driver_version}')}.cubin"
    if path.exists():
        return path.read_bytes(), True
    cubin = jit_cubin(ptx, label)
    atomic_write(path, cubin)
    return cubin, False


@dataclass
class Module:
    """A PTX module loaded on the GPU."""

    ptx: str
    label: str = "module"
    _module: Any = None
    _functions: dict[str, Any] = field(default_factory=dict)
    from_cache: bool = False

    def function(self, name: str):
        drv = _driver()
        if self._module is None:
            cubin, self.from_cache = load_cubin(self.ptx, self.label)
            self._module = _check(drv.cuModuleLoadData(cubin), "cuModuleLoadData", self.label)
        if name not in self._functions:
            self._functions[name] = _check(drv.cuModuleGetFunction(self._module, name.encode()),
                                           "cuModuleGetFunction", name)
        return self._functions[name]


@dataclass(frozen=True)
class Param:
    kind: str  # "ptr", "u32", "u64", "f32", "f64", "tmap" (a CUtensorMap by value)


# -- TMA tensor maps (cuTensorMapEncodeTiled) ------------------------------------------------------

TMAP_DTYPES = {"u8": 0, "u16": 1, "u32": 2, "s32": 3, "u64": 4, "s64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9,
               "e4m3": 0, "e5m2": 0, "s8": 0}  # fp8 and s8 move as bytes (CUTLASS does the same)
TMAP_SWIZZLE = {"none": 0, "32b": 1, "64b": 2, "128b": 3}
STRIDE_ALIGN = 16


@dataclass(frozen=True)
class TensorMap:
    """A TMA descriptor of a row-major 2-d tensor (rows x cols, `row_stride` elements apart) and the box it
    moves; `handle` is the CUtensorMap passed by value to the kernel."""

    address: int
    rows: int
    cols: int
    row_stride: int
    elem: str
    elem_bytes: int
    box_rows: int
    box_cols: int
    swizzle: str
    handle: Any = field(compare=False, hash=False, repr=False)


def tensor_map_2d(address: int, rows: int, cols: int, row_stride: int, elem: str, elem_bytes: int, box_rows: int,
                  box_cols: int, swizzle: str = "128b") -> TensorMap:
    """Encode the map (out-of-bounds elements of a box read as zero and are not written). The rules TMA imposes
    are checked first and named: a 16-byte aligned base, a row stride that is a multiple of 16 bytes."""
    if elem not in TMAP_DTYPES:
        raise LaunchError(f"tensor map: element type {elem} has no TMA data type; one of {', '.join(TMAP_DTYPES)}")
    if address % STRIDE_ALIGN:
        raise LaunchError(f"tensor map: the tensor's address {address:#x} is not {STRIDE_ALIGN}-byte aligned")
    if (row_stride * elem_bytes) % STRIDE_ALIGN or row_stride < cols:
        raise LaunchError(f"tensor map: a row stride of {row_stride} elements ({row_stride * elem_bytes} bytes) is "
                          f"not a multiple of {STRIDE_ALIGN} bytes at least one row long; TMA cannot address it")
    if not (0 < rows < 2**32 and 0 < cols < 2**32):
        raise LaunchError(f"tensor map: {rows}x{cols} is outside TMA's 1..2^32 extents")
    drv = _driver()
    u64, u32 = drv.cuuint64_t, drv.cuuint32_t
    handle = _check(drv.cuTensorMapEncodeTiled(
        drv.CUtensorMapDataType(TMAP_DTYPES[elem]), 2, address, [u64(cols), u64(rows)],
        [u64(row_stride * elem_bytes)], [u32(box_cols), u32(box_rows)], [u32(1), u32(1)],
        drv.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, drv.CUtensorMapSwizzle(TMAP_SWIZZLE[swizzle]),
        drv.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        drv.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), "cuTensorMapEncodeTiled")
    return TensorMap(address, rows, cols, row_stride, elem, elem_bytes, box_rows, box_cols, swizzle, handle)


_SCALAR = {"u32": ctypes.c_uint32, "u64": ctypes.c_uint64, "f32": ctypes.c_float, "f64": ctypes.c_double}


class _DeviceBuffer:
    """A numpy array's device copy for one launch."""

    def __init__(self, host: np.ndarray, kernel: str):
        drv = _driver()
        self.host, self.kernel = host, kernel
        self.nbytes = max(1, host.nbytes)
        self.ptr = _check(drv.cuMemAlloc(self.nbytes), "cuMemAlloc", kernel)
        if host.nbytes:
            _check(drv.cuMemcpyHtoD(self.ptr, np.ascontiguousarray(host).ctypes.data, host.nbytes), "cuMemcpyHtoD",
                   kernel)

    def copy_back(self) -> None:
        drv = _driver()
        if self.host.nbytes and self.host.flags.writeable:
            _check(drv.cuMemcpyDtoH(self.host.ctypes.data, self.ptr, self.host.nbytes), "cuMemcpyDtoH", self.kernel)

    def free(self) -> None:
        _driver().cuMemFree(self.ptr)


def _device_pointer(arg: Any) -> int | None:
    if getattr(arg, "is_cuda", False) and hasattr(arg, "data_ptr"):
        return int(arg.data_ptr())  # torch: ~20x cheaper than building its __cuda_array_interface__
    iface = getattr(arg, "__cuda_array_interface__", None)
    if iface is not None:
        return int(iface["data"][0])
    return None


def check_launch_shape(name: str, grid: tuple[int, ...], block: tuple[int, ...], shared_bytes: int,
                       shared_limit: int, threads_limit: int = 1024) -> None:
    """Refuse a launch the driver would reject with a bare 'invalid argument', naming the value and the limit."""
    if not (1 <= len(block) <= 3 and 1 <= len(grid) <= 3) or min(*block, *grid) < 1:
        raise LaunchError(f"kernel '{name}': grid {tuple(grid)} and block {tuple(block)} must have 1 to 3 positive "
                          f"extents")
    threads = 1
    for b in block:
        threads *= b
    if threads > threads_limit:
        raise LaunchError(f"kernel '{name}': block {tuple(block)} is {threads} threads; a CTA has at most "
                          f"{threads_limit} on this GPU")
    if not 0 <= shared_bytes <= shared_limit:
        raise LaunchError(f"kernel '{name}': {shared_bytes} bytes of dynamic shared memory; this GPU allows at most "
                          f"{shared_limit} ({shared_limit // 1024} KiB) per CTA")


class AsyncLaunch:
    """A kernel's launches without host synchronization, on a given stream: arguments are device pointers,
    tensor maps and scalars (no numpy copies), the dynamic-SMEM opt-in is set once, and a cluster shape goes
    through cuLaunchKernelEx."""

    def __init__(self, module: Module, name: str, params: Sequence[Param], block: tuple[int, ...],
                 shared_bytes: int, cluster: tuple[int, int, int] | None = None):
        drv = _driver()
        dev = device()
        check_launch_shape(name, (1,), tuple(block), shared_bytes, dev.shared_bytes_optin, dev.threads_per_block)
        self.name, self.params, self.shared_bytes, self.cluster = name, tuple(params), shared_bytes, cluster
        self.block = tuple(block) + (1,) * (3 - len(block))
        self.func = module.function(name)
        if shared_bytes > 48 * 1024:
            attr = drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            _check(drv.cuFuncSetAttribute(self.func, attr, shared_bytes), "cuFuncSetAttribute", name)

    def __call__(self, args: Sequence[Any], grid: tuple[int, ...], stream: int = 0) -> None:
        self.prepare(args, grid)(stream)

    def prepare(self, args: Sequence[Any], grid: tuple[int, ...]) -> Callable[[int], None]:
        """The launch with these arguments packed once: calling it with a stream handle only launches (what a
        library's hot path wants -- packing is most of the host's per-launch time)."""
        drv = _driver()
        if len(args) != len(self.params):
            raise TypeError(f"kernel '{self.name}' takes {len(self.params)} arguments, got {len(args)}")
        holders, addresses = [], []
        for i, (p, a) in enumerate(zip(self.params, args)):
            if p.kind == "tmap":
                if not isinstance(a, TensorMap):
                    raise TypeError(f"kernel '{self.name}' argument {i}: expected a tensor map (mmatom.tensor_map), "
                                    f"got {type(a).__name__}")
                holders.append(a)  # its 128 bytes must outlive every launch made from here
                addresses.append(int(a.handle.getPtr()))
                continue
            if p.kind == "ptr":
                ptr = _device_pointer(a)
                if ptr is None:
                    raise TypeError(f"kernel '{self.name}' argument {i}: an asynchronous launch takes device arrays, "
                                    f"got {type(a).__name__}")
                h = ctypes.c_uint64(ptr)
            else:
                h = _SCALAR[p.kind](a)
            holders.append(h)
            addresses.append(ctypes.addressof(h))
        arg_ptrs = (ctypes.c_void_p * len(addresses))(*addresses)
        params = ctypes.addressof(arg_ptrs)
        g = tuple(grid) + (1,) * (3 - len(grid))
        if self.cluster is not None and any(n % c for n, c in zip(g, self.cluster)):
            raise LaunchError(f"kernel '{self.name}': grid {g} is not a whole number of clusters {self.cluster}")
        func, block, smem, name = self.func, self.block, self.shared_bytes, self.name
        if self.cluster is None:
            launch_kernel, success = drv.cuLaunchKernel, drv.CUresult.CUDA_SUCCESS

            def launch(stream: int = 0, _keep=(holders, arg_ptrs)) -> None:
                result = launch_kernel(func, *g, *block, smem, stream, params, 0)
                if result[0] != success:
                    _check(result, "cuLaunchKernel", name)
            return launch

        def launch_in_cluster(stream: int = 0, _keep=(holders, arg_ptrs)) -> None:
            cfg = drv.CUlaunchConfig()
            cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = g
            cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = block
            cfg.sharedMemBytes, cfg.hStream = smem, drv.CUstream(stream)
            attr = drv.CUlaunchAttribute()
            attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = self.cluster
            cfg.attrs, cfg.numAttrs = [attr], 1
            _check(drv.cuLaunchKernelEx(cfg, func, params, 0), "cuLaunchKernelEx", name)
        return launch_in_cluster


def launch(module: Module, name: str, params: Sequence[Param], args: Sequence[Any],
           grid: tuple[int, ...] = (1,), block: tuple[int, ...] = (32,), shared_bytes: int = 0) -> None:
    drv = _driver()
    if len(args) != len(params):
        raise TypeError(f"kernel '{name}' takes {len(params)} arguments, got {len(args)}")
    dev = device()
    check_launch_shape(name, tuple(grid), tuple(block), shared_bytes, dev.shared_bytes_optin, dev.threads_per_block)
    func = module.function(name)
    holders, buffers = [], []
    try:
        for i, (p, a) in enumerate(zip(params, args)):
            if p.kind == "tmap":
                if not isinstance(a, TensorMap):
                    raise TypeError(f"kernel '{name}' argument {i}: expected a tensor map (mmatom.tensor_map), got "
                                    f"{type(a).__name__}")
                holders.append(a.handle)
                continue
            if p.kind == "ptr":
                ptr = _device_pointer(a)
                if ptr is None:
                    if not isinstance(a, np.ndarray):
                        raise TypeError(f"kernel '{name}' argument {i}: expected a device array or numpy array, "
                                        f"got {type(a).__name__}")
                    buf = _DeviceBuffer(a, name)
                    buffers.append(buf)
                    ptr = int(buf.ptr)
                holders.append(ctypes.c_uint64(ptr))
            else:
                holders.append(_SCALAR[p.kind](a))
        arg_ptrs = (ctypes.c_void_p * len(holders))(*[int(h.getPtr()) if hasattr(h, "getPtr") else
                                                       ctypes.addressof(h) for h in holders])
        if shared_bytes > 48 * 1024:  # above the static default a kernel must opt in to more dynamic SMEM
            attr = drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            _check(drv.cuFuncSetAttribute(func, attr, shared_bytes), "cuFuncSetAttribute", name)
        g = tuple(grid) + (1,) * (3 - len(grid))
        b = tuple(block) + (1,) * (3 - len(block))
        _check(drv.cuLaunchKernel(func, *g, *b, shared_bytes, 0, ctypes.addressof(arg_ptrs), 0), "cuLaunchKernel",
               name)
        _check(drv.cuCtxSynchronize(), "cuCtxSynchronize (the kernel faulted)", name)
        for buf in buffers:
            buf.copy_back()
    finally:
        for buf in buffers:
            buf.free()
