"""Odd-K GEMMs (rows that do not start on 16 bytes, which TMA cannot read) three ways, in one process: mmatom
reading the operands in place and realigning them in its producer (kernels/gemm/realigned_loads.py), mmatom
copying them into 128-byte rows first (the host path before the realigned loads), and the vendor -- cuBLAS /
torch._scaled_mm on operands padded once, outside the timing, as `mmatom-bench gemm` times it. Untuned (the prior's
config), CUDA-event medians of whole calls, interleaved.

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
    host.REALIGN_UNALIGNED = True  # (off by default) the realigned calls; the copied ones turn it off per call
    realigned_by, copying = host._realigned_by, {"on": False}
    host._realigned_by = lambda config, p: (False, False) if copying["on"] else realigned_by(config, p)

    def copied(call):
        def run():
            copying["on"] = True
            try:
                return call()
            finally:
                copying["on"] = False
        return run
    for dtype in args.dtypes.split(","):
        for shape in (args.shapes.split(",") if args.shapes else SHAPES[dtype]):
            m, n, k = map(int, shape.split("x"))
            ours, theirs = Operands.random(m, n, k, dtype), Operands.random(m, n, k, dtype)
            fns = {"realigned": ours.mmatom_call(mmatom.gemm), "copied": copied(theirs.mmatom_call(mmatom.gemm)),
                   "vendor": ours.vendor_calls()["cublas"]}
            want = fns["vendor"]().float()
            err = ((fns["realigned"]().float() - want).abs().max() / want.abs().max()).item()
            us = interleaved_us(fns, rounds=5, reps=10)
            print(f"{dtype} {shape}: realigned {us['realigned']:.1f} us ({us['vendor'] / us['realigned']:.3f}x), "
                  f"copied {us['copied']:.1f} us ({us['vendor'] / us['copied']:.3f}x), vendor {us['vendor']:.1f} us; "
                  f"max rel err {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
