"""Split-K against the same tile without it, and where a split-K call's time goes, on decode-like shapes (small M).

    python -P benchmarks/gemm_split_k.py [--shapes 1x4096x4096,64x4096x14336]

Per shape, interleaved medians of bursts (CUDA events around ~`--burst-ms` of back-to-back calls, which include
each call's host time when the host is the bottleneck): cuBLAS (torch.matmul(out=)), mmatom with the 64-row tile
(64x128x8w1p), with its split-K variant (the model's number of slices), and the split-K call's parts -- its kernel
alone (the packed launch), and the two torch ops around it (zeroing the f32 buffer, converting it) -- plus the host
time per call of the split-K call with the GPU kept busy (queued behind torch.cuda._sleep)."""

from __future__ import annotations

import argparse
import statistics
import time

from mmatom.tools.mmatom_bench_common import burst_us


def host_us(torch, fn, calls: int = 200) -> float:
    torch.cuda._sleep(200_000_000)  # ~100 ms of GPU work ahead: the calls below only queue
    began = time.perf_counter()
    for _ in range(calls):
        fn()
    spent = (time.perf_counter() - began) * 1e6 / calls
    torch.cuda.synchronize()
    return spent


def measure(torch, mmatom, m: int, n: int, k: int, rounds: int, ms: float) -> dict:
    from mmatom.kernels.gemm import host
    from mmatom.kernels.torch_launch import current_stream, tensor_map
    from mmatom.kernels.gemm.choices import sm_count, splits
    from mmatom.kernels.gemm.config import operand_box
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    tile, split = mmatom.GemmConfig.from_name("64x128x8w1p"), mmatom.GemmConfig.from_name("64x128x8w1ps")
    sums = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    slices = splits(split, m, n, k, "bf16", sm_count())
    kernel = host.gemm_kernel(dtype="bf16", config=split, out_dtype="f32")
    maps = [tensor_map(a, *operand_box(split, "bf16", "a", "k")),
            tensor_map(b, *operand_box(split, "bf16", "b", "k")), tensor_map(sums, 64, 32)]
    split_kernel = kernel.prepare(*maps, m, n, k, slices, grid=(host.persistent_ctas(split, m, n, sm_count(), slices),))
    stream = current_stream(torch, a.device)
    systems = {
        "cublas": lambda: torch.matmul(a, b.T, out=d),
        "tile": lambda: mmatom.gemm(a, b, out=d, config=tile),
        "split": lambda: mmatom.gemm(a, b, out=d, config=split),
        "zero+convert": lambda: (sums.zero_(), d.copy_(sums)),
        "split kernel": lambda: split_kernel(stream),
    }
    times = {name: [] for name in systems}
    for _ in range(rounds):
        for name, fn in systems.items():
            times[name].append(burst_us(fn, ms))
    row = {name: statistics.median(t) for name, t in times.items()}
    row["split host"] = host_us(torch, systems["split"])
    row["tile host"] = host_us(torch, systems["tile"])
    row["slices"] = slices
    return row


def main() -> None:
    import torch

    import mmatom
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default="1x4096x4096,8x4096x4096,64x4096x4096,1x4096x14336,64x4096x14336,"
                                            "16x1024x16384")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--burst-ms", type=float, default=20.0)
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}; us per call, medians of {args.rounds} interleaved bursts")
    for shape in args.shapes.split(","):
        m, n, k = map(int, shape.split("x"))
        row = measure(torch, mmatom, m, n, k, args.rounds, args.burst_ms)
        print(f"{shape:>14}: " + "  ".join(f"{name} {value:.1f}" for name, value in row.items()), flush=True)


if __name__ == "__main__":
    main()
