#!/usr/bin/env bash
# For the next session's first device call (session 36 ran out of device time): the bench at the commit with the
# L2-resident rule (d334d85 and later: not yet benched), then the deeper-ring probe of the swapped tiles.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt  # (a fresh machine's .git copy may be stale: session 36's third call read an older HEAD)
python -P -m pytest -m gpu -q tests/gpu/test_gemm_swap_ab_gpu.py 2>&1 | tail -5 > $OUT/swap_ab_tests.txt
timeout 170 python -P -m mmatom.tools.mmatom_bench gemm --shapes sweep,decode --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
tail -8 $OUT/bench_log.txt
rm -f $OUT/bench/gemm_bench_sweep.png
timeout 150 python -P records/gemm-2026-12-07-s36/probe_deeper_swapped_rings.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/deeper_rings.txt
cat $OUT/deeper_rings.txt
