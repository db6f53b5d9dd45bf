"""mmatom.gemm_autotune (not stored) on shapes the issue names, then the tuned config, the prior's and cuBLAS
timed interleaved (medians of bursts); and the 2x2-cluster kernels' resident clusters.
python -P probe_autotune.py 3000x5000x7000 2496x704x6528"""
import statistics
import sys

import torch

import mmatom
from mmatom.kernels.gemm import CLUSTER_2X2_CONFIGS, gemm_kernel
from mmatom.tools.mmatom_bench_common import timed

for config in CLUSTER_2X2_CONFIGS:
    print(config.name, "max_active_clusters", gemm_kernel(dtype="bf16", config=config).max_active_clusters(0))
for shape in sys.argv[1:]:
    m, n, k = (int(x) for x in shape.split("x"))
    tuned = mmatom.gemm_autotune(m, n, k, dtype="bf16", store=False)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    systems = {"cuBLAS": lambda: torch.matmul(a, b.t(), out=out), "prior": lambda: mmatom.gemm(a, b, out=out),
               f"tuned {tuned.name}": lambda: mmatom.gemm(a, b, out=out, config=tuned)}
    bursts = {name: max(3, int(100 / max(timed(fn, 3), 1e-3))) for name, fn in systems.items()}
    times = {name: [] for name in systems}
    for _ in range(7):
        for name, fn in systems.items():
            times[name].append(timed(fn, bursts[name]) * 1e3)
    base = statistics.median(times["cuBLAS"])
    print(f"bf16 {shape}: " + " | ".join(f"{nm} {statistics.median(t):.1f} us {base / statistics.median(t):.3f}x"
                                         for nm, t in times.items()), flush=True)
