"""Run PTX on the GPU through cuda-python: `cuda.core` for the GPU and the code loaded on it, the driver API
(`cuda.bindings.driver`) where cuda.core does not cover what this runtime does -- each such place says why.

cuda.core gives: `Device` (one GPU, its primary context -- shared with torch and cupy -- and its properties) and
`ObjectCode.from_cubin(...).get_kernel(name)` (the loaded module and its kernels).

On the driver API, and why:
- PTX -> cubin: ptxas when one is found for the chip (targets/ptxas.py: the assembler the ptxas gates check, so a
  kernel runs the code the gates passed), else the driver's JIT linker (cuLinkCreate/AddData/Complete), which
  ships with every driver and always knows the chip it runs on. Measured on an H100 (driver 580.159, CUDA 13.0):
  the JIT compiled the attention kernel's consumers with local-memory spills around every wgmma where ptxas 13.0
  had none -- 337 against 641 TFLOP/s (docs/isa-findings.md). cuda.core's `Linker` picks nvJitLink whenever that
  wheel is installed (another compiler than the one the cache key names) and falls back with a warning.
- Launches: arguments are packed once (`pack_arguments`) and launched with cuLaunchKernel, or cuLaunchKernelEx for
  a cluster, on one path for every kernel. `cuda.core.launch` cannot pass a CUtensorMap by value (only its own
  TensorMapDescriptor, built from a StridedMemoryView), and every GEMM launch has three; it would save no time
  either: on the H100 a cuda.core launch and our prepared replay both cost ~3.6-4.4 us of host time (cuda.core
  1.2.0, a 4-argument kernel; `python -P benchmarks/launch_overhead.py --gpu` measures it again). cuda.core
  1.2.2's LaunchConfig also opens `Device()` -- the current or first GPU -- when given a cluster.
- The dynamic-SMEM opt-in (cuFuncSetAttribute): cuda.core's kernel attributes are read-only.
- TMA tensor maps (cuTensorMapEncodeTiled) from a raw address, TMA's rules checked and named first; the encode
  goes through ctypes on the libcuda cuda.bindings loaded (_TensorMapEncoder: the binding's per-argument objects
  cost more host time than the encode itself).
- numpy arguments' device copies (cuMemAlloc/cuMemcpy): cuda.core's Buffer copies only to and from Buffers.
- Errors: cuda.core's CUDAError and the driver's result codes both become `CudaError` naming the kernel and the
  call; after a sticky error (a fault in a kernel) every later one says the context is lost.

Several GPUs: a launch runs on the GPU its arguments are on (`launch_device`: a torch tensor's device, the GPU a
tensor map was encoded for, the driver's answer for a raw pointer); arguments on two GPUs, or a stream of
another GPU, are refused before anything is launched. Each GPU is opened once (its primary context, shared with
torch) and a module is loaded on each GPU that launches it; the launch makes that GPU's context current for the
driver call only (torch's current device stays where the caller left it).

Cubins are cached on disk under cache_dir("cubin") (targets/cache_dir.py), keyed by SHA-256 of (chip, assembler --
ptxas's release or the driver's version --, the PTX's own SHA-256), written atomically (concurrent processes never read
a partial cubin). A compile record keeps the PTX's digest, so a cached kernel's load does not hash its PTX again.

Arguments: torch/cupy device tensors (anything with `__cuda_array_interface__`, or torch's `data_ptr()`), numpy
arrays (copied to the device before a synchronous launch and back after it), tensor maps, Python ints and
floats for scalar parameters.
"""

from __future__ import annotations

import ctypes
import hashlib
import re
import struct
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator, NoReturn, Sequence

import numpy as np

from mmatom.atoms.chips import UnknownChip
from mmatom.targets import ptxas
from mmatom.targets.cache_dir import atomic_write, cache_dir


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
_ERROR_NAME = re.compile(r"CUDA_ERROR_[A-Z0-9_]+")
_OPT_IN_ABOVE = 48 * 1024  # above the static default a kernel must opt in to more dynamic SMEM


@lru_cache(maxsize=1)
def _driver():
    try:
        from cuda.bindings import driver
    except ImportError as err:
        raise NoDriverError("cuda-python (cuda.bindings) is not installed; PTX is available without it") from err
    return driver


@lru_cache(maxsize=1)
def _core():
    try:
        import cuda.core as core
    except ImportError as err:
        raise NoDriverError("cuda-python (cuda.core) is not installed; PTX is available without it") from err
    return core


def _raise_cuda_error(name: str, description: str, what: str, kernel: str) -> NoReturn:
    global _context_lost
    where = f"kernel '{kernel}': " if kernel else ""
    message = f"{where}{what} failed: {name} ({description})"
    if _context_lost is None and name in _STICKY:
        _context_lost = message
    if _context_lost is not None:
        raise ContextLostError(f"{message}\nThe CUDA context is lost (a sticky error: {_context_lost}); every "
                               f"later CUDA call in this process fails. Restart the process.")
    raise CudaError(message)


def _check(result, what: str, kernel: str = "") -> Any:
    """A driver call's result: its value(s), or CudaError / ContextLostError naming the call and the kernel."""
    drv = _driver()
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != drv.CUresult.CUDA_SUCCESS:
        _, name = drv.cuGetErrorName(err)
        _, text = drv.cuGetErrorString(err)
        _raise_cuda_error(name.decode() if name else str(err), text.decode() if text else "no description", what,
                          kernel)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else tuple(rest)


