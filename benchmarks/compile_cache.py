"""How long mmatom.compile takes cold, warm from the on-disk cache (a new process's memory cache is empty), and
as a memory hit, for .mlir text and for a built module (found in memory by its structure, without printing;
printed to form its disk key). Medians of N runs.

    python -P benchmarks/compile_cache.py [N]
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import mmatom
from mmatom import compile_cache

ROOT = Path(__file__).resolve().parents[1]


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main(runs: int = 200) -> None:
    os.environ["MMATOM_CACHE_DIR"] = tempfile.mkdtemp(prefix="mmatom-bench-")
    spec = importlib.util.spec_from_file_location("tinydsl", ROOT / "examples" / "tinydsl.py")
    tinydsl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tinydsl)
    text = (ROOT / "examples" / "m16n8k16_kloop.mlir").read_text()
    module, _, _ = tinydsl._register_matmul(256, 256, 128, "sm_80", "bf16", "f32", "f32", False)
    compile_cache.toolchain()  # the source fingerprint, once per process
    for label, subject in (("kloop.mlir text", text), ("tinydsl sm_80 module", module)):
        cold = median_ms(lambda: mmatom.compile(subject, options={"cache": False}), max(3, runs // 20))
        mmatom.compile(subject)
        compile_cache.CACHE.memory.clear()
        mmatom.compiler._BY_STRUCTURE.clear()
        start = time.perf_counter()
        mmatom.compile(subject)  # from disk (a module: printed for its key first)
        disk = (time.perf_counter() - start) * 1e3
        hit = median_ms(lambda: mmatom.compile(subject), runs)
        print(f"{label:22s} cold {cold:8.2f} ms   disk hit {disk:6.2f} ms   memory hit {hit:6.3f} ms   "
              f"(cold / memory hit = {cold / hit:,.0f}x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
