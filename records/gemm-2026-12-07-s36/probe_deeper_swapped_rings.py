"""Session 36, written for the next session's GPU (not run: no device time was left). Do deeper rings let a few
swapped CTAs stream B faster? A 32-tile grid of 128x16x8w1t draws 80-83 KB/us a CTA (H100, 8 x 4096 x 14336 bf16:
45 us whole, ~128 KB in flight a CTA: about one loaded DRAM latency's worth); 10 stages put 25% more in flight.
128x16x10w1t and 128x32x9w1t fit 227 KiB beside the epilogue's 32 KiB of staging boxes and assemble with 0 spills
(ptxas 13.0, bf16 and e4m3); 12 stages of 128x16 would need the staging sized to the swapped tile's boxes.

Per row: the shipped 8-stage tile and the deeper one, whole and in two slices, three alternating rounds, each its
kernels' GPU time a call (torch.profiler, 40 calls), its max relative error against cuBLAS's result, and cuBLAS's.

    python records/gemm-2026-12-07-s36/probe_deeper_swapped_rings.py   (no -P: probe_floor_ab is beside it)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands, max_rel_errors  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402
from probe_floor_ab import CALLS, ROUNDS, natural, timed  # noqa: E402  (this folder's: a config in a forced slice count)

ROWS = [("bf16", 8, 4096, 14336), ("bf16", 1, 5120, 5120), ("bf16", 8, 28672, 8192), ("bf16", 16, 14336, 4096),
        ("bf16", 32, 4096, 14336), ("e4m3", 8, 4096, 14336), ("e4m3", 32, 4096, 14336), ("e4m3", 1, 8192, 28672)]
PAIRS = {16: ("128x16x8w1t", "128x16x10w1t"), 32: ("128x32x8w1t", "128x32x9w1t")}


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k in ROWS:
        ops = Operands.random(m, n, k, dtype)
        vendor = ops.vendor_calls()["cublas"]
        names = PAIRS[16 if m <= 16 else 32]
        picks = [(name, 1) for name in names] + [(name.replace("w1t", "w1st"), 2) for name in names]
        errs = {}
        for name, s in picks:  # the slice count forced: the deeper rings are not among the prior's priced configs
            host.splits = lambda *a, slices=s, **kw: slices
            errs[f"{name}/{s}"] = max_rel_errors({"x": ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)),
                                                  "cublas": vendor})["x_max_rel_err"]
            host.splits = natural
            host.forget_prepared_calls()
        times: dict[str, list[float]] = {f"{name}/{s}": [] for name, s in picks}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for name, s in picks:
                times[f"{name}/{s}"].append(timed(ops, name, s))
            times["cublas"].append(sum(kernel_us(vendor, CALLS).values()))
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{key} {min(v):.1f}" + (f" (err {errs[key]:.1e})" if key in errs
                                                                            else "") for key, v in times.items()),
              flush=True)


if __name__ == "__main__":
    main()
