"""mmatom-bench without a GPU: the shape sets (one seeded definition of the sweep), the run-time estimate, the
summary maths on made-up timings, the command line, and -- with torch on the CPU, skipped without it -- the quick
bench's whole path with a torch reference for the GEMM and a wall clock for the CUDA events."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest

from mmatom.kernels.gemm import CONFIGS
from mmatom.tools import mmatom_bench as bench
from mmatom.tools.mmatom_bench_report import ratio_summary, summarize, summary_lines
from mmatom.tools.mmatom_bench_shapes import (BATCHES, DECODE_M, LLM_PAIRS, PROJECTIONS, AutotunePlan, Bursts,
                                              estimate_seconds, shapes_of, sweep_shapes)

RECORDED_SWEEP = Path(__file__).resolve().parents[3] / "records" / "sweep-2026-11-26-h200" / "gemm_sweep.json"


# --- shape sets ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [0, 1, 17, 150, 300, 500])
def test_the_sweep_has_the_count_asked_for_and_is_deterministic(count):
    shapes = sweep_shapes(count)
    assert len(shapes) == count and shapes == sweep_shapes(count)
    assert len(set(shapes)) >= count - 2  # random draws may repeat a shape, rarely


def test_a_smaller_sweep_is_part_of_a_larger_one():
    small, large = set(sweep_shapes(150)), set(sweep_shapes(300))
    assert small <= large and sweep_shapes(300, seed=7) != sweep_shapes(300)


def test_the_sweep_spans_the_issues_ranges():
    shapes = sweep_shapes(300)
    assert all(1 <= m <= 16384 and 256 <= n <= 28672 and 256 <= k <= 28672 for m, n, k in shapes)
    ms = {m for m, _, _ in shapes}
    assert {1, 16384} <= ms and len(ms) > 100
    aligned = [s for s in shapes if all(x % 64 == 0 for x in s)]
    odd = [s for s in shapes if s[2] % 8 or s[1] % 8]  # rows of bf16 A or B that are not 16-byte multiples
    assert len(aligned) > 100 and len(odd) > 50
    models = [s for s in shapes if s[1:] in PROJECTIONS and s[0] in BATCHES]
    assert len(models) >= 150


def test_every_prefix_of_the_model_shapes_covers_every_batch():
    for count in (18, 40):  # half of them model shapes, dealt round-robin over the batch sizes
        assert {m for m, n, k in sweep_shapes(count)[: count // 2]} == set(BATCHES)


def test_the_random_shapes_are_the_recorded_sweeps():
    """The first recorded sweep (99 model shapes, then 60 random ones) drew its random shapes as sweep_shapes does:
    the random part of the one definition reproduces it."""
    rows = [(r["m"], r["n"], r["k"]) for r in json.loads(RECORDED_SWEEP.read_text()) if r["dtype"] == "bf16"]
    count = 2 * len(PROJECTIONS) * len(BATCHES) + 60
    assert sweep_shapes(count)[len(PROJECTIONS) * len(BATCHES):][:60] == rows[99:]


def test_the_decode_set():
    shapes = shapes_of("decode")
    assert len(shapes) == 25 and {m for m, _, _ in shapes} == set(DECODE_M)
    assert {(n, k) for _, n, k in shapes} == set(LLM_PAIRS)
    assert len(shapes_of("squares")) + len(shapes_of("llm")) + len(shapes_of("small")) + len(shapes_of("odd")) == 19
    with pytest.raises(ValueError, match="shape set 'swep'; one of squares, llm, small, odd, decode, sweep"):
        shapes_of("swep")


def test_the_estimate_grows_with_shapes_bursts_and_tuning():
    shapes = sweep_shapes(150)
    quick = Bursts(repeats=3, burst_ms=10.0)
    base = estimate_seconds(shapes, ("bf16",), quick, 2)
    assert estimate_seconds(sweep_shapes(300), ("bf16",), quick, 2) > 1.8 * base - 1
    assert estimate_seconds(shapes, ("bf16", "e4m3"), quick, 2) > 1.9 * base
    assert estimate_seconds(shapes, ("bf16",), quick, 3, AutotunePlan(rounds=3, burst_ms=5.0)) > 3 * base
    assert 10 < base < 300  # 150 short-burst shapes: seconds to minutes, not hours


def test_a_burst_is_sized_by_the_call():
    bursts = Bursts(repeats=3, burst_ms=10.0)
    assert bursts.calls(0.01) == 1000 and bursts.calls(1e-9) == 2000 and bursts.calls(50.0) == 3


# --- summary maths ---------------------------------------------------------------------------------------------------

def _row(m, ratio, tuned=None, dtype="bf16"):
    row = {"m": m, "n": 64, "k": 32, "dtype": dtype, "prior": "128x256x4", "ratio_untuned": ratio}
    if tuned is not None:
        row.update(ratio_tuned=tuned, tuned="128x128x6w1")
    return row


def test_the_summary_of_made_up_ratios():
    rows = [_row(1, 0.5, 0.95), _row(2, 2.0, 2.0), _row(3, 0.85, 0.91), _row(4, 1.0, 1.0), _row(5, 0.9, 1.2, "f16")]
    summary = summarize(rows)
    assert list(summary) == ["bf16", "f16"]
    untuned, tuned = summary["bf16"]["untuned"], summary["bf16"]["autotuned"]
    assert untuned["count"] == 4 and math.isclose(untuned["geomean"], (0.5 * 2.0 * 0.85 * 1.0) ** 0.25)
    assert [b["shape"] for b in untuned["below_floor"]] == ["1x64x32", "3x64x32"]  # slowest first
    assert untuned["worst"] == {"shape": "1x64x32", "ratio": 0.5, "config": "128x256x4"}
    assert tuned["below_floor"] == [] and tuned["worst"]["config"] == "128x128x6w1"
    assert summary["f16"]["untuned"]["below_floor"] == []  # 0.90 itself is not below 0.90


def test_a_column_no_row_has_is_left_out():
    summary = summarize([_row(1, 1.1), _row(2, 0.7)])
    assert list(summary["bf16"]) == ["untuned"] and ratio_summary([_row(1, 1.0)], "ratio_tuned") is None


def test_the_summary_lines_name_geomean_count_and_the_shapes_below():
    lines = summary_lines(summarize([_row(m, 0.5 + m / 100) for m in range(1, 20)]), listed=3)
    assert lines[0].startswith("bf16 untuned: geomean 0.5") and "19 below 0.90x; worst 1x64x32 0.510x" in lines[0]
    assert lines[1] == "  below 0.90x: 1x64x32 0.510, 2x64x32 0.520, 3x64x32 0.530 (+16 more)"


# --- the command line ------------------------------------------------------------------------------------------------

def test_the_arguments():
    args = bench.parser().parse_args(["gemm", "--shapes", "sweep,decode", "--sweep-count", "150", "--dtypes",
                                      "bf16,f16,e4m3", "--autotune", "--quick-burst-ms", "5"])
    assert args.shapes == ("sweep", "decode") and args.sweep_count == 150 and args.dtypes == ("bf16", "f16", "e4m3")
    plan = bench.quick_plan("sweep", args)
    assert len(plan.shapes) == 150 and plan.bursts == Bursts(3, 5.0) and plan.autotune == bench.SWEEP_AUTOTUNE
    assert bench.quick_plan("decode", args).bursts == Bursts(5, 5.0)
    default = bench.parser().parse_args(["gemm"])
    assert default.shapes == ("squares", "llm", "small", "odd") and default.sweep_count == 300


@pytest.mark.parametrize("argv, message", [
    (["--shapes", "swep"], "argument --shapes: shape set swep; a comma list of squares, llm, small, odd, decode, "
                           "sweep"),
    (["--dtypes", "bf16,fp32"], "argument --dtypes: dtype fp32; a comma list of bf16, f16, e4m3, e5m2"),
    (["--sweep-count", "0"], "argument --sweep-count: '0'; a positive integer"),
    (["--quick-burst-ms", "-2"], "argument --quick-burst-ms: '-2'; a positive number of milliseconds"),
])
def test_bad_arguments_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(["gemm", *argv])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_a_dry_run_prints_the_plan_and_the_priors_picks(capsys):
    assert bench.main(["gemm", "--shapes", "decode,sweep", "--sweep-count", "40", "--dtypes", "bf16,e4m3",
                       "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("decode: 25 shapes x 2 dtypes (untuned); 5 interleaved bursts of ~20 ms per system")
    assert out[1].startswith("sweep: 40 shapes x 2 dtypes (untuned); 3 interleaved bursts of ~10 ms")
    assert out[2].startswith("expected run time on an H100: ~")
    # M <= 64: the swapped tiles, each M on the narrowest covering it, split-K where their few tiles would leave SMs
    # idle over a long K
    assert out[3] == ("decode bf16 prior picks: 128x16x8w1t 9, 128x16x8w1st 6, 128x32x8w1t 3, 128x64x8w1t 3, "
                      "128x32x8w1st 2, 128x64x8w1st 2")
    picks = [line for line in out if line.startswith("sweep e4m3 prior picks: ")][0]
    assert sum(int(part.split()[1]) for part in picks.split(": ")[1].split(", ")) == 40


def test_interleaved_medians_interleave_and_take_medians():
    # per call: the sizing burst's ms, the warm-up's (not counted), then three timed bursts
    order, table = [], {"a": [1.0, 100.0, 9.0, 2.0, 3.0], "b": [5.0, 100.0, 6.0, 4.0, 8.0]}
    calls = {"a": lambda: "a", "b": lambda: "b"}

    def clock(fn, count):
        order.append((fn(), count))
        return table[fn()].pop(0)

    medians = bench.interleaved_medians(calls, Bursts(repeats=3, burst_ms=10.0), clock)
    assert order == [("a", 3), ("a", 10), ("b", 3), ("b", 3), ("a", 10), ("b", 3), ("a", 10), ("b", 3), ("a", 10),
                     ("b", 3)]
    assert medians == {"a": 3.0, "b": 6.0}


# --- the quick bench on the CPU (torch's reference for the GEMM, a wall clock) --------------------------------------

def _wall_clock(fn, count):
    t0 = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - t0) * 1e3 / count


def _cpu_hooks(torch, calls):
    def gemm(a, b, *, out, config=None, scale_a=None, scale_b=None, b_major="k"):
        calls.append((config or CONFIGS[0]).name)  # None: the untuned call, the prior's (the hooks' CONFIGS[0])
        return out.copy_(a.float() @ (b.float() if b_major == "n" else b.float().T))

    return bench.Hooks(gemm=gemm, prior=lambda m, n, k, dtype, b_major="k": CONFIGS[0],
                       autotune=lambda m, n, k, dtype, store, **phases: CONFIGS[1], clock=_wall_clock, device="cpu",
                       describe=lambda: {"device": "cpu"}, sms=lambda: 132)


def test_the_quick_bench_on_the_cpu(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    calls = []
    plan = bench.QuickPlan("sweep", [(5, 24, 40), (17, 40, 33)], ("bf16", "f16"), Bursts(2, 0.5),
                           bench.SWEEP_AUTOTUNE, ["test"])
    record = bench.bench_quick(plan, tmp_path, _cpu_hooks(torch, calls))
    assert {CONFIGS[0].name, CONFIGS[1].name} == set(calls)
    written = json.loads((tmp_path / "gemm_bench_sweep.json").read_text())
    assert written["set"] == "sweep" and written["autotune"] == bench.SWEEP_AUTOTUNE.kwargs()
    assert written["prior_rule"]["function"] == "mmatom.kernels.gemm.choices.prior_config"
    assert [(r["m"], r["dtype"]) for r in written["rows"]] == [(5, "bf16"), (17, "bf16"), (5, "f16"), (17, "f16")]
    row = written["rows"][0]
    assert row["prior"] == CONFIGS[0].name and row["tuned"] == CONFIGS[1].name
    assert row["mmatom_max_rel_err"] < 1e-2
    assert row["ratio_untuned"] == pytest.approx(row["cublas_us"] / row["mmatom_us"], rel=1e-12)  # ms vs us columns
    assert set(written["summary"]) == {"bf16", "f16"} and written["summary"]["f16"]["autotuned"]["count"] == 2
    assert record["rows"] == written["rows"]
    assert "[4/4] f16 17x40x33: untuned " in capsys.readouterr().out


def test_fp8_operands_are_padded_for_the_vendor_call():
    torch = pytest.importorskip("torch")
    ops = bench.Operands.random(5, 20, 30, "e4m3", "cpu")
    assert tuple(ops.vendor_a.shape) == (5, 32) and tuple(ops.vendor_b.shape) == (32, 32)
    assert ops.d.dtype == torch.bfloat16 and set(ops.scales) == {"scale_a", "scale_b"}
    assert bool((ops.vendor_b[20:].float() == 0).all()) and bool((ops.vendor_a[:, 30:].float() == 0).all())
    f16 = bench.Operands.random(4, 8, 8, "f16", "cpu")
    assert f16.d.dtype == torch.float16 and f16.vendor_a is f16.a and f16.scales == {}


def test_mmatom_writes_d_as_the_vendor_does():
    """Where _scaled_mm's D is padded (fp8, N not a multiple of 16), both calls allocate their D (mmatom.gemm's:
    padded rows, a view returned); elsewhere both write into preallocated contiguous rows."""
    pytest.importorskip("torch")
    seen = []

    def gemm(a, b, *, out=None, config=None, **scales):
        seen.append(out)

    odd = bench.Operands.random(5, 20, 32, "e4m3", "cpu")
    even = bench.Operands.random(5, 32, 32, "e4m3", "cpu")
    bf16 = bench.Operands.random(5, 21, 30, "bf16", "cpu")
    for ops in (odd, even, bf16):
        ops.mmatom_call(gemm)()
    assert odd.padded_d and not even.padded_d and not bf16.padded_d
    assert seen[0] is None and seen[1] is even.d and seen[2] is bf16.d
    padded = []
    torch = pytest.importorskip("torch")
    scaled_mm = lambda *args, out=None, **kwargs: padded.append(out) or torch.zeros(5, 32)  # noqa: E731
    torch_scaled_mm, torch._scaled_mm = torch._scaled_mm, scaled_mm
    try:
        odd.vendor_calls()["cublas"](), even.vendor_calls()["cublas"]()
    finally:
        torch._scaled_mm = torch_scaled_mm
    assert padded == [None, even.vendor_d]


def test_rowwise_fp8_operands_scale_rows_and_columns():
    """--rowwise: scale_a (M, 1) and scale_b (1, N) for mmatom.gemm, the vendor's scale_b padded as its B."""
    pytest.importorskip("torch")
    ops = bench.Operands.random(5, 20, 30, "e4m3", "cpu", rowwise=True)
    assert tuple(ops.scales["scale_a"].shape) == (5, 1) and tuple(ops.scales["scale_b"].shape) == (1, 20)
    assert tuple(ops.vendor_scales["scale_b"].shape) == (1, 32) and ops.vendor_scales["scale_a"] is ops.scales["scale_a"]
    assert bench.Operands.random(4, 8, 8, "bf16", "cpu", rowwise=True).scales == {}
    assert bench.parser().parse_args(["gemm", "--rowwise"]).rowwise


