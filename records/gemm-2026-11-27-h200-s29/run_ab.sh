# usage: bash .scratch/run_ab.sh SHAPES ROUNDS
set -u
SH=$1; R=${2:-1}
for r in $(seq $R); do
  for tree in base new; do
    if [ $tree = base ]; then PP=$PWD/.scratch/base:$PWD; else PP=$PWD; fi
    PYTHONPATH=$PP:$PYTHONPATH MMATOM_CACHE_DIR=/tmp/mmc-$tree python -P .scratch/ab_realign.py $tree $SH 2>&1 | grep -v "^{" 
  done
done
