"""Session 34: what each K slice of an aligned split-K call costs on the GPU -- kernel durations per call
(torch.profiler's CUDA kernel records, 40 calls after warm-up) of the prior's split-K pick at 1, 2, 3, 4, 6, 8
slices (choices.splits patched in host), beside the config run whole and cuBLAS. The decode rows where the split
lost to the whole tile (64 x 5120 x 5120 on the H100 in session 33: 0.835x against 0.932x) and its neighbours.

    python -P records/gemm-2026-12-07-s34/probe_split_slices.py
"""

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, host  # noqa: E402
from mmatom.kernels.gemm.choices import splits as model_splits  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402

ROWS = [(64, 5120, 5120, "128x64x8w1st"), (64, 4096, 4096, "128x64x8w1st"), (64, 18944, 3584, "128x64x8w1st"),
        (1, 5120, 5120, "128x16x8w1st"), (8, 4096, 14336, "128x16x8w1st"), (320, 448, 26560, "128x64x8w1s")]
CALLS = 40
natural_splits = host.splits


def kernel_us(call) -> dict[str, float]:
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


def timed(m, n, k, config, slices=None):
    ops = Operands.random(m, n, k, "bf16")
    host.splits = natural_splits if slices is None else (lambda *a, **kw: slices)
    try:
        return kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(config)))
    finally:
        host.splits = natural_splits


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for m, n, k, name in ROWS:
        config = GemmConfig.from_name(name)
        mm, nn = (n, m) if config.swap_ab else (m, n)
        print(f"{m}x{n}x{k} {name}: the model's slices {model_splits(config, mm, nn, k, 'bf16', sms)}", flush=True)
        for slices in (None, 1, 2, 3, 4, 6, 8):
            per = timed(m, n, k, name, slices)
            print(f"  slices {slices or 'model'}: {sum(per.values()):.1f} us", flush=True)
        whole = name.rstrip("s") if name.endswith("s") else name.replace("st", "t")
        per = timed(m, n, k, whole)
        print(f"  {whole} whole: {sum(per.values()):.1f} us", flush=True)
        ops = Operands.random(m, n, k, "bf16")
        print(f"  cublas: {sum(kernel_us(ops.vendor_calls()['cublas']).values()):.1f} us", flush=True)


if __name__ == "__main__":
    main()
