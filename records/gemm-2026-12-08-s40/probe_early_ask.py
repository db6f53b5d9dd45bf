"""Session 40 (not run: no device machine after the first call): with early_ask.patch applied, split-K's last slice
reads its tile's counter in its K loop (HopperGemm.early_ask, a share of its lead before the loop ends) rather than
after it. Times the split decode rows' kernels with the early read off (HopperGemm.early_ask returning None: the PTX
of the committed kernel), on at the patch's share of the lead (2/3) and at 1/3 and 5/6, each at the committed lead
(choices.SPLIT_HANDOVER_US, 2 us) and at 3 us, beside the whole tile and cuBLAS. Kernel time a call (torch.profiler,
40 calls), best of two alternating rounds.

    git apply records/gemm-2026-12-08-s40/early_ask.patch && python records/gemm-2026-12-08-s40/probe_early_ask.py
"""

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom import compile_cache  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host, kernel  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import kernel_us  # noqa: E402

ROWS = [("bf16", 1, 4096, 14336, 16), ("bf16", 8, 4096, 14336, 16), ("bf16", 64, 4096, 14336, 64),
        ("e4m3", 64, 4096, 14336, 64), ("bf16", 1, 14336, 4096, 16)]
VARIANTS = {"off": None, "2/3": (2, 3), "1/3": (1, 3), "5/6": (5, 6)}  # early_ask's share of the lead
LEADS = (2.0, 3.0)
ROUNDS, CALLS = 2, 40
EARLY_ASK = kernel.HopperGemm.early_ask
_compiled: dict[str, dict] = {}


def use(variant: str) -> None:
    share = VARIANTS[variant]
    kernel.HopperGemm.early_ask = (lambda self, unit: None) if share is None else EARLY_ASK
    kernel.EARLY_ASK_SHARE = share or kernel.EARLY_ASK_SHARE
    os.environ["MMATOM_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"mmatom-early-ask-{variant.replace('/', '_')}")
    compile_cache.CACHE.memory.clear()
    host._KERNELS.clear()
    host._KERNELS.update(_compiled.setdefault(variant, {}))
    host.forget_prepared_calls()


def timed(ops, name: str, variant: str, lead_us: float) -> float:
    use(variant)
    handover, choices.SPLIT_HANDOVER_US = choices.SPLIT_HANDOVER_US, lead_us
    try:
        return sum(kernel_us(ops.mmatom_call(mmatom.gemm, GemmConfig.from_name(name)), CALLS).values())
    finally:
        choices.SPLIT_HANDOVER_US = handover
        _compiled[variant] = dict(host._KERNELS)
        host.forget_prepared_calls()


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k, width in ROWS:
        ops = Operands.random(m, n, k, dtype)
        runs = [("whole", f"128x{width}x8w1t", "off", choices.SPLIT_HANDOVER_US)]
        runs += [(f"{variant}@{lead:g}", f"128x{width}x8w1st", variant, lead) for lead in LEADS for variant in VARIANTS]
        times: dict[str, list[float]] = {label: [] for label, *_ in runs}
        times["cublas"] = []
        for _ in range(ROUNDS):
            for label, name, variant, lead in runs:
                times[label].append(timed(ops, name, variant, lead))
            times["cublas"].append(sum(kernel_us(ops.vendor_calls()["cublas"], CALLS).values()))
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{key} {min(v):.1f}" for key, v in times.items()), flush=True)
    use("2/3")


if __name__ == "__main__":
    main()
