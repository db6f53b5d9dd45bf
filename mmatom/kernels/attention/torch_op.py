"""`mmatom.attention` as a torch op, `torch.ops.mmatom.attention` (torch.library.custom_op): what torch.compile
traces (its fake implementation gives the outputs' shapes, dtypes and device). Forward only: its backward raises.

    o = mmatom.attention(q, k, v)                   # eager, no gradient wanted: host.attention directly, no dispatch
    torch.compile(model, fullgraph=True)            # a model calling mmatom.attention: traced as the op
    o, lse = torch.ops.mmatom.attention(q, k, v, True, None)   # the op itself: always (o, lse)

host.attention routes here only inside torch.compile or when an input requires grad; this module (and the op's
registration) loads on the first such call. Importing it registers the op.
"""

from __future__ import annotations

from typing import Optional

import torch

import mmatom
from mmatom.errors import api_error

from .checks import check_inputs


@torch.library.custom_op("mmatom::attention", mutates_args=())
def attention_op(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False,
                 softmax_scale: Optional[float] = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(o, lse) of host.attention's arguments: o (B, Sq, H, D) in q's dtype, lse (B, H, Sq) float32."""
    return _eager(q, k, v, causal, softmax_scale)


def _eager(q, k, v, causal: bool, softmax_scale: float | None) -> tuple[torch.Tensor, torch.Tensor]:
    """The kernel, launched by mmatom.attention (host.attention, which routes here: no_grad, so that it does not
    route back; named through the public API, so that host.py and this module import each other in one direction)."""
    with torch.no_grad():
        return mmatom.attention(q, k, v, causal=causal, softmax_scale=softmax_scale, return_lse=True)


@attention_op.register_fake
def _attention_fake(q, k, v, causal=False, softmax_scale=None):
    """The outputs' shapes, dtypes and device, after the checks the real call makes (devices apart: a fake tensor
    of a traced CUDA call is on the CUDA device)."""
    p = check_inputs(torch, q, k, v, causal, softmax_scale)
    return q.new_empty(p.o_shape), q.new_empty(p.lse_shape, dtype=torch.float32)


def _setup_context(ctx, inputs, output) -> None:
    """Nothing to keep: the backward refuses."""


def _backward(ctx, grad_o, grad_lse):
    raise api_error("attention: mmatom.attention is forward only (no backward kernel); compute the gradient with "
                    "torch.nn.functional.scaled_dot_product_attention, or call mmatom.attention under torch.no_grad()")


attention_op.register_autograd(_backward, setup_context=_setup_context)

__all__ = ["attention_op"]
