import hashlib
from mmatom.kernels.gemm import CONFIGS, SPLIT_K_CONFIGS, STREAM_K_CONFIGS, SWAP_AB_CONFIGS, CLUSTER_2X2_CONFIGS, build_gemm
import mmatom
for c in CONFIGS + SPLIT_K_CONFIGS + STREAM_K_CONFIGS + SWAP_AB_CONFIGS + CLUSTER_2X2_CONFIGS:
    for dt in ("bf16","e4m3"):
        m,_=build_gemm(dt,"sm_90a",c,"bf16")
        print(c.name, dt, hashlib.sha256(mmatom.compile(m, options={"cache":False}).ptx.encode()).hexdigest()[:16])
