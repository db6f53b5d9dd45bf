"""What storing D through its pointer (the kernel's direct_d epilogue: an `out` TMA cannot store to) costs against
TMA's stores: one config, A and B aligned (K = 512, so the epilogue weighs), D of about 0.2 GB written three ways --
contiguous rows of N a multiple of 8 (TMA-stored), N odd in rows 16-byte aligned (a column slice of wider rows:
stored through the pointer, every 16-byte chunk whole but a row's last), N odd in contiguous rows (rows at odd byte
offsets: each row's two ends are partial chunks). CUDA-event medians of whole calls, interleaved.

    python -P benchmarks/gemm_direct_store.py [--config 128x128x6w1p] [--dtype e4m3] [--m 13440] [--n 7943]
"""

from __future__ import annotations

import argparse

import torch

import mmatom
from mmatom.kernels.gemm import GemmConfig
from mmatom.tools.mmatom_bench_common import interleaved_us

TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}


def calls(config: GemmConfig, dtype: str, m: int, n: int) -> dict:
    """(name, call) for the three D layouts; N rounded down to 8 for the TMA-stored one."""
    one = torch.ones((), device="cuda")
    scales = {"scale_a": one, "scale_b": one} if dtype == "e4m3" else {}
    fns = {}
    for name, cols, pitch in (("TMA store, N a multiple of 8", n - n % 8, n - n % 8),
                              ("through the pointer, 16-byte rows", n, n + 16 - n % 8),
                              ("through the pointer, odd pitch", n, n)):
        a = torch.randn(m, 512, device="cuda").to(TORCH[dtype])
        b = torch.randn(cols, 512, device="cuda").to(TORCH[dtype])
        out = torch.empty(m * pitch, device="cuda", dtype=torch.bfloat16).view(m, pitch)[:, :cols]
        fns[name] = (lambda a=a, b=b, out=out: mmatom.gemm(a, b, out=out, config=config, **scales))
    return fns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="128x128x6w1p")
    parser.add_argument("--dtype", default="e4m3", choices=sorted(TORCH))
    parser.add_argument("--m", type=int, default=13440)
    parser.add_argument("--n", type=int, default=7943)
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; {args.dtype} {args.m} x {args.n} x 512, "
          f"{args.config}")
    fns = calls(GemmConfig.from_name(args.config), args.dtype, args.m, args.n)
    for name, us in interleaved_us(fns, rounds=5, reps=20).items():
        gbytes = args.m * args.n * 2 / 1e9
        print(f"  {name}: {us:.1f} us, D at {gbytes / us * 1e3:.2f} TB/s", flush=True)


if __name__ == "__main__":
    main()