@contextmanager
def _core_call(what: str, kernel: str = "") -> Iterator[None]:
    """cuda.core's errors (CUDAError, 'CUDA_ERROR_X: description') under the same rules as the driver's."""
    try:
        yield
    except Exception as err:
        found = _ERROR_NAME.search(str(err))
        if found is None:
            raise
        description = str(err)[found.end():].lstrip(": ") or "no description"
        _raise_cuda_error(found.group(), description, what, kernel)


@dataclass
class Device:
    """One GPU (a cuda.core Device) and its primary context, shared with torch and cupy."""

    ordinal: int = 0
    handle: Any = None  # the cuda.core Device
    context: Any = None  # its primary context's CUcontext
    chip: str = ""
    driver_version: int = 0
    shared_bytes_optin: int = 0  # the most dynamic SMEM a CTA may opt in to (227 KiB on H100)
    threads_per_block: int = 1024
    sm_count: int = 1

    @classmethod
    def open(cls, ordinal: int = 0) -> "Device":
        core = _core()
        try:
            gpu = core.Device(ordinal)
        except Exception as err:  # no libcuda.so, no GPU, no such ordinal
            raise NoDriverError(f"no usable CUDA driver or device {ordinal} on this machine ({err}); compile to "
                                f"PTX only") from None
        _check(_driver().cuInit(0), "cuInit")  # idempotent: so that the caller's context can be read
        previous = _check(_driver().cuCtxGetCurrent(), "cuCtxGetCurrent")
        with _core_call("Device.set_current"):
            gpu.set_current()
            props, (major, minor), context = gpu.properties, gpu.compute_capability, gpu.context.handle
        # set_current moved the thread to this GPU: the caller's context (or none) is restored, else opening
        # cuda:1 would move torch's current device there
        _check(_driver().cuCtxSetCurrent(previous), "cuCtxSetCurrent")
        # cuda.core reports the driver as (major, minor); the cache key has always used the driver's integer
        version = _check(_driver().cuDriverGetVersion(), "cuDriverGetVersion")
        return cls(ordinal, gpu, context, f"sm_{major}{minor}", version, props.max_shared_memory_per_block_optin,
                   props.max_threads_per_block, props.multiprocessor_count)

    def name(self) -> str:
        return self.handle.name

    def make_current(self) -> None:
        _check(_driver().cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    @contextmanager
    def current(self) -> Iterator["Device"]:
        """This GPU's primary context current in the calling thread for the block, the caller's restored after
        (torch reads its current device from the thread's context: work on cuda:1 must not move it there)."""
        drv = _driver()
        _check(drv.cuCtxPushCurrent(self.context), "cuCtxPushCurrent")
        try:
            yield self
        finally:
            _check(drv.cuCtxPopCurrent(), "cuCtxPopCurrent")


_DEVICES: dict[int, Device] = {}


def opened(ordinal: int = 0) -> Device:
    """GPU `ordinal`, opened once per process; the calling thread's current context is left as it was."""
    dev = _DEVICES.get(ordinal)
    if dev is None:
        dev = _DEVICES[ordinal] = Device.open(ordinal)
    return dev


def device(ordinal: int = 0) -> Device:
    """GPU `ordinal`, opened once per process, its context made current in the calling thread."""
    dev = opened(ordinal)
    dev.make_current()
    return dev


def ptx_digest(ptx: str) -> str:
    """The PTX's own SHA-256 (hex): what a cubin's cache key is made of, and what a compile record keeps so that a
    cached load does not hash the PTX again (~0.1 ms for a 160 KB kernel on the development machine, ~3x that on
    the GPU host)."""
    return hashlib.sha256(ptx.encode()).hexdigest()


def cache_key(ptx: str, chip: str, toolchain: str, digest: str | None = None) -> str:
    """SHA-256 of chip, toolchain and the PTX's digest (`digest`, where the caller has it: ptx_digest(ptx)),
    NUL-separated."""
    return hashlib.sha256(f"{chip}\0{toolchain}\0{digest or ptx_digest(ptx)}".encode()).hexdigest()


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


def load_cubin(ptx: str, label: str, dev: Device, digest: str | None = None) -> tuple[bytes, bool]:
    """(cubin, from_cache) for `dev` (its context current), through the on-disk cache: assembled by ptxas when one
    is found for the chip, else by the driver's JIT. `digest`: ptx_digest(ptx), where the caller has it."""
    arch = ptxas_arch(ptx, dev.chip)
    tool = _ptxas_for(arch)
    toolchain = f"ptxas-{tool.release[0]}.{tool.release[1]}" if tool else f"driver-{dev.driver_version}"
    path = cache_dir("cubin") / f"{cache_key(ptx, dev.chip, toolchain, digest)}.cubin"
    if path.exists():
        return path.read_bytes(), True
    cubin = ptxas.assemble_cubin(ptx, arch).data if tool else jit_cubin(ptx, label)
    atomic_write(path, cubin)
    return cubin, False


_PTX_TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.MULTILINE)


