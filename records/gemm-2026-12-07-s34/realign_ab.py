"""Session 34: odd-K rows (rows TMA cannot address) at the session's base tree against this tree -- the realigning
split's slice count and the realign-or-copy rule (choices.realign_splits, realign_pays) -- each tree in a fresh
process with a compile cache of its own, the vendor in the same process.

    git archive 9da9eea | (mkdir -p base_tree && tar -x -C base_tree)
    python -P records/gemm-2026-12-07-s34/realign_ab.py base_tree [dtype:MxNxK ...]   # more rows after SHAPES

Per shape and tree, the untuned mmatom.gemm call: its kernels' GPU time per call (torch.profiler, 40 calls after
warm-up) and its wall time per call (200 back-to-back calls, host included), and the vendor's the same two ways
(cuBLAS; fp8: torch._scaled_mm on operands padded outside its timing, as the bench times it).
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHAPES = [("bf16", 146, 367, 1274), ("bf16", 28, 660, 1391), ("bf16", 8, 1027, 906), ("bf16", 134, 381, 5981),
          ("bf16", 108, 451, 10937), ("bf16", 54, 347, 7697), ("bf16", 23, 2783, 1223), ("bf16", 104, 888, 1129),
          ("bf16", 2, 10792, 823), ("bf16", 1, 712, 13982), ("e4m3", 3, 733, 4351), ("e4m3", 14, 15737, 2561),
          ("e4m3", 105, 1877, 11767), ("e4m3", 108, 451, 10937), ("e4m3", 206, 2391, 10533),
          ("e4m3", 84, 2339, 20458), ("e4m3", 9, 4090, 23434), ("e4m3", 3, 6596, 10359), ("e4m3", 151, 23248, 545)]


def shape_of(text: str) -> tuple:
    dtype, mnk = text.split(":")
    return (dtype, *map(int, mnk.split("x")))


def measure(tree: str, shapes: list) -> None:
    sys.path.insert(0, tree)
    import time
    from collections import defaultdict

    import torch
    from torch.profiler import ProfilerActivity, profile

    import mmatom
    from mmatom.tools.mmatom_bench import Operands
    assert mmatom.__file__.startswith(tree), mmatom.__file__

    def gpu_us(call):
        for _ in range(5):
            call()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(40):
                call()
            torch.cuda.synchronize()
        per = defaultdict(float)
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CUDA:
                per[e.name[:32]] += e.device_time / 40
        return sum(per.values()), len(per)

    def wall_us(call):
        call()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(200):
            call()
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / 200 * 1e6

    for dtype, m, n, k in shapes:
        ops = Operands.random(m, n, k, dtype)
        ours, theirs = ops.mmatom_call(mmatom.gemm), ops.vendor_calls()["cublas"]
        ours()
        (g, kernels), (vg, _) = gpu_us(ours), gpu_us(theirs)
        w, vw = wall_us(ours), wall_us(theirs)
        print(json.dumps({"shape": f"{dtype} {m}x{n}x{k}", "gpu": g, "kernels": kernels, "wall": w,
                          "vendor_gpu": vg, "vendor_wall": vw}), flush=True)


def main() -> None:
    if sys.argv[1] == "--measure":
        measure(sys.argv[2], SHAPES + [shape_of(x) for x in sys.argv[3:]])
        return
    trees = {"base": Path(sys.argv[1]).resolve(), "this": ROOT}
    rows = {}
    for name, tree in trees.items():
        with tempfile.TemporaryDirectory() as cache:
            command = [sys.executable, "-P", str(Path(__file__).resolve()), "--measure", str(tree), *sys.argv[2:]]
            out = subprocess.run(command,
                                 env={**os.environ, "MMATOM_CACHE_DIR": cache}, capture_output=True, text=True)
            if out.returncode:
                print(out.stderr[-3000:])
            rows[name] = {r["shape"]: r for r in map(json.loads, filter(None, out.stdout.splitlines()))}
    print("shape: base gpu/wall us (kernels) -> this gpu/wall us (kernels) | vendor gpu/wall | this vs vendor wall")
    for shape, new in rows["this"].items():
        old = rows["base"].get(shape, {})
        print(f"{shape}: {old.get('gpu', 0):.1f}/{old.get('wall', 0):.1f} ({old.get('kernels')}) -> "
              f"{new['gpu']:.1f}/{new['wall']:.1f} ({new['kernels']}) | {new['vendor_gpu']:.1f}/"
              f"{new['vendor_wall']:.1f} | {new['vendor_wall'] / new['wall']:.3f}x", flush=True)


if __name__ == "__main__":
    main()
