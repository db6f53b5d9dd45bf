"""A/B of the realigning producer: each shape forced realigned, and as the host chooses, against the vendor
(interleaved medians in one process); the tree is whatever PYTHONPATH puts first."""
import sys, json
import torch
import mmatom
from mmatom.kernels.gemm import host
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import interleaved_us

def policy(p, call):
    def run():
        kept, host.REALIGN_UNALIGNED = host.REALIGN_UNALIGNED, p
        try:
            return call()
        finally:
            host.REALIGN_UNALIGNED = kept
    return run

tag = sys.argv[1]
out = {}
for spec in sys.argv[2].split(","):
    dtype, shape = spec.split(":")
    m, n, k = map(int, shape.split("x"))
    ops = Operands.random(m, n, k, dtype)
    fns = {"realigned": policy(True, ops.mmatom_call(mmatom.gemm)), "default": policy(None, ops.mmatom_call(mmatom.gemm))}
    fns["vendor"] = Operands.random(m, n, k, dtype).vendor_calls()["cublas"]
    us = interleaved_us(fns, rounds=5, reps=10)
    out[spec] = us
    print(f"{tag} {spec}: realigned {us['realigned']:.1f} default {us['default']:.1f} vendor {us['vendor']:.1f} us", flush=True)
print(json.dumps({tag: out}))
