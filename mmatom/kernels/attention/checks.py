"""What mmatom.attention takes, checked before anything is compiled: the call's Problem (sizes and type) from q, k,
v and the scalars, or an mmatom error naming the argument, its value and what is legal. Shapes, strides and dtypes
only -- the torch op's fake implementation runs these checks on fake tensors -- and the devices apart."""

from __future__ import annotations

import math
from typing import NamedTuple

from mmatom.errors import api_error

from .config import DTYPES, HEAD_DIMS

TORCH_DTYPES = {"bfloat16": "bf16", "float16": "f16"}  # torch's dtype name -> ours
I32_MAX = 2 ** 31 - 1  # the kernel's sizes are i32 parameters


class Problem(NamedTuple):
    """An attention call's sizes and its type, as checked: q (B, Sq, H, D), k and v (B, Sk, Hkv, D)."""
    dtype: str
    batch: int
    seqlen_q: int
    seqlen_k: int
    heads: int
    kv_heads: int
    head_dim: int

    @property
    def group(self) -> int:
        """Query heads per KV head (GQA; H for MQA, 1 for plain multi-head attention)."""
        return self.heads // self.kv_heads

    @property
    def o_shape(self) -> tuple[int, int, int, int]:
        return self.batch, self.seqlen_q, self.heads, self.head_dim

    @property
    def lse_shape(self) -> tuple[int, int, int]:
        return self.batch, self.heads, self.seqlen_q

    def flops(self, causal: bool) -> float:
        """4 B H Sq Sk D, halved for causal (the convention of FlashAttention's and the issue's TFLOP/s)."""
        full = 4.0 * self.batch * self.heads * self.seqlen_q * self.seqlen_k * self.head_dim
        return full / 2 if causal else full


def check_inputs(torch, q, k, v, causal, softmax_scale) -> Problem:
    """The call's Problem; an mmatom error naming the argument, its value and what is legal for anything the kernel
    does not take (devices apart: check_devices). Reads shapes, strides and dtypes only (fake tensors too)."""
    tensors = {"q": q, "k": k, "v": v}
    for name, x in tensors.items():
        if not isinstance(x, torch.Tensor):
            raise api_error(f"attention: {name} is a {type(x).__name__}; a torch tensor")
        if x.dim() != 4:
            layout = "(B, Sq, H, D)" if name == "q" else "(B, Sk, Hkv, D)"
            raise api_error(f"attention: {name} has shape {tuple(x.shape)}; a 4-d tensor {layout}")
    dtype = _check_dtypes(tensors)
    p = Problem(dtype, q.shape[0], q.shape[1], k.shape[1], q.shape[2], k.shape[2], q.shape[3])
    _check_shapes(p, q, k, v)
    for name, x in tensors.items():
        if x.shape[3] > 1 and x.stride(3) != 1:
            raise api_error(f"attention: {name}'s last dimension has stride {x.stride(3)}; the kernel reads each "
                            f"head's {x.shape[3]} features contiguous (stride 1: call .contiguous())")
    _check_scalars(causal, softmax_scale)
    return p


def _check_dtypes(tensors: dict) -> str:
    """The one dtype of q, k, v, ours ("bf16" / "f16")."""
    names = {name: str(x.dtype).removeprefix("torch.") for name, x in tensors.items()}
    for name, dtype in names.items():
        if dtype not in TORCH_DTYPES:
            raise api_error(f"attention: {name} is {dtype}; one of {', '.join(TORCH_DTYPES)} (the kernel's "
                            f"{', '.join(DTYPES)})")
    if len(set(names.values())) > 1:
        raise api_error(f"attention: q, k, v have different dtypes ({', '.join(f'{n} {d}' for n, d in names.items())})"
                        f"; one dtype for all three")
    return TORCH_DTYPES[names["q"]]


def _check_shapes(p: Problem, q, k, v) -> None:
    """q (B, Sq, H, D), k and v one (B, Sk, Hkv, D), H a multiple of Hkv, D a head dim the kernel has."""
    if tuple(k.shape) != tuple(v.shape):
        raise api_error(f"attention: k is {tuple(k.shape)} and v {tuple(v.shape)}; both (B, Sk, Hkv, D), the same")
    if k.shape[0] != p.batch:
        raise api_error(f"attention: q has batch {p.batch} and k, v {k.shape[0]}; the batch sizes must match")
    if k.shape[3] != p.head_dim:
        raise api_error(f"attention: q has head dim {p.head_dim} and k, v {k.shape[3]}; the head dims must match")
    if p.head_dim not in HEAD_DIMS:
        raise api_error(f"attention: head dim {p.head_dim}; one of {', '.join(map(str, HEAD_DIMS))}")
    if (p.kv_heads == 0 and p.heads) or (p.kv_heads and p.heads % p.kv_heads):
        raise api_error(f"attention: q has {p.heads} heads and k, v {p.kv_heads}; H must be a multiple of Hkv "
                        f"(grouped-query attention)")
    too_big = {n: x for n, x in (("batch", p.batch), ("seqlen_q", p.seqlen_q), ("seqlen_k", p.seqlen_k),
                                 ("heads", p.heads)) if x > I32_MAX}
    if too_big:
        raise api_error(f"attention: {', '.join(f'{n} {x}' for n, x in too_big.items())} past the kernel's i32 "
                        f"sizes (at most {I32_MAX})")


def _check_scalars(causal, softmax_scale) -> None:
    if not isinstance(causal, bool):
        raise api_error(f"attention: causal {causal!r}; True or False")
    if softmax_scale is None:
        return
    if isinstance(softmax_scale, bool) or not isinstance(softmax_scale, (int, float)) \
            or not math.isfinite(softmax_scale):
        raise api_error(f"attention: softmax_scale {softmax_scale!r}; a finite number (default 1 / sqrt(D))")


def check_devices(**tensors) -> None:
    """Each on a CUDA device, all on one."""
    for name, x in tensors.items():
        if x.device.type != "cuda":
            raise api_error(f"attention: {name} is on {x.device}; mmatom.attention runs on a CUDA device (move it "
                            f"with .cuda())")
    devices = {name: str(x.device) for name, x in tensors.items()}
    if len(set(devices.values())) > 1:
        where = ", ".join(f"{n} {d}" for n, d in devices.items())
        raise api_error(f"attention: q, k, v are on different devices ({where})")


__all__ = ["I32_MAX", "TORCH_DTYPES", "Problem", "check_devices", "check_inputs"]
