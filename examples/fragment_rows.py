"""A softmax over the rows of a wgmma accumulator, and warp shuffles, on the public API only: what an attention
kernel's inner step needs (fragment coordinates, masks from them, row reductions across the lanes that share a row,
ex2 and rcp), small enough to check against numpy.

    python examples/fragment_rows.py row_softmax      # the built module's IR (tests/filecheck/api reads it)
    python examples/fragment_rows.py shuffles --ptx    # its PTX

`row_softmax(n, warpgroups, causal)`: S = A B^T on one M x n wgmma tile (M = 64 x warpgroups, K = 64, bf16), then
each thread scatters its S values to `s` at their (row, col) -- S row-major iff the coordinates are right --,
masks S causally if asked (col > row: -inf), writes each row's max and sum of exp to `rowmax` / `rowsum`, and
P = softmax(S) row-wise to `p`. `shuffles()`: 128 threads exchange f32 and i32 values through every shfl kind.
Tests: tests/unit/api/test_fragments.py (CPU: IR semantics, ptxas), tests/gpu/test_fragments_gpu.py.
"""

from __future__ import annotations

import math
import sys

import mmatom

K = 64
LOG2E = math.log2(math.e)
# shuffles(): what each output block holds, in order (the GPU test's numpy mirror reads this)
SHUFFLES = (("bfly", 5), ("idx", 7), ("down", 3), ("up", 3), ("idx_lane", None))


def row_softmax(n: int = 64, warpgroups: int = 1, causal: bool = False):
    atom = mmatom.atom("sm_90a", "wgmma", m=64, n=n, k=16, a="bf16", b="bf16", d="f32")
    tiled = mmatom.TiledMma(atom, atom_layout_mnk=(warpgroups, 1, 1), permutation=(64 * warpgroups, n, K))
    M = tiled.tile_mnk[0]
    kb = mmatom.KernelBuilder("row_softmax", [(x, "ptr") for x in ("a", "b", "s", "rowmax", "rowsum", "p")],
                              "sm_90a", threads=tiled.threads)
    tile_a, tile_b = kb.smem_tiles(1, tiled.smem_desc_type("A"))[0], kb.smem_tiles(1, tiled.smem_desc_type("B"))[0]
    kb.copy_to_smem(kb.param("a"), f"({M},{K}):({K},1)", tile_a)
    kb.copy_to_smem(kb.param("b"), f"({n},{K}):({K},1)", tile_b)
    acc = kb.fill(0.0, tiled.fragment_type("C"))
    kb.wgmma.fence()
    s = tiled.mma_smem(kb, tile_a.desc(), tile_b.desc(), acc)
    kb.wgmma.commit_group()
    kb.wgmma.wait_group(0)
    coords = tiled.fragment_coords(kb, "D")
    for v in range(len(coords)):  # scatter: S lands row-major iff each value's coordinates are its own
        row, col = coords[v]
        kb.store_scalar(kb.extract(s, v), kb.param("s"), row * n + col)
    if causal:
        s = tiled.map_with_coords(kb, s, lambda x, row, col: mmatom.select(col <= row, x, float("-inf")), coords)
    rows = tiled.value_rows("D")
    row_max = tiled.reduce_rows(kb, s, "max")
    e = kb.map(s, lambda x, v: kb.ex2((x - row_max[rows[v]]) * LOG2E))
    row_sum = tiled.reduce_rows(kb, e, "sum")
    p = kb.map(e, lambda x, v: x * kb.rcp(row_sum[rows[v]]))
    kb.store_fragment(p, kb.param("p"), f"({M},{n}):({n},1)")
    with kb.if_(kb.tid() % 4 == 0):  # the four lanes of a quad share their rows: one writes them
        for i, row in enumerate(coords.rows):
            kb.store_scalar(row_max[i], kb.param("rowmax"), row)
            kb.store_scalar(row_sum[i], kb.param("rowsum"), row)
    return kb.finish()


def shuffles(threads: int = 128):
    """out_f / out_i: len(SHUFFLES) blocks of `threads` values; block k is shuffle k of in_f / in_i."""
    kb = mmatom.KernelBuilder("shuffles", [(x, "ptr") for x in ("in_f", "in_i", "out_f", "out_i")], "sm_90a",
                              threads=threads)
    tid = kb.tid()
    x = kb.load_scalar(kb.param("in_f") + tid * 4, "f32")
    i = kb.load_scalar(kb.param("in_i") + tid * 4, "i32")
    for k, (kind, offset) in enumerate(SHUFFLES):
        if kind == "idx_lane":  # a lane given at run time: lane (3 * lane + 1) % 32
            f_out, i_out = kb.shfl.idx(x, (tid * 3 + 1) % 32), kb.shfl.idx(i, (tid * 3 + 1) % 32)
        else:
            f_out, i_out = getattr(kb.shfl, kind)(x, offset), getattr(kb.shfl, kind)(i, offset)
        kb.store_scalar(f_out, kb.param("out_f"), tid + k * threads)
        kb.store_scalar(i_out, kb.param("out_i"), tid + k * threads)
    return kb.finish()


if __name__ == "__main__":
    build = {"row_softmax": lambda: row_softmax(causal=True), "shuffles": shuffles}[sys.argv[1]]
    module = build()[0]
    print(mmatom.compile(module, options={"cache": False}).ptx if "--ptx" in sys.argv else module)
