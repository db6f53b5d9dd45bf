"""A few GEMMs for compute-sanitizer (memcheck, racecheck, synccheck): every shipped config (or those named on
the command line), bf16 and fp8, tails included, and a shape that gives each CTA two or three tiles (both
ping-pong warpgroups, a second turn each). `compute-sanitizer --tool racecheck python -P tests/gpu/sanitize_gemm.py
[128x128x6w1p ...] [--realigned]` (a split-K config also runs a long K: several slices per tile, the workspace's
counters; a stream-K config a whole wave of tiles and a last one split over several CTAs) -- with --realigned, K is odd and the kernel realigns the operands' rows
(host.REALIGN_UNALIGNED: cp.async copies and the producer's realignment) instead of the host copying them; with
--b-major n, a 16-bit B is given K x N (`a @ b`'s layout: read N-major, a swapped config's M-major A)."""
import sys

import torch, mmatom
from mmatom.kernels.gemm import CONFIGS, GemmConfig, host
odd = "--realigned" in sys.argv
n_major = "--b-major" in sys.argv and sys.argv[sys.argv.index("--b-major") + 1] == "n"
host.REALIGN_UNALIGNED = odd
names = [n for n in sys.argv[1:] if n not in ("--realigned", "--b-major", "n", "k")]
for config in [GemmConfig.from_name(n) for n in names] or CONFIGS:
    for dtype in (torch.bfloat16, torch.float8_e4m3fn):
        shapes = ((256, 512, 192), (300, 520, 200), (2304, 2048, 64))
        extra = ((48, 1000, 4096),) if config.split_k else ((1408, 1664, 512),) if config.stream_k else ()
        for m, n, k in shapes + extra:  # split-K: several slices a tile; stream-K: 143 tiles, 11 split
            k += odd
            a = torch.randn(m, k, device="cuda").to(dtype); b = torch.randn(n, k, device="cuda").to(dtype)
            s = {} if dtype == torch.bfloat16 else {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")}
            if n_major and dtype == torch.bfloat16:  # B stored K x N
                d = mmatom.gemm(a, b.t().contiguous(), config=config, b_major="n")
            else:
                d = mmatom.gemm(a, b, config=config, **s)
            torch.cuda.synchronize()
            ref = (a.float() @ b.float().T)
            print(config.name, dtype, (m, n, k), "max abs err", (d.float() - ref).abs().max().item(), flush=True)
