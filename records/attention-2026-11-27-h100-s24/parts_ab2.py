"""Split KV after the batched, two-level adding up: the walk's own choice against forced part counts (16 / 32 / 64 /
128 a tile) on decoding shapes with few tiles; cuDNN interleaved; prepared launches."""
import torch
from mmatom.kernels.attention import host, walk
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(2, 16, 2, 1, 32768, 256), (1, 8, 1, 1, 131072, 256), (1, 8, 1, 1, 65536, 128), (1, 8, 1, 1, 65536, 64),
          (1, 32, 8, 1, 65536, 128), (8, 32, 8, 1, 8192, 128), (1, 16, 2, 2, 16384, 256), (4, 32, 4, 1, 16384, 128),
          (2, 32, 8, 1, 131072, 128), (1, 16, 16, 200, 20000, 256)]
PARTS = [None, 16, 32, 64, 128]
split_few = walk._split_few


def forced(parts):
    def plan(order, blocks, sms, combine_blocks):
        if parts is None:
            return split_few(order, blocks, sms, combine_blocks)
        run = max(-(-len(order) * blocks // sms), -(-blocks // parts))
        return walk._split(order, blocks, sms, run)
    return plan


def prepared(q, k, v, parts):
    walk._split_few = forced(parts)
    walk.plan_walk.cache_clear()
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    info = [p for p in host._WALKS.values()][-1][1]
    return o, list(host._PREPARED.values())[-1], info


for b, h, hkv, sq, sk, d in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, sq, h, d, device="cuda", generator=g).bfloat16()
    k, v = (torch.randn(b, sk, hkv, d, device="cuda", generator=g).bfloat16() for _ in range(2))
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, enable_gqa=True).transpose(1, 2)
    calls = {"cudnn": cudnn}
    expected = cudnn()
    names, plans = [], {}
    for parts in PARTS:
        o, run, plan = prepared(q, k, v, parts)
        names.append("model" if parts is None else f"p{parts}")
        plans[names[-1]] = f"{plan.slots}s/{plan.counters}c"
        calls[names[-1]] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in names}
    times = interleaved_times(calls, Bursts(5, 30.0))
    base = times["cudnn"][0]
    print(f"{b}x{h}/{hkv} q{sq} k{sk} d{d}: cudnn {base*1e3:.1f} us  " + "  ".join(
        f"{n}[{plans[n]}] {times[n][0]*1e3:.1f} us {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in names), flush=True)
walk._split_few = split_few
