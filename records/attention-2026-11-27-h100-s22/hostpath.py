import time, torch, mmatom
from mmatom.kernels.attention import host
q, k, v = (torch.randn(16, 512, 16, 128, device="cuda").bfloat16() for _ in range(3))
for causal in (False, True):
    o = mmatom.attention(q, k, v, causal=causal); torch.cuda.synchronize()
    n0 = len(host._PREPARED)
    misses = 0
    orig = host.plan_walk
    def counted(*a, **kw):
        global misses; misses += 1; return orig(*a, **kw)
    host.plan_walk = counted
    ts = []
    for _ in range(50):
        t = time.perf_counter(); mmatom.attention(q, k, v, causal=causal); ts.append(time.perf_counter() - t)
    torch.cuda.synchronize()
    host.plan_walk = orig
    ts.sort()
    print(f"causal={causal}: host us median {ts[25]*1e6:.1f} min {ts[0]*1e6:.1f}; misses {misses}; prepared {n0} -> {len(host._PREPARED)}")
    start = torch.cuda.Event(enable_timing=True); end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(200): mmatom.attention(q, k, v, causal=causal)
    end.record(); end.synchronize()
    print(f"  burst per call {start.elapsed_time(end)/200*1e3:.1f} us")
    run = list(host._PREPARED.values())[-1]
    start.record()
    for _ in range(200): run(torch.cuda.current_stream().cuda_stream)
    end.record(); end.synchronize()
    print(f"  prepared replay per call {start.elapsed_time(end)/200*1e3:.1f} us")
