"""Session 40: rows whose swapped-operand grid runs a wave and a few tiles past it (148 tiles of 128 N rows on 132
SMs at N 18944; 138 at N 17600), where the last wave's few CTAs stream their share of B alone -- the prior's whole
tile against the same tile split in two and three K slices, the one-wave 128x256x4w1, and cuBLAS; and rows of one
partial wave of 32-33 tiles (FEW_CTA_ROWS): whole against two slices. Kernel time a
call (torch.profiler, 40 calls), best of two alternating rounds; each config's model prediction beside it.

    python records/gemm-2026-12-08-s40/probe_wave_tail.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("bf16", 1, 18944, 3584), ("bf16", 8, 18944, 3584), ("bf16", 64, 18944, 3584), ("bf16", 54, 17600, 9920),
        ("e4m3", 8, 18944, 3584), ("e4m3", 64, 18944, 3584), ("e4m3", 54, 17600, 9920)]
# 32-33 tiles in one partial wave, where CTA_STREAM_BYTES_PER_US decides whole against split: at 75 KB/us rather than
# 67 the prior takes these four whole (the e4m3 decode rows: whole 25.0 us against split 26.2 at M 64, call 1)
FEW_CTA_ROWS = [("e4m3", 1, 4096, 14336), ("e4m3", 8, 4096, 14336), ("e4m3", 32, 4096, 14336), ("bf16", 1, 4160, 10432)]
ROUNDS, CALLS = 2, 40
natural_splits = host.splits


def timed(ops, name: str, slices) -> float:
    if slices:
        host.splits = lambda *a, **kw: slices
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits = natural_splits
        host.forget_prepared_calls()


def predicted(dtype, m, n, k, name, slices) -> float:
    return choices.predicted_us(choices.COST_MODEL, GemmConfig.from_name(name), m, n, k, dtype, choices.sm_count(),
                                splits=slices or 1)


def main() -> None:
    print(torch.cuda.get_device_name(), f"{choices.sm_count()} SMs", flush=True)
    for dtype, m, n, k in FEW_CTA_ROWS + ROWS:
        ops = Operands.random(m, n, k, dtype)
        width = 16 if m <= 16 else 32 if m <= 32 else 64
        prior = choices.prior_config(m, n, k, dtype).name
        runs = [("prior " + prior, prior, None), ("whole", f"128x{width}x8w1t", None),
                ("split/2", f"128x{width}x8w1st", 2)]
        if (dtype, m, n, k) in ROWS:
            runs += [("split/3", f"128x{width}x8w1st", 3), ("128x256x4w1", "128x256x4w1", None)]
        times: dict[str, list[float]] = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, slices in runs:
                times[label].append(timed(ops, name, slices))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        model = {label: predicted(dtype, m, n, k, name, slices) for label, name, slices in runs}
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(
            f"{key} {min(v):.1f}" + (f" (model {model[key]:.1f})" if key in model else "") for key, v in times.items()),
            flush=True)


if __name__ == "__main__":
    main()
