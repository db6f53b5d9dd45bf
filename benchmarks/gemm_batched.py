"""Batched GEMM against torch.bmm, and the layouts torch hands over, in one process (interleaved medians).

    python -P benchmarks/gemm_batched.py

Rows: (L, M, N, K) bf16 with a batched B (mmatom's 3-d tensor maps vs torch.bmm(a, b.mT)), and `a @ b` with B
given K x N and A stored transposed (mmatom reads both as stored vs torch.matmul on the same tensors)."""

from __future__ import annotations

import statistics


def burst_us(torch, fn, ms: float = 30.0) -> float:
    fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    count = 4
    while True:
        start.record()
        for _ in range(count):
            fn()
        end.record()
        end.synchronize()
        if start.elapsed_time(end) >= ms or count >= 1 << 14:
            return start.elapsed_time(end) * 1e3 / count
        count *= 2


def compare(torch, name: str, ours, theirs, flops: float, rounds: int = 5) -> None:
    times = {"mmatom": [], "torch": []}
    for _ in range(rounds):
        times["mmatom"].append(burst_us(torch, ours))
        times["torch"].append(burst_us(torch, theirs))
    t_ours, t_theirs = statistics.median(times["mmatom"]), statistics.median(times["torch"])
    print(f"{name}: mmatom {t_ours:.1f} us ({flops / t_ours / 1e6:.0f} TFLOP/s), torch {t_theirs:.1f} us "
          f"-> {t_theirs / t_ours:.3f}x", flush=True)


def main() -> None:
    import torch

    import mmatom
    print(torch.cuda.get_device_name())
    bf16 = {"device": "cuda", "dtype": torch.bfloat16}
    for layers, m, n, k in ((8, 2048, 4096, 4096), (16, 1024, 1024, 4096), (4, 3000, 5000, 1000)):
        a, b = torch.randn(layers, m, k, **bf16), torch.randn(layers, n, k, **bf16)
        d, ref = torch.empty(layers, m, n, **bf16), torch.empty(layers, m, n, **bf16)
        compare(torch, f"bmm L={layers} {m}x{n}x{k}", lambda: mmatom.gemm(a, b, out=d),
                lambda: torch.bmm(a, b.mT, out=ref), 2.0 * layers * m * n * k)
    for m, n, k in ((4096, 4096, 4096), (2048, 11008, 4096), (8192, 8192, 8192)):
        a_t, b = torch.randn(k, m, **bf16).t(), torch.randn(k, n, **bf16)
        d, ref = torch.empty(m, n, **bf16), torch.empty(m, n, **bf16)
        compare(torch, f"a.t() @ b {m}x{n}x{k}", lambda: mmatom.gemm(a_t, b, out=d, b_major="n"),
                lambda: torch.matmul(a_t, b, out=ref), 2.0 * m * n * k)


if __name__ == "__main__":
    main()
