"""The GEMM's host side: `mmatom.gemm(a, b)` on torch tensors -- the config (stored choice or prior), the compiled
kernel (cached in memory and on disk by its parameters), tensor maps, and launches packed once and replayed.

    d = mmatom.gemm(a, b)                       # a: M x K, b: N x K (like F.linear's weight), bf16 -> bf16
    d = mmatom.gemm(a8, b8, scale_a=sa, scale_b=sb)   # fp8 e4m3/e5m2 with per-tensor scales (torch._scaled_mm)
    kernel = mmatom.gemm_kernel(4096, 4096, 4096)      # the compiled Kernel, for inspection

Shapes TMA cannot describe (a row that is not a multiple of 16 bytes) are padded here.
"""

from __future__ import annotations

from dataclasses import asdict

import mmatom
from mmatom.errors import api_error, require_torch

from .choices import choose_config, sm_count
from .config import BOX, ELEM_BYTES, FP8, OUT_DTYPES, GemmConfig, box_columns, check_dtypes
from .kernel import build_gemm


def persistent_ctas(config: GemmConfig, m: int, n: int, sms: int) -> int:
    """The persistent grid: a CTA per SM, or fewer when there are fewer tiles; whole clusters."""
    cluster = config.cluster_size
    units = -(-m // (config.block_m * config.cluster_m)) * -(-n // (config.block_n * config.cluster_n))
    return min(units, sms // cluster) * cluster


_KERNELS: dict[tuple, mmatom.Kernel] = {}


def gemm_kernel(*, dtype: str = "bf16", out_dtype: str | None = None, target: str = "sm_90a",
                config: GemmConfig | None = None) -> mmatom.Kernel:
    """The compiled GEMM kernel of a config (D bf16, or f32 with out_dtype="f32"; parameters: tensor maps of A, B,
    D, the sizes m, n, k, then for fp8 the two scale pointers): one kernel serves every shape. Compiled once per
    process and cached on disk by its parameters (mmatom.compile_generated)."""
    out_dtype = out_dtype or "bf16"
    check_dtypes("gemm_kernel", dtype, out_dtype)
    config = config or GemmConfig()
    key = (dtype, target, config, out_dtype)
    if key not in _KERNELS:  # on disk, found by the generator's parameters without building the module
        _KERNELS[key] = mmatom.compile_generated(
            ["mmatom.kernels.gemm", "any shape", dtype, target, asdict(config), out_dtype],
            lambda: build_gemm(dtype, target, config, out_dtype)[0])
    return _KERNELS[key]


def _torch_dtype_name(t) -> str:
    name = str(t.dtype).removeprefix("torch.")
    return {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}.get(name, name)


def _aligned_columns(x, elem_bytes: int):
    """`x` (rows x cols, row-major) with its rows padded with zeros to a multiple of 16 bytes (what TMA can
    address); `x` itself when they already are."""
    torch = require_torch("mmatom.gemm")
    align = 16 // elem_bytes
    if x.is_contiguous() and x.shape[1] % align == 0:
        return x
    cols = -(-x.shape[1] // align) * align
    padded = torch.empty((x.shape[0], cols), dtype=x.dtype, device=x.device)
    padded[:, : x.shape[1]] = x
    padded[:, x.shape[1]:].zero_()  # only the pad columns: the whole buffer zeroed first is one more pass over it
    return padded


def gemm(a, b, *, out=None, scale_a=None, scale_b=None, config: GemmConfig | None = None, b_major: str = "k",
         out_dtype: str | None = None):
    """D = A . B^T (b_major "k": B is N x K, like F.linear's weight) or A . B (b_major "n": B is K x N) on the
    current torch stream, asynchronously; bf16 in, or fp8 (e4m3/e5m2) in with per-tensor float32 scales
    (`scale_a`, `scale_b` device tensors, as torch._scaled_mm); D bf16, or float32 (`out_dtype="f32"` or a
    float32 `out`). `out` (M x N) is written if given, else allocated. Inside torch.compile, or when a or b
    requires grad, the call is the torch op torch.ops.mmatom.gemm (torch_op.py); otherwise no op dispatch."""
    torch = require_torch("mmatom.gemm")
    if ((a.requires_grad or b.requires_grad) and torch.is_grad_enabled()) or torch.compiler.is_compiling():
        from .torch_op import call_op  # a gradient wanted, or torch.compile tracing: the torch op, registered here

        return call_op(a, b, out=out, scale_a=scale_a, scale_b=scale_b, config=config, b_major=b_major,
                       out_dtype=out_dtype)
    call = (a, b, out, scale_a, scale_b, config, b_major, out_dtype)
    if out is not None:  # the hot path: the same operands as an earlier call, launched as packed then
        launch = _PREPARED.get(_call_key(*call))
        if launch is not None:
            launch(_current_stream(torch, a.device))
            return out
    dtype, a_k, b_k = _operands(a, b, scale_a, scale_b, b_major)
    (m, k), n = a.shape, b_k.shape[0]
    out_dtype = out_dtype or ("f32" if out is not None and out.dtype == torch.float32 else "bf16")
    d = _output(torch, out, out_dtype, m, n, a.device)
    config = config or choose_config(m, n, k, dtype)
    kernel = gemm_kernel(dtype=dtype, config=config, out_dtype=out_dtype)
    bk = config.block_k(dtype)
    maps = [_tensor_map(a_k, config.block_m // config.cluster_n, bk),
            _tensor_map(b_k, config.block_n // config.cluster_m, bk), _tensor_map(d, BOX, box_columns(out_dtype))]
    launch = kernel.prepare(*maps, m, n, a_k.shape[1], *([scale_a, scale_b] if dtype in FP8 else []),
                            grid=(persistent_ctas(config, m, n, sm_count()),))
    launch(_current_stream(torch, a.device))
    if d is out and a_k is a and b_k is b:  # no per-call copy in the launch: it can be replayed as packed
        if len(_PREPARED) >= CACHED_CALLS:
            _PREPARED.clear()
        _PREPARED[_call_key(*call)] = launch
    return _result(d, out, n)


def _operands(a, b, scale_a, scale_b, b_major: str) -> tuple:
    """(dtype, A, B as N x K), each with rows TMA can address (padded copies where they are not)."""
    dtype = _torch_dtype_name(a)
    if _torch_dtype_name(b) != dtype or dtype not in ELEM_BYTES:
        raise api_error(f"gemm: A is {a.dtype} and B {b.dtype}; both bf16, or both float8_e4m3fn / float8_e5m2")
    if (dtype in FP8) != (scale_a is not None and scale_b is not None):
        raise api_error("gemm: fp8 inputs take scale_a and scale_b (float32 device tensors); bf16 takes neither")
    if b_major == "n":
        b = b.t().contiguous()  # K x N -> N x K (K contiguous): the wgmma K-major form both bf16 and fp8 have
    elif b_major != "k":
        raise api_error(f"gemm: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    (m, k), (n, k_b) = a.shape, b.shape
    if k != k_b:
        raise api_error(f"gemm: A is {m}x{k} and B is {n}x{k_b}; the K extents differ")
    esize = ELEM_BYTES[dtype]
    return dtype, _aligned_columns(a, esize), _aligned_columns(b, esize)


def _output(torch, out, out_dtype: str, m: int, n: int, device):
    """Where the kernel writes D: `out` itself, or (no `out`, or one TMA cannot store to) a new buffer whose rows
    are a multiple of 16 bytes."""
    check_dtypes("gemm", "bf16", out_dtype)
    torch_out = torch.bfloat16 if out_dtype == "bf16" else torch.float32
    align = 16 // OUT_DTYPES[out_dtype]
    n_out = -(-n // align) * align  # rows of D must be a multiple of 16 bytes for the TMA store
    if out is not None and (tuple(out.shape) != (m, n) or out.dtype != torch_out):
        raise api_error(f"gemm: out is {tuple(out.shape)} {out.dtype}; expected ({m}, {n}) {torch_out}")
    if out is not None and out.is_contiguous() and n_out == n:
        return out
    return torch.empty((m, n_out), dtype=torch_out, device=device)


def _result(d, out, n: int):
    """D as the caller asked for it: `out`, or the first n columns of the kernel's buffer."""
    if d is out:
        return out
    result = d[:, :n]
    if out is not None:
        out.copy_(result)
        return out
    return result


CACHED_CALLS = 4096  # packed launches and tensor maps kept (a bound: a caller may keep allocating new buffers)
_MAPS: dict[tuple, object] = {}
_PREPARED: dict[tuple, object] = {}


def forget_kernels() -> None:
    """Drop this process's compiled GEMM kernels (the next gemm_kernel call reads the compile cache again)."""
    _KERNELS.clear()


def forget_prepared_calls() -> None:
    """Drop the packed launches (after the autotuner stores a new choice, so the next calls use it)."""
    _PREPARED.clear()


def _call_key(a, b, out, scale_a, scale_b, config, b_major, out_dtype) -> tuple:
    """What a packed launch depends on: every operand's address, shape, strides and type, and the config asked
    for (a tensor freed and another allocated at its address with the same shape is the same launch)."""
    return (a.data_ptr(), b.data_ptr(), out.data_ptr(), a.shape, b.shape, out.shape, a.stride(), b.stride(),
            out.stride(), a.dtype, b.dtype, out.dtype, None if scale_a is None else scale_a.data_ptr(),
            None if scale_b is None else scale_b.data_ptr(), config, b_major, out_dtype)


def _tensor_map(x, box_rows: int, box_cols: int):
    key = (x.data_ptr(), tuple(x.shape), tuple(x.stride()), x.dtype, box_rows, box_cols)
    found = _MAPS.get(key)
    if found is None:
        if len(_MAPS) >= CACHED_CALLS:
            _MAPS.clear()
        found = _MAPS[key] = mmatom.tensor_map(x, box_rows, box_cols)
    return found


def _current_stream(torch, device) -> int:
    """torch's current stream on `device` as a raw handle (torch.cuda.current_stream() builds a Stream object:
    ~10 us of a small GEMM's host path)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(device.index) if raw is not None else torch.cuda.current_stream(device).cuda_stream


__all__ = ["forget_kernels", "forget_prepared_calls", "gemm", "gemm_kernel", "persistent_ctas"]
