"""Whole tiles without a mask: the listed walk (table loads per tile) against the plain raster, same kernel
otherwise; each variant compiled into its own cache dir; cuDNN interleaved."""
import os, tempfile, torch
from types import SimpleNamespace
from mmatom.kernels.attention import host, walk as W, kernel as K
from mmatom.tools.mmatom_bench_attention import BURST_MS, Inputs, Shape, interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts

Listed = K.HopperAttention

class EpilogueOnly(Listed):
    def finish(self, o, m, sums, q, t):
        self.epilogue(o, m, sums, q, t)

class Raster(EpilogueOnly):
    def _declare(self):
        kb = super()._declare()
        self.scheduler = kb.tile_scheduler(self.q_blocks, kb.param("heads"), layers=kb.param("batch"))
        return kb
    def tile(self, index):
        row_tile, head = self.scheduler.coords(index)
        q0 = row_tile * self.bm
        blocks, unmasked = self.kv_blocks(q0)
        return SimpleNamespace(q0=q0, head=head, layer=self.scheduler.layer(index), lo=0, hi=blocks,
                               unmasked=unmasked, counter=self.kb.const(-1))

VARIANTS = {"listed": Listed, "epilogue_only": EpilogueOnly, "raster": Raster}
SHAPES = [Shape(4,16,16,4096,128), Shape(4,16,16,4096,256), Shape(4,32,32,4096,64)]
def prepared(q, k, v, variant):
    K.HopperAttention = VARIANTS[variant]
    os.environ["MMATOM_CACHE_DIR"] = tempfile.mkdtemp()
    host._KERNELS.clear(); host._PREPARED.clear()
    W.MAX_PARTS = 1; W.plan_walk.cache_clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    return o, list(host._PREPARED.values())[-1]
for shape in SHAPES:
    inp = Inputs.random(shape, "bf16")
    q, k, v = inp.q, inp.k, inp.v
    calls = {"cudnn": inp.calls(None)["cudnn"]}
    expected = calls["cudnn"]()
    for name in VARIANTS:
        o, run = prepared(q, k, v, name)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
        err = (calls[name]().float() - expected.float()).abs().max().item()
        assert err < 0.05, (name, err)
    times = interleaved_times(calls, Bursts(5, BURST_MS))
    base = times["cudnn"][0]
    print(f"{shape.label}: cudnn {shape.flops()/base/1e9:.0f} TF {times['cudnn'][1]} MHz  " + "  ".join(
        f"{n} {shape.flops()/times[n][0]/1e9:.0f} TF {base/times[n][0]:.3f}x {times[n][1]} MHz" for n in VARIANTS), flush=True)
