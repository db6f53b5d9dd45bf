"""Split-K (one launch: split_sums.py) against the same tiles without it, at several slice counts, on small-M and
few-tile shapes -- the data the prior's split-K terms are checked against (choices.SPLIT_TAIL_US, HOST_US).

    python -P benchmarks/gemm_split_k.py [--shapes 1x4096x4096,64x4096x14336] [--slices 1,2,3,4] [--through-gemm]
                                         [--out DIR]

Per shape, interleaved medians of bursts (CUDA events around ~`--burst-ms` of back-to-back launches): cuBLAS
(torch.matmul(out=)), and each config that may split -- the shipped split-K bases and the swapped-operand tiles
covering M -- packed once and launched alone (no host path), without split-K and split in 2, 4, 8 and 16 slices
(as many as there are K steps), beside the model's prediction for each and the prior's own pick."""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import replace
from pathlib import Path

from mmatom.tools.mmatom_bench_common import burst_us

SHAPES = ("1x4096x4096,8x4096x4096,1x4608x3584,64x6144x4096,8x6144x4096,64x4096x11008,1x4096x11008,16x14336x4096,"
          "192x3520x5952,256x320x10048,64x1088x8896,3x832x23040,104x888x1129,17x1088x832,512x1280x18560,"
          "256x3584x18944,84x2339x20458,256x256x7296,1472x1088x5632,64x448x4864,1x14336x4096,32x4096x14336,"
          "128x1024x16384,8x28672x4096,2x2048x8192,48x768x3072,320x448x26560,600x600x20000,1x1024x1024,"
          "64x8192x8192")
SLICES = (1, 2, 4, 8, 16)


def systems_for(torch, mmatom, m: int, n: int, k: int, through_gemm: bool = False) -> dict:
    """{name: launch()} for cuBLAS and each (config, slices) on one problem: the packed launch alone, or
    (`through_gemm`) mmatom.gemm's whole call, each system into a D of its own (its own packed replay, planned once
    with its slice count)."""
    from mmatom.kernels.gemm import SPLIT_K_CONFIGS, SWAP_AB_CONFIGS, host
    from mmatom.kernels.gemm.choices import sm_count
    from mmatom.kernels.torch_launch import current_stream
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    d = host._padded_empty(torch, (m, n), torch.bfloat16, a.device, 2)  # rows TMA can store to
    p, sms, stream = host._problem(torch, a, b, None, None, "k"), sm_count(), current_stream(torch, a.device)
    systems = {"cublas": lambda: torch.matmul(a, b.T, out=d)}
    bases = [replace(c, split_k=False) for c in SPLIT_K_CONFIGS] + [c for c in SWAP_AB_CONFIGS if m <= c.block_n]
    for base in bases:
        run = host._swapped(p) if base.swap_ab else p
        steps = -(-k // base.block_k("bf16"))
        for slices in (s for s in SLICES if s <= steps):
            config = replace(base, split_k=slices > 1)
            if through_gemm:
                systems[f"{config.name}/{slices}"] = _planned_call(torch, mmatom, host, a, b, config, slices)
                continue
            launch = host._prepared_launch(run._replace(config=config), config, d, "bf16", slices, sms)
            systems[f"{config.name}/{slices}"] = lambda launch=launch: launch(stream)
    return systems


def _planned_call(torch, mmatom, host, a, b, config, slices: int):
    """mmatom.gemm(a, b, out=its own D, config=config), its first call planned with `slices` K slices."""
    d = host._padded_empty(torch, (a.shape[0], b.shape[0]), torch.bfloat16, a.device, 2)
    planned = host.splits
    host.splits = lambda *args: slices
    try:
        mmatom.gemm(a, b, out=d, config=config)
    finally:
        host.splits = planned
    return lambda: mmatom.gemm(a, b, out=d, config=config)


def measure(torch, mmatom, m: int, n: int, k: int, rounds: int, ms: float, through_gemm: bool = False) -> dict:
    from mmatom.kernels.gemm import choose_config
    from mmatom.kernels.gemm.choices import COST_MODEL, predicted_us, sm_count, splits
    systems = systems_for(torch, mmatom, m, n, k, through_gemm)
    times = {name: [] for name in systems}
    for _ in range(rounds):
        for name, fn in systems.items():
            times[name].append(burst_us(fn, ms))
    row = {"m": m, "n": n, "k": k, "us": {name: statistics.median(t) for name, t in times.items()}}
    row["predicted_us"] = {name: predicted_us(COST_MODEL, mmatom.GemmConfig.from_name(name.split("/")[0]), m, n, k,
                                              "bf16", sm_count(), splits=int(name.split("/")[1]))
                           for name in systems if name != "cublas"}
    prior = choose_config(m, n, k, "bf16")
    row["prior"] = f"{prior.name}/{splits(prior, m, n, k, 'bf16', sm_count())}"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--burst-ms", type=float, default=10.0)
    parser.add_argument("--out", default=None)
    parser.add_argument("--through-gemm", action="store_true", help="time mmatom.gemm's whole call (host path too)")
    parser.add_argument("--slices", default="1,2,4,8,16", help="the slice counts to time")
    args = parser.parse_args()
    import torch

    import mmatom
    global SLICES
    SLICES = tuple(int(x) for x in args.slices.split(","))
    rows = []
    for shape in args.shapes.split(","):
        m, n, k = map(int, shape.split("x"))
        row = measure(torch, mmatom, m, n, k, args.rounds, args.burst_ms, args.through_gemm)
        rows.append(row)
        best = min((t, name) for name, t in row["us"].items() if name != "cublas")
        print(f"{shape}: cuBLAS {row['us']['cublas']:.1f} us; best {best[1]} {best[0]:.1f} us; prior {row['prior']} "
              f"{row['us'].get(row['prior'], float('nan')):.1f} us", flush=True)
    if args.out:
        info = {"device": torch.cuda.get_device_name(), "rows": rows}
        name = "gemm_split_k_calls.json" if args.through_gemm else "gemm_split_k.json"
        Path(args.out, name).write_text(json.dumps(info, indent=1))


if __name__ == "__main__":
    main()
