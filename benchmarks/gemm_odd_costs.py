"""Where an odd shape's time goes: mmatom.gemm on the operands as given (K not a 16-byte multiple: copied by the
repack kernel; N odd: D stored through its pointer), on operands padded beforehand (no copy), and on padded operands
into a padded D (TMA-stored), with the vendor on padded operands (fp8: torch._scaled_mm; bf16: torch.matmul on the
operands as given). CUDA-event medians of whole calls, interleaved, the same config for every mmatom call.

    python -P benchmarks/gemm_odd_costs.py [--shapes 13482x20444x11386,...] [--dtypes e4m3,bf16]
"""

from __future__ import annotations

import argparse

import torch

import mmatom
from mmatom.kernels.gemm import choices
from mmatom.tools.mmatom_bench_common import interleaved_us

SHAPES = "13482x20444x11386,13251x2352x24787,13366x28101x573,2752x13926x762,6x8152x27021,143x12572x11538"
TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}


def padded(x, cols: int):
    """x's values in rows `cols` wide (zeros past x's columns), as a column slice of x's width."""
    wide = torch.zeros(x.shape[0], cols, device=x.device, dtype=x.dtype)
    wide[:, :x.shape[1]] = x
    return wide[:, :x.shape[1]]


def calls(dtype: str, m: int, n: int, k: int) -> dict:
    t = TORCH[dtype]
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(n, k, device="cuda").to(t)
    kp, np_ = -(-k // 64) * 64, -(-n // 64) * 64
    a_p, b_p = padded(a, kp), padded(b, kp)
    out, out_p = torch.empty(m, n, device="cuda", dtype=torch.bfloat16), padded(
        torch.empty(m, n, device="cuda", dtype=torch.bfloat16), np_)
    one = torch.ones(1, device="cuda")
    scales = {"scale_a": one, "scale_b": one} if dtype == "e4m3" else {}
    config = choices.prior_config(m, n, k, dtype, split_k=False)
    if dtype == "e4m3":
        va, vb = torch.zeros(m, kp, device="cuda", dtype=t), torch.zeros(np_, kp, device="cuda", dtype=t)
        va[:, :k], vb[:n, :k] = a, b
        vendor = lambda: torch._scaled_mm(va, vb.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)  # noqa
    else:
        vendor = lambda: torch.matmul(a, b.T, out=out)  # noqa: E731
    return config, {
        "as given": lambda: mmatom.gemm(a, b, out=out, config=config, **scales),
        "padded operands": lambda: mmatom.gemm(a_p, b_p, out=out, config=config, **scales),
        "padded operands and D": lambda: mmatom.gemm(a_p, b_p, out=out_p, config=config, **scales),
        "vendor": vendor}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--dtypes", default="e4m3,bf16")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for dtype in args.dtypes.split(","):
        for shape in args.shapes.split(","):
            m, n, k = map(int, shape.split("x"))
            config, fns = calls(dtype, m, n, k)
            med = interleaved_us(fns, rounds=3, reps=10)
            print(f"{dtype} {shape} ({config.name}): " + ", ".join(f"{name} {us:.1f} us" for name, us in med.items()),
                  flush=True)


if __name__ == "__main__":
    main()
