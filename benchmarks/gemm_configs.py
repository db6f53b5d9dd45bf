"""GEMM kernel configurations side by side: for each shape, every config in CONFIGS and cuBLAS run interleaved in
one process (median of REPEATS bursts between CUDA events), printed as TFLOP/s and ratio to cuBLAS, with the SM
clock nvidia-smi reports. Each config's output is checked against torch first (NaN-poisoned output buffer).
`python -P benchmarks/gemm_configs.py [shape ...] [--configs 128x256x4,128x256x4d0] [--dtypes bf16,e4m3]`
on the GPU machine; a shape is MxNxK. What a config change buys, measured before it is shipped."""

import argparse
import statistics
import subprocess

import torch

import mmatom
from mmatom.kernels.gemm import CONFIGS, GemmConfig
from mmatom.tools.mmatom_bench import timed

REPEATS = 7
BURST_MS = 150


def sm_clock() -> str:
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.strip()
    return out.replace(", ", " MHz ") + " W" if out else "?"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("shapes", nargs="*", default=["4096x4096x4096", "8192x8192x8192"])
    p.add_argument("--configs", default=",".join(c.name for c in CONFIGS))
    p.add_argument("--dtypes", default="bf16")
    args = p.parse_args()
    configs = [GemmConfig.from_name(c) for c in args.configs.split(",")]
    for shape in args.shapes:
        m, n, k = (int(x) for x in shape.split("x"))
        for dtype in args.dtypes.split(","):
            fp8 = dtype != "bf16"
            a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn if fp8 else torch.bfloat16)
            b = torch.randn(n, k, device="cuda").to(a.dtype)
            out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            one = torch.ones((), device="cuda")
            scales = {"scale_a": one, "scale_b": one} if fp8 else {}
            ref = torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16) if fp8 else a @ b.t()
            systems = {"cuBLAS": (lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out=out,
                                                           out_dtype=torch.bfloat16)) if fp8 else
                       (lambda: torch.matmul(a, b.t(), out=out))}
            for c in configs:
                out.fill_(float("nan"))
                mmatom.gemm(a, b, out=out, config=c, **scales)
                err = ((out.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
                assert err < (3e-2 if fp8 else 1e-2), f"{c.name}: error {err}"
                systems[c.name] = (lambda c=c: mmatom.gemm(a, b, out=out, config=c, **scales))
            bursts = {}
            for name, fn in systems.items():
                fn()
                torch.cuda.synchronize()
                once = timed(fn, 3)
                bursts[name] = max(3, int(BURST_MS / max(once, 1e-3)))
            times = {name: [] for name in systems}
            for _ in range(REPEATS):
                for name, fn in systems.items():
                    times[name].append(timed(fn, bursts[name]))
            clock = sm_clock()
            base = statistics.median(times["cuBLAS"])
            flops = 2 * m * n * k
            cells = [f"{name} {flops / statistics.median(t) / 1e9:.0f} TF/s {base / statistics.median(t):.3f}x"
                     for name, t in times.items()]
            print(f"{dtype} {shape}: " + " | ".join(cells) + f" | after: {clock}", flush=True)


if __name__ == "__main__":
    main()
