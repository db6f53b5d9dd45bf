"""For the next GPU call (not run in session 32): the sweep's worst 16-bit rows -- small problems whose K rows TMA
cannot address -- through each way the host can run them, in one interleaved timing, at the bench's burst length and
at gemm_sweep.py's. In session 32's 40-shape autotuned bench row 146 x 367 x 1274 bf16 read 25.8 us untuned (the
prior's 64x128x8w1p, run as its realigning split-K variant 64x128x8w1ps) against 11.6 us for config=128x64x8w1
(which cannot realign: A and B copied, three launches), while gemm_sweep.py's 3 ms bursts had timed both near 22 us.

    python -P records/gemm-2026-12-06-h200-s32/probe_small_unaligned.py

Per shape and burst length: each system's median us per call, and the host's per-call time alone (launches queued
without a sync). Systems: the user's call (config=None), the realigning split variant forced, the same config with
realigning off (host.REALIGN_UNALIGNED = False: copied), the copying 128x64 tiles, cuBLAS.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

import mmatom  # noqa: E402
from mmatom.kernels.gemm import GemmConfig, choices, host  # noqa: E402
from mmatom.tools.mmatom_bench import Operands, interleaved_medians  # noqa: E402
from mmatom.tools.mmatom_bench_common import timed  # noqa: E402
from mmatom.tools.mmatom_bench_shapes import Bursts  # noqa: E402

SHAPES = [(146, 367, 1274), (28, 660, 1391), (8, 1027, 906), (134, 381, 5981), (108, 451, 10937), (54, 347, 7697)]
BURSTS = {"bench 3 x 10 ms": Bursts(repeats=3, burst_ms=10.0), "sweep 3 x 3 ms": Bursts(3, 3.0, min_calls=1)}


def copying(call):
    """`call` with the kernel's realigning off: every unaligned operand copied first."""
    def run():
        host.REALIGN_UNALIGNED = False
        try:
            return call()
        finally:
            host.REALIGN_UNALIGNED = None
    return run


def host_us(fn, calls: int = 200) -> float:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / calls * 1e6


def main() -> None:
    print(torch.cuda.get_device_name())
    for m, n, k in SHAPES:
        ops = Operands.random(m, n, k, "bf16")
        other = Operands.random(m, n, k, "bf16")  # its own addresses: the packed-launch cache keys on them, not on
        # REALIGN_UNALIGNED, so the copying call must not replay the realigning one's launch
        systems = {
            "untuned": ops.mmatom_call(mmatom.gemm),
            "64x128x8w1ps realigned": ops.mmatom_call(mmatom.gemm, GemmConfig.from_name("64x128x8w1ps")),
            "64x128x8w1ps copied": copying(other.mmatom_call(mmatom.gemm, GemmConfig.from_name("64x128x8w1ps"))),
            "128x64x8w1 copied": ops.mmatom_call(mmatom.gemm, GemmConfig.from_name("128x64x8w1")),
            "cublas": ops.vendor_calls()["cublas"],
        }
        for label, bursts in BURSTS.items():
            times = interleaved_medians(systems, bursts, timed)
            print(f"{m}x{n}x{k} {label}: " + ", ".join(f"{s} {t * 1e3:.1f}" for s, t in times.items()))
        print(f"{m}x{n}x{k} host us/call: " + ", ".join(f"{s} {host_us(fn):.1f}" for s, fn in systems.items()))
        variant, bw = GemmConfig.from_name("64x128x8w1ps"), choices.dram_bytes_per_us()
        copy_us = choices.COPY_CALL_US + 2 * (m + n) * k * 2 / (bw * choices.REPACK_BANDWIDTH_SHARE)
        print(f"{m}x{n}x{k} the model: 64x128x8w1ps realigning {choices.realigning_us(variant, m, n, k, 'bf16'):.1f} us "
              f"(slices {choices.realign_splits(variant, m, n, k, 'bf16', choices.sm_count())}); copying A and B "
              f"{copy_us:.1f} us + 128x64x8w1 "
              f"{choices.predicted_us(choices.COST_MODEL, GemmConfig.from_name('128x64x8w1'), m, n, k, 'bf16', choices.sm_count()):.1f}")


if __name__ == "__main__":
    main()
