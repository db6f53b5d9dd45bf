"""mmatom-bench attention: mmatom.attention against torch SDPA's cuDNN and flash backends (and flash_attn's
flash_attn_func where that package is installed), in one process, interleaved, on random inputs.

    mmatom-bench attention [--shapes issue,causal,d256,gqa,short,few,decode] [--dtypes bf16,f16] [--repeats 5]
                           [--out records/]
                           [--dry-run]

Per shape and system: the median of `repeats` interleaved bursts of ~BURST_MS (each the mean of its launches between
two CUDA events, after a warm-up burst), TFLOP/s (4 B H Sq Sk D, halved for causal), the ratio of mmatom's speed to
each other system's, the max abs error of each system against a float32 reference (explicit matmuls,
mmatom.kernels.attention.reference), and the SM clock and board power nvidia-smi sampled during that system's bursts.
Per (dtype, head dim, mask) once: mmatom's compile time, module -> loaded kernel, cold (an empty cache) and cached (as
a fresh process finds it: the compile cache on disk). A system that refuses a shape (a backend without GQA, say) is
recorded with its error; one not installed is named in the record's `absent`. Writes attention_bench.json and
attention_bench.png under --out. `--dry-run` prints the plan and the expected time, and needs no GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import mmatom
from mmatom import compile_cache
from mmatom.kernels.attention import attention_kernel, forget_kernels
from mmatom.kernels.attention.checks import Problem
from mmatom.kernels.attention.reference import attention_reference
from mmatom.targets import runtime

from .mmatom_bench_common import Sampler, comma_list, device_record, positive, timed
from .mmatom_bench_shapes import Bursts

DTYPES = ("bf16", "f16")
SYSTEMS = ("mmatom", "cudnn", "flash", "flash_attn")  # flash: torch SDPA's FlashAttention-2 backend
BURST_MS, EXPECTED_TFLOPS = 100.0, 500.0  # bursts of ~100 ms at about cuDNN's rate


@dataclass(frozen=True)
class Shape:
    """One benchmarked problem: Sq = seqlen queries against Sk = seqlen_k keys (by default seqlen), H query heads over
    Hkv KV heads. Sq != Sk only without the mask: torch SDPA aligns a causal mask top-left, FlashAttention (and
    mmatom) bottom-right."""

    batch: int
    heads: int
    kv_heads: int
    seqlen: int
    head_dim: int
    causal: bool = False
    seqlen_k: int | None = None

    def __post_init__(self):
        if self.causal and self.seqlen_k not in (None, self.seqlen):
            raise ValueError(f"bench shape {self}: a causal shape has Sq = Sk (SDPA's causal mask is top-left)")

    @property
    def keys(self) -> int:
        return self.seqlen if self.seqlen_k is None else self.seqlen_k

    @property
    def label(self) -> str:
        heads = f"{self.heads}/{self.kv_heads}" if self.kv_heads != self.heads else f"{self.heads}"
        length = f"{self.seqlen}" if self.keys == self.seqlen else f"q{self.seqlen}k{self.keys}"
        return f"{self.batch}x{heads}x{length} d{self.head_dim}{' causal' if self.causal else ''}"

    def problem(self, dtype: str) -> Problem:
        return Problem(dtype, self.batch, self.seqlen, self.keys, self.heads, self.kv_heads, self.head_dim)

    def flops(self) -> float:
        return self.problem("bf16").flops(self.causal)


SHAPE_SETS = {
    # issue 25's table (cuDNN and FA2 measured there)
    "issue": [Shape(4, 16, 16, 4096, 128), Shape(2, 16, 16, 8192, 128), Shape(2, 16, 16, 8192, 128, True),
              Shape(4, 32, 32, 4096, 64), Shape(1, 16, 16, 16384, 128)],
    "causal": [Shape(4, 16, 16, 4096, 128, True), Shape(4, 32, 32, 4096, 64, True), Shape(1, 16, 16, 16384, 128, True)],
    "d256": [Shape(4, 16, 16, 4096, 256), Shape(4, 16, 16, 4096, 256, True)],
    "gqa": [Shape(4, 32, 8, 4096, 128), Shape(4, 32, 8, 4096, 128, True)],
    "short": [Shape(16, 16, 16, 512, 128), Shape(16, 16, 16, 512, 128, True), Shape(8, 16, 16, 1024, 128),
              Shape(8, 16, 16, 1024, 128, True)],
    # fewer tiles than SMs against long keys (decoding, prefill chunks): mmatom splits the KV blocks over the SMs
    "few": [Shape(1, 8, 8, 128, 128, seqlen_k=32768), Shape(2, 16, 16, 256, 128, seqlen_k=16384),
            Shape(4, 32, 8, 64, 128, seqlen_k=8192), Shape(1, 16, 16, 200, 256, seqlen_k=20000)],
    # GQA decoding and short queries: mmatom packs a group's query heads into a tile (config.choose_tiles)
    "decode": [Shape(1, 32, 8, 1, 128, seqlen_k=65536), Shape(8, 32, 8, 1, 128, seqlen_k=8192),
               Shape(16, 64, 8, 1, 128, seqlen_k=4096), Shape(8, 32, 4, 1, 64, seqlen_k=16384),
               Shape(2, 16, 2, 1, 256, seqlen_k=32768), Shape(4, 32, 8, 4, 128, seqlen_k=16384),
               Shape(1, 64, 8, 16, 128, seqlen_k=32768)],
}
SET_NAMES = tuple(SHAPE_SETS)


# --- the systems -------------------------------------------------------------------------------------------------------

@dataclass
class Inputs:
    """One shape's random q, k, v (B, S, H, D) on the GPU and what the systems are called with."""

    shape: Shape
    q: object
    k: object
    v: object

    @classmethod
    def random(cls, shape: Shape, dtype: str) -> Inputs:
        import torch
        t = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
        q, k, v = (torch.randn(shape.batch, length, h, shape.head_dim, device="cuda").to(t)
                   for length, h in ((shape.seqlen, shape.heads), (shape.keys, shape.kv_heads),
                                     (shape.keys, shape.kv_heads)))
        return cls(shape, q, k, v)

    def calls(self, flash_attn_func) -> dict[str, Callable]:
        """Each system's call, returning o (B, S, H, D)."""
        q, k, v, causal = self.q, self.k, self.v, self.shape.causal
        calls = {"mmatom": lambda: mmatom.attention(q, k, v, causal=causal),
                 "cudnn": self._sdpa("CUDNN_ATTENTION"), "flash": self._sdpa("FLASH_ATTENTION")}
        if flash_attn_func is not None:
            calls["flash_attn"] = lambda: flash_attn_func(q, k, v, causal=causal)
        return calls

    def _sdpa(self, backend: str) -> Callable:
        """torch SDPA restricted to one backend, on (B, H, S, D) views of the same tensors (no copies); GQA through
        enable_gqa. The backend's context is entered per call (microseconds: inside the timing, as a user pays it)."""
        import torch
        from torch.nn.attention import SDPBackend, sdpa_kernel
        sdpa, chosen = torch.nn.functional.scaled_dot_product_attention, getattr(SDPBackend, backend)
        qt, kt, vt = (x.transpose(1, 2) for x in (self.q, self.k, self.v))
        gqa = {"enable_gqa": True} if self.shape.kv_heads != self.shape.heads else {}

        def call():
            with sdpa_kernel(chosen):
                return sdpa(qt, kt, vt, is_causal=self.shape.causal, **gqa).transpose(1, 2)
        return call


