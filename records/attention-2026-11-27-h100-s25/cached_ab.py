"""Cached compile (the compile cache read from disk, the kernel loaded), as mmatom-bench attention times it, with its
two parts: the record read (attention_kernel) and the module load (cubin found by key, loaded)."""
import os, statistics, sys, time
import mmatom
from mmatom import compile_cache
from mmatom.kernels.attention import attention_kernel
from mmatom.kernels.attention.host import forget_kernels
from mmatom.targets import runtime

def load(kernel):
    digest = getattr(kernel, "digest", None)
    module = runtime.Module(kernel.ptx, label=kernel.name, **({"digest": digest} if digest else {}))
    module.function(kernel.name)

attention_kernel("bf16", 128, False)  # cold once: the cache filled
load(attention_kernel("bf16", 128, False))
parts = {"record": [], "load": [], "total": []}
for _ in range(30):
    forget_kernels()
    compile_cache.CACHE.memory.clear()
    t0 = time.perf_counter()
    kernel = attention_kernel("bf16", 128, False)
    t1 = time.perf_counter()
    load(kernel)
    t2 = time.perf_counter()
    parts["record"].append((t1 - t0) * 1e3); parts["load"].append((t2 - t1) * 1e3); parts["total"].append((t2 - t0) * 1e3)
t = time.perf_counter()
for _ in range(20): runtime.ptx_digest(kernel.ptx) if hasattr(runtime, "ptx_digest") else runtime.cache_key(kernel.ptx, "sm_90", "x")
hash_ms = (time.perf_counter() - t) / 20 * 1e3
print(sys.argv[1], {k: round(statistics.median(v), 3) for k, v in parts.items()}, "ptx hash", round(hash_ms, 3), "ms")
