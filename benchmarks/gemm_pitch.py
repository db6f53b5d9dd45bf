"""What rows a pitch off 128 bytes cost TMA's loads: the same GEMM on A and B whose rows start `K x element` bytes
apart (K chosen so that the pitch is 16, 32, ..., 112 bytes past a multiple of 128) read in place, against the same
values in rows padded to 128 bytes (column slices of wider tensors), one config (the prior's for aligned rows), D
contiguous and 128-byte aligned in both; interleaved CUDA-event medians. The ratio, in place / padded, per pitch
class (the gcd of the pitch with 128) is what choices.ODD_PITCH_SLOWDOWN prices against a repack's copy.

    python -P benchmarks/gemm_pitch.py [--dtypes bf16,e4m3]
"""

from __future__ import annotations

import argparse
import math
import statistics
from unittest import mock

import torch

import mmatom
from mmatom.kernels.gemm import choices, host
from mmatom.tools.mmatom_bench_common import interleaved_us

TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}
SHAPES = [(4096, 4096, 4096), (8192, 2048, 1024), (1024, 8192, 8192)]  # M, N, and K's size (its pitch set below)


def one(dtype: str, m: int, n: int, k: int) -> tuple[float, float]:
    """(in place us, padded us) for one problem."""
    elem = torch.empty(0, dtype=TORCH[dtype]).element_size()
    a, b = (torch.randn(rows, k, device="cuda").to(TORCH[dtype]) for rows in (m, n))
    wide = -(-k * elem // 128) * 128 // elem
    a_wide, b_wide = (torch.zeros(x.shape[0], wide, device="cuda", dtype=x.dtype) for x in (a, b))
    a_wide[:, :k], b_wide[:, :k] = a, b
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} \
        if dtype != "bf16" else {}
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    config = choices.prior_config(m, n, k, dtype)
    with mock.patch.object(host, "repacked_operands", lambda *args, **kwargs: (False, False)):
        def in_place():
            mmatom.gemm(a, b, out=out, config=config, **scales)
        host.forget_prepared_calls()
        in_place()
    def padded():
        mmatom.gemm(a_wide[:, :k], b_wide[:, :k], out=out, config=config, **scales)
    times = interleaved_us({"in place": in_place, "padded": padded}, rounds=5, reps=15)
    return times["in place"], times["padded"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtypes", default="bf16,e4m3")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for dtype in args.dtypes.split(","):
        elem = torch.empty(0, dtype=TORCH[dtype]).element_size()
        by_class: dict[int, list[float]] = {}
        for m, n, size in SHAPES:
            for residue in range(16, 128, 16):
                k = (size * elem + residue) // elem
                placed, padded = one(dtype, m, n, k)
                by_class.setdefault(math.gcd(residue, 128), []).append(placed / padded)
                print(f"{dtype} {m}x{n}x{k} pitch {k * elem % 128:3d} mod 128: in place {placed:8.1f} us, padded "
                      f"{padded:8.1f} us -> {placed / padded:.3f}x", flush=True)
        for gcd, ratios in sorted(by_class.items()):
            print(f"{dtype} pitch gcd {gcd:3d}: in place / padded median {statistics.median(ratios):.3f}x, max "
                  f"{max(ratios):.3f}x over {len(ratios)}", flush=True)


if __name__ == "__main__":
    main()
