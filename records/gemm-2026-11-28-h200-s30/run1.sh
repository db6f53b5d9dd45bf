set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python -P benchmarks/tma_inner_alignment.py --swizzle none --cols 0,16,1,2,4,7,8 2>&1 | tee $OUT/tma_none.txt
python -P benchmarks/tma_inner_alignment.py --swizzle 128b --cols 0,1 2>&1 | tee $OUT/tma_128b.txt
for r in 1 2; do
  for tree in base new; do
    if [ $tree = base ]; then PP=$PWD/.scratch/base:$PWD; else PP=$PWD; fi
    PYTHONPATH=$PP:$PYTHONPATH MMATOM_CACHE_DIR=/tmp/mmc-$tree python -P -m mmatom.tools.mmatom_bench gemm --shapes decode --dtypes bf16,e4m3 --out $OUT/decode_${tree}_$r > $OUT/decode_${tree}_$r.txt 2>&1
    echo "== $tree round $r"; grep -E "geomean|below|^ *1x28672|^ *8x28672" $OUT/decode_${tree}_$r.txt | head -12
  done
done
