"""tinydsl: a tile language of one function, written only against mmatom's public API.

    kernel, launch, grid = tinydsl.matmul(M, N, K, "sm_80")       # or "sm_90a" (wgmma)
    kernel(a, b, d, grid=grid)                                    # D (M x N) = A (M x K) @ B (N x K)^T

A is row-major M x K, B row-major N x K (K contiguous, like torch.nn.functional.linear's weight), D row-major
M x N in `out` (the accumulator type, or bf16/f16), optionally through a ReLU epilogue (`relu=True`: each
accumulator element read, mapped with arith ops and written back before the store). sm_80: a 64x64 CTA tile of
four warps (2x2), each warp a 32x32 tile of m16n8k16 atoms as one `mma.sync_tile`, the K loop carrying its
accumulator. sm_90a: a 128x128 CTA tile of two
warpgroups, A and B staged through 128B-swizzled SMEM 64 along K at a time, one wgmma tile per K step.
A shape the tile does not divide is a CompileError at the line of this file that asked for it.

    python examples/tinydsl.py [sm_80|sm_90a]     # print the PTX of a 256x256x128 matmul and its ptxas figures
"""

from __future__ import annotations

import sys

import mmatom


def matmul(M: int, N: int, K: int, target: str = "sm_80", a: str = "bf16", acc: str = "f32",
           out: str | None = None, relu: bool = False) -> tuple[mmatom.Kernel, mmatom.LaunchConfig, tuple[int, int]]:
    build = _wgmma_matmul if target.startswith("sm_90") else _register_matmul
    module, launch, grid = build(M, N, K, target, a, acc, out or acc, relu)
    return mmatom.compile(module), launch, grid


def _relu(x):
    """max(x, 0) on one accumulator element (the epilogue sees each value of the thread's fragment)."""
    return mmatom.select(x > 0.0, x, 0.0)


def _register_matmul(M, N, K, target, a, acc, out, relu):
    atom = mmatom.atom(target, "mma.sync", m=16, n=8, k=16, a=a, b=a, d=acc)
    tiled = mmatom.TiledMma(atom, atom_layout_mnk=(2, 2, 1), permutation=(64, 64, 16))
    tiles_m, tiles_n, _ = tiled.tiles((M, N, K))
    kb = mmatom.KernelBuilder("matmul", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], target, threads=tiled.threads)
    warp, cta_m, cta_n = kb.warp_id(), kb.ctaid("x"), kb.ctaid("y")
    # where this warp's first atom starts in A, B and D (element offsets)
    a0 = cta_m * (64 * K) + kb.layout(tiled.origin_layout("A", K), warp)
    b0 = cta_n * (64 * K) + kb.layout(tiled.origin_layout("B", K), warp)
    d0 = cta_m * (64 * N) + cta_n * 64 + kb.layout(tiled.origin_layout("D", N), warp)
    # a warp's 32x32 tile: 2 atoms along M, 32 rows apart (warps interleave, CuTe's default), 4 along N, 16 apart
    a_tile, b_tile = f"((16,2),16):(({K},{32 * K}),1)", f"((8,4),16):(({K},{16 * K}),1)"
    d_tile = f"((16,2),(8,4)):(({N},{32 * N}),(1,16))"
    with (loop := kb.for_range(0, K, 16, [kb.fill(0.0, tiled.fragment_type("C"))])) as (k, (c,)):
        a_frag = kb.load_fragment(kb.param("a"), a_tile, tiled.fragment_type("A"), a0 + k)
        b_frag = kb.load_fragment(kb.param("b"), b_tile, tiled.fragment_type("B"), b0 + k)
        d = tiled.mma_tile(kb, a_frag, b_frag, c)  # one op: 2 x 4 m16n8k16 atoms
        loop.yield_(kb.convert(d, tiled.fragment_type("C")))
    result = kb.convert(loop.results[0], tiled.fragment_type("D"))
    result = kb.convert(kb.map(result, _relu) if relu else result, out)
    kb.store_fragment(result, kb.param("d"), d_tile, d0)
    module, launch = kb.finish()
    return module, launch, (tiles_m, tiles_n)


def _wgmma_matmul(M, N, K, target, a, acc, out, relu):
    atom = mmatom.atom(target, "wgmma", m=64, n=128, k=16, a=a, b=a, d=acc)
    tiled = mmatom.TiledMma(atom, atom_layout_mnk=(2, 1, 1), permutation=(128, 128, 64))
    tiles_m, tiles_n, _ = tiled.tiles((M, N, K))
    kb = mmatom.KernelBuilder("matmul", [("a", "ptr"), ("b", "ptr"), ("d", "ptr")], target, threads=tiled.threads)
    tile_a, tile_b = kb.smem_tiles(1, tiled.smem_desc_type("A"))[0], kb.smem_tiles(1, tiled.smem_desc_type("B"))[0]
    cta_m, cta_n = kb.ctaid("x"), kb.ctaid("y")
    a0, b0 = cta_m * (128 * K), cta_n * (128 * K)
    with (loop := kb.for_range(0, K, 64, [kb.fill(0.0, tiled.fragment_type("C"))])) as (k, (c,)):
        kb.copy_to_smem(kb.param("a"), f"(128,64):({K},1)", tile_a, offset=a0 + k)
        kb.copy_to_smem(kb.param("b"), f"(128,64):({K},1)", tile_b, offset=b0 + k)
        kb.wgmma.fence()
        d = tiled.mma_smem(kb, tile_a.desc(), tile_b.desc(), c)
        kb.wgmma.commit_group()
        kb.wgmma.wait_group(0)
        kb.sync.barrier()  # every warpgroup is done reading SMEM before the next K step overwrites it
        loop.yield_(kb.convert(d, tiled.fragment_type("C")))
    result = kb.convert(loop.results[0], tiled.fragment_type("D"))
    result = kb.convert(kb.map(result, _relu) if relu else result, out)
    d0 = cta_m * (128 * N) + cta_n * 128
    kb.store_fragment(result, kb.param("d"), f"(128,128):({N},1)", d0)
    module, launch = kb.finish()
    return module, launch, (tiles_m, tiles_n)


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else "sm_80"
    kernel, launch, grid = matmul(256, 256, 128, target)
    print(kernel.ptx)
    meta = kernel.metadata
    print(f"// {target}: grid {grid}, block {launch.block}, {launch.shared_bytes} B SMEM, {meta.registers} registers, "
          f"{meta.spill_bytes} B spilled", file=sys.stderr)
