"""`mmatom.gemm` as a torch op, `torch.ops.mmatom.gemm` (torch.library.custom_op): what torch.compile traces
(its fake implementation gives the output's shape, dtype and device) and what autograd differentiates.

    d = mmatom.gemm(a, w)                          # eager, no gradient wanted: host.gemm directly, no dispatch
    torch.compile(model, fullgraph=True)           # a model calling mmatom.gemm: traced as torch.ops.mmatom.gemm
    mmatom.gemm(a, w).sum().backward()             # a or w requiring grad: the op, and its backward GEMMs
    mmatom.gemm(x3, w)                             # a batch (L, M, K) too: D (L, M, N), its backward batched GEMMs

mmatom.gemm (host.gemm, batched.gemm) routes here only inside torch.compile or when a gradient is wanted; this
module (and the op's registration) loads on the first such call. Importing it registers the op for a caller who wants
`torch.ops.mmatom.gemm` itself.
"""

from __future__ import annotations

from typing import Optional

import torch

import mmatom
from mmatom.errors import api_error

from .config import OUT_DTYPES, TORCH_DTYPE_NAMES, GemmConfig, check_dtypes, output_shape

OUT_TORCH_DTYPES = {name: getattr(torch, TORCH_DTYPE_NAMES[name]) for name in OUT_DTYPES}  # out_dtype -> torch's
FP8_DTYPES = (torch.float8_e4m3fn, torch.float8_e5m2)


@torch.library.custom_op("mmatom::gemm", mutates_args=())
def gemm_op(a: torch.Tensor, b: torch.Tensor, scale_a: Optional[torch.Tensor] = None,
            scale_b: Optional[torch.Tensor] = None, b_major: str = "k", out_dtype: Optional[str] = None,
            config: Optional[str] = None) -> torch.Tensor:
    """host.gemm's arguments, `config` as its name (GemmConfig.name); the output is contiguous, as the fake's."""
    d = _eager(a, b, scale_a, scale_b, b_major, out_dtype, config)
    return d if d.is_contiguous() else d.contiguous()  # host.gemm's view of a padded buffer when N is unaligned


def _eager(a, b, scale_a, scale_b, b_major: str, out_dtype: str | None, config: str | None) -> torch.Tensor:
    """The kernel, launched by mmatom.gemm (host.gemm, which routes here: no_grad, so that it does not route back;
    named through the public API, so that host.gemm and this module import each other in one direction)."""
    with torch.no_grad():
        return mmatom.gemm(a, b, scale_a=scale_a, scale_b=scale_b, b_major=b_major, out_dtype=out_dtype,
                         config=None if config is None else GemmConfig.from_name(config))


@gemm_op.register_fake
def _gemm_fake(a, b, scale_a=None, scale_b=None, b_major="k", out_dtype=None, config=None):
    """D's shape (M x N, or L x M x N for a batched A), dtype and device, as the kernel gives them."""
    shape = output_shape(tuple(a.shape), tuple(b.shape), b_major)
    out_dtype = out_dtype or ("f16" if a.dtype == torch.float16 else "bf16")  # as host._out_dtype: A's 16-bit type
    check_dtypes("gemm", "bf16", out_dtype)
    return a.new_empty(shape, dtype=OUT_TORCH_DTYPES[out_dtype])


def _setup_context(ctx, inputs, output) -> None:
    a, b, _scale_a, _scale_b, b_major, _out_dtype, config = inputs
    ctx.save_for_backward(a, b)
    ctx.b_major, ctx.config = b_major, config


def _backward(ctx, grad: torch.Tensor):
    """dA = dD . B and dB = dD^T . A (b_major "n": dB = A^T . dD), each through the same kernels as the
    forward (the op again, so that torch.compile traces them too), layer by layer for a batch. dD^T and A^T are
    transposed views (.mT), which the kernel reads M-major (16-bit types): no copies. A B shared by a batch gets the
    sum over the layers: one GEMM over the batch folded into M."""
    a, b = ctx.saved_tensors
    if a.dtype in FP8_DTYPES:
        raise api_error("gemm: no gradient through an fp8 GEMM (its scales are per-tensor constants); bf16 and f16 "
                        "have one")
    grad = grad.to(a.dtype)  # an f32 D's gradient: the kernels read A's 16-bit type
    need_a, need_b = ctx.needs_input_grad[:2]
    grad_a = _grad_a(grad, b, ctx.b_major) if need_a else None
    if need_b and a.dim() > b.dim():  # dB = sum over layers of dD_l^T . A_l: the layers as more rows of M
        a, grad = a.flatten(0, 1), grad.flatten(0, 1)
    grad_b = _grad_b(grad, a, ctx.b_major) if need_b else None
    return grad_a, grad_b, None, None, None, None, None


def _grad_a(grad, b, b_major: str):
    """dA: (M x N) . (N x K) -- B read as K x N's transpose, or (b_major "n") B's K x N as N x K -- per layer."""
    return gemm_op(grad, b, b_major="n") if b_major == "k" else gemm_op(grad, b)


def _grad_b(grad, a, b_major: str):
    """dB: dD^T . A, (N x M) . (M x K) (b_major "k"), or A^T . dD, (K x M) . (M x N) (b_major "n"), per layer."""
    return gemm_op(grad.mT, a, b_major="n") if b_major == "k" else gemm_op(a.mT, grad, b_major="n")


gemm_op.register_autograd(_backward, setup_context=_setup_context)


def call_op(a, b, *, out=None, scale_a=None, scale_b=None, config: GemmConfig | None = None, b_major: str = "k",
            out_dtype: str | None = None) -> torch.Tensor:
    """host.gemm's call as the op: `out` written by a copy (the op allocates; torch ops that mutate cannot be
    differentiated), its dtype the default out_dtype as in host.gemm."""
    if out_dtype is None and out is not None:
        out_dtype = next((name for name, t in OUT_TORCH_DTYPES.items() if t == out.dtype), None)
    d = gemm_op(a, b, scale_a, scale_b, b_major, out_dtype, None if config is None else config.name)
    return d if out is None else out.copy_(d)


__all__ = ["OUT_TORCH_DTYPES", "call_op", "gemm_op"]