def flash_attn_or_absent() -> tuple[Callable | None, str | None]:
    """flash_attn's flash_attn_func (FA3's flash_attn_interface first), or why it is absent."""
    for module in ("flash_attn_interface", "flash_attn"):
        try:
            return getattr(__import__(module), "flash_attn_func"), None
        except (ImportError, AttributeError) as err:
            reason = f"{type(err).__name__}: {err}"
    return None, f"flash_attn not importable ({reason})"


def checked_calls(inputs: Inputs, calls: dict[str, Callable], row: dict) -> dict[str, Callable]:
    """The calls that run on this shape, each run once and its max abs error against the float32 reference
    recorded; a refusal recorded as `<system>_error`."""
    import torch
    ref, _ = attention_reference(inputs.q, inputs.k, inputs.v, causal=inputs.shape.causal)
    row["ref_max_abs"] = ref.abs().max().item()
    kept = {}
    for name, fn in calls.items():
        try:
            o = fn()
            if o.is_cuda:  # a backend's asynchronous failure surfaces here
                torch.cuda.synchronize()
        except Exception as err:  # a backend that does not take the shape: reported, not fatal
            row[f"{name}_error"] = f"{type(err).__name__}: {str(err)[:300]}"
            continue
        row[f"{name}_max_abs_err"] = (o.float() - ref).abs().max().item()
        kept[name] = fn
    del ref
    return kept


# --- timing ------------------------------------------------------------------------------------------------------------

def interleaved_times(calls: dict[str, Callable], bursts: Bursts) -> dict[str, tuple]:
    """Per system: (median ms per call, median SM clock MHz, median power W) over `bursts.repeats` interleaved bursts,
    each sized from a short first burst, after a warm-up burst."""
    counts = {name: bursts.calls(timed(fn, bursts.min_calls)) for name, fn in calls.items()}
    for name, fn in calls.items():
        timed(fn, counts[name])
    times, clocks, power = ({name: [] for name in calls} for _ in range(3))
    for _ in range(bursts.repeats):
        for name, fn in calls.items():
            with Sampler() as s:
                times[name].append(timed(fn, counts[name]))
            clocks[name] += s.clocks
            power[name] += s.power
    med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
    return {name: (statistics.median(times[name]), med(clocks[name]), med(power[name])) for name in calls}


