"""Whole tiles without a mask in two orders: the raster the walk lists (heads fastest: a wave of 132 CTAs spans every
head of a few query blocks) against head-major (a head's query blocks fastest: a wave spans a few heads, their K and
V in L2). cuDNN interleaved; prepared launches."""
import torch
from mmatom import ListedWalk
from mmatom.kernels.attention import host, walk as W
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(4, 16, 16, 4096, 128), (2, 16, 16, 8192, 128), (1, 16, 16, 16384, 128), (4, 32, 32, 4096, 64),
          (4, 16, 16, 4096, 256), (4, 32, 8, 4096, 128), (8, 16, 16, 1024, 128)]
raster_plan = W.plan_walk


def head_major_plan(batch, heads, sq, sk, bm, bn, sms, causal):
    plan = raster_plan(batch, heads, sq, sk, bm, bn, sms, causal)
    if causal or plan.counters:
        return plan
    q_blocks = -(-sq // bm)
    order = [W._unit(layer, r, head, heads, q_blocks) for layer in range(batch) for head in range(heads)
             for r in range(q_blocks)]
    ctas = min(sms, len(order))
    lists = [[W._whole(u) for u in order[c::ctas]] for c in range(ctas)]
    return W.WalkPlan(ListedWalk.table(lists, W.ENTRY_WORDS), ctas, 0, 0)


def prepared(q, k, v, plan):
    host.plan_walk = plan
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    return o, list(host._PREPARED.values())[-1]


for b, h, hkv, s, d in SHAPES:
    q = torch.randn(b, s, h, d, device="cuda").bfloat16()
    k, v = (torch.randn(b, s, hkv, d, device="cuda").bfloat16() for _ in range(2))
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, enable_gqa=h != hkv).transpose(1, 2)
    calls = {"cudnn": cudnn}
    expected = cudnn()
    for name, plan in (("raster", raster_plan), ("head_major", head_major_plan)):
        o, run = prepared(q, k, v, plan)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    host.plan_walk = raster_plan
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in ("raster", "head_major")}
    times = interleaved_times(calls, Bursts(5, 100.0))
    base = times["cudnn"][0]
    flops = 4 * b * h * s * s * d
    print(f"{b}x{h}/{hkv}x{s} d{d}: cudnn {flops / base / 1e9:.0f} TF  " + "  ".join(
        f"{n} {flops / times[n][0] / 1e9:.0f} TF {base / times[n][0]:.3f}x err {err[n]:.1e}"
        for n in ("raster", "head_major")), flush=True)
