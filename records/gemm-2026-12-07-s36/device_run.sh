#!/usr/bin/env bash
# Session 36's first device call: the one-wave 2x2-cluster GPU test, the bench at the commit, the split-K probe.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt
python -P -m pytest -m gpu -q tests/gpu/test_gemm_gpu.py -k "one_wave or two_by_two" 2>&1 | tail -15 > $OUT/gpu_tests.txt
cat $OUT/gpu_tests.txt
python -P -m mmatom.tools.mmatom_bench gemm --shapes sweep,decode --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
tail -30 $OUT/bench_log.txt
timeout 200 python -P records/gemm-2026-12-07-s35/probe_split_decode.py > $OUT/probe_split_decode.txt 2>&1
cat $OUT/probe_split_decode.txt
