"""One decoding shape, mmatom (whichever tree PYTHONPATH names) against cuDNN, prepared launch, interleaved."""
import sys, torch, mmatom
from mmatom.kernels.attention import host
from mmatom.tools.mmatom_bench_attention import interleaved_times
from mmatom.tools.mmatom_bench_shapes import Bursts
from torch.nn.attention import SDPBackend, sdpa_kernel
tag = sys.argv[1]
for b, h, hkv, sq, sk, d in [(8, 32, 4, 1, 16384, 64), (2, 16, 2, 1, 32768, 256), (1, 32, 8, 1, 65536, 128)]:
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(b, sq, h, d, device="cuda", generator=g).bfloat16()
    k, v = (torch.randn(b, sk, hkv, d, device="cuda", generator=g).bfloat16() for _ in range(2))
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, enable_gqa=True)
    host._PREPARED.clear()
    o = host.forward(torch, q, k, v, False, None)[0]
    run = list(host._PREPARED.values())[-1]
    calls = {"cudnn": cudnn, "mmatom": lambda: (run(torch.cuda.current_stream().cuda_stream), o)[1]}
    t = interleaved_times(calls, Bursts(5, 30.0))
    print(f"{tag} {b}x{h}/{hkv} q{sq} k{sk} d{d}: mmatom {t['mmatom'][0]*1e3:.1f} us cudnn {t['cudnn'][0]*1e3:.1f} us ratio {t['cudnn'][0]/t['mmatom'][0]:.3f}", flush=True)
