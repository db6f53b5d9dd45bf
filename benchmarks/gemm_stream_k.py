"""Stream-K against the tile walk it replaces: on shapes whose last wave of tiles leaves SMs idle, mmatom.gemm with
the prior's config, each stream-K config (every CTA an equal run of all the tiles' K steps: scheduler.StreamKWalk),
and the vendor (cuBLAS / torch._scaled_mm), in one process -- whole calls, CUDA-event medians, interleaved.

    python -P benchmarks/gemm_stream_k.py [--dtypes bf16,e4m3] [--shapes 1472x1088x5632,...] [--json out.json]
"""

from __future__ import annotations

import argparse
import json

import torch

import mmatom
from mmatom.kernels.gemm import STREAM_K_CONFIGS
from mmatom.kernels.gemm.choices import choose_config
from mmatom.tools.mmatom_bench import Operands
from mmatom.tools.mmatom_bench_common import interleaved_us

# the sweep's aligned rows below 0.90x at session 20 (records/gemm-2026-11-27-h100-s20), partial waves mostly, and
# shapes nobody tuned (a partial wave each on 132 SMs with the prior's tile)
SHAPES = ["1472x1088x5632", "1856x2368x16896", "1024x4608x3584", "2496x704x6528", "256x4608x3584",
          "512x1280x18560", "1024x5120x5120", "1024x1024x4096", "1024x11008x4096", "1024x3584x3584",
          "576x20928x6400", "2048x1728x11264", "3000x5000x7000", "2048x11008x4096", "4096x4096x4096",
          "8192x8192x8192", "1536x2304x3072", "768x6144x2816"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtypes", default="bf16,e4m3")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    device = torch.cuda.get_device_name()
    print(f"{device}, torch {torch.__version__}")
    rows = []
    for dtype in args.dtypes.split(","):
        for shape in args.shapes.split(","):
            m, n, k = map(int, shape.split("x"))
            ops = Operands.random(m, n, k, dtype)
            prior = choose_config(m, n, k, dtype)
            fns = {"prior": ops.mmatom_call(mmatom.gemm, prior), "vendor": ops.vendor_calls()["cublas"]}
            fns.update({c.name: ops.mmatom_call(mmatom.gemm, c) for c in STREAM_K_CONFIGS})
            us = interleaved_us(fns, rounds=5, reps=10)
            best = min((c.name for c in STREAM_K_CONFIGS), key=us.get)
            rows.append({"dtype": dtype, "shape": shape, "prior": prior.name, "us": us})
            print(f"{dtype} {shape}: vendor {us['vendor']:.1f} us, prior {prior.name} {us['prior']:.1f} "
                  f"({us['vendor'] / us['prior']:.3f}x), best stream-K {best} {us[best]:.1f} "
                  f"({us['vendor'] / us[best]:.3f}x); " +
                  " ".join(f"{c.name} {us[c.name]:.1f}" for c in STREAM_K_CONFIGS), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
