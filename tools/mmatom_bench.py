"""mmatom-bench gemm: mmatom.gemm against cuBLAS (torch.matmul; torch._scaled_mm for fp8) and Triton's
persistent TMA matmul (the tutorial's kernel, written below), in one process, interleaved, on random inputs.

    mmatom-bench gemm [--shapes squares,llm,small,odd] [--dtypes bf16,e4m3] [--repeats 5] [--out records/] [--autotune]

Per shape and system: the median of `repeats` timed runs (each the mean of a burst of launches between two CUDA
events, after warm-up), TFLOP/s, the ratio to cuBLAS, the max relative error against torch, and the SM clock and
board power nvidia-smi sampled during that system's runs (the H100 here is capped at 700 W: clocks fall to
~1.4 GHz under GEMM load). Compile times: mmatom's module -> loaded kernel, cold (empty cache) and cached (as a
fresh process finds it: compile cache and cubin on disk); Triton's first compile of its kernel. `--autotune`
runs mmatom.gemm_autotune on each shape first (its choice is stored; without it, the stored or prior choice). Writes records/gemm_bench.json and records/gemm_bench.png.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mmatom
from mmatom import compile_cache
from mmatom.kernels.gemm import gemm_autotune
from mmatom.kernels.gemm import choose_config, forget_kernels, gemm_kernel
from mmatom.targets import runtime

SHAPE_SETS = {
    "squares": [(s, s, s) for s in (1024, 2048, 4096, 8192)],
    "llm": [(m, n, k) for m in (4096, 16384) for n, k in ((4096, 4096), (14336, 4096), (4096, 14336), (28672, 8192),
                                                          (8192, 28672))],
    "small": [(m, 8192, 8192) for m in (64, 128, 256)],
    "odd": [(4095, 4095, 4095), (8191, 8193, 4097)],
}


class Sampler:
    """nvidia-smi every 100 ms while a system runs: SM clock (MHz) and power (W)."""

    def __enter__(self):
        self.proc = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits",
                                      "-lms", "100"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=5)
        self.clocks, self.power = [], []
        for line in out.splitlines():
            try:
                c, p = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.clocks.append(c)
            self.power.append(p)

    def summary(self) -> dict:
        med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
        return {"sm_clock_mhz": med(self.clocks), "power_w": med(self.power)}


def timed(fn, burst: int) -> float:
    """Mean milliseconds of one call over a burst between two CUDA events."""
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(burst):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / burst


def triton_matmul():
    """Triton's persistent TMA matmul (python/tutorials/09-persistent-matmul.py, matmul_kernel_descriptor_persistent),
    bf16/fp8 in, bf16 out, B given N x K."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
        a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
        start = tl.program_id(0)
        tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
        k_tiles, tiles = tl.cdiv(K, BLOCK_K), tiles_m * tiles_n
        for tile in tl.range(start, tiles, NUM_SMS, flatten=True):
            group = tile // (GROUP_M * tiles_n)
            first_m = group * GROUP_M
            rows = min(tiles_m - first_m, GROUP_M)
            pid_m = first_m + (tile % rows)
            pid_n = (tile % (GROUP_M * tiles_n)) // rows
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for ki in range(k_tiles):
                a = a_desc.load([pid_m * BLOCK_M, ki * BLOCK_K])
                b = b_desc.load([pid_n * BLOCK_N, ki * BLOCK_K])
                acc = tl.dot(a, b.T, acc)
            c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.bfloat16))

    def alloc(size, alignment, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)

    triton.set_allocator(alloc)
    sms = torch.cuda.get_device_properties(0).multi_processor_count

    def run(a, b, c):
        M, K = a.shape
        N = b.shape[0]
        bk = 128 if a.element_size() == 1 else 64
        grid = (min(sms, triton.cdiv(M, 128) * triton.cdiv(N, 256)),)
        kernel[grid](a, b, c, M, N, K, BLOCK_M=128, BLOCK_N=256, BLOCK_K=bk, GROUP_M=8, NUM_SMS=sms,
                     num_stages=3, num_warps=8)
    return run


