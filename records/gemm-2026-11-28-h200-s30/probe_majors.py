"""Session 30 probe: `a @ b` layouts on the sweep's shapes -- mmatom.gemm(a, b_kn, b_major="n") and A given M-major
(a view a_km.t()) against torch.matmul on the same tensors; bursts, interleaved medians."""
import statistics, sys
import torch
import mmatom
from mmatom.kernels.gemm.choices import prior_config
from mmatom.tools.mmatom_bench_common import burst_us
from mmatom.tools.mmatom_bench_shapes import sweep_shapes

step = int(sys.argv[1]) if len(sys.argv) > 1 else 5
dtype = torch.bfloat16
rows = []
for m, n, k in sweep_shapes()[::step]:
    a = torch.randn(m, k, device="cuda").to(dtype)
    b_kn = torch.randn(k, n, device="cuda").to(dtype)
    a_km = torch.randn(k, m, device="cuda").to(dtype)
    b_nk = torch.randn(n, k, device="cuda").to(dtype)
    out = torch.empty(m, n, device="cuda", dtype=dtype)
    fns = {"ours_bn": lambda: mmatom.gemm(a, b_kn, out=out, b_major="n"),
           "torch_bn": lambda: torch.matmul(a, b_kn, out=out),
           "ours_am": lambda: mmatom.gemm(a_km.t(), b_nk, out=out),
           "torch_am": lambda: torch.matmul(a_km.t(), b_nk.t(), out=out)}
    ref = a.float() @ b_kn.float()
    mmatom.gemm(a, b_kn, out=out, b_major="n")
    err = ((out.float() - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
    times = {x: [] for x in fns}
    for fn in fns.values():
        fn()
    for _ in range(3):
        for x, fn in fns.items():
            times[x].append(burst_us(fn, ms=10))
    med = {x: statistics.median(v) for x, v in times.items()}
    rb, ra = med["torch_bn"] / med["ours_bn"], med["torch_am"] / med["ours_am"]
    pb = prior_config(m, n, k, "bf16", b_major="n").name
    pa = prior_config(m, n, k, "bf16", a_major="m").name
    rows.append((rb, ra))
    print(f"{m}x{n}x{k}: b n-major {med['ours_bn']:.1f} vs {med['torch_bn']:.1f} us {rb:.3f}x ({pb}); a m-major "
          f"{med['ours_am']:.1f} vs {med['torch_am']:.1f} {ra:.3f}x ({pa}); err {err:.1e}", flush=True)
for i, name in enumerate(("b n-major", "a m-major")):
    r = [x[i] for x in rows]
    print(f"{name}: geomean {statistics.geometric_mean(r):.3f}x over {len(r)}; below 0.95x {sum(x < 0.95 for x in r)}; "
          f"below 0.90x {sum(x < 0.90 for x in r)}; worst {min(r):.3f}")
