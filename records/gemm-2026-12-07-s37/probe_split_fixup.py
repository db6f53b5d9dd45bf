"""Session 37: where split-K's fixed cost goes on decode rows. Session 36 measured the split kernel in one slice
2.7-3.7 us slower than the whole tile (a 25-50 us call), which is what keeps two slices from beating cuBLAS on
64 x 4096 x 14336 e4m3. Per row, each its kernels' GPU time a call (torch.profiler, 40 calls, best of 3 alternating
rounds):
  whole     the unsplit swapped tile
  split/s   the split kernel as shipped, s slices (publish, count, the last slice reads every slice back and stores)
  nosum/s   the same, but the last slice stores its own accumulators without reading any slice back (wrong sums:
            timing only; its workspace writes, fence and count stay)
  nofix/s   no workspace at all: every slice stores its own partial tile into D (wrong sums: timing only)
Each variant is built into its own compile cache (a patched SliceSums, not shipped).

    python -P records/gemm-2026-12-07-s37/probe_split_fixup.py
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
from mmatom.kernels.gemm.split_sums import SliceSums  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("e4m3", 64, 4096, 14336, 64), ("bf16", 64, 4096, 14336, 64), ("bf16", 8, 4096, 14336, 16),
        ("e4m3", 32, 4096, 14336, 32), ("bf16", 64, 5120, 5120, 64)]
ROUNDS, CALLS = 3, 40
SHIPPED = {"publish": SliceSums.publish, "total": SliceSums.total}
PATCHES = {
    "split": SHIPPED,
    "nosum": {"publish": SHIPPED["publish"], "total": None},
    "nofix": {"publish": None, "total": None},
}
natural = host.splits
_compiled: dict[str, dict] = {}


def use(variant: str) -> None:
    """Patch SliceSums as `variant` says, with that variant's own compile cache and compiled kernels."""
    patch = PATCHES[variant]
    SliceSums.publish = patch["publish"] or (lambda self, acc, tile, slot, slices: slices > 0)
    captured = {}

    def own(self, slices, slot_of):  # the last slice's own accumulators, captured at publish's call
        return captured["acc"]

    if patch["total"] is None:
        publish = SliceSums.publish
        def publishing(self, acc, tile, slot, slices):  # noqa: E306
            captured["acc"] = acc
            return publish(self, acc, tile, slot, slices)
        SliceSums.publish, SliceSums.total = publishing, own
    else:
        SliceSums.total = patch["total"]
    os.environ["MMATOM_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"mmatom-probe-{variant}")
    compile_cache.CACHE.memory.clear()
    host._KERNELS.clear()
    host._KERNELS.update(_compiled.setdefault(variant, {}))
    host.forget_prepared_calls()


def timed(ops, name: str, slices: int | None, variant: str) -> float:
    use(variant)
    if slices is not None:
        host.splits = lambda *a, **kw: slices
    try:
        us = sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits = natural
        _compiled[variant] = dict(host._KERNELS)
        host.forget_prepared_calls()
    return us


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k, width in ROWS:
        ops = Operands.random(m, n, k, dtype)
        whole, split = f"128x{width}x8w1t", f"128x{width}x8w1st"
        runs = [("whole", whole, None, "split")] + [(f"{v}/{s}", split, s, v) for v in ("split", "nosum", "nofix")
                                                     for s in (1, 2)]
        times: dict[str, list[float]] = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, slices, variant in runs:
                times[label].append(timed(ops, name, slices, variant))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        print(f"{dtype} {m}x{n}x{k} ({split}): " + " | ".join(f"{key} {min(v):.1f}" for key, v in times.items()),
              flush=True)
    use("split")


if __name__ == "__main__":
    main()
