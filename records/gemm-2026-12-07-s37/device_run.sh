#!/usr/bin/env bash
# Session 37's first device call: session 36's queued work (the swapped-tile GPU tests, the bench at the commit with
# the L2-resident rule, the deeper-ring probe), then where split-K's fixed cost goes (probe_split_fixup.py).
set -u
S36=records/gemm-2026-12-07-s36
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt
python -P -m pytest -m gpu -q tests/gpu/test_gemm_swap_ab_gpu.py 2>&1 | tail -5 > $OUT/swap_ab_tests.txt
cat $OUT/swap_ab_tests.txt
timeout 120 python -P records/gemm-2026-12-07-s37/probe_split_fixup.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/split_fixup.txt
cat $OUT/split_fixup.txt
timeout 170 python -P -m mmatom.tools.mmatom_bench gemm --shapes sweep,decode --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
tail -8 $OUT/bench_log.txt
rm -f $OUT/bench/gemm_bench_sweep.png
timeout 130 python -P $S36/probe_deeper_swapped_rings.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/deeper_rings.txt
cat $OUT/deeper_rings.txt
