#!/usr/bin/env bash
# Written in session 38, which got no device machine: for the next session's first call. Applies split_handin.patch
# on the machine's copy (split-K: the last slice walks a lead of K steps and asks first whether the others counted,
# skipping its own fence and count when they did), then, most needed first: its GPU tests, its time against even
# slices / main's protocol / no fix-up / a cluster / cuBLAS (probe_split_handin.py), racecheck and synccheck on a
# split config; then session 37's cluster experiments: the cluster tests (the odd-K copy test never ran) and the
# hand-over with the CTA-scope byte post (expect_tx_cta_scope.patch), then with the ready signal before the K loop too.
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s38/device_call1.sh   (carry [".whl"], timeout 600)
set -u
export PYTHONUNBUFFERED=1
S37=records/gemm-2026-12-07-s37; S38=records/gemm-2026-12-07-s38
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply $S38/split_handin.patch || { echo "split_handin.patch does not apply"; exit 1; }
git rev-parse HEAD > $OUT/commit.txt; git diff HEAD --stat >> $OUT/commit.txt
quiet() { grep -v "UserWarning\|_warn_once"; }
echo "== split tests"
timeout 150 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_realigned_gpu.py 2>&1 | tail -4 | tee $OUT/split_tests.txt
echo "== probe"
timeout 180 python $S38/probe_split_handin.py --lead-us 1,2,3 2>&1 | quiet | tee $OUT/split_handin.txt
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 50 compute-sanitizer --tool $tool --report-api-errors no python -P tests/gpu/sanitize_gemm.py 128x64x8w1s 2>&1 | tail -2 | tee $OUT/sanitize_split_$tool.txt
done
echo "== cluster tests"
timeout 90 python -P -m pytest -m gpu -q tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -3 | tee $OUT/cluster_tests.txt
git apply $S37/expect_tx_cta_scope.patch && echo "== cluster, CTA-scope post" && \
  timeout 45 python $S38/probe_split_handin.py --cluster-only 2>&1 | quiet | tee $OUT/cluster_cta_scope.txt
git apply $S37/ready_before_k_loop.patch && echo "== cluster, both patches" && \
  timeout 45 python $S38/probe_split_handin.py --cluster-only 2>&1 | quiet | tee $OUT/cluster_both.txt
git apply -R $S37/ready_before_k_loop.patch; git apply -R $S37/expect_tx_cta_scope.patch; git apply -R $S38/split_handin.patch
