"""The host's copies of operands TMA cannot address (rows not 16-byte multiples apart): torch's copy into padded rows
(as the widest integer words the rows allow: host.padded_copy) against the repack kernel (kernels/gemm/repack.py),
one matrix, and A and B together (two torch copies against one launch). CUDA-event medians of each call whole
(host and GPU), interleaved; GB/s counts the bytes read and written.

    python -P benchmarks/gemm_repack.py
"""

from __future__ import annotations

import torch

from mmatom.kernels.gemm import host
from mmatom.tools.mmatom_bench_common import interleaved_us

CASES = [("bf16", 12572, 11538), ("e4m3", 20444, 11386), ("e4m3", 3456, 28095), ("e4m3", 8152, 27021), ("e4m3", 13366, 573), ("bf16", 8152, 27021),
         ("bf16", 4095, 4095), ("e4m3", 470, 322), ("bf16", 9, 322)]
TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}


def main() -> None:
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
    for dtype, rows, k in CASES:
        src = torch.randn(rows, k, device="cuda").to(TORCH[dtype])
        b = torch.randn(rows // 2 + 1, k, device="cuda").to(TORCH[dtype])
        dst, dst_b = host._padded_like(torch, src), host._padded_like(torch, b)
        words = host._word_views(torch, dst, src)
        words_b = host._word_views(torch, dst_b, b)
        ours = host.row_copier(torch, [(dst, src)])
        ours_pair = host.row_copier(torch, [(dst, src), (dst_b, b)])
        t = interleaved_us({"torch": lambda: words[0].copy_(words[1]), "repack": lambda: ours(stream()),
                   "torch x2": lambda: (words[0].copy_(words[1]), words_b[0].copy_(words_b[1])),
                   "repack pair": lambda: ours_pair(stream())})
        moved = 2 * src.numel() * src.element_size()
        pair = moved + 2 * b.numel() * b.element_size()
        print(f"{dtype} {rows}x{k}: torch {t['torch']:8.1f} us ({moved / t['torch'] / 1e3:6.0f} GB/s), repack "
              f"{t['repack']:8.1f} us ({moved / t['repack'] / 1e3:6.0f} GB/s) -> {t['torch'] / t['repack']:.2f}x; "
              f"A and B: two torch copies {t['torch x2']:8.1f} us, one repack {t['repack pair']:8.1f} us "
              f"({pair / t['repack pair'] / 1e3:6.0f} GB/s)", flush=True)


if __name__ == "__main__":
    main()
