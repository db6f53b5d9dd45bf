"""Session 33: where the small unaligned rows' time goes on the GPU -- each way's kernels' durations per call
(torch.profiler's CUDA kernel records, 40 calls after warm-up), not the host-bound interleaved medians the s32 probe
read on the H100 in session 33 (there every way took 23-36 us a call, cuBLAS 30-57: the host's launch rate).

    python -P records/gemm-2026-12-07-h100-s33/probe_realign_gpu_time.py   (not run in session 33: no device time left)

Ways: the realigning split variant 64x128x8w1ps at the slice count realign_splits gives and at 1/2/4/8 slices
(host.realign_splits patched); the same config with its operands copied (REALIGN off: repack kernels + the split's
own count); 128x64x8w1 copied; cuBLAS. Fresh operands for each way: the packed-launch cache keys on addresses.
"""

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402

SHAPES = [(146, 367, 1274), (28, 660, 1391), (8, 1027, 906), (134, 381, 5981), (108, 451, 10937), (54, 347, 7697)]
CALLS = 40
natural_splits = host.realign_splits


def kernel_us(call) -> dict[str, float]:
    """Each kernel's GPU time per call (us), by name."""
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
    return dict(per)


def way(m, n, k, config=None, slices=None, realign=None):
    def call_maker():
        ops = Operands.random(m, n, k, "bf16")
        return ops.mmatom_call(mmatom.gemm, None if config is None else GemmConfig.from_name(config))

    def run():
        host.REALIGN_UNALIGNED = realign
        host.realign_splits = natural_splits if slices is None else (lambda *a, **kw: slices)
        try:
            return kernel_us(call_maker())
        finally:
            host.REALIGN_UNALIGNED, host.realign_splits = None, natural_splits
    return run


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for m, n, k in SHAPES:
        ways = {"untuned": way(m, n, k), "ps realigned (its slices)": way(m, n, k, "64x128x8w1ps")}
        ways.update({f"ps realigned {s} slices": way(m, n, k, "64x128x8w1ps", s) for s in (1, 2, 4, 8)})
        ways["ps copied"] = way(m, n, k, "64x128x8w1ps", realign=False)
        ways["128x64x8w1 copied"] = way(m, n, k, "128x64x8w1", realign=False)
        ops = Operands.random(m, n, k, "bf16")
        ways["cublas"] = lambda: kernel_us(ops.vendor_calls()["cublas"])
        for label, fn in ways.items():
            per = fn()
            parts = ", ".join(f"{name} {us:.1f}" for name, us in sorted(per.items(), key=lambda t: -t[1]))
            print(f"{m}x{n}x{k} {label}: total {sum(per.values()):.1f} us/call [{parts}]", flush=True)


if __name__ == "__main__":
    main()
