set -u
python -P -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_attention_gpu.py tests/gpu/test_rs_wgmma_gpu.py 2>&1 | tail -3
python -P benchmarks/attention_configs.py --shapes 4x32x4096d64,2x16x8192d64 --configs 192x112x3,192x128x3s,128x128x2s,128x192x2s,128x128x3s --repeats 5
python -P benchmarks/attention_configs.py --shapes 4x32x4096d64c --configs 128x128x2,128x128x2s,192x128x3s,128x192x2s --repeats 5
python -P benchmarks/attention_configs.py --shapes 4x16x4096d128 --configs 128x144x2,128x128x2s --repeats 5
