"""The attention forward's host side: `mmatom.attention(q, k, v)` on torch tensors -- the inputs checked, the
compiled kernel (cached in memory and on disk by its parameters), 3-d tensor maps of the inputs and the output, and
the persistent launch on torch's current stream.

    o = mmatom.attention(q, k, v)                          # q (B, Sq, H, D), k/v (B, Sk, Hkv, D), bf16 or f16
    o, lse = mmatom.attention(q, k, v, causal=True, return_lse=True)   # lse (B, H, Sq) float32, natural log
    kernel = mmatom.attention_kernel("bf16", 128, causal=False)       # the compiled Kernel (every shape)

Layout: the kernel reads q, k, v and writes o as 3-d views (B, S, heads * D) through TMA, so an input whose heads
are dense (a slice of a packed qkv tensor too) is read where it is, with no copy; an input TMA cannot address that
way (heads apart, rows not 16 bytes apart, a misaligned base) is copied once into a contiguous tensor. A last
dimension that is not contiguous is refused, as FlashAttention refuses it.

Tiles: a tile per (query block, head), or -- where a GQA group's heads padded into tiles of their own would compute
more empty rows (decoding: one query, or a few) -- the group's query heads packed into one tile, which reads their KV
head once (config.choose_tiles); fewer tiles than SMs split their keys over the SMs (walk.py).

Conventions (FlashAttention's): causal is aligned bottom-right -- query i sees keys j <= i + Sk - Sq -- and a query
that sees no key (causal with Sq > Sk, or Sk = 0) gives a zero output row and a log-sum-exp of -inf (FA3's value).
"""

from __future__ import annotations

import math
from dataclasses import asdict

import mmatom
from mmatom.errors import api_error
from mmatom.optional import require_torch

from ..split_workspace import split_workspace
from ..torch_launch import current_stream, tensor_key, tensor_map
from .checks import Problem, check_devices, check_inputs
from .config import COMBINE_BLOCKS, PACKED_CONFIGS, SPLIT_KV_CONFIGS, AttentionConfig, choose_tiles, default_config
from .walk import WalkPlan, plan_walk

LOG2_E = math.log2(math.e)
KERNEL_TARGET = "sm_90a"

_KERNELS: dict[tuple, mmatom.Kernel] = {}


def attention_kernel(dtype: str = "bf16", head_dim: int = 128, causal: bool = False, *,
                     config: AttentionConfig | None = None, target: str = KERNEL_TARGET,
                     split_kv: bool = False, pack: int = 1) -> mmatom.Kernel:
    """The compiled attention kernel of a dtype ("bf16", "f16"), head dim (64, 128, 256) and mask: one kernel serves
    every batch, sequence length and head count. Parameters: tensor maps of q, k, v, o; batch, seqlen_q, seqlen_k,
    heads, group (i32); scale_log2 (f32); the LSE pointer; the walk table (walk.py) and the split tiles' workspace
    (partials, counters; `split_kv`: the kernel whose tiles the walk may cut over several CTAs, for launches with
    fewer tiles than SMs; `pack`: the kernel whose tiles hold that many query heads of a GQA group, config.py, with
    PACKED_CONFIGS' tiles unless `config` is given).
    Compiled once per process and cached on disk by its parameters (mmatom.compile_generated: a warm cache skips
    building the module)."""
    if config is None:
        packed = pack > 1 and head_dim in PACKED_CONFIGS
        config = PACKED_CONFIGS[head_dim] if packed else default_config(head_dim, causal)
    if config.head_dim != head_dim:
        raise api_error(f"attention_kernel: config {config.name} is for head dim {config.head_dim}, not {head_dim}")
    config.check(dtype, bool(causal), bool(split_kv), pack)
    key = (dtype, target, config, bool(causal), bool(split_kv), pack)
    if key not in _KERNELS:
        def build():
            from .kernel import build_attention  # noqa: PLC0415 - the kernel's module loads with its first compile

            return build_attention(dtype, config, bool(causal), target=target, split_kv=bool(split_kv), pack=pack)[0]
        _KERNELS[key] = mmatom.compile_generated(
            ["mmatom.kernels.attention", dtype, target, asdict(config), bool(causal), bool(split_kv), pack], build)
    return _KERNELS[key]


