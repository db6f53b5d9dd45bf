#!/usr/bin/env bash
# Session 36's third device call, at the commit with the few-CTA floor: its A/B on the rows whose pick it changes,
# then the bench's sweep and decode sets.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu3.txt
git rev-parse HEAD > $OUT/commit3.txt
filter() { grep -v "UserWarning\|_warn_once"; }
timeout 110 python -P records/gemm-2026-12-07-s36/probe_floor_ab.py 2>&1 | filter > $OUT/probe_floor_ab.txt
cat $OUT/probe_floor_ab.txt
timeout 160 python -P -m mmatom.tools.mmatom_bench gemm --shapes sweep,decode --dtypes bf16,e4m3 --out $OUT/bench3 > $OUT/bench3_log.txt 2>&1
tail -8 $OUT/bench3_log.txt
rm -f $OUT/bench3/gemm_bench_sweep.png  # (a file-count limit kept it back last time)
