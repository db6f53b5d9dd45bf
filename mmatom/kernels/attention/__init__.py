"""Attention forward (FlashAttention-3's structure) on mmatom's public API.

    config.py   AttentionConfig (tile sizes per head dim) and the TMA boxes the kernel and the host share
    kernel.py   build_attention: the kernel (loaded with its first compile)
    host.py     mmatom.attention on torch tensors: checks, compiled kernel, 3-d tensor maps, the persistent launch
    torch_op.py torch.ops.mmatom.attention: the op torch.compile traces (forward only)
"""

from .config import DEFAULT_CONFIGS, AttentionConfig, default_config
from .host import attention, attention_kernel, forget_kernels

__all__ = ["DEFAULT_CONFIGS", "AttentionConfig", "attention", "attention_kernel", "default_config", "forget_kernels"]