def ptxas_arch(ptx: str, chip: str) -> str:
    """The -arch that assembles `ptx` for a GPU of `chip`: the chip, with the arch-specific suffix (sm_90a) when
    the PTX targets that chip's own features."""
    m = _PTX_TARGET.search(ptx)
    target = m.group(1) if m else chip
    return target if target.rstrip("af") == chip else chip


def _ptxas_for(arch: str) -> ptxas.Ptxas | None:
    try:
        return ptxas.for_target(arch)
    except (ptxas.PtxasNotFound, UnknownChip):  # no ptxas here, or a chip mmatom does not name: the driver's JIT
        return None


@dataclass
class Module:
    """A PTX module, loaded on each GPU that launches it (a cuda.core ObjectCode of the cubin for that GPU's chip:
    two GPUs of one process may differ)."""

    ptx: str
    label: str = "module"
    digest: str | None = None  # ptx_digest(ptx), where the creator has it (a compile record keeps it)
    _code: dict[int, Any] = field(default_factory=dict)  # device ordinal -> ObjectCode
    _functions: dict[tuple[int, str], Any] = field(default_factory=dict)  # (ordinal, kernel) -> CUfunction
    from_cache: bool = False

    def function(self, name: str, dev: Device | None = None):
        """The kernel's CUfunction in `dev`'s primary context (default GPU 0): what cuLaunchKernel and
        cuFuncSetAttribute take."""
        dev = dev or opened(0)
        key = (dev.ordinal, name)
        if key not in self._functions:
            with dev.current():
                self._functions[key] = self._load(name, dev)
        return self._functions[key]

    def _load(self, name: str, dev: Device):
        code = self._code.get(dev.ordinal)
        if code is None:
            cubin, self.from_cache = load_cubin(self.ptx, self.label, dev, self.digest)
            with _core_call("ObjectCode.from_cubin", self.label):
                code = self._code[dev.ordinal] = _core().ObjectCode.from_cubin(cubin, name=self.label)
        with _core_call("ObjectCode.get_kernel", name):
            handle = code.get_kernel(name).handle
        if not isinstance(handle, _driver().CUfunction):  # a CUkernel (cuLibrary loading): this context's copy
            handle = _check(_driver().cuKernelGetFunction(handle), "cuKernelGetFunction", name)
        return handle


@dataclass(frozen=True)
class Param:
    kind: str  # "ptr", "u32", "u64", "f32", "f64", "tmap" / "tmap_batched" (a CUtensorMap by value, 2-d / 3-d)


TMAP_KINDS = {"tmap": False, "tmap_batched": True}  # a tensor-map parameter's kind -> whether its map is batched


# -- TMA tensor maps (cuTensorMapEncodeTiled) ------------------------------------------------------

TMAP_DTYPES = {"u8": 0, "u16": 1, "u32": 2, "s32": 3, "u64": 4, "s64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9,
               "e4m3": 0, "e5m2": 0, "s8": 0}  # fp8 and s8 move as bytes (CUTLASS does the same)
TMAP_SWIZZLE = {"none": 0, "32b": 1, "64b": 2, "128b": 3}
STRIDE_ALIGN = 16


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ took 1.5 us of a new shape's first GEMM call
class TensorMap:
    """A TMA descriptor of a row-major 2-d tensor (rows x cols, `row_stride` elements apart) -- or of a 3-d one,
    `layers` of them `layer_stride` elements apart (a batched map: boxes of 1 x box_rows x box_cols) -- and the box
    it moves; `handle` is the CUtensorMap passed by value to the kernel; `device` the GPU ordinal whose memory it
    addresses (a launch with it runs there)."""

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
    device: int | None = None
    layers: int | None = None  # a batched map's L (None: a 2-d map)
    layer_stride: int | None = None  # elements between layers

    @property
    def batched(self) -> bool:
        return self.layers is not None

    def over(self, address: int, rows: int) -> "TensorMap":
        """A map like this 2-d one -- its columns, row stride, element type, box, swizzle and GPU -- over `rows` rows
        at `address` (a serving loop's next batch of rows, without reading a tensor again: its checks and
        encode only)."""
        if self.layers is not None:
            raise LaunchError("TensorMap.over: a batched map; encode the new tensor with mmatom.tensor_map")
        return tensor_map_2d(address, rows, self.cols, self.row_stride, self.elem, self.elem_bytes, self.box_rows,
                             self.box_cols, self.swizzle, self.device)


def _check_rows(address: int, rows: int, cols: int, row_stride: int, elem: str, elem_bytes: int) -> None:
    """The rules TMA imposes on a 2-d tensor (or each layer of a 3-d one), named."""
    if elem not in TMAP_DTYPES:
        raise LaunchError(f"tensor map: element type {elem} has no TMA data type; one of {', '.join(TMAP_DTYPES)}")
    if address % STRIDE_ALIGN:
        raise LaunchError(f"tensor map: the tensor's address {address:#x} is not {STRIDE_ALIGN}-byte aligned")
    if (row_stride * elem_bytes) % STRIDE_ALIGN or row_stride < cols:
        raise LaunchError(f"tensor map: a row stride of {row_stride} elements ({row_stride * elem_bytes} bytes) is "
                          f"not a multiple of {STRIDE_ALIGN} bytes at least one row long; TMA cannot address it")
    if not (0 < rows < 2**32 and 0 < cols < 2**32):
        raise LaunchError(f"tensor map: {rows}x{cols} is outside TMA's 1..2^32 extents")


