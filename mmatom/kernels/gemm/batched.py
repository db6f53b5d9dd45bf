"""Batched GEMM: `mmatom.gemm(a, b)` with `a` of shape (L, M, K), as torch.bmm / torch.matmul broadcasting.

    d = mmatom.gemm(a, b)                 # a (L, M, K), b (L, N, K) -> (L, M, N): one launch, 3-d tensor maps
    d = mmatom.gemm(a, w)                 # a shared w (N, K): the batch folds into M (one GEMM of L*M rows)
    d = mmatom.gemm(a, b, b_major="n")    # b (L, K, N) or (K, N), as `a @ b`

One kernel per config walks L layers of output tiles (the TileScheduler's layers), each layer's A, B and D boxes at
that layer of their 3-d tensor maps. Split-K is not combined with a batch (the batch already multiplies the tiles).
The config is chosen for L layers of the M x N x K problem (choices.choose_config's `layers`: each layer its own
partial tiles, the 64-row tile a candidate for small M; tuned by mmatom.gemm_autotune(m, n, k, layers=L)). A or B
whose rows are an odd multiple of 16 bytes apart is repacked where the copy pays for itself, as in the 2-d path.
"""

from __future__ import annotations

from functools import wraps

from mmatom.errors import api_error
from mmatom.optional import require_torch

from ..torch_launch import current_stream, tensor_map
from . import host
from .choices import choose_config, repacked_operands, sm_count
from .config import (FP8, OUT_DTYPES, TORCH_DTYPE_NAMES, GemmConfig, operand_box, output_box, output_shape,
                     output_swizzle)


@wraps(host.gemm)
def gemm(a, b, *, out=None, scale_a=None, scale_b=None, config: GemmConfig | None = None, b_major: str = "k",
         out_dtype: str | None = None):
    torch = require_torch("mmatom.gemm")
    if not (isinstance(a, torch.Tensor) and a.dim() == 3):
        return host.gemm(a, b, out=out, scale_a=scale_a, scale_b=scale_b, config=config, b_major=b_major,
                         out_dtype=out_dtype)
    if host._through_torch_op(torch, a, b):
        return host.call_torch_op(a, b, out=out, scale_a=scale_a, scale_b=scale_b, config=config, b_major=b_major,
                                  out_dtype=out_dtype)
    return batched_gemm(torch, a, b, out=out, scale_a=scale_a, scale_b=scale_b, config=config, b_major=b_major,
                        out_dtype=out_dtype)


gemm.__doc__ += "\n\n    " + __doc__.strip().replace("\n", "\n    ")  # and what a batch does


def batched_gemm(torch, a, b, *, out, scale_a, scale_b, config: GemmConfig | None, b_major: str,
                 out_dtype: str | None):
    """gemm for a 3-d A (its arguments)."""
    _refuse_rowwise(a, scale_a, scale_b)
    if not isinstance(b, torch.Tensor):
        raise api_error(f"gemm: a is batched {tuple(a.shape)}; b is (L, N, K), (L, K, N) or a shared (N, K) / (K, N) "
                        f"matrix; got {type(b).__name__}")
    layers, m, n = output_shape(tuple(a.shape), tuple(b.shape), b_major)
    if b.dim() == 2:  # a shared B: the batch folds into M
        flat = None if out is None else _flat_out(torch, out, layers, m)
        d = host.gemm(a.reshape(layers * m, a.shape[2]), b, out=flat, scale_a=scale_a, scale_b=scale_b,
                      config=config, b_major=b_major, out_dtype=out_dtype)
        return out if out is not None else d.unflatten(0, (layers, m))
    if layers == 0:  # no layer to check the operands on: an empty D
        return out if out is not None else a.new_empty((0, m, n))
    p = host._problem(torch, a[0], b[0], scale_a, scale_b, b_major, read=False)  # checked on layer 0
    fp8 = p.dtypes[0] in FP8
    (a3, a_major), (b3, b_major) = _as_read(torch, a, "m", fp8), _as_read(
        torch, b if b_major == "k" else b.transpose(1, 2), "n", fp8)
    out_dtype = host._out_dtype(out, out_dtype, p.dtypes[0])
    d = _output(torch, out, out_dtype, (layers, p.m, p.n), a.device)
    if 0 in (p.m, p.n, p.k):
        result = d.zero_() if p.m and p.n else d
        return result if out is None else out.copy_(result)
    config, a3, b3 = configured(torch, p, (a3, b3), (a_major, b_major), layers, config)
    kernel = host.gemm_kernel(dtype=p.dtypes[0], b_dtype=p.dtypes[1], config=config, out_dtype=out_dtype,
                              b_major=b_major, a_major=a_major, batched=True)
    maps = [tensor_map(a3, *operand_box(config, p.dtypes[0], "a", a_major)),
            tensor_map(b3, *operand_box(config, p.dtypes[0], "b", b_major)),
            tensor_map(d, *output_box(config, out_dtype), output_swizzle(config, out_dtype))]
    scales = [scale_a, scale_b] if fp8 else []
    grid = host.persistent_ctas(config, p.m, p.n, host.resident_sms(kernel, config, sm_count(), d.get_device()),
                                layers)
    kernel.prepare(*maps, p.m, p.n, p.k, layers, *scales, grid=(grid,))(current_stream(torch, a.device))
    return d if out is None or d is out else out.copy_(d)


