"""GQA decoding and short queries: the group's heads packed into a tile (choose_tiles) against a tile per head
(pack=1), cuDNN SDPA interleaved; both mmatom variants through their prepared launches (no host path)."""
import torch
from mmatom.kernels.attention import host
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(1, 32, 8, 1, 65536, 128), (8, 32, 8, 1, 8192, 128), (16, 64, 8, 1, 4096, 128), (4, 32, 8, 4, 16384, 128),
          (4, 32, 8, 64, 8192, 128), (8, 32, 4, 1, 16384, 64), (2, 16, 2, 1, 32768, 256), (4, 32, 8, 200, 4096, 128),
          (1, 64, 8, 16, 32768, 128), (32, 32, 8, 1, 2048, 128)]


def prepared(q, k, v, pack):
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None, pack=pack)[0]
    return o, list(host._PREPARED.values())[-1]


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
    chosen = host.choose_tiles(d, False, sq, sk, h // hkv)[1]
    for name, pack in (("packed", h // hkv), ("per_head", 1)):
        o, run = prepared(q, k, v, pack)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in ("packed", "per_head")}
    times = interleaved_times(calls, Bursts(5, 30.0))
    base = times["cudnn"][0]
    print(f"{b}x{h}/{hkv} q{sq} k{sk} d{d} (chosen pack {chosen}): cudnn {base*1e3:.1f} us  " + "  ".join(
        f"{n} {times[n][0]*1e3:.1f} us {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in ("packed", "per_head")),
        flush=True)
