import cupy as cp, numpy as np, subprocess
mod = cp.RawModule(path="mufu.cubin")
out = cp.zeros(1 << 20, dtype=cp.uint32)
sms = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
iters = 4096
for name, per in [("f32", 1), ("f16x2", 2), ("bf16x2", 2), ("f16", 1)]:
    fn = mod.get_function(f"ex2_{name}")
    blocks, threads = sms * 8, 256
    args = (out, np.uint32(iters))
    fn((blocks,), (threads,), args)
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(5):
        s.record(); fn((blocks,), (threads,), args); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e-3)
    t = sorted(ts)[2]
    instr = blocks * threads * iters * 32
    print(f"{name:7s} {t*1e3:8.3f} ms  instructions {instr/t/1e12:7.3f} T/s  ex2 results {instr*per/t/1e12:7.3f} T/s"
          f"  per SM per clk@1.755GHz: {instr*per/t/sms/1.755e9:6.2f} results")
sass = subprocess.run(["cuobjdump", "-sass", "mufu.cubin"], capture_output=True, text=True).stdout
for line in sass.splitlines():
    if "Function" in line or ("MUFU" in line) or "HADD2" in line or "F2FP" in line or "PRMT" in line:
        pass
import collections, re
fn = None; counts = collections.defaultdict(collections.Counter)
for line in sass.splitlines():
    m = re.search(r"Function : (\S+)", line)
    if m: fn = m.group(1); continue
    m = re.search(r"/\*[0-9a-f]{4}\*/\s+([A-Z][A-Z0-9_.]+)", line)
    if m and fn: counts[fn][m.group(1)] += 1
for fn, c in counts.items(): print(fn, dict(c.most_common(8)))
