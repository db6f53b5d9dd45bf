"""Batched GEMM against torch.bmm, and the layouts torch hands over, in one process (interleaved medians).

    python -P benchmarks/gemm_batched.py

Rows: (L, M, N, K) bf16 with a batched B (mmatom's 3-d tensor maps vs torch.bmm(a, b.mT)), and `a @ b` with B
given K x N and A stored transposed (mmatom reads both as stored vs torch.matmul on the same tensors). Then the
row-pitch A/B (`pitch` rows): the same values with A's, B's and D's rows 16 bytes apart as given (3000x5000x1000:
2000- and 10000-byte rows), read in place with the aligned prior's config; padded to a multiple of 128 bytes (column
slices of wider tensors, taken as they are), the same config; and the host's own choice on the rows as given (the
prior pricing the pitch, A / B repacked into 128-byte rows where choices.pitch_plan says the copy pays: the copy is
in its time). Measured on an H100 before the host repacked: L=4 3000x5000x1000 427.1 us as given vs 255.5 padded
(0.523x / 0.882x torch.bmm), L=1 3000x5000x7000 620.1 vs 347.5 (0.525x / 0.960x torch.matmul)."""

from __future__ import annotations

import statistics
from unittest import mock

from mmatom.tools.mmatom_bench_common import burst_us


def compare(torch, name: str, ours, theirs, flops: float, rounds: int = 5) -> None:
    times = {"mmatom": [], "torch": []}
    for _ in range(rounds):
        times["mmatom"].append(burst_us(ours))
        times["torch"].append(burst_us(theirs))
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
    """One problem with rows as given (K and N elements apart) read in place, padded to 128 bytes, and as the host
    takes them (repacking A / B where choices.pitch_plan says the copy pays); torch on the dense ones."""
    from mmatom.kernels.gemm import choices
    from mmatom.kernels.gemm.choices import prior_config
    bf16 = {"device": "cuda", "dtype": torch.bfloat16}

    def wide(cols: int) -> int:  # a row of 128-byte multiples: 64 bf16
        return -(-cols // 64) * 64
    a, b = torch.randn(layers, m, k, **bf16), torch.randn(layers, n, k, **bf16)
    a_wide, b_wide = torch.zeros(layers, m, wide(k), **bf16), torch.zeros(layers, n, wide(k), **bf16)
    a_wide[..., :k], b_wide[..., :k] = a, b
    d, d_wide, d_host = (torch.empty(layers, m, cols, **bf16) for cols in (n, wide(n), n))
    ref = torch.empty(layers, m, n, **bf16)
    dense = (a[0], b[0], d[0], d_host[0]) if layers == 1 else (a, b, d, d_host)
    padded = (a_wide[0, :, :k], b_wide[0, :, :k], d_wide[0, :, :n]) if layers == 1 else \
        (a_wide[..., :k], b_wide[..., :k], d_wide[..., :n])
    config = prior_config(m, n, k, "bf16", split_k=layers == 1, layers=layers)  # the prior for aligned rows
    print(f"pitch L={layers} {m}x{n}x{k}: prior {config.name}")
    flops = 2.0 * layers * m * n * k
    theirs = (lambda: torch.bmm(a, b.mT, out=ref)) if layers > 1 else (lambda: torch.matmul(a[0], b[0].T, out=ref[0]))
    with mock.patch.object(choices, "ODD_PITCH_STEP_SLOWDOWN", 1.0):  # no loss to weigh: the host reads in place
        compare(torch, "  rows as given", lambda: mmatom.gemm(dense[0], dense[1], out=dense[2], config=config),
                theirs, flops)
    compare(torch, "  rows padded to 128 B", lambda: mmatom.gemm(*padded[:2], out=padded[2], config=config), theirs,
            flops)
    compare(torch, f"  host's choice ({_host_choice(torch, dense[:2], layers)})",
            lambda: mmatom.gemm(dense[0], dense[1], out=dense[3]), theirs, flops)
    torch.cuda.synchronize()
    assert torch.equal(d, d_wide[..., :n]), "the two pitches gave different D"
    assert torch.allclose(d.float(), d_host.float(), rtol=2 ** -7, atol=0.05), "the host's choice gave another D"


def _host_choice(torch, operands, layers: int) -> str:
    """The config the host takes for these operands (no stored choice: the prior pricing their pitch) and which of
    them it repacks."""
    from mmatom.kernels.gemm import batched, host
    from mmatom.kernels.gemm.choices import sm_count
    p = host._problem(torch, operands[0] if layers == 1 else operands[0][0],
                      operands[1] if layers == 1 else operands[1][0], None, None, "k")
    if layers == 1:
        config, q = host.configured(torch, p, "bf16", None, sm_count())
        taken = (q.a, q.b)
    else:
        config, *taken = batched.configured(torch, p, operands, ("k", "k"), layers, None)
    repacked = [name for name, x, y in zip("AB", operands, taken) if x is not y]
    return f"{config.name}, repacks {', '.join(repacked) or 'nothing'}"


if __name__ == "__main__":
    main()
