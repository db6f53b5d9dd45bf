#!/usr/bin/env bash
# Session 40, for a later call (~450 s): pdl.patch applied on the machine's copy -- every GEMM kernel a programmatic
# dependent launch (the runtime's launch attribute for a kernel that waits at griddepcontrol.wait; the GEMM waits
# after its set-up and lets the next grid start) -- then the GEMM GPU tests (every stream of calls now overlaps),
# racecheck and synccheck on a split and a clustered config, and the probe (back-to-back calls, dependent launch on
# and off, cuBLAS).
#   run: . .whl/env.sh && bash records/gemm-2026-12-08-s40/device_call_pdl.sh   (carry [".whl"])
set -u
export PYTHONUNBUFFERED=1
S40=records/gemm-2026-12-08-s40
quiet() { grep -v "UserWarning\|_warn_once"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply $S40/pdl.patch || { echo "pdl.patch does not apply"; exit 1; }
git rev-parse HEAD > $OUT/commit.txt; git status --short >> $OUT/commit.txt
echo "== gemm GPU tests"
timeout 240 python -P -m pytest -m gpu -q -x tests/gpu/test_gemm_gpu.py tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_swap_ab_gpu.py tests/gpu/test_gemm_cluster_k_gpu.py tests/gpu/test_gemm_stream_k_gpu.py tests/gpu/test_gemm_torch_op_gpu.py 2>&1 | tail -4 | tee $OUT/gemm_tests.txt
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 60 compute-sanitizer --tool $tool --report-api-errors no python -P tests/gpu/sanitize_gemm.py 128x64x8w1s 128x256x4c2x1 2>&1 | tail -2 | tee $OUT/sanitize_$tool.txt
done
echo "== probe"
timeout 120 python $S40/probe_pdl.py 2>&1 | quiet | tee $OUT/pdl.txt
git apply -R $S40/pdl.patch