def forget_kernels() -> None:
    """Drop this process's compiled attention kernels (the next call reads the compile cache again)."""
    _KERNELS.clear()


def attention(q, k, v, *, causal: bool = False, softmax_scale: float | None = None, return_lse: bool = False):
    """softmax(q k^T * softmax_scale [+ causal mask]) v per batch and query head, on the tensors' GPU and torch's
    current stream, asynchronously. q (B, Sq, H, D), k and v (B, Sk, Hkv, D) with H a multiple of Hkv (grouped-query
    attention: query head h reads KV head h // (H / Hkv)); bf16 or f16, one dtype for all three; D 64, 128 or 256;
    any Sq and Sk. `softmax_scale` defaults to 1 / sqrt(D). Returns o (B, Sq, H, D) in q's dtype, and with
    `return_lse` also the log-sum-exp of each row's scaled scores, (B, H, Sq) float32. Forward only: inside
    torch.compile, or when an input requires grad, the call is the torch op torch.ops.mmatom.attention (torch_op.py),
    whose backward raises; otherwise there is no op dispatch."""
    torch = require_torch("mmatom.attention")
    if _through_torch_op(torch, q, k, v):
        from .torch_op import attention_op  # noqa: PLC0415 - torch.compile tracing or a gradient asked for

        o, lse = attention_op(q, k, v, causal, softmax_scale)
        return (o, lse) if return_lse else o
    o, lse = forward(torch, q, k, v, causal, softmax_scale)
    return (o, lse) if return_lse else o


def forward(torch, q, k, v, causal: bool, softmax_scale: float | None, config: AttentionConfig | None = None,
            pack: int | None = None):
    """(o, lse) of a checked call: the empty and keyless cases here, the rest by the kernel. `config` and `pack`
    (query heads a tile) are choose_tiles's unless given -- what benchmarks compare; a given config alone runs
    unpacked."""
    p = check_inputs(torch, q, k, v, causal, softmax_scale)
    check_devices(q=q, k=k, v=v)
    o, lse = outputs(torch, q, p)
    if 0 in (p.batch, p.seqlen_q, p.heads):
        return o, lse
    if p.seqlen_k == 0:  # every query sees no key: FlashAttention's zero row and -inf
        return o.zero_(), lse.fill_(-math.inf)
    scale = 1.0 / math.sqrt(p.head_dim) if softmax_scale is None else float(softmax_scale)
    _launch(torch, p, (q, k, v), o, lse, bool(causal), scale, *_tiles(p, bool(causal), config, pack))
    return o, lse


def _tiles(p: Problem, causal: bool, config: AttentionConfig | None, pack: int | None) -> tuple[AttentionConfig, int]:
    """(config, pack): choose_tiles's, or what a caller forces -- a config (unpacked unless `pack` is given too), or
    `pack` (1: default_config's tile; the group: PACKED_CONFIGS')."""
    if pack not in (None, 1, p.group):
        raise api_error(f"attention: pack={pack} query heads a tile; 1 or the GQA group, {p.group}")
    if config is not None:
        return config, pack or 1
    if pack is None:
        return choose_tiles(p.head_dim, causal, p.seqlen_q, p.seqlen_k, p.group)
    if pack == 1:
        return default_config(p.head_dim, causal, p.seqlen_k), 1
    return PACKED_CONFIGS[p.head_dim], pack


def outputs(torch, q, p: Problem) -> tuple:
    """o (B, Sq, H, D) in q's dtype and lse (B, H, Sq) float32, uninitialised: the kernel writes every element (the
    GPU tests poison them here)."""
    return q.new_empty(p.o_shape), q.new_empty(p.lse_shape, dtype=torch.float32)


def _through_torch_op(torch, *tensors) -> bool:
    """A gradient wanted, or torch.compile tracing: the call goes through the registered torch op."""
    wants_grad = any(getattr(x, "requires_grad", False) for x in tensors)
    return (wants_grad and torch.is_grad_enabled()) or torch.compiler.is_compiling()


# --- the launch ------------------------------------------------------------------------------------------------

