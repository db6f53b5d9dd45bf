"""Session 37, written after probe_cluster_k.py, not run (no device time was left; device_next.sh runs it, as
committed and with expect_tx_cta_scope.patch and ready_before_k_loop.patch): where split-K in a cluster's time goes -- its hand-over against the
same cluster launch without it. Per row (two slices), each its kernels' GPU time a call
(torch.profiler, 40 calls), best of 2 alternating rounds:
  whole      the unsplit tile
  split/2    split-K through global memory, as shipped
  nofix/2    the same without its fix-up (every slice stores its own partial tile: wrong sums, timing only)
  cluster/2  split-K in a cluster (cluster_sums.py)
  cnofix/2   the same cluster launch without the hand-over (every rank stores its own partial tile: timing only)
Patched variants build into their own compile caches.

    python records/gemm-2026-12-07-s37/probe_cluster_k_costs.py
"""

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom import compile_cache  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, host  # noqa: E402
from mmatom.kernels.gemm.cluster_sums import ClusterSums  # noqa: E402
from mmatom.kernels.gemm.split_sums import SliceSums  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("e4m3", 64, 4096, 14336, 64), ("bf16", 8, 4096, 14336, 16), ("bf16", 64, 5120, 5120, 64)]
ROUNDS, CALLS = 2, 40
SHIPPED = (SliceSums.publish, SliceSums.total, ClusterSums.reduce)
natural = host.splits
_compiled: dict[str, dict] = {}


def _patch(fixup: bool) -> None:
    SliceSums.publish, SliceSums.total, ClusterSums.reduce = SHIPPED
    if not fixup:
        captured = {}

        def publish(self, acc, tile, slot, slices):
            captured["acc"] = acc
            return slices > 0
        SliceSums.publish, SliceSums.total = publish, lambda self, slices, slot_of: captured["acc"]
        ClusterSums.reduce = lambda self, acc, tile, store: store(acc)


def use(variant: str) -> None:
    _patch(fixup=variant in ("split", "whole", "cluster"))
    os.environ["MMATOM_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"mmatom-costs-{variant}")
    compile_cache.CACHE.memory.clear()
    host._KERNELS.clear()
    host._KERNELS.update(_compiled.setdefault(variant, {}))
    host.forget_prepared_calls()


def timed(ops, name: str, slices, variant: str) -> float:
    use(variant)
    if slices:
        host.splits = lambda *a, **kw: slices
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits = natural
        _compiled[variant] = dict(host._KERNELS)
        host.forget_prepared_calls()


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k, width in ROWS:
        ops = Operands.random(m, n, k, dtype)
        base = f"128x{width}x8w1"
        runs = [("whole", f"{base}t", None, "whole"), ("split/2", f"{base}st", 2, "split"),
                ("nofix/2", f"{base}st", 2, "nofix"), ("cluster/2", f"{base}c1x1x2t", None, "cluster"),
                ("cnofix/2", f"{base}c1x1x2t", None, "cnofix")]
        times: dict[str, list[float]] = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, slices, variant in runs:
                times[label].append(timed(ops, name, slices, variant))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{key} {min(v):.1f}" for key, v in times.items()), flush=True)
    use("split")


if __name__ == "__main__":
    main()
