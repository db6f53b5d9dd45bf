"""Session 36: the decode-like rows whose untuned pick the few-CTA floor and DRAM_SHARE 0.8 change (the sweep and
decode sets, H100: choices at 132 SMs and 3.35 TB/s), the old pick (config, slices) against the new one in one
process, three alternating rounds; each its kernels' GPU time a call (torch.profiler, 40 calls after warm-up, the
host's call cache cleared per pick), and cuBLAS's.

    python -P records/gemm-2026-12-07-s36/probe_floor_ab.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

# (dtype, M, N, K): (old config, slices), (new config, slices) -- from choices at 2d11adf and at this commit
ROWS = {
    ("bf16", 8, 5120, 5120): (("128x16x8w1st", 2), ("128x16x8w1t", 1)),
    ("bf16", 1, 5120, 5120): (("128x16x8w1st", 2), ("128x16x8w1t", 1)),
    ("bf16", 64, 5120, 5120): (("128x64x8w1st", 2), ("128x64x8w1t", 1)),
    ("bf16", 1, 4096, 4096): (("128x16x8w1st", 4), ("128x16x8w1st", 3)),
    ("bf16", 64, 4096, 4096): (("128x64x8w1st", 4), ("128x64x8w1st", 3)),
    ("bf16", 8, 4608, 3584): (("128x16x8w1st", 3), ("128x16x8w1st", 2)),
    ("bf16", 8, 4096, 14336): (("128x16x8w1t", 1), ("128x16x8w1st", 2)),
    ("bf16", 16, 4096, 14336): (("128x16x8w1t", 1), ("128x16x8w1st", 2)),
    ("bf16", 1, 4096, 14336): (("128x16x8w1t", 1), ("128x16x8w1st", 2)),
    ("bf16", 3, 832, 23040): (("128x16x8w1st", 10), ("128x16x8w1st", 9)),
    ("e4m3", 64, 4096, 14336): (("128x64x8w1st", 3), ("128x64x8w1st", 2)),
    ("e4m3", 8, 4096, 11008): (("128x16x8w1st", 4), ("128x16x8w1st", 3)),
    ("e4m3", 1, 4096, 11008): (("128x16x8w1st", 4), ("128x16x8w1st", 3)),
}
ROUNDS, CALLS = 3, 40
natural = host.splits


def timed(ops, name: str, slices: int) -> float:
    host.forget_prepared_calls()
    host.splits = lambda *a, **kw: slices
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits = natural
        host.forget_prepared_calls()


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for (dtype, m, n, k), (old, new) in ROWS.items():
        ops = Operands.random(m, n, k, dtype)
        times = {"old": [], "new": [], "cublas": []}
        for _ in range(ROUNDS):
            times["old"].append(timed(ops, *old))
            times["new"].append(timed(ops, *new))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        best = {key: min(v) for key, v in times.items()}
        print(f"{dtype} {m}x{n}x{k}: old {old[0]}/{old[1]} {best['old']:.1f} | new {new[0]}/{new[1]} {best['new']:.1f} "
              f"| new/old {best['old'] / best['new']:.3f}x | cublas {best['cublas']:.1f} | rounds "
              + " ".join(f"{key} {','.join(f'{x:.1f}' for x in v)}" for key, v in times.items()), flush=True)


if __name__ == "__main__":
    main()
