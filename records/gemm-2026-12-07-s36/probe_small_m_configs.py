"""Session 36: on the aligned rows of M <= 64 that trail the vendor (today's bench), every config of the prior's pool
for that M, each split-K variant at 2, 3 and 4 slices, timed by its kernels' GPU time a call (torch.profiler, 40
calls after warm-up, the host's call cache cleared per config), beside the prior's pick and cuBLAS's kernels by
name. Does the prior miss a faster config, or does every config trail?

    python -P records/gemm-2026-12-07-s36/probe_small_m_configs.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import choices, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("e4m3", 64, 4096, 14336), ("e4m3", 64, 4096, 11008), ("e4m3", 64, 3584, 18944), ("e4m3", 32, 4096, 14336),
        ("bf16", 64, 5120, 5120), ("bf16", 64, 4096, 4096), ("bf16", 64, 18944, 3584), ("bf16", 8, 4096, 14336),
        ("bf16", 1, 5120, 5120), ("e4m3", 54, 17600, 9920)]
SLICES = (2, 3, 4)
CALLS = 40
natural = host.splits


def timed(ops, config, slices=None) -> tuple[float, dict]:
    host.forget_prepared_calls()
    host.splits = natural if slices is None else (lambda *a, **kw: slices)
    try:
        per = kernel_us(ops.mmatom_call(mmatom.gemm, config), CALLS)
        return sum(per.values()), per
    finally:
        host.splits = natural
        host.forget_prepared_calls()


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k in ROWS:
        ops = Operands.random(m, n, k, dtype)
        prior = choices.prior_config(m, n, k, dtype)
        times = {f"prior {prior.name}": timed(ops, None)[0]}
        for c in choices.candidates(m, split_k=True, swap_ab=True, dtype=dtype):
            try:
                for s in (SLICES if c.split_k else (None,)):
                    times[c.name + (f"/{s}" if s else "")] = timed(ops, c, s)[0]
            except mmatom.CompileError as e:  # a config that does not take this problem
                times[c.name] = float("nan")
                print(f"  {c.name}: {str(e).splitlines()[0][:100]}", flush=True)
        vendor = {name: kernel_us(call, CALLS) for name, call in ops.vendor_calls().items()}
        ranked = sorted(times.items(), key=lambda kv: kv[1])
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{name} {us:.1f}" for name, us in ranked), flush=True)
        for name, per in vendor.items():
            print(f"  {name} {sum(per.values()):.1f}: " + "; ".join(f"{kn[:90]} {us:.1f}" for kn, us in per.items()),
                  flush=True)


if __name__ == "__main__":
    main()