def bench_gemm(shapes, dtypes=("bf16", "e4m3"), repeats: int = 5, out_dir: str | Path = "records",
               systems=("mmatom", "cublas", "triton"), quiet: bool = False, autotune: bool = False) -> dict:
    """Run the benchmark; returns (and writes) the JSON record."""
    import torch
    torch.manual_seed(0)
    triton_run, triton_error = None, None
    if "triton" in systems:
        # Triton's first compile in this run is cold only with an empty cache dir (its default persists on disk)
        os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="mmatom-bench-triton-"))
        try:
            triton_run = triton_matmul()
        except Exception as err:  # an older Triton without tensor descriptors: reported, not fatal
            triton_error = f"{type(err).__name__}: {err}"
    rows, total, done = [], len(shapes) * len(dtypes), 0
    for dtype in dtypes:
        for m, n, k in shapes:
            done += 1
            row = {"m": m, "n": n, "k": k, "dtype": dtype}
            tdtype = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}[dtype]
            a = torch.randn(m, k, device="cuda").to(tdtype)
            b = torch.randn(n, k, device="cuda").to(tdtype)
            d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            fp8 = dtype != "bf16"
            sa = torch.tensor([1.0], device="cuda")
            sb = torch.tensor([1.0], device="cuda")
            if autotune:
                t0 = time.perf_counter()
                gemm_autotune(m, n, k, dtype=dtype)
                row["autotune_s"] = time.perf_counter() - t0
            config = choose_config(m, n, k, dtype)  # what mmatom.gemm will pick
            row["config"] = config.name
            # compile: module -> loaded kernel. Cold: an empty cache (build the module, lower, emit, JIT, load).
            # Cached: what a fresh process pays -- the compile cache read from disk by the generator's key, the
            # cubin read from disk and loaded.
            with tempfile.TemporaryDirectory() as tmp:
                saved = os.environ.get("MMATOM_CACHE_DIR")
                os.environ["MMATOM_CACHE_DIR"] = tmp
                forget_kernels()
                compile_cache.CACHE.memory.clear()  # the autotuner or an earlier row compiled it in this process
                t0 = time.perf_counter()
                kernel = gemm_kernel(dtype=dtype, config=config)  # one kernel per config: any shape
                runtime.Module(kernel.ptx, label="gemm").function("gemm")
                row["mmatom_compile_cold_ms"] = (time.perf_counter() - t0) * 1e3
                forget_kernels()
                compile_cache.CACHE.memory.clear()
                t0 = time.perf_counter()
                again = gemm_kernel(dtype=dtype, config=config)
                row["mmatom_compile_cached_ms"] = (time.perf_counter() - t0) * 1e3
                runtime.Module(again.ptx, label="gemm").function("gemm")
                row["mmatom_compile_cached_loaded_ms"] = (time.perf_counter() - t0) * 1e3
                if saved is None:
                    os.environ.pop("MMATOM_CACHE_DIR")
                else:
                    os.environ["MMATOM_CACHE_DIR"] = saved
            meta = kernel.metadata
            row.update(registers=meta.registers, spill_bytes=meta.spill_bytes)
            a_v, b_v = a, b  # what cuBLAS gets: fp8 needs K % 16 == 0, so odd K is zero-padded outside the timing
            if fp8 and k % 16:
                kp = -(-k // 16) * 16
                a_v = torch.zeros(m, kp, device="cuda", dtype=tdtype)
                b_v = torch.zeros(-(-n // 16) * 16, kp, device="cuda", dtype=tdtype)
                a_v[:, :k], b_v[:n, :k] = a, b
            c_vendor = torch.empty(m, b_v.shape[0], device="cuda", dtype=torch.bfloat16)
            calls = {
                "mmatom": (lambda: mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb)) if fp8 else
                          (lambda: mmatom.gemm(a, b, out=d)),
                # into a preallocated output, as mmatom.gemm(out=d) runs: small shapes measure launches, not allocations
                "cublas": (lambda: torch._scaled_mm(a_v, b_v.T, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                                    out=c_vendor)[:, :n]) if fp8
                          else (lambda: torch.matmul(a, b.T, out=c_vendor)),
            }
            if a_v is not a:  # what a _scaled_mm caller pays for an odd K: the padding mmatom.gemm does inside its call
                pad = torch.nn.functional.pad
                calls["cublas_padded"] = lambda: torch._scaled_mm(
                    pad(a, (0, a_v.shape[1] - k)), pad(b, (0, b_v.shape[1] - k, 0, b_v.shape[0] - n)).T,
                    scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)[:, :n]
            if triton_run is not None and "triton" in systems and k % (16 if fp8 else 8) == 0 and n % 8 == 0:
                c_t = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
                t0 = time.perf_counter()
                try:
                    triton_run(a, b, c_t)
                    torch.cuda.synchronize()
                    row["triton_compile_ms"] = (time.perf_counter() - t0) * 1e3
                    calls["triton"] = lambda: triton_run(a, b, c_t)
                except Exception as err:
                    row["triton_error"] = f"{type(err).__name__}: {str(err)[:200]}"
            ref = calls["cublas"]().float()
            for name, fn in calls.items():
                got = fn().float() if name.startswith("cublas") else (fn(), (d if name == "mmatom" else c_t).float())[1]
                row[f"{name}_max_rel_err"] = ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
            flops = 2.0 * m * n * k
            burst = max(3, min(2000, int(0.2 * 7e14 / flops)))  # ~200 ms a burst: nvidia-smi samples it
            times = {name: [] for name in calls}
            clocks = {name: Sampler() for name in calls}
            for name, fn in calls.items():  # warm-up
                timed(fn, burst)
            for _ in range(repeats):  # interleaved: each repeat runs every system once
                for name, fn in calls.items():
                    with clocks[name] as s:
                        times[name].append(timed(fn, burst))
                    clocks[name].clocks_all = getattr(clocks[name], "clocks_all", []) + s.clocks
                    clocks[name].power_all = getattr(clocks[name], "power_all", []) + s.power
            for name in calls:
                ms = statistics.median(times[name])
                row[f"{name}_ms"] = ms
                row[f"{name}_tflops"] = flops / ms / 1e9
                cl, pw = clocks[name].clocks_all, clocks[name].power_all
                row[f"{name}_sm_clock_mhz"] = statistics.median(cl) if cl else None
                row[f"{name}_power_w"] = statistics.median(pw) if pw else None
            row["ratio_vs_cublas"] = row["mmatom_tflops"] / row["cublas_tflops"]
            if "cublas_padded_tflops" in row:
                row["ratio_vs_cublas_padded"] = row["mmatom_tflops"] / row["cublas_padded_tflops"]
            if "triton_tflops" in row:
                row["triton_ratio_vs_cublas"] = row["triton_tflops"] / row["cublas_tflops"]
            rows.append(row)
            if not quiet:
                bar = "#" * (20 * done // total)
                print(f"[{bar:<20}] {done}/{total} {dtype} {m}x{n}x{k}: mmatom {row['mmatom_tflops']:.0f} "
                      f"cuBLAS {row['cublas_tflops']:.0f} Triton {row.get('triton_tflops', float('nan')):.0f} TFLOP/s "
                      f"ratio {row['ratio_vs_cublas']:.3f} clk {row['mmatom_sm_clock_mhz']} MHz "
                      f"err {row['mmatom_max_rel_err']:.2e} compile {row['mmatom_compile_cold_ms']:.0f}/"
                      f"{row['mmatom_compile_cached_ms']:.2f}/{row['mmatom_compile_cached_loaded_ms']:.2f} ms {row['config']} triton {row.get('triton_compile_ms', float('nan')):.0f} ms",
                      flush=True)
            del a, b, d
            torch.cuda.empty_cache()
    dev = runtime.device()
    record = {"device": dev.name(), "chip": dev.chip, "driver": dev.driver_version, "torch": torch.__version__,
              "triton_error": triton_error, "date": time.strftime("%Y-%m-%d %H:%M"), "repeats": repeats, "rows": rows}
    for dtype in dtypes:
        ratios = [r["ratio_vs_cublas"] for r in rows if r["dtype"] == dtype]
        if ratios:
            record[f"geomean_ratio_{dtype}"] = statistics.geometric_mean(ratios)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "gemm_bench.json").write_text(json.dumps(record, indent=1))
    _plot(record, out / "gemm_bench.png")
    return record


def _plot(record: dict, path: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    rows = record["rows"]
    labels = [f"{r['dtype']} {r['m']}x{r['n']}x{r['k']}" for r in rows]
    systems = [s for s in ("mmatom", "cublas", "triton") if any(f"{s}_tflops" in r for r in rows)]
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.6), 5))
    width = 0.8 / len(systems)
    for i, s in enumerate(systems):
        ax.bar([x + i * width for x in range(len(rows))], [r.get(f"{s}_tflops", 0) for r in rows], width, label=s)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(rows))], labels, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"GEMM on {record['device']} ({record['date']}; medians of {record['repeats']})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mmatom-bench", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gemm", help="mmatom.gemm vs cuBLAS and Triton")
    g.add_argument("--shapes", default="squares,llm,small,odd", help=f"comma list of {', '.join(SHAPE_SETS)}")
    g.add_argument("--dtypes", default="bf16,e4m3")
    g.add_argument("--repeats", type=int, default=5)
    g.add_argument("--out", default="records")
    g.add_argument("--autotune", action="store_true", help="mmatom.gemm_autotune each shape first (stored choices)")
    args = parser.parse_args(argv)
    shapes = [s for name in args.shapes.split(",") for s in SHAPE_SETS[name]]
    record = bench_gemm(shapes, tuple(args.dtypes.split(",")), args.repeats, args.out, autotune=args.autotune)
    for key, value in record.items():
        if key.startswith("geomean"):
            print(f"{key}: {value:.3f}")
    return 0


def entry() -> None:
    sys.exit(main())


__all__ = ["SHAPE_SETS", "bench_gemm", "main"]


if __name__ == "__main__":
    entry()
