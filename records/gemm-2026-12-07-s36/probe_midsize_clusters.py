"""Session 36: the aligned mid-size rows that trail cuBLAS (today's bench) -- L2-bound waves -- against clustered
variants that halve one operand's L2 reads (multicast): the prior's pick, its 1x2 / 2x1 / 2x2 variants where the
tile takes them, and the 128x64 / 128x128 tiles clustered; each config's kernels' GPU time a call (torch.profiler,
40 calls after warm-up) and its max relative error against the vendor's result.

    python -P records/gemm-2026-12-07-s36/probe_midsize_clusters.py
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands, max_rel_errors  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("bf16", 1024, 1024, 4096), ("bf16", 512, 1280, 18560), ("bf16", 256, 4608, 3584),
        ("bf16", 1856, 2368, 16896), ("bf16", 1024, 11008, 4096), ("bf16", 1472, 1088, 5632),
        ("e4m3", 693, 1252, 6288), ("bf16", 693, 1252, 6288), ("e4m3", 1024, 1024, 4096)]
FIXED = ("128x64x8w1c1x2", "128x128x6w1c1x2", "128x128x6w1c2x1", "128x128x6w1c2x2", "128x256x4c2x2")
CALLS = 40


def variants(prior: GemmConfig) -> list[str]:
    names = [prior.name]
    for cm, cn in ((1, 2), (2, 1), (2, 2)):
        try:
            names.append(replace(prior, cluster_m=cm, cluster_n=cn).name)
        except mmatom.CompileError:
            pass
    return list(dict.fromkeys(names + list(FIXED)))


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k in ROWS:
        ops = Operands.random(m, n, k, dtype)
        prior = choices.prior_config(m, n, k, dtype)
        vendor = ops.vendor_calls()["cublas"]
        line = []
        for name in variants(prior):
            host.forget_prepared_calls()
            try:
                c = GemmConfig.from_name(name)
                call = ops.mmatom_call(mmatom.gemm, c)
                err = max_rel_errors({"x": call, "cublas": vendor})["x_max_rel_err"]
                line.append(f"{name} {sum(kernel_us(call, CALLS).values()):.1f} (err {err:.1e})")
            except mmatom.CompileError as e:
                line.append(f"{name} refused: {str(e).splitlines()[0][:80]}")
        per = kernel_us(vendor, CALLS)
        print(f"{dtype} {m}x{n}x{k} prior {prior.name}: " + " | ".join(line) + f" | cublas {sum(per.values()):.1f} "
              + "; ".join(f"{kn[:80]}" for kn in per), flush=True)


if __name__ == "__main__":
    main()
