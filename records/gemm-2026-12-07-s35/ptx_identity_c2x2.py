"""Session 35: the 2x2-cluster kernels and their unclustered tile (bf16, e4m3), PTX hashed in a tree given on the command
line -- session 31's 6849579, where they were timed and GPU-tested, against this one.

    git archive 6849579 | (mkdir -p /tmp/t6849 && tar -x -C /tmp/t6849)
    python -P records/gemm-2026-12-07-s35/ptx_identity_c2x2.py /tmp/t6849; python -P records/gemm-2026-12-07-s35/ptx_identity_c2x2.py .
"""
import hashlib
import sys
from pathlib import Path

TREE = str(Path(sys.argv[1]).resolve())
sys.path.insert(0, TREE)
import mmatom  # noqa: E402
from mmatom.kernels.gemm import CLUSTER_2X2_CONFIGS, GemmConfig, build_gemm  # noqa: E402

assert mmatom.__file__.startswith(TREE), mmatom.__file__
for c in CLUSTER_2X2_CONFIGS + (GemmConfig.from_name("128x128x6w1"),):
    for dt in ("bf16", "e4m3"):
        m, _ = build_gemm(dt, "sm_90a", c, "bf16")
        print(c.name, dt, hashlib.sha256(mmatom.compile(m, options={"cache": False}).ptx.encode()).hexdigest()[:16])
