#!/usr/bin/env bash
# For the next session's device call (session 37 ran out of device time): where split-K in a cluster's time goes, as
# committed and with the ready signal posted before the K loop (ready_before_k_loop.patch, applied to the machine's
# copy only) -- its GPU tests and racecheck first; then session 36's deeper-ring probe (mended, never run).
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s37/device_next.sh   (carry [".whl"], ~300 s)
set -u
S37=records/gemm-2026-12-07-s37
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt
timeout 120 python $S37/probe_cluster_k_costs.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/cluster_k_costs_committed.txt
cat $OUT/cluster_k_costs_committed.txt
git apply $S37/ready_before_k_loop.patch && echo "patch applied" > $OUT/patched.txt
timeout 150 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -5 > $OUT/cluster_k_tests_patched.txt
cat $OUT/cluster_k_tests_patched.txt
timeout 40 compute-sanitizer --tool racecheck python -P tests/gpu/sanitize_gemm.py 128x64x8w1c1x1x2t 2>&1 | tail -1 > $OUT/racecheck_patched.txt
cat $OUT/racecheck_patched.txt
timeout 120 python $S37/probe_cluster_k_costs.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/cluster_k_costs_patched.txt
cat $OUT/cluster_k_costs_patched.txt
git apply -R $S37/ready_before_k_loop.patch
timeout 100 python records/gemm-2026-12-07-s36/probe_deeper_swapped_rings.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/deeper_rings.txt
cat $OUT/deeper_rings.txt
