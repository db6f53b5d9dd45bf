#!/usr/bin/env bash
# Session 36's fourth device call, at the commit with the L2-resident rule: the decode set's bench.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu4.txt
timeout 100 python -P -m mmatom.tools.mmatom_bench gemm --shapes decode --dtypes bf16,e4m3 --out $OUT/bench4 > $OUT/bench4_log.txt 2>&1
tail -6 $OUT/bench4_log.txt
