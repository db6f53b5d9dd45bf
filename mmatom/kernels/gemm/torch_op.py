"""`mmatom.gemm` as a torch op, `torch.ops.mmatom.gemm` (torch.library.custom_op): what torch.compile traces
(its fake implementation gives the output's shape, dtype and device) and what autograd differentiates.

    d = mmatom.gemm(a, w)                          # eager, no gradient wanted: host.gemm directly, no dispatch
    torch.compile(model, fullgraph=True)           # a model calling mmatom.gemm: traced as torch.ops.mmatom.gemm
    mmatom.gemm(a, w).sum().backward()             # a or w requiring grad: the op, and its backward GEMMs

host.gemm routes here only inside torch.compile or when a gradient is wanted; this module (and the op's
registration) loads on the first such call. Importing it registers the op for a caller who wants
`torch.ops.mmatom.gemm` itself.
"""

from __future__ import annotations

from typing import Optional

import torch

import mmatom
from mmatom.errors import api_error

from .config import OUT_DTYPES, TORCH_DTYPE_NAMES, GemmConfig, check_dtypes

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
    """D's shape (M x N), dtype and device, as the kernel gives them."""
    if b_major not in ("k", "n"):
        raise api_error(f"gemm: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    out_dtype = out_dtype or ("f16" if a.dtype == torch.float16 else "bf16")  # as host._out_dtype: A's 16-bit type
    check_dtypes("gemm", "bf16", out_dtype)
    n = b.shape[0] if b_major == "k" else b.shape[1]
    return a.new_empty((a.shape[0], n), dtype=OUT_TORCH_DTYPES[out_dtype])


def _setup_context(ctx, inputs, output) -> None:
    a, b, _scale_a, _scale_b, b_major, _out_dtype, config = inputs
    ctx.save_for_backward(a, b)
    ctx.b_major, ctx.config = b_major, config


def _backward(ctx, grad: torch.Tensor):
    """dA = dD . B and dB = dD^T . A (b_major "n": dB = A^T . dD), each through the same kernels as the
    forward (the op again, so that torch.compile traces them too). dD^T and A^T are transposed views, which the
    kernel reads M-major (16-bit types): no copies."""
    a, b = ctx.saved_tensors
    if a.dtype in FP8_DTYPES:
        raise api_error("gemm: no gradient through an fp8 GEMM (its scales are per-tensor constants); bf16 and f16 "
                        "have one")
    grad = grad.to(a.dtype)  # an f32 D's gradient: the kernels read A's 16-bit type
    need_a, need_b = ctx.needs_input_grad[:2]
    grad_a = grad_b = None
    if ctx.b_major == "k":  # D = A . B^T, B: N x K
        grad_a = gemm_op(grad, b, b_major="n") if need_a else None                      # (M x N) . (N x K)
        grad_b = gemm_op(grad.t(), a, b_major="n") if need_b else None                 # (N x M) . (M x K)
    else:  # D = A . B, B: K x N
        grad_a = gemm_op(grad, b) if need_a else None                                   # (M x N) . (K x N)^T
        grad_b = gemm_op(a.t(), grad, b_major="n") if need_b else None                 # (K x M) . (M x N)
    return grad_a, grad_b, None, None, None, None, None


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
