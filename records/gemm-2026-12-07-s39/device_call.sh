#!/usr/bin/env bash
# Session 39: device_call1.sh cut to what decides session 38's split_handin.patch (this session's device time went
# mostly to failed starts): the patch applied on the machine's copy; its GPU tests; its probe (lead 1/2/3 us against
# even slices, main's protocol, no fix-up, cuBLAS); racecheck and synccheck on a split config; then the decode set of
# the bench with the patch, bf16 and e4m3, against cuBLAS in the same process.
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s39/device_call.sh [STEPS]   (carry [".whl"])
# STEPS: "all" (the default, ~450 s at most), "checked" (no bench, ~340 s), "probe" (the tests and the probe, ~260 s),
# "least" (the majors' split tests, the probe at a 2 us lead only: ~200 s)
set -u
STEPS=${1:-all}
export PYTHONUNBUFFERED=1
S38=records/gemm-2026-12-07-s38
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply $S38/split_handin.patch || { echo "split_handin.patch does not apply"; exit 1; }
git rev-parse HEAD > $OUT/commit.txt; git diff HEAD --stat >> $OUT/commit.txt
quiet() { grep -v "UserWarning\|_warn_once"; }
TESTS="tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_realigned_gpu.py"; LEADS=1,2,3
[ "$STEPS" = least ] && { TESTS=tests/gpu/test_gemm_majors_split_gpu.py; LEADS=2; }
echo "== split tests"
timeout 110 python -P -m pytest -m gpu -q -x $TESTS 2>&1 | tail -4 | tee $OUT/split_tests.txt
echo "== probe"
timeout 150 python $S38/probe_split_handin.py --lead-us $LEADS 2>&1 | quiet | tee $OUT/split_handin.txt
[ "$STEPS" = probe ] || [ "$STEPS" = least ] && exit 0
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 40 compute-sanitizer --tool $tool --report-api-errors no python -P tests/gpu/sanitize_gemm.py 128x64x8w1s 2>&1 | tail -2 | tee $OUT/sanitize_split_$tool.txt
done
[ "$STEPS" = checked ] && exit 0
echo "== decode bench, patched"
timeout 110 python -P -m mmatom.tools.mmatom_bench gemm --shapes decode --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
grep -v "^\[" $OUT/bench_log.txt | tail -8
