"""A/B the GEMM kernel against the PTX another tree generated for the same problems, on this GPU, in one process:
both kernels get the same tensor maps and inputs, their outputs are compared bit for bit, and each is timed in
interleaved bursts between CUDA events (medians). For a refactor that must keep the kernel's speed.

    # in the other tree: write <dir>/index.json and one PTX file per (shape, dtype, config)
    python -P benchmarks/gemm_ab.py DIR [--rounds 7] [--burst-ms 50]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
from pathlib import Path

import torch

import mmatom
from mmatom.kernels.gemm import GemmConfig, gemm_kernel
from mmatom.kernels.gemm.config import BOX, box_columns
from mmatom.kernels.gemm.host import persistent_ctas

TORCH = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}


def with_ptx(kernel: mmatom.Kernel, ptx: str, case: dict) -> mmatom.Kernel:
    """`kernel` with another tree's PTX: the dynamic SMEM that PTX declared (where the index says), and without
    the size arguments if that tree's kernel was specialized to its shape."""
    entries = {}
    for name, e in kernel.entries.items():
        bounds = e.bounds if case.get("shared_bytes") is None else \
            dataclasses.replace(e.bounds, shared_bytes=case["shared_bytes"])
        params = e.params if case.get("takes_sizes", True) else e.params[:3] + e.params[6:]
        entries[name] = dataclasses.replace(e, bounds=bounds, params=params)
    return dataclasses.replace(kernel, ptx=ptx, entries=entries, _module=None, _cubin=None, _launchers={})


def launches(case: dict, other_ptx: str):
    """(ours, the other tree's) packed launches on shared inputs, and their outputs."""
    m, n, k, dtype = case["m"], case["n"], case["k"], case["dtype"]
    config = GemmConfig.from_name(case["config"])
    ours = gemm_kernel(dtype=dtype, config=config)
    theirs = with_ptx(ours, other_ptx, case)
    a = torch.randn(m, k, device="cuda").to(TORCH[dtype])
    b = torch.randn(n, k, device="cuda").to(TORCH[dtype])
    scales = [torch.ones(1, device="cuda"), torch.ones(1, device="cuda")] if dtype != "bf16" else []
    outs, runs = [], []
    bk = config.block_k(dtype)
    grid = (persistent_ctas(config, m, n, mmatom.device_info().sm_count),)
    for kernel in (ours, theirs):
        d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        maps = [mmatom.tensor_map(a, config.block_m // config.cluster_n, bk),
                mmatom.tensor_map(b, config.block_n // config.cluster_m, bk),
                mmatom.tensor_map(d, BOX, box_columns("bf16"))]
        sizes = [m, n, k] if kernel is ours or case.get("takes_sizes", True) else []
        runs.append(kernel.prepare(*maps, *sizes, *scales, grid=grid))
        outs.append(d)
    return runs, outs, (a, b, scales)


def burst_us(run, stream: int, count: int) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(count):
        run(stream)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / count


def compare(case: dict, other_ptx: str, rounds: int, burst_ms: float) -> dict:
    runs, outs, _keep = launches(case, other_ptx)
    stream = torch.cuda.current_stream().cuda_stream
    for run in runs:
        run(stream)
    torch.cuda.synchronize()
    identical = bool(torch.equal(outs[0], outs[1])) and not bool(outs[0].isnan().any())
    once = burst_us(runs[0], stream, 3)
    count = max(3, int(burst_ms * 1e3 / max(once, 1.0)))
    times = [[], []]
    for _ in range(rounds):
        for i, run in enumerate(runs):
            times[i].append(burst_us(run, stream, count))
    ours, theirs = (statistics.median(t) for t in times)
    flops = 2 * case["m"] * case["n"] * case["k"]
    return {**case, "identical": identical, "ours_us": ours, "theirs_us": theirs, "speedup": theirs / ours,
            "ours_tflops": flops / ours / 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--burst-ms", type=float, default=50.0)
    args = parser.parse_args()
    print(f"# {torch.cuda.get_device_name()}")
    for case in json.loads((args.dir / "index.json").read_text()):
        r = compare(case, (args.dir / case["file"]).read_text(), args.rounds, args.burst_ms)
        print(f"{r['m']}x{r['n']}x{r['k']} {r['dtype']:5s} {r['config']:14s} identical={r['identical']} "
              f"ours {r['ours_us']:8.1f} us ({r['ours_tflops']:6.1f} TF/s)  theirs {r['theirs_us']:8.1f} us  "
              f"theirs/ours {r['speedup']:.3f}", flush=True)


if __name__ == "__main__":
    main()
