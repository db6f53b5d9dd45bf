#!/usr/bin/env bash
# Session 37's second device call: split-K in a cluster (cluster_k) -- its GPU tests, compute-sanitizer, the A/B
# against split-K through global memory; then the prior's changed picks.
set -u
S37=records/gemm-2026-12-07-s37
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
timeout 150 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -15 > $OUT/cluster_k_tests.txt
cat $OUT/cluster_k_tests.txt
for tool in memcheck racecheck synccheck; do
  timeout 80 compute-sanitizer --tool $tool python -P tests/gpu/sanitize_gemm.py 128x64x8w1c1x1x2t 128x32x8w1c1x1x4t 2>&1 | tail -4 > $OUT/sanitize_$tool.txt
  echo "== $tool"; cat $OUT/sanitize_$tool.txt
done
timeout 240 python $S37/probe_cluster_k.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/cluster_k_ab.txt
cat $OUT/cluster_k_ab.txt
