"""Session 35: what a K slice costs on the memory-bound decode rows, measured per slice count. Session 34's probe
patched host.splits but the host's prepared-call cache kept the first call's slices, so every column read the same
launch; here each count's calls start from host.forget_prepared_calls().

Per row: the swapped split-K config covering M at 1, 2, 3, 4, 6, 8 slices (choices.splits patched in host), the same
tile whole, the prior's own pick, and cuBLAS -- each a kernel's GPU time per call (torch.profiler's CUDA records,
40 calls after warm-up, every kernel of the call summed) beside the cost model's prediction.

    python -P records/gemm-2026-12-07-s35/probe_split_decode.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us as kernels_us  # noqa: E402

ROWS = [("bf16", 64, 5120, 5120), ("bf16", 1, 5120, 5120), ("bf16", 64, 4096, 14336), ("bf16", 8, 4096, 14336),
        ("bf16", 1, 4096, 14336), ("bf16", 64, 4608, 3584), ("bf16", 64, 18944, 3584), ("e4m3", 64, 4096, 14336),
        ("e4m3", 32, 4096, 14336), ("e4m3", 8, 4096, 14336), ("e4m3", 64, 5120, 5120)]
SLICES = (1, 2, 3, 4, 6, 8)
EXTRA = {(64, 18944, 3584): ("128x256x4w1", "128x160x5w1")}  # one-wave unswapped tiles (the H200 sweep's fastest)
CALLS = 40
natural = host.splits


def kernel_us(call) -> float:
    return sum(kernels_us(call, CALLS).values())


def timed(ops, config: GemmConfig | None, slices: int | None = None) -> float:
    host.forget_prepared_calls()
    host.splits = natural if slices is None else (lambda *a, **kw: slices)
    try:
        return kernel_us(ops.mmatom_call(mmatom.gemm, config))
    finally:
        host.splits = natural
        host.forget_prepared_calls()


def swapped_for(m: int) -> str:
    return next(f"128x{w}x8w1t" for w in (16, 32, 64) if m <= w)


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    bw = choices.dram_bytes_per_us()
    for dtype, m, n, k in ROWS:
        ops = Operands.random(m, n, k, dtype)
        whole = GemmConfig.from_name(swapped_for(m))
        split = GemmConfig.from_name(whole.name.replace("w1t", "w1st"))
        prior = choices.prior_config(m, n, k, dtype)
        line = [f"{dtype} {m}x{n}x{k}: prior {prior.name} ({choices.splits(prior, m, n, k, dtype, sms)} slices) "
                f"{timed(ops, None):.1f}"]
        line.append(f"{whole.name} {timed(ops, whole):.1f} (model {choices.predicted_us(choices.COST_MODEL, whole, m, n, k, dtype, sms, bandwidth=bw):.1f})")
        for s in SLICES:
            model = choices.predicted_us(choices.COST_MODEL, split, m, n, k, dtype, sms, splits=s, bandwidth=bw)
            line.append(f"s{s} {timed(ops, split, s):.1f} ({model:.1f})")
        for name in EXTRA.get((m, n, k), ()):
            c = GemmConfig.from_name(name)
            line.append(f"{name} {timed(ops, c):.1f} ({choices.predicted_us(choices.COST_MODEL, c, m, n, k, dtype, sms, bandwidth=bw):.1f})")
        vendor = ops.vendor_calls()
        line.append(" ".join(f"{v} {kernel_us(call):.1f}" for v, call in vendor.items()))
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main()