class TensorMapBytes:
    """A CUtensorMap: 128 bytes, 64-byte aligned as the driver's type is declared, filled by the encode and passed
    to a kernel by value (cuLaunchKernel copies them from `getPtr()`, the spelling of cuda.bindings' CUtensorMap).
    The same allocation holds, after the map, the extents and strides its encode read (write_after: one ctypes
    object per map, not three)."""

    __slots__ = ("_storage", "address")

    def __init__(self):
        self._storage = _MAP_STORAGE()
        base = ctypes.addressof(self._storage)
        self.address = base + (-base % 64)

    def getPtr(self) -> int:  # noqa: N802
        return self.address

    def write_after(self, layout: struct.Struct, *values: int) -> int:
        """`values` packed into the words after the map (at most 5: a 3-d map's extents and strides); their
        address."""
        layout.pack_into(self._storage, self.address - ctypes.addressof(self._storage) + TENSOR_MAP_BYTES, *values)
        return self.address + TENSOR_MAP_BYTES


TENSOR_MAP_BYTES = 128
_MAP_STORAGE = ctypes.c_uint8 * (TENSOR_MAP_BYTES + 64 + 5 * 8)  # the map, its alignment, the encode's sizes
_L2_PROMOTION_256B, _OOB_FILL_NONE, _INTERLEAVE_NONE = 3, 0, 0  # CUtensorMapL2promotion / FloatOOBfill / Interleave


class _TensorMapEncoder:
    """cuTensorMapEncodeTiled, and the current context it needs, through ctypes on the libcuda cuda.bindings loaded.
    Why not the binding: it builds a Python object per extent, stride, box dimension and enum, and the runtime
    pushed a context around every call; measured on the H100's host (benchmarks/gemm_host_path.py --breakdown), one
    map 5.7-6.2 us here against 8.9-9.4 us through cuda.bindings -- a new shape's first GEMM call encodes two. (The
    launch stays on cuda.bindings: its cuLaunchKernel measured faster than the same call through ctypes, 3.7 against
    ~4 us, benchmarks/launch_overhead.py --gpu.)"""

    def __init__(self):
        _driver()  # cuda-python present (else NoDriverError), and libcuda loaded by it
        lib = ctypes.CDLL("libcuda.so.1")
        ptr, uint, enum = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
        self.encode_tiled = lib.cuTensorMapEncodeTiled  # every array passed as its address (an int converts fastest)
        self.encode_tiled.argtypes = [ptr, enum, uint, ptr, ptr, ptr, ptr, ptr, enum, enum, enum, enum]
        self.encode_tiled.restype = ctypes.c_int
        self._get_current = lib.cuCtxGetCurrent
        self._get_current.argtypes, self._get_current.restype = [ctypes.POINTER(ctypes.c_void_p)], ctypes.c_int

    def has_context(self) -> bool:
        """The calling thread has a current context."""
        context = ctypes.c_void_p()  # one per call: threads ask at once
        return self._get_current(ctypes.byref(context)) == 0 and context.value is not None


@lru_cache(maxsize=1)
def _tensor_map_encoder() -> _TensorMapEncoder:
    return _TensorMapEncoder()


def _encode(elem: str, address: int, dims: Sequence[int], byte_strides: Sequence[int], box: Sequence[int],
            swizzle: str, device: int | None) -> tuple[TensorMapBytes, int | None]:
    """cuTensorMapEncodeTiled of a tensor whose dimensions, strides (bytes, all but the innermost) and box are
    given innermost first; (the map, the GPU the address is on: `device`, else asked of the driver)."""
    encoder, rank = _tensor_map_encoder(), len(dims)
    device = pointer_device(address) if device is None else device
    handle = TensorMapBytes()
    sizes = handle.write_after(_SIZES[rank], *dims, *byte_strides)  # the extents, then the strides
    args = (handle.address, TMAP_DTYPES[elem], rank, address, sizes, sizes + 8 * rank, _box_address(tuple(box)),
            _UNIT_STRIDES[rank], _INTERLEAVE_NONE, TMAP_SWIZZLE[swizzle], _L2_PROMOTION_256B, _OOB_FILL_NONE)
    result = encoder.encode_tiled(*args)
    if result and not encoder.has_context():
        # the encode needs a current context: a thread that has none (torch's autograd threads) gets the GPU's
        # (asked only after a failure: one driver call less on every map)
        with opened(device or 0).current():
            result = encoder.encode_tiled(*args)
    if result:
        _check((_driver().CUresult(result),), "cuTensorMapEncodeTiled")
    return handle, device


_SIZES = {rank: struct.Struct(f"<{2 * rank - 1}Q") for rank in (2, 3)}  # a map's extents and byte strides
_ARRAYS: dict[tuple, Any] = {}  # boxes' extents and the unit element strides, as the encode reads them (read only)


def _box_address(box: tuple[int, ...]) -> int:
    """The address of a u32 array of `box` (one per box, kept)."""
    found = _ARRAYS.get(box)
    if found is None:
        if len(_ARRAYS) >= 1024:  # (the encode reads them during the call only)
            _ARRAYS.clear()
        found = _ARRAYS[box] = (ctypes.c_uint32 * len(box))(*box)
    return ctypes.addressof(found)


