#!/usr/bin/env bash
# Session 40, the second call: the bench at the commit that took split_handin.patch (session 38's device_call2.sh:
# the split and swapped GPU tests, then the sweep and decode sets, bf16 and e4m3, against cuBLAS in one process), the
# wave-tail probe (probe_wave_tail.py), then
# session 37's cluster experiments, never run: the cluster tests (the odd-K copy test among them) and split-K in a
# cluster with the CTA-scope byte post (expect_tx_cta_scope.patch), then with the ready signal before the K loop too.
# The bench runs with cta_stream_75.patch applied (CTA_STREAM_BYTES_PER_US 67 -> 75 KB/us: four e4m3 decode rows whole
# rather than split on an H100); the probe times both choices directly.
#   run: . .whl/env.sh && bash records/gemm-2026-12-08-s40/device_call2.sh   (carry [".whl"], ~520 s)
set -u
export PYTHONUNBUFFERED=1
S37=records/gemm-2026-12-07-s37; S38=records/gemm-2026-12-07-s38
quiet() { grep -v "UserWarning\|_warn_once"; }
git apply records/gemm-2026-12-08-s40/cta_stream_75.patch && echo "cta_stream_75.patch applied"
echo "== wave tails"
timeout 130 python records/gemm-2026-12-08-s40/probe_wave_tail.py 2>&1 | quiet | tee $OUT/wave_tail.txt
bash $S38/device_call2.sh
echo "== cluster tests"
timeout 90 python -P -m pytest -m gpu -q tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -3 | tee $OUT/cluster_tests.txt
echo "== cluster, as committed"
timeout 45 python $S38/probe_split_handin.py --cluster-only 2>&1 | quiet | tee $OUT/cluster_committed.txt
git apply $S37/expect_tx_cta_scope.patch && echo "== cluster, CTA-scope post" && \
  timeout 45 python $S38/probe_split_handin.py --cluster-only 2>&1 | quiet | tee $OUT/cluster_cta_scope.txt
git apply $S37/ready_before_k_loop.patch && echo "== cluster, both patches" && \
  timeout 45 python $S38/probe_split_handin.py --cluster-only 2>&1 | quiet | tee $OUT/cluster_both.txt
git apply -R $S37/ready_before_k_loop.patch; git apply -R $S37/expect_tx_cta_scope.patch
