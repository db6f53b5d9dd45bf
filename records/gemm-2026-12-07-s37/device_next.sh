#!/usr/bin/env bash
# For the next session's device call (session 37 ran out of device time): split-K in a cluster -- its GPU tests as
# committed (the odd-K copy test among them, never run), where its time goes (probe_cluster_k_costs.py: the hand-over
# against the same cluster launch without it) as committed, with expect_tx_cta_scope.patch (the sender's byte post
# released at CTA scope: no MEMBAR.GPU), and with both patches (ready_before_k_loop.patch: the ready signal posted
# before the K loop) plus their tests and racecheck; the patches go on the machine's copy only. Then session 36's
# deeper-ring probe (mended, never run).
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s37/device_next.sh   (carry [".whl"], ~350 s)
set -u
S37=records/gemm-2026-12-07-s37
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt
costs() {
  timeout 100 python $S37/probe_cluster_k_costs.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/cluster_k_costs_$1.txt
  echo "== costs $1"; cat $OUT/cluster_k_costs_$1.txt
}
tests() {
  timeout 150 python -P -m pytest -m gpu -q tests/gpu/test_gemm_cluster_k_gpu.py 2>&1 | tail -5 > $OUT/cluster_k_tests_$1.txt
  echo "== tests $1"; cat $OUT/cluster_k_tests_$1.txt
}
tests committed
costs committed
git apply $S37/expect_tx_cta_scope.patch && costs expect_tx_cta
git apply $S37/ready_before_k_loop.patch && tests both_patches && costs both_patches
timeout 40 compute-sanitizer --tool racecheck python -P tests/gpu/sanitize_gemm.py 128x64x8w1c1x1x2t 2>&1 | tail -1 > $OUT/racecheck_both_patches.txt
cat $OUT/racecheck_both_patches.txt
git apply -R $S37/ready_before_k_loop.patch; git apply -R $S37/expect_tx_cta_scope.patch
timeout 100 python records/gemm-2026-12-07-s36/probe_deeper_swapped_rings.py 2>&1 | grep -v "UserWarning\|_warn_once" > $OUT/deeper_rings.txt
cat $OUT/deeper_rings.txt
