"""Odd-K GEMMs (rows that do not start on 16 bytes, which TMA cannot read) four ways, in one process: mmatom
reading the operands in place and realigning them in its producer (kernels/gemm/realigned_loads.py), mmatom
copying them into 128-byte rows first, mmatom as it chooses by default (host.REALIGN_UNALIGNED None:
choices.realign_pays), and the vendor -- cuBLAS / torch._scaled_mm on operands padded once, outside the timing, as
`mmatom-bench gemm` times it. Untuned (the prior's config), CUDA-event medians of whole calls, interleaved; errors:
tests/gpu/test_gemm_realigned_gpu.py.

    python -P benchmarks/gemm_realigned.py [--dtypes e4m3,bf16] [--shapes 6x8152x27021,4095x4095x4095]
"""

from __future__ import annotations

import argparse

import torch

import mmatom
from mmatom.kernels.gemm import host
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import interleaved_us

SHAPES = {  # the sweep's worst rows with K off 16 bytes (records/gemm-2026-11-26-h100-s18), and item 9's square
    "e4m3": ["6x8152x27021", "9x4090x23434", "143x12572x11538", "3x6596x10359", "84x2339x20458", "259x23133x1539",
             "360x853x16454", "4x1122x3997", "4095x4095x4095"],
    "bf16": ["1x712x13982", "9x4090x23434", "54x347x7697", "108x451x10937", "2x10792x823", "4095x4095x4095"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtypes", default="e4m3,bf16")
    parser.add_argument("--shapes", default=None, help="MxNxK,... (default: each dtype's list)")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for dtype in args.dtypes.split(","):
        for shape in (args.shapes.split(",") if args.shapes else SHAPES[dtype]):
            m, n, k = map(int, shape.split("x"))
            fns = {mode: _with_policy(policy, Operands.random(m, n, k, dtype).mmatom_call(mmatom.gemm))
                   for mode, policy in (("realigned", True), ("copied", False), ("default", None))}
            vendor = Operands.random(m, n, k, dtype)
            fns["vendor"] = vendor.vendor_calls()["cublas"]
            us = interleaved_us(fns, rounds=5, reps=10)
            print(f"{dtype} {shape}: " + ", ".join(f"{mode} {us[mode]:.1f} us ({us['vendor'] / us[mode]:.3f}x)"
                                                   for mode in ("realigned", "copied", "default")) +
                  f", vendor {us['vendor']:.1f} us", flush=True)


def _with_policy(policy, call):
    """`call` with host.REALIGN_UNALIGNED set to `policy` while it runs (its first call plans the replays)."""
    def run():
        kept, host.REALIGN_UNALIGNED = host.REALIGN_UNALIGNED, policy
        try:
            return call()
        finally:
            host.REALIGN_UNALIGNED = kept
    return run


if __name__ == "__main__":
    main()