def compile_times(dtype: str, head_dim: int, causal: bool) -> dict:
    """mmatom's module -> loaded kernel: cold (an empty compile cache: build, lower, emit, JIT, load) and cached (the
    compile cache read from disk by the generator's key, the kernel loaded), in ms; its registers and spills."""
    row = {}
    saved = os.environ.get("MMATOM_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MMATOM_CACHE_DIR"] = tmp
        try:
            for phase in ("cold", "cached"):
                forget_kernels()
                compile_cache.CACHE.memory.clear()
                t0 = time.perf_counter()
                kernel = attention_kernel(dtype, head_dim, causal)
                runtime.Module(kernel.ptx, label=kernel.name, digest=kernel.digest).function(kernel.name)
                row[f"mmatom_compile_{phase}_ms"] = (time.perf_counter() - t0) * 1e3
        finally:
            os.environ.pop("MMATOM_CACHE_DIR") if saved is None else os.environ.update(MMATOM_CACHE_DIR=saved)
    meta = kernel.metadata
    return {**row, "registers": meta.registers, "spill_bytes": meta.spill_bytes, "ptxas_notes": list(meta.warnings)}


# --- one shape, the run, its record ------------------------------------------------------------------------------------

def bench_row(shape: Shape, dtype: str, repeats: int, flash_attn_func, compiled: dict) -> dict:
    """One shape's record: errors, each system's time, TFLOP/s, clock and power, mmatom's ratios and compile times."""
    row = {"dtype": dtype, **asdict(shape), "label": shape.label, "flops": shape.flops()}
    key = (dtype, shape.head_dim, shape.causal)
    if key not in compiled:
        compiled[key] = compile_times(*key)
    row.update(compiled[key])
    inputs = Inputs.random(shape, dtype)
    calls = checked_calls(inputs, inputs.calls(flash_attn_func), row)
    burst = Bursts(repeats, BURST_MS)
    for name, (ms, clock, power) in interleaved_times(calls, burst).items():
        row.update({f"{name}_ms": ms, f"{name}_tflops": shape.flops() / ms / 1e9, f"{name}_sm_clock_mhz": clock,
                    f"{name}_power_w": power})
    for other in SYSTEMS[1:]:
        if "mmatom_ms" in row and f"{other}_ms" in row:
            row[f"ratio_vs_{other}"] = row[f"{other}_ms"] / row["mmatom_ms"]  # speed: above 1, mmatom is faster
    return row


def progress(row: dict, done: int, total: int) -> str:
    systems = ", ".join(f"{s} {row[f'{s}_tflops']:.0f}" for s in SYSTEMS if f"{s}_tflops" in row)
    ratios = ", ".join(f"{k.removeprefix('ratio_vs_')} {v:.3f}x" for k, v in row.items() if k.startswith("ratio_vs_"))
    errors = ", ".join(f"{s} {row[f'{s}_max_abs_err']:.1e}" for s in SYSTEMS if f"{s}_max_abs_err" in row)
    return (f"[{done}/{total}] {row['dtype']} {row['label']}: TFLOP/s {systems}; mmatom vs {ratios or '-'}; "
            f"clk {row.get('mmatom_sm_clock_mhz')} MHz; max abs err {errors}; compile "
            f"{row['mmatom_compile_cold_ms']:.0f} / {row['mmatom_compile_cached_ms']:.1f} ms")


def summary(rows: list[dict]) -> dict:
    """Per dtype and other system: the geomean of mmatom's speed ratio and the slowest shape."""
    out = {}
    for dtype in dict.fromkeys(r["dtype"] for r in rows):
        for other in SYSTEMS[1:]:
            ratios = [(r[f"ratio_vs_{other}"], r["label"]) for r in rows if r["dtype"] == dtype
                      and f"ratio_vs_{other}" in r]
            if ratios:
                worst = min(ratios)
                out[f"{dtype}_vs_{other}"] = {"count": len(ratios), "geomean": statistics.geometric_mean(
                    r for r, _ in ratios), "worst": {"shape": worst[1], "ratio": worst[0]}}
    return out


