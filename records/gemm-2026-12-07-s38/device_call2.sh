#!/usr/bin/env bash
# For the next session, after device_call1.sh and once split_handin.patch (or whatever of it survives) is committed:
# the bench at that commit -- the sweep and the decode set, bf16 and e4m3 -- and the split-K GPU tests again. The
# sweep JSON is gzipped (session 37's did not come back); the sweep PNG is dropped (the tool's file count).
#   run: . .whl/env.sh && bash records/gemm-2026-12-07-s38/device_call2.sh   (carry [".whl"], ~250 s)
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git rev-parse HEAD > $OUT/commit.txt; git status --short >> $OUT/commit.txt
timeout 120 python -P -m pytest -m gpu -q tests/gpu/test_gemm_majors_split_gpu.py tests/gpu/test_gemm_swap_ab_gpu.py 2>&1 | tail -3 | tee $OUT/gpu_tests.txt
PYTHONUNBUFFERED=1 timeout 300 python -P -m mmatom.tools.mmatom_bench gemm --shapes sweep,decode --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
tail -12 $OUT/bench_log.txt
rm -f $OUT/bench/gemm_bench_sweep.png
gzip -9 $OUT/bench/gemm_bench_sweep.json 2>/dev/null; ls -la $OUT/bench
