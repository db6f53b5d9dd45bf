#!/usr/bin/env bash
# Written in session 38, which got no device machine: for the next session's first call. Applies split_handin.patch
# on the machine's copy (split-K: the last slice walks a lead of K steps and asks first whether the others
# counted, skipping its own fence and count when they did) -- its GPU tests,
# compute-sanitizer on two split configs, its time against even slices / no fix-up / cluster / cuBLAS; then session
# 37's cluster experiments: the cluster tests (the odd-K copy test never ran) and the hand-over with the CTA-scope
# byte post (expect_tx_cta_scope.patch), then with the ready signal before the K loop too (ready_before_k_loop.patch).
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s38/device_call1.sh   (carry [".whl"])
set -u
S37=records/gemm-2026-12-07-s37; S38=records/gemm-2026-12-07-s38
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply $S38/split_handin.patch || { echo "split_handin.patch does not apply"; exit 1; }
git rev-parse HEAD > $OUT/commit.txt; git diff HEAD --stat >> $OUT/commit.txt
t() { echo "== $1"; shift; "$@" 2>&1 | grep -v "UserWarning\|_warn_once" ; }
t split_tests timeout 200 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_realigned_gpu.py -k "split or realign or slices" 2>&1 | tail -4 | tee $OUT/split_tests.txt
for tool in racecheck synccheck memcheck; do
  t $tool timeout 60 compute-sanitizer --tool $tool --report-api-errors no python -P tests/gpu/sanitize_gemm.py 128x64x8w1s 64x128x8w1ps 2>&1 | tail -2 | tee $OUT/sanitize_split_$tool.txt
done
t handin timeout 150 python $S38/probe_split_handin.py --lead-us 1,2,3 | tee $OUT/split_handin.txt
t cluster_tests timeout 120 python -P -m pytest -m gpu -q tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -3 | tee $OUT/cluster_tests.txt
git apply $S37/expect_tx_cta_scope.patch && t cta_scope timeout 60 python $S38/probe_split_handin.py --cluster-only | tee $OUT/cluster_cta_scope.txt
git apply $S37/ready_before_k_loop.patch && t both timeout 60 python $S38/probe_split_handin.py --cluster-only | tee $OUT/cluster_both.txt
git apply -R $S37/ready_before_k_loop.patch; git apply -R $S37/expect_tx_cta_scope.patch; git apply -R $S38/split_handin.patch
