"""Split KV's MAX_PARTS: decoding shapes with few tiles (packed GQA, MQA) at 16 / 32 / 64 / 132 parts a tile;
cuDNN interleaved; prepared launches."""
import torch
from mmatom.kernels.attention import host, walk
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(2, 16, 2, 1, 32768, 256), (1, 8, 1, 1, 131072, 256), (1, 8, 1, 1, 65536, 128), (1, 8, 1, 1, 65536, 64),
          (1, 32, 8, 1, 65536, 128), (1, 8, 8, 4, 65536, 128), (1, 16, 2, 2, 16384, 256), (4, 32, 4, 1, 16384, 128)]
PARTS = [16, 32, 64, 132]


def prepared(q, k, v, parts):
    walk.MAX_PARTS = parts
    walk.plan_walk.cache_clear()
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    return o, list(host._PREPARED.values())[-1], walk.plan_walk.cache_info()


for b, h, hkv, sq, sk, d in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, sq, h, d, device="cuda", generator=g).bfloat16()
    k, v = (torch.randn(b, sk, hkv, d, device="cuda", generator=g).bfloat16() for _ in range(2))
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, enable_gqa=True).transpose(1, 2)
    calls = {"cudnn": cudnn}
    expected = cudnn()
    names = []
    for parts in PARTS:
        o, run, _ = prepared(q, k, v, parts)
        names.append(f"p{parts}")
        calls[names[-1]] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in names}
    times = interleaved_times(calls, Bursts(5, 30.0))
    base = times["cudnn"][0]
    print(f"{b}x{h}/{hkv} q{sq} k{sk} d{d}: cudnn {base*1e3:.1f} us  " + "  ".join(
        f"{n} {times[n][0]*1e3:.1f} us {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in names), flush=True)
walk.MAX_PARTS = 16
