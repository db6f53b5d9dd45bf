"""Attention kernel configurations side by side: for each shape, each config and cuDNN SDPA run interleaved in one
process (`mmatom-bench attention`'s bursts and medians), printed as TFLOP/s and the speed ratio to cuDNN, with each
config's max abs difference to cuDNN's output and its registers / spills. What a config change buys, measured before
it is shipped:

    python -P benchmarks/attention_configs.py --shapes 4x16x4096d128,2x16x8192d128c \
        --configs 128x128x2,128x160x2,128x176x2 [--dtype bf16] [--repeats 5]

A shape is BxHxS d D (c: causal; /Hkv after H for GQA: 4x32/8x4096d128); a config BMxBNxSTAGES[eN] (BM = 64 x consumers; eN: N of every
8 scores' 2^x on the FMA pipes, AttentionConfig.ex2_on_fma).
"""

from __future__ import annotations

import argparse
import re

import torch

from mmatom.kernels.attention import attention_kernel
from mmatom.kernels.attention.config import AttentionConfig
from mmatom.kernels.attention.host import forward
from mmatom.tools.mmatom_bench_attention import BURST_MS, Inputs, Shape, interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts

SHAPE = re.compile(r"(\d+)x(\d+)(?:/(\d+))?x(\d+)d(\d+)(c?)$")
CONFIG = re.compile(r"(\d+)x(\d+)x(\d+)(?:e(\d))?$")


def parse_shape(text: str) -> Shape:
    match = SHAPE.match(text)
    if not match:
        raise SystemExit(f"shape {text!r} is not BxH[/Hkv]xSdD[c]")
    b, h, hkv, s, d, causal = match.groups()
    return Shape(int(b), int(h), int(hkv or h), int(s), int(d), causal == "c")


def parse_config(text: str, head_dim: int) -> AttentionConfig:
    match = CONFIG.match(text)
    if not match or int(match[1]) % 64:
        raise SystemExit(f"config {text!r} is not BMxBNxSTAGES with BM a multiple of 64")
    bm, bn, stages, on_fma = (int(x or 0) for x in match.groups())
    return AttentionConfig(head_dim, bn, stages, consumers=bm // 64, ex2_on_fma=on_fma)


def compare(shape: Shape, configs: list[AttentionConfig], dtype: str, repeats: int) -> None:
    inputs = Inputs.random(shape, dtype)
    q, k, v, causal = inputs.q, inputs.k, inputs.v, shape.causal
    calls = {"cudnn": inputs.calls(None)["cudnn"]}
    expected = calls["cudnn"]()
    notes = {}
    for config in configs:
        kernel = attention_kernel(dtype, shape.head_dim, causal, config=config)
        out = forward(torch, q, k, v, causal, None, config)[0]
        notes[config.name] = (f"regs {kernel.metadata.registers} spills {kernel.metadata.spill_bytes} "
                              f"max|d| {(out.float() - expected.float()).abs().max().item():.1e}")
        calls[config.name] = lambda config=config: forward(torch, q, k, v, causal, None, config)
    times = interleaved_times(calls, Bursts(repeats, BURST_MS))
    cudnn_ms = times["cudnn"][0]
    print(f"{dtype} {shape.label}: cudnn {shape.flops() / cudnn_ms / 1e9:.0f} TFLOP/s "
          f"(clk {times['cudnn'][1]} MHz)", flush=True)
    for name, (ms, clock, _) in times.items():
        if name != "cudnn":
            print(f"  {name:<18} {shape.flops() / ms / 1e9:6.0f} TFLOP/s  {cudnn_ms / ms:.3f}x cuDNN  "
                  f"clk {clock} MHz  {notes[name]}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shapes", default="4x16x4096d128,2x16x8192d128c")
    p.add_argument("--configs", default="128x128x2", help="comma-separated BMxBNxSTAGES (per shape's head dim)")
    p.add_argument("--dtype", default="bf16", choices=("bf16", "f16"))
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    torch.manual_seed(0)
    for text in args.shapes.split(","):
        shape = parse_shape(text)
        configs = [parse_config(c, shape.head_dim) for c in args.configs.split(",")]
        compare(shape, configs, args.dtype, args.repeats)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
