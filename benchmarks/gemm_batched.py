"""Batched GEMM against torch.bmm, and the layouts torch hands over, in one process (interleaved medians).

    python -P benchmarks/gemm_batched.py

Rows: (L, M, N, K) bf16 with a batched B (mmatom's 3-d tensor maps vs torch.bmm(a, b.mT)), and `a @ b` with B
given K x N and A stored transposed (mmatom reads both as stored vs torch.matmul on the same tensors). Then the
row-pitch A/B (`pitch` rows): the same values with A's, B's and D's rows 16 bytes apart as given (3000x5000x1000:
2000- and 10000-byte rows, 16 mod 32) and padded to a multiple of 128 bytes (column slices of wider tensors, taken
as they are) -- whether TMA boxes whose rows straddle 32-byte sectors, not the batch's config, make L=4
3000x5000x1000 0.53x torch.bmm (2-d 3000x5000x7000 was 0.555x torch.matmul too; the prior picks the same
128x128x6w1 for the batch counted as layers or folded)."""

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
    for shape in ((4, 3000, 5000, 1000), (1, 3000, 5000, 7000)):
        pitch_ab(torch, mmatom, *shape)
    for m, n, k in ((4096, 4096, 4096), (2048, 11008, 4096), (8192, 8192, 8192)):
        a_t, b = torch.randn(k, m, **bf16).t(), torch.randn(k, n, **bf16)
        d, ref = torch.empty(m, n, **bf16), torch.empty(m, n, **bf16)
        compare(torch, f"a.t() @ b {m}x{n}x{k}", lambda: mmatom.gemm(a_t, b, out=d, b_major="n"),
                lambda: torch.matmul(a_t, b, out=ref), 2.0 * m * n * k)


def pitch_ab(torch, mmatom, layers: int, m: int, n: int, k: int) -> None:
    """One problem with rows as given (K and N elements apart) and padded to 128 bytes; torch on the dense ones."""
    from mmatom.kernels.gemm.choices import prior_config
    bf16 = {"device": "cuda", "dtype": torch.bfloat16}

    def wide(cols: int) -> int:  # a row of 128-byte multiples: 64 bf16
        return -(-cols // 64) * 64
    a, b = torch.randn(layers, m, k, **bf16), torch.randn(layers, n, k, **bf16)
    a_wide, b_wide = torch.zeros(layers, m, wide(k), **bf16), torch.zeros(layers, n, wide(k), **bf16)
    a_wide[..., :k], b_wide[..., :k] = a, b
    d, d_wide = torch.empty(layers, m, n, **bf16), torch.empty(layers, m, wide(n), **bf16)
    ref = torch.empty(layers, m, n, **bf16)
    dense = (a[0], b[0], d[0]) if layers == 1 else (a, b, d)
    padded = (a_wide[0, :, :k], b_wide[0, :, :k], d_wide[0, :, :n]) if layers == 1 else \
        (a_wide[..., :k], b_wide[..., :k], d_wide[..., :n])
    print(f"pitch L={layers} {m}x{n}x{k}: prior {prior_config(m, n, k, 'bf16', split_k=False, layers=layers).name}")
    flops = 2.0 * layers * m * n * k
    theirs = (lambda: torch.bmm(a, b.mT, out=ref)) if layers > 1 else (lambda: torch.matmul(a[0], b[0].T, out=ref[0]))
    for name, (x, y, out) in (("rows as given", dense), ("rows padded to 128 B", padded)):
        compare(torch, f"  {name}", lambda x=x, y=y, out=out: mmatom.gemm(x, y, out=out), theirs, flops)
    torch.cuda.synchronize()
    assert torch.equal(d, d_wide[..., :n]), "the two pitches gave different D"


if __name__ == "__main__":
    main()
