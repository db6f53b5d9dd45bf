set -u
base=/tmp/mmc-base-$RANDOM new=/tmp/mmc-new-$RANDOM
for round in 1 2 3; do
  MMATOM_CACHE_DIR=$base PYTHONPATH=$PWD/.scratch/base:$PYTHONPATH python -P .scratch/cached_ab.py "base round $round"
  MMATOM_CACHE_DIR=$new PYTHONPATH=$PWD:$PYTHONPATH python -P .scratch/cached_ab.py "new  round $round"
done