def tma_view(x) -> tuple[object, bool]:
    """(B, S, heads, D) as the (B, S, heads * D) tensor the kernel's 3-d map reads or writes, and whether it is a
    copy: a view where TMA can address one (heads dense, rows and batches apart by multiples of 16 bytes, an aligned
    base), else a view of one contiguous copy."""
    batch, seqlen, heads, dim = x.shape
    size = x.element_size()
    heads_dense = heads == 1 or x.stride(2) == dim
    apart = x.stride(1) >= heads * dim and x.stride(0) >= seqlen * x.stride(1)
    aligned = x.stride(1) * size % 16 == 0 and x.stride(0) * size % 16 == 0 and x.data_ptr() % 16 == 0
    if heads_dense and apart and aligned:
        return x.flatten(2), False
    return (x.clone() if x.is_contiguous() else x.contiguous()).flatten(2), True  # clone: a misaligned base


def _launch(torch, p: Problem, qkv: tuple, o, lse, causal: bool, scale: float, config: AttentionConfig,
            pack: int) -> None:
    """The kernel over `p` (`pack` query heads a tile), writing o and lse, on torch's current stream of the tensors'
    device. The prepared launch (its arguments packed once) is kept for a call on the same stream with every address,
    shape and stride of this one, unless an input was copied (the copy is this call's only); it holds addresses, not
    the tensors (a call's outputs are freed with it, and the next call's land where they were)."""
    stream = current_stream(torch, o.device)
    key = (*(tensor_key(x) for x in (*qkv, o, lse)), causal, scale, config, pack, stream)
    run = _PREPARED.get(key)
    if run is None:
        sms = torch.cuda.get_device_properties(o.device).multi_processor_count
        config, plan = _walk(p, causal, config, pack, sms)
        kernel = attention_kernel(p.dtype, p.head_dim, causal, config=config, split_kv=plan.counters > 0, pack=pack)
        boxes = config.boxes(pack)
        views = [tma_view(x) for x in (*qkv, o)]
        maps = [tensor_map(view, *boxes[name]) for name, (view, _) in zip("qkvo", views)]
        # the split tiles' workspace is the stream's own (two streams' launches must not count on one counter)
        workspace = split_workspace(torch, o.device, stream, config.partial_bytes(plan.slots), plan.counters)
        run = kernel.prepare(*maps, p.batch, p.seqlen_q, p.seqlen_k, p.heads, p.group, scale * LOG2_E, lse,
                             walk_table(torch, plan, o.device), *workspace, grid=(plan.ctas,))
        if not any(copied for _, copied in views):
            if len(_PREPARED) >= CACHED_CALLS:
                _PREPARED.clear()
            _PREPARED[key] = run
    run(stream)


def _walk(p: Problem, causal: bool, config: AttentionConfig, pack: int, sms: int) -> tuple[AttentionConfig, WalkPlan]:
    """(config, the walk of its tiles over `sms` SMs); a walk that splits keys runs SPLIT_KV_CONFIGS' stand-in for
    `config` where it has one. Packed, a tile is a KV head's: block_m / pack query positions of each query head."""
    plan = plan_walk(p.batch, p.heads // pack, p.seqlen_q, p.seqlen_k, config.block_m // pack, config.block_n,
                     sms, causal, COMBINE_BLOCKS[p.head_dim])
    if plan.counters > 0 and config in SPLIT_KV_CONFIGS:
        return _walk(p, causal, SPLIT_KV_CONFIGS[config], pack, sms)
    return config, plan


def walk_table(torch, plan: WalkPlan, device):
    """The plan's table on `device` (walk.py), one per plan and GPU, kept while a prepared launch may hold its address
    (cleared with them)."""
    key = (id(plan), device)
    table = _WALKS.get(key)
    if table is None:
        if len(_WALKS) >= CACHED_CALLS:
            _WALKS.clear()
            _PREPARED.clear()  # their launches hold the tables' addresses
        table = _WALKS[key] = (torch.from_numpy(plan.table).to(device), plan)  # the plan: its id stays its own
    return table[0]


CACHED_CALLS = 1024  # prepared launches (and causal walk tables) kept: a bound, a caller may keep allocating tensors
_PREPARED: dict[tuple, object] = {}
_WALKS: dict[tuple, object] = {}


__all__ = ["attention", "attention_kernel", "forget_kernels", "forward", "outputs", "tma_view", "walk_table"]
