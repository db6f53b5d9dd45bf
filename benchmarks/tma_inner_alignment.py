"""Which starting columns a 128B-swizzled TMA box load takes (an experiment, not a benchmark): one 8 x 128 fp8 box of a
64 x 4096 matrix loaded at column `col` into SMEM and written back raw, its bytes checked against the matrix through
the 128B swizzle. Each column runs in its own process: a refused load is a sticky CUDA error. On the H100 (2026-11-26)
columns 0 and 16 load; 1, 2, 4, 7 and 8 fault with CUDA_ERROR_ILLEGAL_INSTRUCTION -- a box's first column must be a
multiple of 16 bytes, so rows that start off 16 bytes (odd K) cannot be reached by offsetting a box inside rows that
are (read `fold` rows as one wider row): such operands are copied (host.padded_copy). Unswizzled maps (`--swizzle
none`, the box landing row-major) are held to the same rule: on an H200 (2026-11-28) columns 0 and 16 load, 1, 2, 4,
7 and 8 fault -- the 16-byte start is TMA's, not the swizzle's.

    python -P benchmarks/tma_inner_alignment.py [--cols 0,16,1,8] [--swizzle none]
"""

from __future__ import annotations

import argparse
import subprocess
import sys

ROWS, COLS = 8, 128  # one 128-byte swizzle span of fp8 per row


def build():
    import mmatom
    tile = mmatom.TiledMma(mmatom.atom("sm_90a", "wgmma", m=64, n=ROWS, k=32, a="e4m3", b="e4m3", d="f32"),
                           atom_layout_mnk=(1, 1, 1), permutation=(64, ROWS, COLS)).smem_desc_type("B")
    kb = mmatom.KernelBuilder("probe", [("x", mmatom.TensorMapType("e4m3", ROWS, COLS, "128b")), ("d", "ptr"),
                                        ("row", "i32"), ("col", "i32")], "sm_90a", threads=32)
    box, bar, tid = kb.smem_tiles(1, tile)[0], kb.smem(8, align=8), kb.tid()
    with kb.if_(tid == 0):
        kb.mbarrier.init(bar, 1)
        kb.mbarrier.fence_init()
    kb.sync.barrier()
    with kb.if_(tid == 0):
        kb.mbarrier.arrive_expect_tx(bar, ROWS * COLS)
        kb.tma.load(kb.param("x"), kb.param("row"), kb.param("col"), box, bar)
    kb.mbarrier.wait(bar, 0)
    for j in range(ROWS * COLS // 4 // 32):  # the box's words, as they lie in SMEM
        kb.store_scalar(kb.load_scalar(box.ptr, "i32", tid + 32 * j), kb.param("d"), tid + 32 * j)
    return kb.finish()[0]


def probe(col: int, swizzle: str = "128b") -> str:
    import torch

    import mmatom
    kernel = mmatom.compile(build(), options={"cache": False})
    x = torch.randint(0, 256, (64, 4096), device="cuda", dtype=torch.uint8)
    d = torch.zeros(ROWS * COLS, device="cuda", dtype=torch.uint8)
    # the kernel is the same for either map: a TMA load's PTX names no swizzle, only the box's bytes it expects
    kernel.launch(mmatom.tensor_map(x.view(torch.float8_e4m3fn), ROWS, COLS, swizzle), d, 2, col, grid=(1,))
    torch.cuda.synchronize()
    got, src = d.cpu(), x.cpu()
    for r in range(ROWS):
        for c in range(COLS):
            chunk = (c // 16) ^ (r % 8) if swizzle == "128b" else c // 16
            if got[r * 128 + chunk * 16 + c % 16] != src[2 + r, col + c]:
                return f"loaded, but element ({r}, {c}) is not where the swizzle puts it"
    return "loaded as the swizzle says"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", default="0,16,1,2,4,7,8")
    parser.add_argument("--swizzle", default="128b", choices=("128b", "none"),
                        help="the map's SMEM swizzle (none: the box lands row-major)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(probe(args.one, args.swizzle))
        return
    for col in map(int, args.cols.split(",")):
        run = subprocess.run([sys.executable, "-P", __file__, "--one", str(col), "--swizzle", args.swizzle],
                             capture_output=True, text=True)
        lines = (run.stdout + run.stderr).strip().splitlines()
        errors = [line for line in lines if "error" in line.lower() and "TORCH_USE_CUDA_DSA" not in line]
        said = (errors or lines or [f"exit {run.returncode}"])[-1]
        print(f"column {col:3d} ({col} bytes): {said[:160]}", flush=True)


if __name__ == "__main__":
    main()
