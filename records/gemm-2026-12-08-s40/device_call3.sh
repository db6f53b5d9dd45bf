#!/usr/bin/env bash
# Session 40, device_call2.sh cut to the budget left after eleven failed starts: cta_stream_75.patch applied, the probe
# (whole against split on four one-partial-wave rows, the wave-tail rows), then the bench's sweep and decode sets
# (bf16, e4m3) against cuBLAS -- no GPU tests (call 1 ran the split ones) and no cluster experiments.
#   run: . .whl/env.sh && bash records/gemm-2026-12-08-s40/device_call3.sh   (carry [".whl"], ~350 s)
set -u
export PYTHONUNBUFFERED=1
quiet() { grep -v "UserWarning\|_warn_once"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt; cat $OUT/gpu.txt
git apply records/gemm-2026-12-08-s40/cta_stream_75.patch && echo "cta_stream_75.patch applied"
git rev-parse HEAD > $OUT/commit.txt; git status --short >> $OUT/commit.txt
echo "== probe"
timeout 120 python records/gemm-2026-12-08-s40/probe_wave_tail.py 2>&1 | quiet | tee $OUT/wave_tail.txt
echo "== bench"
timeout 260 python -P -m mmatom.tools.mmatom_bench gemm --shapes decode,sweep --dtypes bf16,e4m3 --out $OUT/bench > $OUT/bench_log.txt 2>&1
grep -v "^\[" $OUT/bench_log.txt | tail -12
rm -f $OUT/bench/*.png; gzip -9 $OUT/bench/*.json 2>/dev/null; ls -la $OUT/bench
