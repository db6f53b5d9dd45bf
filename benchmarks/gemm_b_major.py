"""`a @ b`'s layout: mmatom.gemm(a, b, b_major="n") (B K x N, read as it is) against torch.matmul(a, b) and against
mmatom.gemm on a pre-transposed B (N x K), interleaved CUDA-event bursts, medians: `python -P benchmarks/gemm_b_major.py`."""

import statistics

import torch

import mmatom
from mmatom.tools.mmatom_bench import timed

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 11008, 4096), (3000, 5000, 7000), (128, 8192, 8192)]


def main() -> None:
    print(f"# {torch.cuda.get_device_name()}")
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        bt = b.t().contiguous()
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        systems = {"torch a@b": lambda: torch.matmul(a, b, out=out),
                   "mmatom n-major": lambda: mmatom.gemm(a, b, out=out, b_major="n"),
                   "mmatom k-major": lambda: mmatom.gemm(a, bt, out=out)}
        ref = (a.float() @ b.float())
        mmatom.gemm(a, b, out=out, b_major="n")
        err = ((out.float() - ref).abs().max() / ref.abs().max()).item()
        counts = {name: max(3, int(50 / max(timed(fn, 3), 1e-3))) for name, fn in systems.items()}
        times = {name: [] for name in systems}
        for _ in range(7):
            for name, fn in systems.items():
                times[name].append(timed(fn, counts[name]))
        base = statistics.median(times["torch a@b"])
        cells = " | ".join(f"{name} {2 * m * n * k / statistics.median(t) / 1e9:.0f} TF/s "
                           f"{base / statistics.median(t):.3f}x" for name, t in times.items())
        print(f"{m}x{n}x{k}: {cells} | rel err {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
