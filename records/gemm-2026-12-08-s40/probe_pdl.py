"""Session 40 (not run: no device machine after the first call): with pdl.patch applied, every GEMM kernel waits for
the stream's previous grid at griddepcontrol.wait after its set-up and lets the next one start
(griddepcontrol.launch_dependents), and the runtime launches such kernels as programmatic dependent launches. Times
back-to-back mmatom.gemm calls -- CUDA events around bursts of ~20 ms, alternating, best of three: the overlap of one
call's set-up with the previous call's end is what a dependent launch buys, which a kernel's own duration would not
show -- with the dependent launch on and off (Kernel.waits_for_prior_grids made False: the same kernels launched
plainly, their wait then returning at once), beside cuBLAS, on decode rows and a few larger ones.

    git apply records/gemm-2026-12-08-s40/pdl.patch && python records/gemm-2026-12-08-s40/probe_pdl.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom import compiler  # noqa: E402
from mmatom.kernels.gemm import host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands  # noqa: E402
from mmatom.tools.mmatom_bench_common import burst_us  # noqa: E402

ROWS = [("bf16", 1, 4096, 4096), ("bf16", 8, 4096, 14336), ("bf16", 64, 4096, 14336), ("bf16", 16, 28672, 8192),
        ("e4m3", 32, 4096, 14336), ("e4m3", 1, 14336, 4096), ("bf16", 512, 4096, 4096), ("bf16", 4096, 4096, 4096)]
WAITS = compiler.Kernel.waits_for_prior_grids


def dependent(on: bool) -> None:
    """Launch the GEMM kernels as dependent launches or not (their launchers and packed calls made again)."""
    compiler.Kernel.waits_for_prior_grids = WAITS if on else (lambda self, entry=None: False)
    for kernel in host._KERNELS.values():
        kernel._launchers.clear()
    host.forget_prepared_calls()


def main() -> None:
    print(torch.cuda.get_device_name(), flush=True)
    for dtype, m, n, k in ROWS:
        ops = Operands.random(m, n, k, dtype)
        call = ops.mmatom_call(mmatom.gemm)
        times = {"pdl": [], "plain": [], "cublas": []}
        for _ in range(3):
            for on in (True, False):
                dependent(on)
                times["pdl" if on else "plain"].append(burst_us(call, ms=20.0))
            times["cublas"].append(burst_us(ops.vendor_calls()["cublas"], ms=20.0))
        best = {key: min(v) for key, v in times.items()}
        print(f"{dtype} {m}x{n}x{k}: " + " | ".join(f"{key} {v:.1f}" for key, v in best.items()) +
              f" | pdl/plain {best['pdl'] / best['plain']:.3f}", flush=True)
    dependent(True)


if __name__ == "__main__":
    main()