_UNIT_ELEMENT_STRIDES = {rank: (ctypes.c_uint32 * rank)(*([1] * rank)) for rank in (2, 3)}  # kept: read by encodes
_UNIT_STRIDES = {rank: ctypes.addressof(array) for rank, array in _UNIT_ELEMENT_STRIDES.items()}


def tensor_map_2d(address: int, rows: int, cols: int, row_stride: int, elem: str, elem_bytes: int, box_rows: int,
                  box_cols: int, swizzle: str = "128b", device: int | None = None) -> TensorMap:
    """Encode the map (out-of-bounds elements of a box read as zero and are not written). The rules TMA imposes
    are checked first and named: a 16-byte aligned base, a row stride that is a multiple of 16 bytes. `device`:
    the GPU the address is on (default: asked of the driver)."""
    _check_rows(address, rows, cols, row_stride, elem, elem_bytes)
    handle, device = _encode(elem, address, [cols, rows], [row_stride * elem_bytes], [box_cols, box_rows], swizzle,
                             device)
    return TensorMap(address, rows, cols, row_stride, elem, elem_bytes, box_rows, box_cols, swizzle, handle, device)


def tensor_map_3d(address: int, layers: int, rows: int, cols: int, row_stride: int, layer_stride: int, elem: str,
                  elem_bytes: int, box_rows: int, box_cols: int, swizzle: str = "128b",
                  device: int | None = None) -> TensorMap:
    """A batched map of a 3-d tensor (layers x rows x cols, row-major within a layer) moving boxes of one layer,
    1 x box_rows x box_cols; the 2-d map's rules, and a layer stride that is a positive multiple of 16 bytes."""
    _check_rows(address, rows, cols, row_stride, elem, elem_bytes)
    if layer_stride <= 0 or (layer_stride * elem_bytes) % STRIDE_ALIGN:
        raise LaunchError(f"tensor map: a layer stride of {layer_stride} elements ({layer_stride * elem_bytes} bytes) "
                          f"is not a positive multiple of {STRIDE_ALIGN} bytes; TMA cannot address it")
    if not 0 < layers < 2**32:
        raise LaunchError(f"tensor map: {layers} layers is outside TMA's 1..2^32 extents")
    handle, device = _encode(elem, address, [cols, rows, layers], [row_stride * elem_bytes, layer_stride * elem_bytes],
                             [box_cols, box_rows, 1], swizzle, device)
    return TensorMap(address, rows, cols, row_stride, elem, elem_bytes, box_rows, box_cols, swizzle, handle, device,
                     layers, layer_stride)


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


def _device_pointer(arg: Any) -> int | None:
    if getattr(arg, "is_cuda", False) and hasattr(arg, "data_ptr"):
        return int(arg.data_ptr())  # torch: ~20x cheaper than building its __cuda_array_interface__
    iface = getattr(arg, "__cuda_array_interface__", None)
    if iface is not None:
        return int(iface["data"][0])
    return None


# -- which GPU a launch runs on: its arguments' ------------------------------------------------------

def pointer_device(address: int) -> int | None:
    """The ordinal of the GPU whose memory `address` is (unified addressing: one answer per address), None for 0."""
    if not address:
        return None
    drv = _driver()
    _check(drv.cuInit(0), "cuInit")  # idempotent; the array's owner may have reached the driver another way
    attribute = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    err, ordinal = drv.cuPointerGetAttribute(attribute, address)
    # an address the driver does not know is no device's: the launch runs on GPU 0, and its kernel finds out
    return int(ordinal) if err == drv.CUresult.CUDA_SUCCESS else None


_SCALAR_TYPES = (int, float, bool)


def device_of(arg: Any) -> int | None:
    """The GPU an argument lives on: a torch tensor's, a tensor map's, a __cuda_array_interface__ array's (asked
    of the driver); None for scalars, numpy arrays and CPU tensors."""
    if isinstance(arg, TensorMap):
        return arg.device
    if type(arg) in _SCALAR_TYPES:  # (a launch's sizes: no attribute lookups that miss)
        return None
    is_cuda = getattr(arg, "is_cuda", None)
    if is_cuda is not None:  # torch (a CPU tensor's __cuda_array_interface__ raises)
        return arg.get_device() if is_cuda else None
    iface = getattr(arg, "__cuda_array_interface__", None)
    return pointer_device(int(iface["data"][0])) if iface is not None else None


def launch_device(name: str, args: Sequence[Any]) -> int:
    """The ordinal of the GPU the arguments are on (0 when none is on a GPU); arguments on two GPUs are refused,
    each named with its device, before anything is launched."""
    found = {i: d for i, a in enumerate(args) if (d := device_of(a)) is not None}
    ordinals = set(found.values())
    if len(ordinals) > 1:
        where = ", ".join(f"argument {i} on cuda:{d}" for i, d in found.items())
        raise LaunchError(f"kernel '{name}': its arguments are on different GPUs ({where}); a launch runs on one "
                          f"GPU: move them to one")
    return ordinals.pop() if ordinals else 0


_SPECIAL_STREAMS = 3  # 0 (legacy), CU_STREAM_LEGACY, CU_STREAM_PER_THREAD: the current context's, always ours
_STREAM_DEVICES: dict[int, int] = {}  # stream handle -> its GPU (torch's streams live as long as the process)


