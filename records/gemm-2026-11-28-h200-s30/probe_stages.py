"""Session 30 probe: memory-bound decode rows -- swapped tiles with more ring stages; bursts (bench timing)."""
import statistics, sys
import torch
import mmatom
from mmatom.kernels.gemm import host
from mmatom.kernels.gemm.config import GemmConfig
from mmatom.kernels.gemm.choices import prior_config
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import burst_us

FORCED = [None]
_orig = host._splits_of
host._splits_of = lambda p, sms: FORCED[0] if FORCED[0] is not None and p.config.split_k else _orig(p, sms)

def variant(ops, config, s=None):
    out = torch.empty_like(ops.d)
    def fn():
        FORCED[0] = s
        r = mmatom.gemm(ops.a, ops.b, out=out, config=config, **ops.scales)
        FORCED[0] = None
        return r
    return fn

shapes = sys.argv[1].split(",")
stages_list = [int(x) for x in sys.argv[2].split(",")]
for spec in shapes:
    dtype, shape = spec.split(":")
    m, n, k = map(int, shape.split("x"))
    ops = Operands.random(m, n, k, dtype)
    prior = prior_config(m, n, k, dtype)
    fns = {"prior:" + prior.name: variant(ops, None)}
    for st in stages_list:
        c = GemmConfig(prior.block_m, prior.block_n, st, wgmma_in_flight=prior.wgmma_in_flight, swap_ab=prior.swap_ab,
                       split_k=prior.split_k)
        try:
            fns[c.name] = variant(ops, c)
            fns[c.name]()
        except Exception as e:
            print(spec, c.name, "failed:", str(e)[:200]); fns.pop(c.name)
    fns["vendor"] = ops.vendor_calls()["cublas"]
    times = {x: [] for x in fns}
    for fn in fns.values():
        fn()
    for _ in range(5):
        for x, fn in fns.items():
            times[x].append(burst_us(fn, ms=20))
    med = {x: statistics.median(v) for x, v in times.items()}
    print(spec, "  ".join(f"{x}={v:.1f}({med['vendor']/v:.3f}x)" for x, v in med.items()), flush=True)
