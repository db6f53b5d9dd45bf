"""The H100 GEMM, an application of mmatom's public API.

    config.py   GemmConfig (tile, stages, consumers, cluster) and the shipped CONFIGS
    kernel.py   HopperGemm: the kernel as a class -- declare, producer, mainloop, epilogue
    host.py     mmatom.gemm on torch tensors: config, compiled kernel, tensor maps, packed launches
    batched.py  mmatom.gemm's entry: a batch (L, M, K) in one launch over 3-d tensor maps, else host.gemm
    choices.py  the autotuner's stored choices and the prior for untuned problems
    autotune.py mmatom.gemm_autotune
"""

from .autotune import gemm_autotune
from .choices import choose_config
from .config import CLUSTER_2X2_CONFIGS, CLUSTER_K_CONFIGS, CONFIGS, ROW64_TILE, SPLIT_K_CONFIGS, STREAM_K_CONFIGS, SWAP_AB_CONFIGS, TILES, GemmConfig
from .batched import gemm
from .host import forget_kernels, forget_prepared_calls, gemm_kernel
from .kernel import HopperGemm, build_gemm

__all__ = ["CLUSTER_2X2_CONFIGS", "CLUSTER_K_CONFIGS", "CONFIGS", "ROW64_TILE", "SPLIT_K_CONFIGS", "STREAM_K_CONFIGS", "SWAP_AB_CONFIGS", "TILES", "GemmConfig", "HopperGemm", "build_gemm", "choose_config",
           "forget_kernels", "forget_prepared_calls", "gemm", "gemm_autotune", "gemm_kernel"]
