"""A/B: non-causal attention with the tail wave's tiles split over the SMs vs whole tiles (walk.MAX_PARTS = 1 turns
the split off), cuDNN interleaved."""
import torch
from mmatom.kernels.attention import host, walk as W
from mmatom.tools.mmatom_bench_attention import BURST_MS, Inputs, Shape, interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts

SHAPES = [Shape(4,16,16,4096,128), Shape(2,16,16,8192,128), Shape(1,16,16,16384,128), Shape(4,32,32,4096,64),
          Shape(4,16,16,4096,256), Shape(4,32,8,4096,128), Shape(8,16,16,1024,128), Shape(1,8,8,128,128)]
def prepared(q, k, v, max_parts):
    W.MAX_PARTS = max_parts; W.plan_walk.cache_clear(); host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    run = list(host._PREPARED.values())[-1]
    return o, run
for shape in SHAPES:
    inp = Inputs.random(shape, "bf16")
    q, k, v = inp.q, inp.k, inp.v
    calls = {"cudnn": inp.calls(None)["cudnn"]}
    expected = calls["cudnn"]()
    outs = {}
    for name, parts in (("split", 16), ("whole", 1)):
        o, run = prepared(q, k, v, parts)
        outs[name] = o
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    W.MAX_PARTS = 16; W.plan_walk.cache_clear()
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in ("split", "whole")}
    times = interleaved_times(calls, Bursts(5, BURST_MS))
    base = times["cudnn"][0]
    print(f"{shape.label}: cudnn {shape.flops()/base/1e9:.0f} TF  " + "  ".join(
        f"{n} {shape.flops()/times[n][0]/1e9:.0f} TF {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in ("split", "whole")), flush=True)
