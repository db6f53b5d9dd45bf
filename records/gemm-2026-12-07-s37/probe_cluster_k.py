"""Session 37: split-K in a cluster (cluster_sums.py) against split-K through global memory (split_sums.py) on the
rows where the prior splits K in two (or four), and the whole tile and cuBLAS. Each its kernels' GPU time a call
(torch.profiler, 40 calls), best of 3 alternating rounds, and each mmatom variant's max relative error against
cuBLAS's result. Then every bench row (sweep and decode, aligned K) whose prior pick the cluster variants change
(CLUSTER_K_US as committed), the prior's pick without them against the one with them, the same way. Its second
part ran (call2-h100/cluster_k_ab.txt) while the prior's pool held the cluster variants (choices._in_clusters, with a
1 us hand-over); that pool was dropped after it, so the part no longer runs as written.

    python records/gemm-2026-12-07-s37/probe_cluster_k.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.tools.mmatom_bench_shapes import shapes_of  # noqa: E402
from mmatom.tools.mmatom_bench import Operands, max_rel_errors  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

# (dtype, m, n, k, tile width, slices)
ROWS = [("e4m3", 64, 4096, 14336, 64, 2), ("bf16", 64, 4096, 14336, 64, 2), ("bf16", 8, 4096, 14336, 16, 2),
        ("bf16", 1, 4096, 14336, 16, 2), ("e4m3", 32, 4096, 14336, 32, 2), ("e4m3", 8, 4096, 14336, 16, 2),
        ("bf16", 64, 5120, 5120, 64, 2), ("bf16", 64, 4096, 4096, 64, 4), ("bf16", 8, 4096, 4096, 16, 4),
        ("e4m3", 64, 3584, 18944, 64, 2), ("bf16", 64, 18944, 3584, 64, 2), ("bf16", 512, 1280, 18560, 64, 4)]
ROUNDS, CALLS = 3, 40
MOST_CHANGED = 40
natural = host.splits


def timed(ops, name: str, slices: int | None) -> float:
    host.forget_prepared_calls()
    if slices is not None:
        host.splits = lambda *a, **kw: slices
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits = natural
        host.forget_prepared_calls()


def variants(m: int, width: int, slices: int) -> list:
    t = "t" if m <= 64 else ""
    base = f"128x{width}x8w1"
    return [("whole", f"{base}{t}", None), (f"split/{slices}", f"{base}s{t}", slices),
            (f"cluster/{slices}", f"{base}c1x1x{slices}{t}", None)]


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k, width, slices in ROWS:
        ops = Operands.random(m, n, k, dtype)
        runs = variants(m, width, slices)
        errs = {}
        for label, name, s in runs:
            host.splits = (lambda *a, **kw: s) if s else natural
            errs[label] = max_rel_errors({"x": ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)),
                                          "cublas": ops.vendor_calls()["cublas"]})["x_max_rel_err"]
            host.splits = natural
            host.forget_prepared_calls()
        times = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, s in runs:
                times[label].append(timed(ops, name, s))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        best = {key: min(v) for key, v in times.items()}
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(
            f"{key} {v:.1f}" + (f" (err {errs[key]:.1e})" if key in errs else "") for key, v in best.items())
            + f" | cluster vs split {best[f'split/{slices}'] / best[f'cluster/{slices}']:.3f}x, vs cublas "
            f"{best['cublas'] / best[f'cluster/{slices}']:.3f}x", flush=True)


def _forget_priors() -> None:
    for cached in (choices._pool, choices._sized_pool, choices._prior, choices.splits):
        cached.cache_clear()
    choices._FITTED_BLOCKS.clear()
    choices._PLANS_ASKED.clear()


def changed_picks() -> list:
    """(dtype, m, n, k, old config, new config) of the aligned bench rows whose pick the cluster variants change."""
    rows = [(dt, m, n, k) for name in ("sweep", "decode") for m, n, k in shapes_of(name) for dt in ("bf16", "e4m3")
            if k * (1 if dt == "e4m3" else 2) % 16 == 0]
    new = {r: choices.prior_config(*r[1:], r[0]) for r in rows}
    kept = choices._in_clusters
    choices._in_clusters = lambda configs: ()
    _forget_priors()
    old = {r: choices.prior_config(*r[1:], r[0]) for r in rows}
    choices._in_clusters = kept
    _forget_priors()
    changed = [(*r, old[r], new[r]) for r in rows if old[r] != new[r]]
    return changed[::-(-len(changed) // MOST_CHANGED)]  # an even sample of at most MOST_CHANGED


def prior_ab() -> None:
    """Each changed row: the old pick and the new one, as the host runs them (their own slice counts)."""
    for dtype, m, n, k, old, new in changed_picks():
        ops = Operands.random(m, n, k, dtype)
        calls = {"old": ops.mmatom_call(mmatom.gemm, old), "new": ops.mmatom_call(mmatom.gemm, new),
                 "cublas": ops.vendor_calls()["cublas"]}
        errs = max_rel_errors(calls)
        times = {key: [] for key in calls}
        for _ in range(ROUNDS):
            for key, call in calls.items():
                times[key].append(sum(kernel_us(call, CALLS).values()))
        best = {key: min(v) for key, v in times.items()}
        print(f"prior {dtype} {m}x{n}x{k}: old {old.name} {best['old']:.1f} | new {new.name} {best['new']:.1f} "
              f"(err {errs['new_max_rel_err']:.1e}) | new/old {best['old'] / best['new']:.3f}x | cublas "
              f"{best['cublas']:.1f}", flush=True)


if __name__ == "__main__":
    main()
    prior_ab()
