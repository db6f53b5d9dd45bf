import sys, hashlib
from mmatom.kernels.gemm import CONFIGS, SPLIT_K_CONFIGS, STREAM_K_CONFIGS, SWAP_AB_CONFIGS, build_gemm
import mmatom
out=[]
for c in CONFIGS + SPLIT_K_CONFIGS + STREAM_K_CONFIGS + SWAP_AB_CONFIGS:
    for dt in ("bf16","e4m3"):
        m,_=build_gemm(dt,"sm_90a",c,"bf16")
        ptx=mmatom.compile(m, options={"cache":False}).ptx
        out.append(f"{c.name} {dt} {hashlib.sha256(ptx.encode()).hexdigest()[:16]}")
print("\n".join(out))