def stream_device(stream: int) -> int:
    """The ordinal of the GPU a stream (a raw CUstream handle) belongs to, asked of the driver once per handle."""
    found = _STREAM_DEVICES.get(stream)
    if found is None:
        drv = _driver()
        context = _check(drv.cuStreamGetCtx(drv.CUstream(stream)), "cuStreamGetCtx")
        _check(drv.cuCtxPushCurrent(context), "cuCtxPushCurrent")
        try:
            found = int(_check(drv.cuCtxGetDevice(), "cuCtxGetDevice"))
        finally:
            _check(drv.cuCtxPopCurrent(), "cuCtxPopCurrent")
        if len(_STREAM_DEVICES) >= 1024:
            _STREAM_DEVICES.clear()
        _STREAM_DEVICES[stream] = found
    return found


def check_stream(name: str, stream: int, ordinal: int) -> None:
    """Refuse a launch on another GPU's stream (the driver would reject it, or run it on the stream's GPU)."""
    if stream >= _SPECIAL_STREAMS and (on := stream_device(stream)) != ordinal:
        raise LaunchError(f"kernel '{name}': the stream {stream:#x} is on cuda:{on} and the arguments on "
                          f"cuda:{ordinal}; launch on a stream of cuda:{ordinal} (torch.cuda.current_stream("
                          f"tensor.device))")


def check_arity(name: str, params: Sequence[Param], args: Sequence[Any]) -> None:
    if len(args) != len(params):
        raise TypeError(f"kernel '{name}' takes {len(params)} arguments, got {len(args)}")


