"""Few tiles, long keys (decode-like and short-query prefill chunks): split KV over the SMs vs whole tiles, cuDNN
interleaved."""
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from mmatom.kernels.attention import host, walk as W
from mmatom.tools.mmatom_bench_attention import BURST_MS, interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts

SHAPES = [(1, 8, 8, 128, 32768, 128), (4, 32, 8, 64, 8192, 128), (2, 16, 16, 256, 16384, 128), (1, 32, 8, 1, 65536, 128),
          (8, 16, 16, 512, 4096, 64), (1, 16, 16, 200, 20000, 256)]
def prepared(q, k, v, max_parts):
    W.MAX_PARTS = max_parts; W.plan_walk.cache_clear(); host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    return o, list(host._PREPARED.values())[-1]
for b, h, hkv, sq, sk, d in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, sq, h, d, device="cuda", generator=g).bfloat16()
    k, v = (torch.randn(b, sk, hkv, d, device="cuda", generator=g).bfloat16() for _ in range(2))
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, enable_gqa=h != hkv).transpose(1, 2)
    calls = {"cudnn": cudnn}
    expected = cudnn()
    for name, parts in (("split", 16), ("whole", 1)):
        o, run = prepared(q, k, v, parts)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    W.MAX_PARTS = 16; W.plan_walk.cache_clear()
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in ("split", "whole")}
    times = interleaved_times(calls, Bursts(5, 30.0))
    base = times["cudnn"][0]
    print(f"{b}x{h}/{hkv} q{sq} k{sk} d{d}: cudnn {base*1e3:.1f} us  " + "  ".join(
        f"{n} {times[n][0]*1e3:.1f} us {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in ("split", "whole")), flush=True)
