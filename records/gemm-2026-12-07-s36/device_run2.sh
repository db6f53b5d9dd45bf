#!/usr/bin/env bash
# Session 36's second device call: every small-M config on the trailing decode-like rows; clustered variants on the
# trailing mid-size rows.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu2.txt
filter() { grep -v "UserWarning\|_warn_once"; }
timeout 300 python -P records/gemm-2026-12-07-s36/probe_small_m_configs.py 2>&1 | filter > $OUT/probe_small_m_configs.txt
cat $OUT/probe_small_m_configs.txt
timeout 240 python -P records/gemm-2026-12-07-s36/probe_midsize_clusters.py 2>&1 | filter > $OUT/probe_midsize_clusters.txt
cat $OUT/probe_midsize_clusters.txt