class PackedArguments:
    """Arguments as cuLaunchKernel reads them: `address` is a void*[] of one pointer per argument's value;
    `holders` keep the values (and each tensor map's 128 bytes) alive as long as this object."""

    __slots__ = ("holders", "address")

    def __init__(self, holders: list, address: int):
        self.holders, self.address = holders, address

    @property
    def pointers(self) -> Any:
        """The void*[] (as integers): one pointer per argument."""
        count = (ctypes.sizeof(self.holders[0]) // _SLOT_BYTES) // 2
        return (ctypes.c_uint64 * count).from_address(self.address)


# (index, argument) -> device pointer, for an argument that is not a device array (the synchronous launch's
# numpy copies); without one such an argument is refused
PointerFallback = Callable[[int, Any], int]

# each scalar or pointer argument in an 8-byte slot of one buffer, as struct packs it: the driver copies the
# parameter's own width from the slot's start (little-endian: a u32's value is its first 4 bytes); a tensor map's
# slot stays empty (its pointer is the map's own 128 bytes)
_SLOT_FORMATS = {"ptr": "Q", "u64": "Q", "u32": "I4x", "f32": "f4x", "f64": "d"}
_SLOT_BYTES = 8


class ArgumentPacker:
    """How one kernel signature's arguments are packed: every scalar and pointer in an 8-byte slot, then the
    void*[] cuLaunchKernel reads -- each slot's address, or a tensor map's own 128 bytes --, all in one buffer filled
    by one struct.pack_into (a ctypes object per argument cost a new shape's first GEMM call ~1 us each)."""

    def __init__(self, name: str, params: Sequence[Param]):
        self.name, self.params, self.kinds = name, tuple(params), tuple(p.kind for p in params)
        count = len(self.kinds)
        self.buffer_type = ctypes.c_uint64 * (2 * count or 1)
        self.layout = struct.Struct("<" + "".join(_SLOT_FORMATS.get(k, "8x") for k in self.kinds) + "Q" * count)
        self.maps = tuple(TMAP_KINDS.get(k) for k in self.kinds)  # a map's batched flag; None: a slot's value
        self.slot_offsets = tuple(_SLOT_BYTES * i for i in range(count))
        self.table_offset = _SLOT_BYTES * count

    def __call__(self, args: Sequence[Any], fallback: PointerFallback | None = None) -> PackedArguments:
        check_arity(self.name, self.params, args)
        buffer = self.buffer_type()
        base = ctypes.addressof(buffer)
        values, table, holders = [], [], [buffer]
        for i, kind, batched, a in zip(self.slot_offsets, self.kinds, self.maps, args):
            if batched is None:
                if kind == "ptr":  # (a torch tensor's address asked directly: the common case, inline)
                    a = a.data_ptr() if getattr(a, "is_cuda", False) else \
                        _pointer(self.name, i // _SLOT_BYTES, a, fallback)
                values.append(a)
                table.append(base + i)
            else:
                if type(a) is not TensorMap or (a.layers is not None) != batched:
                    _check_tensor_map(self.name, i // _SLOT_BYTES, a, batched)
                holders.append(a)
                table.append(a.handle.getPtr())
        try:
            self.layout.pack_into(buffer, 0, *values, *table)
        except struct.error:
            raise self._unpackable(args) from None
        return PackedArguments(holders, base + self.table_offset)

    def _unpackable(self, args: Sequence[Any]) -> LaunchError:
        """The first scalar argument its parameter's type cannot hold, named."""
        for i, (kind, a) in enumerate(zip(self.kinds, args)):
            if kind in _SLOT_FORMATS and kind != "ptr":
                try:
                    struct.pack("<" + _SLOT_FORMATS[kind], a)
                except struct.error:
                    return LaunchError(f"kernel '{self.name}' argument {i}: {a!r} does not fit its {kind} "
                                       f"parameter")
        return LaunchError(f"kernel '{self.name}': arguments that do not fit their parameters")


_PACKERS: dict[tuple, ArgumentPacker] = {}


def pack_arguments(name: str, params: Sequence[Param], args: Sequence[Any],
                   fallback: PointerFallback | None = None) -> PackedArguments:
    """`args` checked against the kernel's parameters and packed once, for any number of launches."""
    key = (name, tuple(params))
    packer = _PACKERS.get(key)
    if packer is None:
        if len(_PACKERS) >= 1024:
            _PACKERS.clear()
        packer = _PACKERS[key] = ArgumentPacker(name, params)
    return packer(args, fallback)


def _check_tensor_map(name: str, index: int, arg: Any, batched: bool) -> None:
    if not isinstance(arg, TensorMap):
        raise TypeError(f"kernel '{name}' argument {index}: expected a tensor map (mmatom.tensor_map), got "
                        f"{type(arg).__name__}")
    if arg.batched != batched:
        want, got = ("a batched", "a 2-d") if batched else ("a 2-d", "a batched")
        raise TypeError(f"kernel '{name}' argument {index}: the parameter is {want} tensor map "
                        f"(TensorMapType(..., batched={batched})) but the argument is {got} one (mmatom.tensor_map of "
                        f"a {2 + arg.batched}-d tensor)")


def _pointer(name: str, index: int, arg: Any, fallback: PointerFallback | None) -> int:
    ptr = _device_pointer(arg)
    if ptr is not None:
        return ptr
    if fallback is None:
        raise TypeError(f"kernel '{name}' argument {index}: an asynchronous launch takes device arrays, got "
                        f"{type(arg).__name__}")
    return fallback(index, arg)


def pad3(extents: Sequence[int]) -> tuple[int, int, int]:
    return tuple(extents) + (1,) * (3 - len(extents))


def grid_of_clusters(name: str, grid: Sequence[int], cluster: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """The grid in CTAs, refused unless it is a whole number of clusters."""
    g = pad3(grid)
    if cluster is not None and any(n % c for n, c in zip(g, cluster)):
        raise LaunchError(f"kernel '{name}': grid {g} is not a whole number of clusters {cluster}")
    return g


def opt_in_shared_bytes(func: Any, shared_bytes: int, name: str) -> None:
    if shared_bytes > _OPT_IN_ABOVE:
        attr = _driver().CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        _check(_driver().cuFuncSetAttribute(func, attr, shared_bytes), "cuFuncSetAttribute", name)


def bind_launch(func: Any, name: str, grid: tuple[int, int, int], block: tuple[int, int, int], shared_bytes: int,
                cluster: tuple[int, int, int] | None, packed: PackedArguments,
                dev: Device | None = None) -> Callable[[int], None]:
    """launch(stream) with everything else fixed; the only Python per call is the driver call itself, and with
    `dev` (the GPU `func` is loaded on) the stream's GPU checked and dev's context made current (on_device)."""
    drv = _driver()
    params = packed.address
    if cluster is None:
        launch_kernel, success = drv.cuLaunchKernel, drv.CUresult.CUDA_SUCCESS

        def launch(stream: int = 0, _keep=packed) -> None:
            result = launch_kernel(func, *grid, *block, shared_bytes, stream, params, 0)
            if result[0] != success:
                _check(result, "cuLaunchKernel", name)
        return launch if dev is None else on_device(launch, name, dev)
    attrs, configs = [_cluster_attribute(cluster)], {}

    def launch_in_cluster(stream: int = 0, _keep=packed) -> None:
        cfg = configs.get(stream)
        if cfg is None:  # built once per stream, then only read: threads launching on one stream share it
            cfg = drv.CUlaunchConfig()
            cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = grid
            cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = block
            cfg.sharedMemBytes, cfg.hStream = shared_bytes, drv.CUstream(stream)
            cfg.attrs, cfg.numAttrs = attrs, 1
            if len(configs) < 64:
                configs[stream] = cfg
        _check(drv.cuLaunchKernelEx(cfg, func, params, 0), "cuLaunchKernelEx", name)
    return launch_in_cluster if dev is None else on_device(launch_in_cluster, name, dev)


@lru_cache(maxsize=64)
def _cluster_attribute(cluster: tuple[int, int, int]) -> Any:
    """The launch attribute naming a cluster shape (one per shape: launches only read it)."""
    drv = _driver()
    attr = drv.CUlaunchAttribute()
    attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cluster
    return attr


def on_device(run: Callable[[int], None], name: str, dev: Device) -> Callable[[int], None]:
    """`run(stream)` on `dev`: a stream of another GPU refused (LaunchError), and dev's context current for the
    call -- pushed only when the thread's is another GPU's (one cuCtxGetCurrent when it is dev's already: the
    single-GPU hot path)."""
    drv = _driver()
    get_current, push, pop, context, ordinal = drv.cuCtxGetCurrent, drv.cuCtxPushCurrent, drv.cuCtxPopCurrent, \
        dev.context, dev.ordinal
    known = _STREAM_DEVICES

    def launch(stream: int = 0) -> None:
        if stream >= _SPECIAL_STREAMS and known.get(stream) != ordinal:
            check_stream(name, stream, ordinal)
        if get_current()[1] == context:
            run(stream)
            return
        _check(push(context), "cuCtxPushCurrent", name)
        try:
            run(stream)
        finally:
            pop()
    return launch


class AsyncLaunch:
    """A kernel's launches without host synchronization, on a given stream: arguments are device pointers,
    tensor maps and scalars (no numpy copies), the dynamic-SMEM opt-in is set once per GPU, and a cluster shape
    goes through cuLaunchKernelEx. A launch runs on its arguments' GPU (launch_device), the kernel loaded there
    on first use."""

    def __init__(self, module: Module, name: str, params: Sequence[Param], block: tuple[int, ...],
                 shared_bytes: int, cluster: tuple[int, int, int] | None = None):
        self.module, self.name, self.params, self.shared_bytes, self.cluster = module, name, tuple(params), \
            shared_bytes, cluster
        self.block = pad3(block)
        self._functions: dict[int, Any] = {}  # device ordinal -> CUfunction
        self._active_clusters: dict[int, int] = {}  # device ordinal -> max_active_clusters
        self.packer = ArgumentPacker(name, self.params)

    def function(self, dev: Device) -> Any:
        """The kernel on `dev`: loaded, its block and SMEM checked against that GPU and opted in, once."""
        func = self._functions.get(dev.ordinal)
        if func is None:
            check_launch_shape(self.name, (1,), self.block, self.shared_bytes, dev.shared_bytes_optin,
                               dev.threads_per_block)
            with dev.current():
                func = self.module.function(self.name, dev)
                opt_in_shared_bytes(func, self.shared_bytes, self.name)
            self._functions[dev.ordinal] = func
        return func

    def __call__(self, args: Sequence[Any], grid: tuple[int, ...], stream: int = 0) -> None:
        self.prepare(args, grid)(stream)

    def max_active_clusters(self, device: int = 0) -> int:
        """How many of this kernel's clusters the GPU holds at once (cuOccupancyMaxActiveClusters: a cluster's
        CTAs share a GPC, so clusters of 4 fill fewer SMs than the SM count says -- what a persistent grid of
        clusters may launch without a second wave). Asked once per GPU."""
        if self.cluster is None:
            raise LaunchError(f"kernel '{self.name}': max_active_clusters of a kernel launched without clusters "
                              f"(it declares no nvvm.cluster_dim)")
        dev = opened(device)
        found = self._active_clusters.get(dev.ordinal)
        if found is None:
            drv, func = _driver(), self.function(dev)
            cfg = drv.CUlaunchConfig()
            cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = self.cluster
            cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = self.block
            cfg.sharedMemBytes, cfg.attrs, cfg.numAttrs = self.shared_bytes, [_cluster_attribute(self.cluster)], 1
            with dev.current():
                found = _check(drv.cuOccupancyMaxActiveClusters(func, cfg), "cuOccupancyMaxActiveClusters",
                               self.name)
            self._active_clusters[dev.ordinal] = found
        return found

    def prepare(self, args: Sequence[Any], grid: tuple[int, ...], device: int | None = None) -> Callable[[int], None]:
        """The launch with these arguments packed once: calling it with a stream handle only launches (what a
        library's hot path wants -- packing is most of the host's per-launch time). `device`: the GPU the arguments
        are on, where the caller knows it (else each argument is asked: launch_device)."""
        dev = opened(launch_device(self.name, args) if device is None else device)
        func = self._functions.get(dev.ordinal) or self.function(dev)
        packed = self.packer(args)  # (refuses another number of arguments)
        g = grid_of_clusters(self.name, grid, self.cluster)
        return bind_launch(func, self.name, g, self.block, self.shared_bytes, self.cluster, packed, dev)


def launch(module: Module, name: str, params: Sequence[Param], args: Sequence[Any],
           grid: tuple[int, ...] = (1,), block: tuple[int, ...] = (32,), shared_bytes: int = 0) -> None:
    """Launch on the arguments' GPU's legacy stream and wait for the kernel; numpy arrays are copied in (to that
    GPU) before and back after."""
    check_arity(name, params, args)
    dev = opened(launch_device(name, args))
    check_launch_shape(name, tuple(grid), tuple(block), shared_bytes, dev.shared_bytes_optin, dev.threads_per_block)
    func = module.function(name, dev)
    buffers: list[_DeviceBuffer] = []

    def copy_in(index: int, arg: Any) -> int:
        if not isinstance(arg, np.ndarray):
            raise TypeError(f"kernel '{name}' argument {index}: expected a device array or numpy array, got "
                            f"{type(arg).__name__}")
        buffers.append(_DeviceBuffer(arg, name))
        return int(buffers[-1].ptr)

    with dev.current():
        try:
            packed = pack_arguments(name, params, args, copy_in)
            opt_in_shared_bytes(func, shared_bytes, name)
            bind_launch(func, name, pad3(grid), pad3(block), shared_bytes, None, packed)(0)
            _check(_driver().cuCtxSynchronize(), "cuCtxSynchronize (the kernel faulted)", name)
            for buf in buffers:
                buf.copy_back()
        finally:
            for buf in buffers:
                buf.free()
