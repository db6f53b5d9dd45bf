"""Session 34: where the small unaligned rows' time goes on the GPU, and what the realigning split kernel's slice
sums cost -- kernel durations per call (torch.profiler's CUDA records, 40 calls after warm-up), each way:
the realigning split variant 64x128x8w1ps at the slice count the host gives and at 1/2/4/8 slices; 128x64x8w1 with
its operands copied; the untuned call; cuBLAS. Run once per REALIGNED_SUMMED_AT_ONCE (16: the kernel as of
session 33; 32: session 34's), each in a process and compile cache of its own (the cache keys on the generator's
parameters, not on that constant).

    python -P records/gemm-2026-12-07-s34/probe_realign_sums.py
"""

import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SHAPES = [(146, 367, 1274), (28, 660, 1391), (8, 1027, 906), (134, 381, 5981), (108, 451, 10937), (54, 347, 7697)]
CALLS = 40


def kernel_us(torch, call) -> float:
    from torch.profiler import ProfilerActivity, profile
    for _ in range(5):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(CALLS):
            call()
        torch.cuda.synchronize()
    per = defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            per[e.name[:40]] += e.device_time / CALLS
    return sum(per.values())


def measure(at_once: int) -> None:
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig, host
    from mmatom.kernels.gemm import kernel as gemm_kernel
    from mmatom.tools.mmatom_bench import Operands
    gemm_kernel.REALIGNED_SUMMED_AT_ONCE = at_once
    natural = host.realign_splits

    def way(m, n, k, config=None, slices=None, realign=None):
        ops = Operands.random(m, n, k, "bf16")
        host.REALIGN_UNALIGNED = realign
        host.realign_splits = natural if slices is None else (lambda *a, **kw: slices)
        try:
            return kernel_us(torch, ops.mmatom_call(mmatom.gemm, None if config is None else GemmConfig.from_name(config)))
        finally:
            host.REALIGN_UNALIGNED, host.realign_splits = None, natural

    for m, n, k in SHAPES:
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        own = natural(GemmConfig.from_name("64x128x8w1ps"), m, n, k, "bf16", sms)
        row = {"untuned": way(m, n, k), f"ps {own} slices": way(m, n, k, "64x128x8w1ps")}
        row.update({f"ps {s}": way(m, n, k, "64x128x8w1ps", s) for s in (1, 2, 4, 8)})
        row["128x64x8w1 copied"] = way(m, n, k, "128x64x8w1", realign=False)
        if at_once == 16:
            ops = Operands.random(m, n, k, "bf16")
            row["cublas"] = kernel_us(torch, ops.vendor_calls()["cublas"])
        print(f"sums {at_once} {m}x{n}x{k}: " + ", ".join(f"{key} {us:.1f}" for key, us in row.items()), flush=True)


def main() -> None:
    if len(sys.argv) > 1:
        measure(int(sys.argv[1]))
        return
    import torch
    print(torch.cuda.get_device_name(), flush=True)
    for at_once in (16, 32):
        with tempfile.TemporaryDirectory() as cache:
            subprocess.run([sys.executable, "-P", __file__, str(at_once)], check=True,
                           env={**os.environ, "MMATOM_CACHE_DIR": cache})


if __name__ == "__main__":
    main()
