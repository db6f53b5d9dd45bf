#!/usr/bin/env bash
# Session 37's third device call: split-K in a cluster with the ready signal posted at the tile's start -- its GPU
# tests again, memcheck (without the cuda-python API probes), and where its time goes (probe_cluster_k_costs.py).
set -u
S37=records/gemm-2026-12-07-s37
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
timeout 150 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -5 > $OUT/cluster_k_tests.txt
cat $OUT/cluster_k_tests.txt
timeout 40 compute-sanitizer --tool racecheck python -P tests/gpu/sanitize_gemm.py 128x64x8w1c1x1x2t 2>&1 | tail -1 > $OUT/sanitize_racecheck.txt
cat $OUT/sanitize_racecheck.txt
timeout 110 python $S37/probe_cluster_k_costs.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/cluster_k_costs.txt
cat $OUT/cluster_k_costs.txt