def test_the_swap_ab_column_on_small_m(tmp_path):
    """--swap-ab: M <= 64 gets the swapped config whose tile covers M, timed beside the prior's; larger M none."""
    torch = pytest.importorskip("torch")
    calls = []
    plan = bench.QuickPlan("decode", [(17, 24, 40), (65, 24, 40)], ("bf16",), Bursts(2, 0.5), swap_ab=True)
    record = bench.bench_quick(plan, tmp_path, _cpu_hooks(torch, calls), quiet=True)
    small, large = record["rows"]
    # the ratio is of the medians in ms, the columns in us: equal up to rounding
    assert small["swap_ab"] == "128x32x8w1t"
    assert small["ratio_swap_ab"] == pytest.approx(small["cublas_us"] / small["mmatom_swap_ab_us"], rel=1e-12)
    assert "swap_ab" not in large and "128x32x8w1t" in calls
    assert bench.parser().parse_args(["gemm", "--swap-ab"]).swap_ab


def test_b_given_k_by_n_against_torch_matmul_on_the_same_tensors(tmp_path, capsys):
    """--b-major n: B stored K x N, mmatom.gemm(b_major="n") against torch.matmul(a, b), a record of its own; fp8 and
    the 19 shapes refused by name."""
    torch = pytest.importorskip("torch")
    ops = bench.Operands.random(5, 24, 40, "bf16", "cpu", b_major="n")
    assert tuple(ops.b.shape) == (40, 24) and tuple(ops.vendor_d.shape) == (5, 24)
    seen = []
    ops.mmatom_call(lambda a, b, **kwargs: seen.append(kwargs["b_major"]))()
    assert seen == ["n"]
    assert torch.equal(ops.vendor_calls()["cublas"](), ops.a @ ops.b)
    plan = bench.QuickPlan("sweep", [(5, 24, 40)], ("bf16",), Bursts(2, 0.5), b_major="n")
    record = bench.bench_quick(plan, tmp_path, _cpu_hooks(torch, []), quiet=True)
    assert record["rows"][0]["b_major"] == "n" and record["rows"][0]["mmatom_max_rel_err"] < 1e-2
    assert (tmp_path / "gemm_bench_sweep_b_n_major.json").exists()
    with pytest.raises(ValueError, match="an N-major B"):
        bench.Operands.random(5, 24, 40, "e4m3", "cpu", b_major="n")
    for argv in (["--shapes", "sweep", "--dtypes", "bf16,e4m3"], ["--shapes", "squares", "--dtypes", "bf16"],
                 ["--shapes", "decode", "--dtypes", "bf16", "--autotune"]):
        with pytest.raises(SystemExit) as exit_:
            bench.main(["gemm", "--b-major", "n", *argv])
        said = capsys.readouterr().err
        assert exit_.value.code == 2 and "--b-major n: the sweep / decode sets in 16-bit dtypes, untuned" in said