def configured(torch, p: host.Problem, operands: tuple, majors: tuple[str, str], layers: int,
               config: GemmConfig | None) -> tuple:
    """(the config, A and B as it reads them): the config given, stored or the prior (which prices odd row pitches)
    for `layers` of problem `p`; the 3-d `operands` repacked into rows ROW_PITCH_BYTES apart where
    choices.repacked_operands says the copy pays for itself."""
    dtype = p.operand_types
    odd = tuple(host.odd_pitch(x) for x in operands)
    config = config or choose_config(p.m, p.n, p.k, dtype, majors[1], majors[0], split_k=False, layers=layers,
                                     odd_rows=odd)
    if config.split_k:
        raise api_error(f"gemm: a split-K config ({config.name}) with a batch; the batch multiplies the tiles already")
    repack = repacked_operands(config, p.m, p.n, p.k, dtype, odd, layers=layers, sms=sm_count())
    return (config, *(host.padded_copy(torch, x) if copy else x for x, copy in zip(operands, repack)))


def _refuse_rowwise(a, scale_a, scale_b) -> None:
    """A batch takes one-element fp8 scales (torch._scaled_mm has no batch either: which rows a rowwise scale_a
    would index, L x M or M, is unsaid)."""
    if any(getattr(x, "numel", lambda: 1)() != 1 for x in (scale_a, scale_b)):
        raise api_error(f"gemm: rowwise scales with a batched A {tuple(a.shape)}; they take a 2-d A (fold the batch "
                        f"into M: a.flatten(0, 1) with scale_a of L*M rows), a batch one-element scales")


def _as_read(torch, x, mn_major: str, fp8: bool) -> tuple:
    """A 3-d operand (L, rows, K) as the kernel reads it, and its major: itself (K-major), its per-layer transpose
    (L, K, rows: read MN-major, 16-bit types), or a K-major copy with rows ROW_PITCH_BYTES apart and layers
    consecutive (host.padded_copy; a 2-d operand's MN-major row copy, host._as_stored, is not made for a batch)."""
    if _addressable(x):
        return x, "k"
    if not fp8 and _addressable(x.transpose(1, 2)):
        return x.transpose(1, 2), mn_major
    return host.padded_copy(torch, x), "k"


def _addressable(x) -> bool:
    """Last dimension contiguous, rows and layers a multiple of 16 bytes apart, a 16-byte aligned base."""
    size = x.element_size()
    return x.stride(2) == 1 and x.stride(1) * size % 16 == 0 and x.stride(0) * size % 16 == 0 \
        and x.data_ptr() % 16 == 0


def _flat_out(torch, out, layers: int, m: int):
    """A batched `out` (L, M, N) as the (L*M, N) matrix a folded GEMM writes (a view: it must be one)."""
    if out.dim() != 3 or out.shape[:2] != (layers, m) or out.stride(0) != m * out.stride(1):
        raise api_error(f"gemm: out is {tuple(out.shape)} with strides {out.stride()}; a ({layers}, {m}, N) tensor "
                        f"whose layers are consecutive rows (contiguous)")
    return out.flatten(0, 1)


def _output(torch, out, out_dtype: str, shape: tuple[int, int, int], device):
    """`out` when TMA can store to it (rows a multiple of 16 bytes long), else a new D with rows padded apart."""
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"gemm: D of type {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")
    torch_out = getattr(torch, TORCH_DTYPE_NAMES[out_dtype])
    if out is not None and (tuple(out.shape) != shape or out.dtype != torch_out or out.device != device):
        raise api_error(f"gemm: out is {tuple(out.shape)} {out.dtype} on {out.device}; expected {shape} {torch_out} "
                        f"on {device}")
    elem = OUT_DTYPES[out_dtype]
    if out is not None and _addressable(out) and shape[2] * elem % 16 == 0:
        return out
    cols = -(-shape[2] // (16 // elem)) * (16 // elem)
    return torch.empty(*shape[:2], cols, dtype=torch_out, device=device)[..., : shape[2]]


__all__ = ["batched_gemm", "configured", "gemm"]
