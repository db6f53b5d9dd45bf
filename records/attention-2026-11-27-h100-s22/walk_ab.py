"""A/B: causal attention with the balanced walk table vs the old raster walks' lists (same kernel), cuDNN interleaved."""
import numpy as np, torch
import mmatom
from mmatom.kernels.attention import host, walk as W
from mmatom.kernels.attention.config import default_config
from mmatom.tools.mmatom_bench_attention import BURST_MS, Inputs, Shape, interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts

def old_lists(b, h, sq, sk, bm, bn, ctas):
    qb = -(-sq // bm); cost = W.tile_costs(qb, sq, sk, bm, bn)
    best = None
    for group, snake in [(1, 0), (qb, 0), (1, 1), (qb, 1)]:
        units = qb * h * b; t = np.arange(units)
        wave = t - t % ctas
        unit = np.where(snake & ((t // ctas) % 2 == 1) & (wave + ctas <= units), 2 * wave + ctas - 1 - t, t)
        layer, within = unit // (qb * h), unit % (qb * h)
        span = group * h; first_m = within // span * group
        rows = np.minimum(qb - first_m, group)
        row = first_m + (within % span) % rows; head = (within % span) // rows
        plain = (layer * qb + row) * h + head
        lists = [list(plain[c::ctas]) for c in range(ctas)]
        load = W.busiest(lists, cost, h)
        if best is None or load < best[0]: best = (load, lists)
    return best[1]

SHAPES = [Shape(4,16,16,4096,256,True), Shape(2,16,16,8192,256,True), Shape(4,16,16,4096,128,True),
          Shape(2,16,16,8192,128,True), Shape(1,16,16,16384,128,True), Shape(8,16,16,1024,128,True),
          Shape(16,16,16,512,128,True), Shape(4,32,32,4096,64,True), Shape(4,32,8,4096,128,True)]
for shape in SHAPES:
    inp = Inputs.random(shape, "bf16")
    q, k, v = inp.q, inp.k, inp.v
    calls = {"cudnn": inp.calls(None)["cudnn"]}
    expected = calls["cudnn"]()
    cfg = default_config(shape.head_dim, True, shape.seqlen)
    ctas = min(132, shape.batch * shape.heads * -(-shape.seqlen // cfg.block_m))
    old = torch.from_numpy(mmatom.ListedWalk.table(old_lists(shape.batch, shape.heads, shape.seqlen, shape.seqlen,
                                                                 cfg.block_m, cfg.block_n, ctas))).cuda()
    new_out = host.forward(torch, q, k, v, True, None)[0]
    key = next(iter(host._WALKS))
    new = host._WALKS[key]
    keep, runs = [], {}
    for name, table in (("balanced", new), ("raster", old)):
        host._WALKS.clear(); host._PREPARED.clear(); host._WALKS[key] = table
        o = host.forward(torch, q, k, v, True, None)[0]
        run = list(host._PREPARED.values())[-1]
        keep.append(o)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in ("balanced", "raster")}
    times = interleaved_times(calls, Bursts(5, BURST_MS))
    base = times["cudnn"][0]
    print(f"{shape.label}: cudnn {shape.flops()/base/1e9:.0f} TF  " + "  ".join(
        f"{n} {shape.flops()/times[n][0]/1e9:.0f} TF {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in ("balanced", "raster")), flush=True)
    host._WALKS.clear(); host._PREPARED.clear()
