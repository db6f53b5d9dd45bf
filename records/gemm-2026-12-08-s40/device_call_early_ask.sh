#!/usr/bin/env bash
# Session 40, for a later call (~330 s): early_ask.patch applied on the machine's copy -- split-K's last slice reads
# its tile's counter in its K loop, a share of its lead before the loop ends, and again after it only where that found
# the others short -- then its GPU tests, racecheck and synccheck on a split config, and its time against the
# committed protocol (the early read off), at shares 1/3, 2/3, 5/6 and leads of 2 and 3 us (probe_early_ask.py).
#   run: . .whl/env.sh && bash records/gemm-2026-12-08-s40/device_call_early_ask.sh   (carry [".whl"])
set -u
export PYTHONUNBUFFERED=1
S40=records/gemm-2026-12-08-s40
quiet() { grep -v "UserWarning\|_warn_once"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply $S40/early_ask.patch || { echo "early_ask.patch does not apply"; exit 1; }
git rev-parse HEAD > $OUT/commit.txt; git status --short >> $OUT/commit.txt
echo "== split tests"
timeout 110 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_realigned_gpu.py 2>&1 | tail -4 | tee $OUT/split_tests.txt
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 40 compute-sanitizer --tool $tool --report-api-errors no python -P tests/gpu/sanitize_gemm.py 128x64x8w1s 2>&1 | tail -2 | tee $OUT/sanitize_split_$tool.txt
done
echo "== probe"
timeout 150 python $S40/probe_early_ask.py 2>&1 | quiet | tee $OUT/early_ask.txt
git apply -R $S40/early_ask.patch
