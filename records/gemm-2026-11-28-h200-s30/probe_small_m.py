"""Session 30 probe: small-M memory-bound and partial-wave rows -- the prior's pick against split-K counts forced
(host._splits_of patched per call) and stream-K variants, vendor interleaved."""
import json, sys
from dataclasses import replace
import torch
import mmatom
from mmatom.kernels.gemm import host
from mmatom.kernels.gemm.config import GemmConfig, STREAM_K_CONFIGS
from mmatom.kernels.gemm.choices import prior_config
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import interleaved_us

FORCED = [None]
_orig = host._splits_of
host._splits_of = lambda p, sms: FORCED[0] if FORCED[0] is not None and p.config.split_k else _orig(p, sms)

def variant(ops, config, s):
    out = torch.empty_like(ops.d)
    def fn():
        FORCED[0] = s
        r = mmatom.gemm(ops.a, ops.b, out=out, config=config, **ops.scales)
        FORCED[0] = None
        return r
    return fn

SW = lambda n, split=True: GemmConfig(128, n, 8, wgmma_in_flight=1, swap_ab=True, split_k=split)
small = ["1x28672x8192", "8x28672x8192", "1x18944x3584", "8x18944x3584", "64x18944x3584", "54x17600x9920",
         "64x6144x4096", "8x5120x5120", "1x6144x4096", "64x5120x5120", "1x14336x4096", "1x4096x14336"]
big = ["1472x1088x5632", "512x1280x18560", "1024x11008x4096", "1024x4608x3584", "1856x2368x16896"]
res = {}
for shape in (sys.argv[1].split(",") if len(sys.argv) > 1 else small + big):
    m, n, k = map(int, shape.split("x"))
    ops = Operands.random(m, n, k, "bf16")
    prior = prior_config(m, n, k, "bf16")
    fns = {"prior:" + prior.name: variant(ops, None, None)}
    if m <= 64:
        for w in (16, 32, 64):
            if m <= w:
                fns[SW(w, False).name] = variant(ops, SW(w, False), None)
                for s in (2, 3, 4, 6, 8):
                    fns[f"{SW(w).name}/{s}"] = variant(ops, SW(w), s)
        for s in (2, 3, 4):
            c = GemmConfig(128, 64, 8, wgmma_in_flight=1, split_k=True)
            fns[f"{c.name}/{s}"] = variant(ops, c, s)
    else:
        for c in STREAM_K_CONFIGS:
            fns[c.name] = variant(ops, c, None)
        for c in (GemmConfig(128, 64, 8, wgmma_in_flight=1, split_k=True), GemmConfig(128, 128, 6, wgmma_in_flight=1, split_k=True)):
            for s in (2, 3, 4):
                fns[f"{c.name}/{s}"] = variant(ops, c, s)
    fns["vendor"] = ops.vendor_calls()["cublas"]
    us = interleaved_us(fns, rounds=5, reps=10)
    best = min((v, x) for x, v in us.items() if x != "vendor")
    pr = [x for x in us if x.startswith("prior")][0]
    print(f"{shape}: vendor {us['vendor']:.1f}  {pr} {us[pr]:.1f} ({us['vendor']/us[pr]:.3f}x)  best {best[1]} {best[0]:.1f} ({us['vendor']/best[0]:.3f}x)", flush=True)
    print("   " + "  ".join(f"{x}={v:.1f}" for x, v in sorted(us.items(), key=lambda t: t[1])), flush=True)
    res[shape] = us
print(json.dumps(res))
