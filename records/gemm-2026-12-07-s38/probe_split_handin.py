"""Session 38 (not run: no device machine): split-K with split_handin.patch applied -- the tile's last slice walks
K steps past the others (choices.slice_steps) and asks first whether they counted, skipping its own fence and count
when they did -- against the same kernel in even slices, the split without any fix-up (timing only), the whole
tile, split-K in a cluster and cuBLAS. Per row, each variant's
kernels' GPU time a call (torch.profiler, 40 calls), best of ROUNDS alternating rounds.
  whole      the unsplit tile
  lead/2     split-K in two slices, the last taking choices.slice_steps' lead (as shipped)
  even/2     the same kernel, slice_steps the even half (no lead)
  main/2     main's protocol: no slice asks first, ceil(K steps / 2) a slice (what is shipped without the patch)
  nofix/2    the same without its fix-up (every slice stores its own partial tile: wrong sums, timing only)
  cluster/2  split-K in a cluster (cluster_sums.py)

    python records/gemm-2026-12-07-s38/probe_split_handin.py [--lead-us 1,2,3] [--cluster-only]
(--cluster-only: whole, cluster/2 and cuBLAS: a patched cluster hand-over's time)
"""

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom import compile_cache  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.kernels.gemm.split_sums import SliceSums  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("bf16", 1, 4096, 14336, 16), ("bf16", 8, 4096, 14336, 16), ("bf16", 32, 4096, 14336, 32),
        ("bf16", 64, 4096, 14336, 64), ("e4m3", 64, 4096, 14336, 64), ("bf16", 64, 5120, 5120, 64),
        ("bf16", 16, 28672, 8192, 16)]
ROUNDS, CALLS = 2, 40
SHIPPED = (SliceSums.publish, SliceSums.total)
natural_splits, natural_steps = host.splits, host.slice_steps
_compiled: dict[str, dict] = {}


def _patch(fixup: bool, asked: bool = True) -> None:
    SliceSums.publish, SliceSums.total = SHIPPED
    if not asked:  # main's protocol: every slice counts
        SliceSums.publish = lambda self, acc, tile, slot, slices, ask_first=None: SHIPPED[0](self, acc, tile, slot,
                                                                                          slices)
    if not fixup:
        captured = {}

        def publish(self, acc, tile, slot, slices, ask_first=None):
            captured["acc"] = acc
            return slices > 0
        SliceSums.publish, SliceSums.total = publish, lambda self, slices, slot_of: captured["acc"]


def use(variant: str) -> None:
    _patch(fixup=variant != "nofix", asked=variant != "main")
    os.environ["MMATOM_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"mmatom-handin-{variant}")
    compile_cache.CACHE.memory.clear()
    host._KERNELS.clear()
    host._KERNELS.update(_compiled.setdefault(variant, {}))
    host.forget_prepared_calls()


def timed(ops, name: str, slices, variant: str, lead_us=None) -> float:
    use(variant)
    if slices:
        host.splits = lambda *a, **kw: slices
    if variant == "main":  # main's slices: ceil(K steps / slices) each, the last the rest
        host.slice_steps = lambda config, m, n, k, dtype, sms, split, **kw: -(-(-(-k // config.block_k(
            dtype.split("x")[0]))) // split)
    handover = choices.SPLIT_HANDOVER_US
    if lead_us is not None:
        choices.SPLIT_HANDOVER_US = lead_us
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        host.splits, host.slice_steps, choices.SPLIT_HANDOVER_US = natural_splits, natural_steps, handover
        _compiled[variant] = dict(host._KERNELS)
        host.forget_prepared_calls()


def main() -> None:
    leads = [float(x) for x in sys.argv[sys.argv.index("--lead-us") + 1].split(",")] if "--lead-us" in sys.argv \
        else [choices.SPLIT_HANDOVER_US]
    print(torch.cuda.get_device_name(), "leads (us):", leads, flush=True)
    for dtype, m, n, k, width in ROWS:
        ops = Operands.random(m, n, k, dtype)
        base = f"128x{width}x8w1"
        runs = [("whole", f"{base}t", None, "split", None)]
        runs += [(f"lead{lead:g}/2", f"{base}st", 2, "split", lead) for lead in leads]
        runs += [("even/2", f"{base}st", 2, "split", 0.0), ("main/2", f"{base}st", 2, "main", None),
                 ("nofix/2", f"{base}st", 2, "nofix", None)]
        runs += [("cluster/2", f"{base}c1x1x2t", None, "split", None)]
        if "--cluster-only" in sys.argv:
            runs = [runs[0], runs[-1]]
        times: dict[str, list[float]] = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, slices, variant, lead in runs:
                times[label].append(timed(ops, name, slices, variant, lead))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{key} {min(v):.1f}" for key, v in times.items()), flush=True)
    use("split")


if __name__ == "__main__":
    main()