def bench_attention(shapes: list[Shape], dtypes=("bf16",), repeats: int = 5, out_dir: str | Path = "records",
                    quiet: bool = False) -> dict:
    """Run the benchmark; returns (and writes: attention_bench.json, .png under out_dir) its record."""
    import torch
    torch.manual_seed(0)
    flash_attn_func, absent = flash_attn_or_absent()
    rows, compiled, total = [], {}, len(shapes) * len(dtypes)
    for dtype in dtypes:
        for shape in shapes:
            rows.append(bench_row(shape, dtype, repeats, flash_attn_func, compiled))
            if not quiet:
                print(progress(rows[-1], len(rows), total), flush=True)
            torch.cuda.empty_cache()
    record = {**device_record(), "absent": [absent] if absent else [], "repeats": repeats, "burst_ms": BURST_MS,
              "summary": summary(rows), "rows": rows}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "attention_bench.json").write_text(json.dumps(record, indent=1))
    plot(record, out / "attention_bench.png")
    return record


def plot(record: dict, path: Path) -> bool:
    """TFLOP/s per shape, a bar per system; False when matplotlib is not installed (the JSON has every figure)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = record["rows"]
    systems = [s for s in SYSTEMS if any(f"{s}_tflops" in r for r in rows)]
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.8), 5))
    width = 0.8 / max(1, len(systems))
    for i, s in enumerate(systems):
        ax.bar([x + i * width for x in range(len(rows))], [r.get(f"{s}_tflops", 0) for r in rows], width, label=s)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(rows))], [f"{r['dtype']} {r['label']}" for r in rows],
                  rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("TFLOP/s (4 B H Sq Sk D, causal halved)")
    ax.set_title(f"Attention forward on {record['device']} ({record['date']}; medians of {record['repeats']} "
                 f"interleaved bursts)", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# --- the command line --------------------------------------------------------------------------------------------------

def add_parser(sub) -> None:
    """`mmatom-bench attention`'s arguments, under mmatom-bench's subcommands."""
    a = sub.add_parser("attention", help="mmatom.attention vs torch SDPA (cuDNN, flash) and flash_attn")
    a.add_argument("--shapes", default=SET_NAMES, type=comma_list(SET_NAMES, "shape set"),
                   help=f"comma list of {', '.join(SET_NAMES)}")
    a.add_argument("--dtypes", default=("bf16",), type=comma_list(DTYPES, "dtype"),
                   help=f"comma list of {', '.join(DTYPES)}")
    a.add_argument("--repeats", type=positive, default=5, help=f"interleaved bursts of ~{BURST_MS:g} ms per system")
    a.add_argument("--out", default="records")
    a.add_argument("--dry-run", action="store_true", help="print the plan and the expected time; no GPU")


def shapes_of(names) -> list[Shape]:
    return [shape for name in names for shape in SHAPE_SETS[name]]


def estimate_seconds(shapes: list[Shape], dtypes, repeats: int) -> float:
    """The run's expected time on an H100: per shape and dtype, four systems' calibration, warm-up and timed bursts
    (and nvidia-smi started per burst, ~0.1 s), the reference and inputs (~1 s); a cold and a cached compile (~1 s)
    per (dtype, head dim, mask)."""
    per_shape = 4 * ((1 + repeats) * (BURST_MS / 1e3 + 0.1)) + 1.0
    kernels = len({(d, s.head_dim, s.causal) for d in dtypes for s in shapes})
    return len(shapes) * len(dtypes) * per_shape + kernels * 1.0


def plan_lines(args: argparse.Namespace) -> list[str]:
    shapes = shapes_of(args.shapes)
    lines = [f"{name}: {', '.join(s.label for s in SHAPE_SETS[name])}" for name in args.shapes]
    lines.append(f"{len(shapes)} shapes x {len(args.dtypes)} dtypes ({', '.join(args.dtypes)}); systems "
                 f"{', '.join(SYSTEMS)} (flash_attn where installed); {args.repeats} interleaved bursts of "
                 f"~{BURST_MS:g} ms per system; writes {Path(args.out) / 'attention_bench.json'} and .png")
    lines.append(f"expected run time on an H100: ~{estimate_seconds(shapes, args.dtypes, args.repeats) / 60:.1f} min")
    return lines


def main(args: argparse.Namespace) -> int:
    for line in plan_lines(args):
        print(line, flush=True)
    if args.dry_run:
        return 0
    record = bench_attention(shapes_of(args.shapes), args.dtypes, args.repeats, args.out)
    for name, s in record["summary"].items():
        print(f"{name}: geomean {s['geomean']:.3f}x over {s['count']} shapes; worst {s['worst']['shape']} "
              f"{s['worst']['ratio']:.3f}x", flush=True)
    if record["absent"]:
        print("absent: " + "; ".join(record["absent"]), flush=True)
    return 0


__all__ = ["SET_NAMES", "SHAPE_SETS", "SYSTEMS", "Inputs", "Shape", "add_parser", "bench_attention", "bench_row",
           "main", "plan_lines", "summary"]
