"""mmatom-bench attention without a GPU: the shape sets (the issue's table, d = 256, GQA, causal, short), FLOPs, the
plan a dry run prints, the command line's refusals, the summary maths on made-up rows, and -- with torch on the CPU,
skipped without it -- the error column: each system's max abs error against the float32 reference, a refusing
system recorded with its error."""

from __future__ import annotations

import math

import pytest

from mmatom.kernels.attention.config import choose_tiles
from mmatom.tools import mmatom_bench as bench
from mmatom.tools.mmatom_bench_attention import (SHAPE_SETS, Shape, checked_calls, estimate_seconds, shapes_of,
                                                 summary)


def test_the_sets_hold_the_issues_table_and_its_additions():
    issue = {(s.batch, s.heads, s.seqlen, s.head_dim, s.causal) for s in SHAPE_SETS["issue"]}
    assert issue == {(4, 16, 4096, 128, False), (2, 16, 8192, 128, False), (2, 16, 8192, 128, True),
                     (4, 32, 4096, 64, False), (1, 16, 16384, 128, False)}
    every = shapes_of(SHAPE_SETS)
    assert {s.head_dim for s in every} == {64, 128, 256} and {s.causal for s in SHAPE_SETS["d256"]} == {False, True}
    assert {(s.heads, s.kv_heads) for s in SHAPE_SETS["gqa"]} == {(32, 8)}
    assert {s.seqlen for s in SHAPE_SETS["short"]} == {512, 1024}
    # fewer tiles than an H100's SMs against long keys, without the mask (SDPA's causal mask is top-left)
    assert all(s.keys >= 8192 and not s.causal for s in SHAPE_SETS["few"])
    assert all(s.batch * s.heads * -(-s.seqlen // 128) < 132 for s in SHAPE_SETS["few"])
    # GQA decoding and short queries: every shape's group packs into a tile (config.choose_tiles)
    assert all(choose_tiles(s.head_dim, s.causal, s.seqlen, s.keys, s.heads // s.kv_heads)[1] > 1
               for s in SHAPE_SETS["decode"])
    assert len(every) == len(set(every)) == 27


def test_flops_and_labels():
    full, causal = Shape(2, 16, 16, 8192, 128), Shape(2, 16, 16, 8192, 128, True)
    assert full.flops() == 4 * 2 * 16 * 8192 * 8192 * 128 == 2 * causal.flops()
    assert causal.label == "2x16x8192 d128 causal" and Shape(4, 32, 8, 4096, 128).label == "4x32/8x4096 d128"
    few = Shape(1, 8, 8, 128, 128, seqlen_k=32768)
    assert few.label == "1x8xq128k32768 d128" and few.flops() == 4 * 8 * 128 * 32768 * 128
    with pytest.raises(ValueError, match="a causal shape has Sq = Sk"):
        Shape(1, 8, 8, 128, 128, True, seqlen_k=32768)


def test_a_dry_run_prints_the_plan(capsys):
    assert bench.main(["attention", "--shapes", "issue,gqa", "--dtypes", "bf16,f16", "--repeats", "3",
                       "--out", "somewhere", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "issue: 4x16x4096 d128, 2x16x8192 d128, 2x16x8192 d128 causal, 4x32x4096 d64, 1x16x16384 d128"
    assert out[1] == "gqa: 4x32/8x4096 d128, 4x32/8x4096 d128 causal"
    assert out[2].startswith("7 shapes x 2 dtypes (bf16, f16); systems mmatom, cudnn, flash, flash_attn (flash_attn "
                             "where installed); 3 interleaved bursts of ~100 ms per system; writes "
                             "somewhere/attention_bench.json and .png")
    assert out[3].startswith("expected run time on an H100: ~") and len(out) == 4


def test_the_estimate_grows_with_shapes_dtypes_and_repeats():
    shapes = shapes_of(SHAPE_SETS)
    base = estimate_seconds(shapes, ("bf16",), 5)
    assert 30 < base < 600
    assert estimate_seconds(shapes, ("bf16", "f16"), 5) > 1.9 * base
    assert estimate_seconds(shapes, ("bf16",), 10) > 1.5 * base


@pytest.mark.parametrize("argv, message", [
    (["--shapes", "isue"], "shape set isue; a comma list of issue, causal, d256, gqa, short"),
    (["--dtypes", "e4m3"], "dtype e4m3; a comma list of bf16, f16"),
    (["--repeats", "0"], "'0'; a positive integer"),
])
def test_the_command_line_refuses(capsys, argv, message):
    with pytest.raises(SystemExit):
        bench.main(["attention", *argv, "--dry-run"])
    assert message in capsys.readouterr().err


def test_the_summary_geomeans_each_other_system():
    rows = [{"dtype": "bf16", "label": "a", "ratio_vs_cudnn": 0.5, "ratio_vs_flash": 2.0},
            {"dtype": "bf16", "label": "b", "ratio_vs_cudnn": 2.0},
            {"dtype": "f16", "label": "c", "ratio_vs_cudnn": 1.25}]
    s = summary(rows)
    assert set(s) == {"bf16_vs_cudnn", "bf16_vs_flash", "f16_vs_cudnn"}
    assert s["bf16_vs_cudnn"]["geomean"] == pytest.approx(1.0) and s["bf16_vs_cudnn"]["worst"] == {"shape": "a",
                                                                                                   "ratio": 0.5}
    assert s["bf16_vs_flash"]["count"] == 1


def test_the_error_column_and_a_refusing_system():
    torch = pytest.importorskip("torch")
    from mmatom.kernels.attention.reference import attention_reference
    from mmatom.tools.mmatom_bench_attention import Inputs
    shape = Shape(1, 4, 2, 40, 64, True)
    q, k, v = (torch.randn(1, 40, h, 64).bfloat16() for h in (4, 2, 2))
    exact = attention_reference(q, k, v, causal=True)[0]

    def refuses():
        raise RuntimeError("No available kernel")
    row = {}
    kept = checked_calls(Inputs(shape, q, k, v), {"exact": lambda: exact, "off": lambda: exact + 0.25,
                                                  "cudnn": refuses}, row)
    assert set(kept) == {"exact", "off"} and row["exact_max_abs_err"] == 0
    assert math.isclose(row["off_max_abs_err"], 0.25, rel_tol=1e-6)
    assert row["cudnn_error"] == "RuntimeError: No available kernel" and row["ref_max_abs"] > 0
