"""Which kernels cuBLAS runs (names, grids) on the aligned sweep rows mmatom trails by > 10%, and mmatom's grids."""
import json, os, tempfile
import torch
import mmatom
from mmatom.kernels.gemm import choices
rows = [("bf16", 1472, 1088, 5632), ("bf16", 2496, 704, 6528), ("bf16", 512, 1280, 18560), ("bf16", 64, 5120, 5120),
        ("bf16", 64, 18944, 3584), ("bf16", 1024, 11008, 4096), ("bf16", 1024, 4608, 3584), ("bf16", 1, 5120, 5120),
        ("e4m3", 64, 4096, 14336)]
for dt, m, n, k in rows:
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16 if dt == "bf16" else torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(a.dtype)
    one = torch.ones(1, device="cuda")
    if dt == "bf16":
        vendor = lambda: torch.matmul(a, b.T)
    else:
        vendor = lambda: torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    for _ in range(3):
        vendor()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            vendor()
        torch.cuda.synchronize()
    path = tempfile.mktemp(suffix=".json")
    prof.export_chrome_trace(path)
    events = [e for e in json.load(open(path))["traceEvents"] if e.get("cat") == "kernel"]
    seen = {}
    for e in events:
        key = (e["name"][:110], str(e["args"].get("grid")), str(e["args"].get("block")))
        seen.setdefault(key, []).append(e["dur"])
    cfg = choices.choose_config(m, n, k, dt)
    print(f"{dt} {m}x{n}x{k}: mmatom prior {cfg.name}")
    for (name, grid, block), durs in seen.items():
        print(f"   cuBLAS {sorted(durs)[len(durs)//2]:7.1f} us grid {grid} block {block} {name}")
