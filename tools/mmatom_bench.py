"""mmatom-bench gemm: mmatom.gemm against cuBLAS (torch.matmul; torch._scaled_mm for fp8) and Triton's
persistent TMA matmul (the tutorial's kernel, written below), in one process, interleaved, on random inputs.

    mmatom-bench gemm [--shapes squares,llm,small,odd,decode,sweep] [--dtypes bf16,f16,e4m3] [--repeats 5]
                      [--sweep-count 300] [--out records/] [--autotune] [--rowwise] [--b-major n] [--dry-run]

The 19 shapes (squares, llm, small, odd): per shape and system the median of `repeats` timed runs (each the mean of
a ~200 ms burst of launches between two CUDA events, after warm-up), TFLOP/s, the ratio to cuBLAS, the max relative
error against torch, and the SM clock and board power nvidia-smi sampled during that system's runs (the H100 here
is capped at 700 W: clocks fall to ~1.4 GHz under GEMM load). Compile times: mmatom's module -> loaded kernel, cold
(empty cache) and cached (as a fresh process finds it: compile cache and cubin on disk); Triton's first compile of
its kernel. `--autotune` runs mmatom.gemm_autotune on each shape first (its choice is stored; without it, the stored
or prior choice). Writes gemm_bench.json and gemm_bench.png under --out.

The quick sets (decode: M 1..64 x the llm set's (N, K); sweep: `--sweep-count` shapes of model projections and
random sizes, mmatom_bench_shapes.sweep_shapes): per shape the untuned time (the prior's config,
choices.prior_config, whatever is stored) and with `--autotune` the autotuned one (gemm_autotune's choice with the
shorter phases of SWEEP_AUTOTUNE, not stored), against cuBLAS, in interleaved bursts shorter than the 19 shapes'
(QUICK_TIMING; no clock sampling); per dtype the geomean ratio, the shapes below 0.90x, the worst. Writes
gemm_bench_<set>.json (rows, summary, the prior's rule) and gemm_bench_<set>.png (ratio against FLOPs).
The expected run time is printed before starting; `--dry-run` prints the plan and the prior's picks and exits.
`--rowwise`: fp8 with rowwise scales (scale_a of M, scale_b of N floats) for mmatom.gemm and torch._scaled_mm
alike, in the same process; the records get a `_rowwise` suffix (gemm_bench_rowwise.json, gemm_bench_<set>_rowwise).
`--b-major n` (quick sets, 16-bit dtypes): B given K x N, as `a @ b` hands it over -- mmatom.gemm(a, b,
b_major="n") against torch.matmul(a, b) on the same tensors; the records get a `_b_n_major` suffix.
`--swap-ab` (quick sets): shapes with M <= 64 get a `mmatom_swap_ab` column too, the swapped-operand config whose
tile covers M (config.SWAP_AB_CONFIGS: D^T = B . A^T), and its ratio to cuBLAS (`ratio_swap_ab`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import mmatom
from mmatom import compile_cache
from mmatom.kernels.gemm import choices, choose_config, forget_kernels, gemm_autotune, gemm_kernel
from mmatom.kernels.gemm.choices import FULL_SPEED_PITCH_BYTES
from mmatom.kernels.gemm.config import ELEM_BYTES, FP8, SWAP_AB_CONFIGS, TORCH_DTYPE_NAMES, GemmConfig
from mmatom.kernels.gemm.host import call_clusters
from mmatom.targets import runtime

from . import mmatom_bench_attention
from .mmatom_bench_common import Sampler, timed
from .mmatom_bench_common import comma_list as _comma_list
from .mmatom_bench_common import device_record as _device_record
from .mmatom_bench_common import positive as _positive
from .mmatom_bench_report import plot_ratios, summarize, summary_lines
from .mmatom_bench_shapes import (QUICK_SETS, SET_NAMES, SHAPE_SETS, SWEEP_COUNT, AutotunePlan, Bursts,
                                  estimate_seconds, shapes_of)
from .unix import restore_sigpipe

DTYPES = ("bf16", "f16", "e4m3", "e5m2")
CLASSIC_BURST_MS, CLASSIC_TFLOPS = 200.0, 700.0  # the 19 shapes' bursts: ~200 ms at bf16's sustained rate
QUICK_TIMING = {"sweep": Bursts(repeats=3, burst_ms=10.0), "decode": Bursts(repeats=5, burst_ms=20.0)}
SWEEP_AUTOTUNE = AutotunePlan(rounds=3, burst_ms=5.0, finalists=3, final_rounds=3, final_burst_ms=20.0)
H100_SMS = 132  # the prior's SM count in a dry run (no GPU to ask)


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


# --- operands and the calls every mode times ------------------------------------------------------------------------

def out_dtype_of(dtype: str) -> str:
    """D's type in the bench: A's for f16 (torch.matmul writes f16), bf16 otherwise."""
    return "f16" if dtype == "f16" else "bf16"


@dataclass
class Operands:
    """One problem's random operands on `device`, D, the fp8 scales, and what the vendor call gets: fp8 operands
    zero-padded to 16 columns and B to 16 rows outside its timing (torch._scaled_mm's rule), rowwise scales of
    (M, 1) and (1, N) (the vendor's scale_b padded as its B)."""

    m: int
    n: int
    k: int
    dtype: str
    a: object
    b: object
    d: object
    scales: dict
    vendor_a: object
    vendor_b: object
    vendor_d: object
    vendor_scales: dict
    b_major: str = "k"  # "n": B stored K x N, as `a @ b` hands it over (16-bit types)

    @classmethod
    def random(cls, m: int, n: int, k: int, dtype: str, device: str = "cuda", rowwise: bool = False,
               b_major: str = "k") -> Operands:
        import torch
        t, t_out = (getattr(torch, TORCH_DTYPE_NAMES[x]) for x in (dtype, out_dtype_of(dtype)))
        fp8 = dtype in FP8
        if b_major == "n" and fp8:
            raise ValueError(f"Operands: an N-major B (K x N) is for 16-bit types; fp8 wgmma reads B K-major ({dtype})")
        a, b = torch.randn(m, k, device=device).to(t), torch.randn(*((k, n) if b_major == "n" else (n, k)),
                                                                   device=device).to(t)
        va, vb = a, b
        if fp8 and (k % 16 or n % 16):
            va, vb = torch.zeros(m, -(-k // 16) * 16, device=device, dtype=t), torch.zeros(-(-n // 16) * 16, -(
                -k // 16) * 16, device=device, dtype=t)
            va[:, :k], vb[:n, :k] = a, b
        scales = _scales(torch, m, vb.shape[0], fp8, rowwise, device)
        ours = {**scales, "scale_b": scales["scale_b"][:, :n]} if rowwise and fp8 else scales  # N, not padded
        return cls(m, n, k, dtype, a, b, torch.empty(m, n, device=device, dtype=t_out), ours, va, vb,
                   torch.empty(m, n if b_major == "n" else vb.shape[0], device=device, dtype=t_out), scales, b_major)

    @property
    def padded_d(self) -> bool:
        """The vendor's D is padded (fp8, N not a multiple of 16: _scaled_mm writes N rounded up, the caller gets
        a view of its first N columns)."""
        return self.vendor_d.shape[1] != self.n

    def mmatom_call(self, gemm: Callable, config=None) -> Callable:
        """mmatom.gemm into D (`config`: None is the stored choice or the prior, as a user's call). Where the
        vendor's D is padded, both calls allocate it (mmatom.gemm's out=None: rows padded too, a view of the first N
        columns returned): an `out` of contiguous odd rows is another task, which no vendor call does (its in-place
        stores: benchmarks/gemm_direct_store.py)."""
        out = None if self.padded_d else self.d
        if self.b_major == "n":
            return lambda: gemm(self.a, self.b, out=out, config=config, b_major="n")
        return lambda: gemm(self.a, self.b, out=out, config=config, **self.scales)

    def vendor_calls(self) -> dict[str, Callable]:
        """cuBLAS into a preallocated output (as mmatom.gemm(out=d) runs: small shapes measure launches, not
        allocations) -- but a padded fp8 D, which each call allocates, as mmatom.gemm's own (mmatom_call); for padded
        fp8 operands also `cublas_padded`, what a _scaled_mm caller pays for the padding mmatom.gemm does inside its
        call."""
        import torch
        a, b, va, vb, n = self.a, self.b, self.vendor_a, self.vendor_b, self.n
        if self.dtype not in FP8:  # B as stored: N x K (F.linear's weight) or K x N (`a @ b`)
            return {"cublas": lambda: torch.matmul(a, b if self.b_major == "n" else b.T, out=self.vendor_d)}
        sa, sb = self.vendor_scales["scale_a"], self.vendor_scales["scale_b"]
        out = None if self.padded_d else self.vendor_d  # a padded D allocated by each call, as mmatom's
        calls = {"cublas": lambda: torch._scaled_mm(va, vb.T, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                                    out=out)[:, :n]}
        if va is not a:
            pad = torch.nn.functional.pad
            calls["cublas_padded"] = lambda: torch._scaled_mm(
                pad(a, (0, va.shape[1] - self.k)), pad(b, (0, vb.shape[1] - self.k, 0, vb.shape[0] - n)).T,
                scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)[:, :n]
        return calls


def _scales(torch, m: int, n: int, fp8: bool, rowwise: bool, device) -> dict:
    """fp8's scales: ones (per tensor), or rowwise (M, 1) and (1, N) in [0.5, 1.5)."""
    if not fp8:
        return {}
    if not rowwise:
        return {"scale_a": torch.ones(1, device=device), "scale_b": torch.ones(1, device=device)}
    return {"scale_a": torch.rand(m, 1, device=device) + 0.5, "scale_b": torch.rand(1, n, device=device) + 0.5}


def max_rel_errors(calls: dict[str, Callable]) -> dict[str, float]:
    """Each call's max relative error against cuBLAS's result (each call run once; it returns its D)."""
    ref = calls["cublas"]().float()
    scale = ref.abs().max().clamp_min(1e-30)
    return {f"{name}_max_rel_err": ((fn().float() - ref).abs().max() / scale).item() for name, fn in calls.items()}


# --- the 19 shapes: long bursts, clocks sampled, compile times -------------------------------------------------------

def _compile_times(dtype: str, config, out_dtype: str) -> tuple[dict, object]:
    """mmatom's module -> loaded kernel, cold (an empty cache: build, lower, emit, JIT, load) and cached (what a
    fresh process pays: the compile cache read from disk by the generator's key, the cubin read and loaded)."""
    row = {}
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.environ.get("MMATOM_CACHE_DIR")
        os.environ["MMATOM_CACHE_DIR"] = tmp
        forget_kernels()
        compile_cache.CACHE.memory.clear()  # the autotuner or an earlier row compiled it in this process
        t0 = time.perf_counter()
        kernel = gemm_kernel(dtype=dtype, config=config, out_dtype=out_dtype)  # one kernel per config: any shape
        runtime.Module(kernel.ptx, label="gemm", digest=kernel.digest).function("gemm")
        row["mmatom_compile_cold_ms"] = (time.perf_counter() - t0) * 1e3
        forget_kernels()
        compile_cache.CACHE.memory.clear()
        t0 = time.perf_counter()
        again = gemm_kernel(dtype=dtype, config=config, out_dtype=out_dtype)
        row["mmatom_compile_cached_ms"] = (time.perf_counter() - t0) * 1e3
        runtime.Module(again.ptx, label="gemm", digest=again.digest).function("gemm")
        row["mmatom_compile_cached_loaded_ms"] = (time.perf_counter() - t0) * 1e3
        if saved is None:
            os.environ.pop("MMATOM_CACHE_DIR")
        else:
            os.environ["MMATOM_CACHE_DIR"] = saved
    return row, kernel


def _sampled_medians(calls: dict, burst: int, repeats: int) -> dict:
    """Per system: the median ms of `repeats` interleaved bursts (after a warm-up burst each), and the median SM
    clock and power nvidia-smi sampled during its bursts."""
    times = {name: [] for name in calls}
    clocks, power = {name: [] for name in calls}, {name: [] for name in calls}
    for fn in calls.values():  # warm-up
        timed(fn, burst)
    for _ in range(repeats):  # interleaved: each repeat runs every system once
        for name, fn in calls.items():
            with Sampler() as s:
                times[name].append(timed(fn, burst))
            clocks[name] += s.clocks
            power[name] += s.power
    med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
    return {name: (statistics.median(times[name]), med(clocks[name]), med(power[name])) for name in calls}


def _triton_call(triton_run, ops: Operands, row: dict) -> Callable | None:
    """Triton's kernel on the operands (compiled here, its first compile timed), or None where it cannot run."""
    import torch
    fp8 = ops.dtype in FP8
    if triton_run is None or ops.k % (16 if fp8 else 8) or ops.n % 8:
        return None
    c_t = torch.empty(ops.m, ops.n, device="cuda", dtype=torch.bfloat16)
    t0 = time.perf_counter()
    try:
        triton_run(ops.a, ops.b, c_t)
        torch.cuda.synchronize()
    except Exception as err:
        row["triton_error"] = f"{type(err).__name__}: {str(err)[:200]}"
        return None
    row["triton_compile_ms"] = (time.perf_counter() - t0) * 1e3
    return lambda: (triton_run(ops.a, ops.b, c_t), c_t)[1]


def _classic_row(m: int, n: int, k: int, dtype: str, repeats: int, autotune: bool, triton_run,
                 rowwise: bool = False) -> dict:
    rowwise = rowwise and dtype in FP8
    row = {"m": m, "n": n, "k": k, "dtype": dtype, "rowwise": rowwise}
    ops = Operands.random(m, n, k, dtype, rowwise=rowwise)
    if autotune:
        t0 = time.perf_counter()
        gemm_autotune(m, n, k, dtype=dtype)
        row["autotune_s"] = time.perf_counter() - t0
    # what mmatom.gemm will pick: the autotuner's stored choice, else the prior's and its one-wave rule
    config = choose_config(m, n, k, dtype) if autotune else untuned_config(m, n, k, dtype, rowwise=rowwise,
                                                                           device=ops.a.get_device())
    row["config"] = config.name
    compile_row, kernel = _compile_times(dtype, config, out_dtype_of(dtype))
    row.update(compile_row, registers=kernel.metadata.registers, spill_bytes=kernel.metadata.spill_bytes)
    calls = {"mmatom": ops.mmatom_call(mmatom.gemm), **ops.vendor_calls()}
    if not rowwise and (triton := _triton_call(triton_run, ops, row)) is not None:  # the tutorial's: no scales
        calls["triton"] = triton
    row.update(max_rel_errors(calls))
    flops = 2.0 * m * n * k
    burst = Bursts(repeats, CLASSIC_BURST_MS).calls(flops / (CLASSIC_TFLOPS * 1e9))  # nvidia-smi samples it
    for name, (ms, clock, power) in _sampled_medians(calls, burst, repeats).items():
        row.update({f"{name}_ms": ms, f"{name}_tflops": flops / ms / 1e9, f"{name}_sm_clock_mhz": clock,
                    f"{name}_power_w": power})
    row["ratio_vs_cublas"] = row["mmatom_tflops"] / row["cublas_tflops"]
    if "cublas_padded_tflops" in row:
        row["ratio_vs_cublas_padded"] = row["mmatom_tflops"] / row["cublas_padded_tflops"]
    if "triton_tflops" in row:
        row["triton_ratio_vs_cublas"] = row["triton_tflops"] / row["cublas_tflops"]
    return row


def _classic_progress(row: dict, done: int, total: int) -> str:
    bar = "#" * (20 * done // total)
    return (f"[{bar:<20}] {done}/{total} {row['dtype']} {row['m']}x{row['n']}x{row['k']}: mmatom "
            f"{row['mmatom_tflops']:.0f} cuBLAS {row['cublas_tflops']:.0f} Triton "
            f"{row.get('triton_tflops', float('nan')):.0f} TFLOP/s ratio {row['ratio_vs_cublas']:.3f} clk "
            f"{row['mmatom_sm_clock_mhz']} MHz err {row['mmatom_max_rel_err']:.2e} compile "
            f"{row['mmatom_compile_cold_ms']:.0f}/{row['mmatom_compile_cached_ms']:.2f}/"
            f"{row['mmatom_compile_cached_loaded_ms']:.2f} ms {row['config']} triton "
            f"{row.get('triton_compile_ms', float('nan')):.0f} ms")


def _triton_or_error(systems) -> tuple:
    if "triton" not in systems:
        return None, None
    # Triton's first compile in this run is cold only with an empty cache dir (its default persists on disk)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="mmatom-bench-triton-"))
    try:
        return triton_matmul(), None
    except Exception as err:  # an older Triton without tensor descriptors: reported, not fatal
        return None, f"{type(err).__name__}: {err}"


def bench_gemm(shapes, dtypes=("bf16", "e4m3"), repeats: int = 5, out_dir: str | Path = "records",
               systems=("mmatom", "cublas", "triton"), quiet: bool = False, autotune: bool = False,
               rowwise: bool = False) -> dict:
    """Run the benchmark of the 19 shapes' kind; returns (and writes) the JSON record."""
    import torch
    torch.manual_seed(0)
    triton_run, triton_error = _triton_or_error(systems)
    rows, total = [], len(shapes) * len(dtypes)
    for dtype in dtypes:
        for m, n, k in shapes:
            rows.append(_classic_row(m, n, k, dtype, repeats, autotune, triton_run, rowwise))
            if not quiet:
                print(_classic_progress(rows[-1], len(rows), total), flush=True)
            torch.cuda.empty_cache()
    record = {**_device_record(), "triton_error": triton_error, "repeats": repeats, "rows": rows}
    for dtype in dtypes:
        ratios = [r["ratio_vs_cublas"] for r in rows if r["dtype"] == dtype]
        if ratios:
            record[f"geomean_ratio_{dtype}"] = statistics.geometric_mean(ratios)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = "gemm_bench_rowwise" if rowwise else "gemm_bench"
    (out / f"{name}.json").write_text(json.dumps(record, indent=1))
    _plot(record, out / f"{name}.png")
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


# --- the quick sets (sweep, decode): untuned and autotuned columns, short bursts -----------------------------------

def untuned_config(m: int, n: int, k: int, dtype: str, b_major: str = "k", a_major: str = "k",
                   rowwise: bool = False, device: int | None = None) -> GemmConfig:
    """The config an untuned mmatom.gemm call on the bench's contiguous operands runs (nothing stored): the prior's,
    or its 2x2-cluster variant where the host's one-wave rule takes it (choices.one_wave_clustered, on the calls
    host.call_clusters takes, with rows a full-speed pitch apart; the GPU `device` asked how many clusters it
    holds)."""
    import torch
    config = choices.prior_config(m, n, k, dtype, b_major, a_major)
    dtypes = choices.operand_dtypes(dtype)
    pitch = k * ELEM_BYTES[dtypes[0]]  # the bench's operands are contiguous: K's bytes are every row's pitch
    resident = call_clusters(dtypes, (a_major, b_major), out_dtype_of(dtype),
                             torch.cuda.current_device() if device is None else device, rowwise=rowwise,
                             unaligned=pitch % 16 != 0)
    if resident is None or pitch % FULL_SPEED_PITCH_BYTES:  # (an odd pitch: the host's prior prices it, no rule)
        return config
    return choices.one_wave_clustered(config, m, n, a_major, b_major, choices.sm_count(), resident)


@dataclass(frozen=True)
class Hooks:
    """What the quick bench calls: the GPU's by default; tests pass CPU stand-ins (a torch reference for the GEMM, a
    wall clock for the CUDA events)."""

    gemm: Callable = mmatom.gemm
    prior: Callable = untuned_config
    autotune: Callable = gemm_autotune
    clock: Callable = timed  # (fn, calls) -> mean ms per call
    device: str = "cuda"
    describe: Callable = _device_record
    sms: Callable = choices.sm_count


@dataclass(frozen=True)
class QuickPlan:
    """A quick set's run: its bursts, and the autotuner's phases when there is an autotuned column."""

    name: str
    shapes: list
    dtypes: tuple
    bursts: Bursts
    autotune: AutotunePlan | None = None
    notes: list = field(default_factory=list)
    rowwise: bool = False  # fp8 with rowwise scales, ours and the vendor's
    swap_ab: bool = False  # M <= 64: a column for the swapped-operand config
    b_major: str = "k"  # "n": B given K x N (`a @ b`), mmatom.gemm(b_major="n") against torch.matmul(a, b)

    @property
    def record_name(self) -> str:
        return f"gemm_bench_{self.name}{'_rowwise' * self.rowwise}{'_b_n_major' * (self.b_major == 'n')}"

    def estimate_s(self) -> float:
        systems = 2 + (self.autotune is not None)
        configs = len({c for counts in prior_picks(self.shapes, self.dtypes, b_major=self.b_major).values()
                       for c in counts})
        return estimate_seconds(self.shapes, self.dtypes, self.bursts, systems, self.autotune, configs=configs)


def interleaved_medians(calls: dict[str, Callable], bursts: Bursts, clock: Callable) -> dict[str, float]:
    """Each call's median ms per launch over `bursts.repeats` interleaved bursts (the clock moves with power),
    after a first call (a compile, a first load: not in any burst), a short burst that sizes its bursts and a
    warm-up burst."""
    counts = {}
    for name, fn in calls.items():
        fn()
        counts[name] = bursts.calls(clock(fn, bursts.min_calls))
        clock(fn, counts[name])
    times = {name: [] for name in calls}
    for _ in range(bursts.repeats):
        for name, fn in calls.items():
            times[name].append(clock(fn, counts[name]))
    return {name: statistics.median(t) for name, t in times.items()}


def quick_row(m: int, n: int, k: int, dtype: str, plan: QuickPlan, hooks: Hooks) -> dict:
    """One shape's untuned (the prior's config) and autotuned times against cuBLAS's (microseconds per call), the
    configs and the max errors."""
    rowwise = plan.rowwise and dtype in FP8
    ops = Operands.random(m, n, k, dtype, hooks.device, rowwise, plan.b_major)
    # untuned: mmatom.gemm's own choice (config=None, as a user's call: the prior where nothing is stored -- with odd
    # rows, its realigning split-K variant where that pays, host._realigning_variant); the row names the prior's
    # (untuned_config: with its one-wave 2x2-cluster rule)
    configs = {"mmatom": None}
    majors = {"b_major": "n"} if plan.b_major == "n" else {}
    row = {"m": m, "n": n, "k": k, "dtype": dtype, "rowwise": rowwise,
           "prior": hooks.prior(m, n, k, dtype, **majors, **({"rowwise": True} if rowwise else {})).name, **majors}
    if plan.autotune is not None:
        t0 = time.perf_counter()
        configs["mmatom_tuned"] = hooks.autotune(m, n, k, dtype=dtype, store=False, **plan.autotune.kwargs())
        row.update(tuned=configs["mmatom_tuned"].name, autotune_s=time.perf_counter() - t0)
    if plan.swap_ab and m <= SWAP_AB_CONFIGS[-1].block_n:
        configs["mmatom_swap_ab"] = next(c for c in SWAP_AB_CONFIGS if c.block_n >= m)
        row["swap_ab"] = configs["mmatom_swap_ab"].name
    calls = {name: ops.mmatom_call(hooks.gemm, config) for name, config in configs.items()}
    calls.update(ops.vendor_calls())
    row.update(max_rel_errors(calls))
    times = interleaved_medians(calls, plan.bursts, hooks.clock)
    row.update({f"{name}_us": ms * 1e3 for name, ms in times.items()})
    row["ratio_untuned"] = times["cublas"] / times["mmatom"]  # speed: above 1, mmatom is faster
    if "mmatom_tuned" in times:
        row["ratio_tuned"] = times["cublas"] / times["mmatom_tuned"]
    if "mmatom_swap_ab" in times:
        row["ratio_swap_ab"] = times["cublas"] / times["mmatom_swap_ab"]
    if "cublas_padded" in times:
        row["ratio_untuned_vs_padded"] = times["cublas_padded"] / times["mmatom"]
    return row


def _quick_progress(row: dict, done: int, total: int) -> str:
    tuned = f" tuned {row['tuned']} {row['mmatom_tuned_us']:.1f} us {row['ratio_tuned']:.3f}x," if "tuned" in row \
        else ""
    return (f"[{done}/{total}] {row['dtype']} {row['m']}x{row['n']}x{row['k']}: untuned {row['prior']} "
            f"{row['mmatom_us']:.1f} us {row['ratio_untuned']:.3f}x,{tuned} cuBLAS {row['cublas_us']:.1f} us, "
            f"err {row['mmatom_max_rel_err']:.1e}")


def prior_rule(sms: int) -> dict:
    """The prior as the record keeps it: the function, its rule, the fitted table it reads."""
    return {"function": "mmatom.kernels.gemm.choices.prior_config",
            "doc": " ".join(choices.prior_config.__doc__.split()),
            "one_wave_clusters": " ".join(choices.one_wave_clustered.__doc__.split()),
            "sms": sms, "row64_max_m": getattr(choices, "ROW64_MAX_M", None),
            "cost_model": getattr(choices, "COST_MODEL", None)}


def bench_quick(plan: QuickPlan, out_dir: str | Path = "records", hooks: Hooks = Hooks(), quiet: bool = False) -> dict:
    """Time a quick set; returns (and writes: gemm_bench_<set>.json, .png) its record with the summary."""
    rows, total = [], len(plan.shapes) * len(plan.dtypes)
    for dtype in plan.dtypes:
        for m, n, k in plan.shapes:
            rows.append(quick_row(m, n, k, dtype, plan, hooks))
            if not quiet:
                print(_quick_progress(rows[-1], len(rows), total), flush=True)
    timing = {"repeats": plan.bursts.repeats, "burst_ms": plan.bursts.burst_ms, "notes": plan.notes}
    record = {**hooks.describe(), "set": plan.name, "timing": timing,
              "autotune": plan.autotune.kwargs() if plan.autotune else None, "prior_rule": prior_rule(hooks.sms()),
              "summary": summarize(rows), "rows": rows}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{plan.record_name}.json").write_text(json.dumps(record, indent=1))
    plot_ratios(record, out / f"{plan.record_name}.png")
    return record


# --- the command line ------------------------------------------------------------------------------------------------

def quick_plan(name: str, args: argparse.Namespace) -> QuickPlan:
    bursts = QUICK_TIMING[name]
    bursts = replace(bursts, repeats=args.quick_repeats or bursts.repeats,
                     burst_ms=args.quick_burst_ms or bursts.burst_ms)
    notes = [f"{bursts.repeats} interleaved bursts of ~{bursts.burst_ms:g} ms per system, shorter than the 19 "
             f"shapes' {args.repeats} of ~{CLASSIC_BURST_MS:g} ms; no clock/power sampling"]
    if args.autotune:
        notes.append(f"autotuned with shorter phases than gemm_autotune's defaults: {SWEEP_AUTOTUNE.kwargs()}; "
                     f"the choice not stored")
    if args.rowwise:
        notes.append("fp8 with rowwise scales (M, 1) and (1, N), mmatom.gemm and torch._scaled_mm alike")
    if args.b_major == "n":
        notes.append("B given K x N (`a @ b`): mmatom.gemm(a, b, b_major='n') against torch.matmul(a, b)")
    return QuickPlan(name, shapes_of(name, args.sweep_count), args.dtypes, bursts,
                     SWEEP_AUTOTUNE if args.autotune else None, notes, args.rowwise, args.swap_ab, args.b_major)


def classic_estimate_s(shapes, args: argparse.Namespace) -> float:
    """The 19 shapes' kind: three systems in ~200 ms bursts, nvidia-smi started per burst (~0.1 s), compile times."""
    per_shape = 0.4 + 3 * args.repeats * 0.1
    return estimate_seconds(shapes, args.dtypes, Bursts(args.repeats, CLASSIC_BURST_MS), 3,
                            AutotunePlan() if args.autotune else None, per_shape_s=per_shape)


def _positive_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}; a positive number of milliseconds")
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mmatom-bench", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gemm", help="mmatom.gemm vs cuBLAS and Triton")
    g.add_argument("--shapes", default=("squares", "llm", "small", "odd"), type=_comma_list(SET_NAMES, "shape set"),
                   help=f"comma list of {', '.join(SET_NAMES)}")
    g.add_argument("--dtypes", default=("bf16", "e4m3"), type=_comma_list(DTYPES, "dtype"),
                   help=f"comma list of {', '.join(DTYPES)}")
    g.add_argument("--repeats", type=_positive, default=5, help="the 19 shapes: bursts of ~200 ms per system")
    g.add_argument("--sweep-count", type=_positive, default=SWEEP_COUNT, help="shapes in the sweep set")
    g.add_argument("--quick-repeats", type=_positive, default=None,
                   help=f"sweep / decode: bursts per system (default {QUICK_TIMING['sweep'].repeats} / "
                        f"{QUICK_TIMING['decode'].repeats})")
    g.add_argument("--quick-burst-ms", type=_positive_ms, default=None,
                   help=f"sweep / decode: burst length (default {QUICK_TIMING['sweep'].burst_ms:g} / "
                        f"{QUICK_TIMING['decode'].burst_ms:g} ms)")
    g.add_argument("--out", default="records")
    g.add_argument("--autotune", action="store_true", help="an autotuned time too (the 19 shapes: tune first, store)")
    g.add_argument("--rowwise", action="store_true", help="fp8: rowwise scales (scale_a of M, scale_b of N), "
                                                         "ours and torch._scaled_mm's; 16-bit dtypes unchanged")
    g.add_argument("--swap-ab", action="store_true", help="sweep / decode: a column for the swapped-operand config "
                                                         "on shapes with M <= 64")
    g.add_argument("--b-major", default="k", choices=("k", "n"),
                   help="sweep / decode: B given N x K (k, F.linear's weight) or K x N (n, as `a @ b` passes it: "
                        "against torch.matmul(a, b); 16-bit dtypes)")
    g.add_argument("--dry-run", action="store_true", help="print the plan, the expected time and the prior's picks "
                                                         f"(on {H100_SMS} SMs); no GPU")
    mmatom_bench_attention.add_parser(sub)
    return p


def plan_lines(args: argparse.Namespace) -> list[str]:
    """What a run of `args` will do and about how long it takes on an H100."""
    lines, total = [], 0.0
    classic = [s for name in args.shapes if name not in QUICK_SETS for s in SHAPE_SETS[name]]
    if classic:
        seconds = classic_estimate_s(classic, args)
        total += seconds
        lines.append(f"{'+'.join(n for n in args.shapes if n not in QUICK_SETS)}: {len(classic)} shapes x "
                     f"{len(args.dtypes)} dtypes, {args.repeats} bursts of ~{CLASSIC_BURST_MS:g} ms per system; "
                     f"expected ~{seconds / 60:.1f} min")
    for name in (n for n in args.shapes if n in QUICK_SETS):
        plan = quick_plan(name, args)
        total += plan.estimate_s()
        lines.append(f"{name}: {len(plan.shapes)} shapes x {len(plan.dtypes)} dtypes "
                     f"({'untuned and autotuned' if plan.autotune else 'untuned'}); {'; '.join(plan.notes)}; "
                     f"expected ~{plan.estimate_s() / 60:.1f} min")
    lines.append(f"expected run time on an H100: ~{total / 60:.1f} min (mmatom_bench_shapes.estimate_seconds)")
    return lines


H100_DRAM_BYTES_PER_US = 3.35e6  # HBM3 at its peak: what the dry run's prior assumes without a GPU to ask


def prior_picks(shapes, dtypes, sms: int = H100_SMS, b_major: str = "k") -> dict[str, dict[str, int]]:
    """How often the prior picks each config over `shapes`, per dtype (on an H100's SMs and DRAM), B read
    `b_major`."""
    picks: dict[str, dict[str, int]] = {}
    for dtype in dtypes:
        counts = picks.setdefault(dtype, {})
        for m, n, k in shapes:
            name = choices.prior_config(m, n, k, dtype, b_major, sms=sms, bandwidth=H100_DRAM_BYTES_PER_US).name
            counts[name] = counts.get(name, 0) + 1
    return picks


def main(argv: list[str] | None = None) -> int:
    cli = parser()
    args = cli.parse_args(argv)
    if args.what == "attention":
        return mmatom_bench_attention.main(args)
    if args.b_major == "n" and (set(args.dtypes) & set(FP8) or set(args.shapes) - set(QUICK_SETS) or args.autotune):
        cli.error(f"--b-major n: the sweep / decode sets in 16-bit dtypes, untuned (fp8 wgmma reads B K-major; the "
                  f"autotuner times K-major operands); got shapes {','.join(args.shapes)}, dtypes "
                  f"{','.join(args.dtypes)}{', --autotune' * args.autotune}")
    for line in plan_lines(args):
        print(line, flush=True)
    if args.dry_run:
        for name in args.shapes:
            for dtype, counts in prior_picks(shapes_of(name, args.sweep_count), args.dtypes,
                                             b_major=args.b_major).items():
                ranked = sorted(counts.items(), key=lambda item: -item[1])
                print(f"{name} {dtype} prior picks: " + ", ".join(f"{config} {times}" for config, times in ranked))
        return 0
    classic = [s for name in args.shapes if name not in QUICK_SETS for s in SHAPE_SETS[name]]
    if classic:
        record = bench_gemm(classic, args.dtypes, args.repeats, args.out, autotune=args.autotune,
                            rowwise=args.rowwise)
        for key, value in record.items():
            if key.startswith("geomean"):
                print(f"{key}: {value:.3f}")
    for name in (n for n in args.shapes if n in QUICK_SETS):
        record = bench_quick(quick_plan(name, args), args.out)
        for line in [f"{name}: {record['timing']['notes'][0]}"] + summary_lines(record["summary"]):
            print(line, flush=True)
    return 0


def entry() -> None:
    restore_sigpipe()
    sys.exit(main())


__all__ = ["Hooks", "Operands", "QuickPlan", "SHAPE_SETS", "bench_gemm", "bench_quick", "interleaved_medians", "main",
           "parser", "plan_lines", "quick_row", "timed"]


if __name__ == "__main__":
    entry()
