"""What mmatom.attention computes, in plain torch with explicit matmuls (float32 by default): the reference the
tests and `mmatom-bench attention` measure the kernel against. FlashAttention's conventions: causal aligned
bottom-right (query i sees keys j <= i + Sk - Sq), and a query that sees no key gives a zero row and an LSE of -inf.

    o_ref, lse_ref = attention_reference(q, k, v, causal=True)     # o (B, Sq, H, D) float32, lse (B, H, Sq)
"""

from __future__ import annotations

import math

from mmatom.optional import require_torch

CHUNK_BYTES = 1 << 30  # the scores held at once (a 16k x 16k x 16-head problem is 17 GB of float32 scores)


def attention_reference(q, k, v, *, causal: bool = False, softmax_scale: float | None = None, dtype=None,
                        chunk_bytes: int = CHUNK_BYTES):
    """(o, lse) of q (B, Sq, H, D), k and v (B, Sk, Hkv, D) in `dtype` (default float32): o (B, Sq, H, D) and the
    natural-log LSE (B, H, Sq) of the scaled scores; query head h reads KV head h // (H / Hkv). Scores are formed
    a block of query rows at a time (at most `chunk_bytes` of them)."""
    torch = require_torch("attention_reference")
    dtype = dtype or torch.float32
    batch, seqlen_q, heads, dim = q.shape
    seqlen_k, kv_heads = k.shape[1], k.shape[2]
    scale = 1.0 / math.sqrt(dim) if softmax_scale is None else softmax_scale
    group = heads // kv_heads if kv_heads else 1
    qh, kh, vh = (x.to(dtype).repeat_interleave(g, dim=2).transpose(1, 2) for x, g in ((q, 1), (k, group), (v, group)))
    o = torch.zeros(batch, heads, seqlen_q, dim, dtype=dtype, device=q.device)
    lse = torch.full((batch, heads, seqlen_q), -math.inf, dtype=dtype, device=q.device)
    rows = max(1, chunk_bytes // max(1, heads * seqlen_k * o.element_size()))
    for b in range(batch):
        for first in range(0, seqlen_q, rows):
            last = min(seqlen_q, first + rows)
            s = qh[b, :, first:last] @ kh[b].transpose(-1, -2) * scale
            if causal:
                s.masked_fill_(_above_diagonal(torch, first, last, seqlen_q, seqlen_k, q.device), -math.inf)
            row_lse = torch.logsumexp(s, dim=-1)
            seen = torch.isfinite(row_lse)  # a row that sees no key: its exp(s - lse) is nan; FA's zero row
            p = torch.where(seen[..., None], torch.exp(s - row_lse[..., None]), torch.zeros_like(s))
            o[b, :, first:last] = p @ vh[b]
            lse[b, :, first:last] = row_lse
    return o.transpose(1, 2).contiguous(), lse


def _above_diagonal(torch, first: int, last: int, seqlen_q: int, seqlen_k: int, device):
    """(rows, Sk) True where query i (first <= i < last) may not see key j: j > i + Sk - Sq."""
    i = torch.arange(first, last, device=device)[:, None]
    j = torch.arange(seqlen_k, device=device)[None, :]
    return j > i + (seqlen_k - seqlen_q)


__all__ = ["attention_reference"]
