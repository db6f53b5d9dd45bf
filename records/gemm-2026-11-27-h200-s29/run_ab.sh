# usage: bash records/gemm-2026-11-27-h200-s29/run_ab.sh SHAPES ROUNDS  (base: git archive of the base tree in .scratch/base)
set -u
SH=$1; R=${2:-1}
for r in $(seq $R); do
  for tree in base new; do
    if [ $tree = base ]; then PP=$PWD/.scratch/base:$PWD; else PP=$PWD; fi
    PYTHONPATH=$PP:$PYTHONPATH MMATOM_CACHE_DIR=/tmp/mmc-$tree python -P records/gemm-2026-11-27-h200-s29/ab_realign.py $tree $SH 2>&1 | grep -v "^{" 
  done
done
