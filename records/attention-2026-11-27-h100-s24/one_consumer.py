"""Packed decoding on one consumer warpgroup (a 64-row tile: half the dead rows' MMA work of the shipped 128-row
packed tile) against PACKED_CONFIGS; cuDNN interleaved; prepared launches; max error against cuDNN's output."""
import torch
from mmatom.kernels.attention import host, walk
from mmatom.kernels.attention.config import AttentionConfig, PACKED_CONFIGS
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [(1, 32, 8, 1, 65536, 128), (8, 32, 8, 1, 8192, 128), (16, 64, 8, 1, 4096, 128), (2, 16, 2, 1, 32768, 256),
          (8, 32, 4, 1, 16384, 64), (1, 8, 1, 1, 65536, 128), (2, 32, 8, 1, 131072, 128), (4, 32, 8, 4, 16384, 128),
          (1, 64, 8, 16, 32768, 128), (4, 28, 4, 1, 20000, 128)]
VARIANTS = {"shipped": lambda d: PACKED_CONFIGS[d], "1c": lambda d: AttentionConfig(d, PACKED_CONFIGS[d].block_n, 2, 1),
            "1c3s": lambda d: AttentionConfig(d, PACKED_CONFIGS[d].block_n, 3, 1)}


def prepared(q, k, v, config, pack):
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None, config=config, pack=pack)[0]
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
    names = []
    for name, make in VARIANTS.items():
        config = make(d)
        if not config.packs(h // hkv) or (d == 256 and name == "1c3s"):
            continue
        o, run = prepared(q, k, v, config, h // hkv)
        names.append(name)
        calls[name] = (lambda run=run, o=o: (run(torch.cuda.current_stream().cuda_stream), o)[1])
    err = {n: (calls[n]().float() - expected.float()).abs().max().item() for n in names}
    times = interleaved_times(calls, Bursts(5, 30.0))
    base = times["cudnn"][0]
    print(f"{b}x{h}/{hkv} q{sq} k{sk} d{d}: cudnn {base*1e3:.1f} us  " + "  ".join(
        f"{n} {times[n][0]*1e3:.1f} us {base/times[n][0]:.3f}x err {err[n]:.1e}" for n in names), flush=True)
