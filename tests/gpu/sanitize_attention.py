"""A few attention calls for compute-sanitizer (memcheck, racecheck, synccheck): every shipped (head dim, causal)
config on tail shapes (Sq, Sk not multiples of the tiles; GQA; one with as many tiles as SMs or more, whose walk
does not split keys), one whose few tiles' KV blocks are split over the
SMs (walk.py; its parts added up in two levels), a causal one with Sq != Sk, and two whose GQA groups pack into a
tile (a split one, a causal one), each checked against the float32 reference. `compute-sanitizer --tool racecheck python -P tests/gpu/sanitize_attention.py [64 128 256]`."""
import sys

import torch

import mmatom
from mmatom.kernels.attention.reference import attention_reference

for d in [int(x) for x in sys.argv[1:]] or (64, 128, 256):
    for causal, (b, sq, sk, h, hkv) in ((False, (1, 200, 333, 4, 2)), (False, (2, 1000, 333, 12, 4)),
                                        (False, (1, 200, 3000, 2, 1)),
                                        (True, (2, 300, 257, 2, 2)), (False, (1, 3, 3000, 8, 2)),
                                        (True, (1, 20, 300, 8, 1))):
        q = torch.randn(b, sq, h, d, device="cuda").bfloat16()
        k, v = (torch.randn(b, sk, hkv, d, device="cuda").bfloat16() for _ in range(2))
        o = mmatom.attention(q, k, v, causal=causal)
        torch.cuda.synchronize()
        ref, _ = attention_reference(q, k, v, causal=causal)
        print(f"d{d} causal={causal} {(b, sq, sk, h, hkv)}: max abs err {(o.float() - ref).abs().max().item():.2e}",
              flush=True)
