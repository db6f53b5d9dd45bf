"""TMA reduce-stores and batched (3-d) tensor maps on the public API.

build_reduce_add: each CTA loads its 64 x 32 f32 box of x0 and of x1 into shared memory and reduce-adds both
into d at the same place (`kb.tma.store(..., reduce="add")`), so d becomes d + x0 + x1; boxes past the tensor's
edge are clipped (not added). What a split-K GEMM's CTAs do to one output tile. `batched=True`: x0, x1 and d are
(L, rows, cols) tensors, the boxes those of layer `layer` (a kernel argument).

build_layer_copy: each CTA loads its 64 x 64 bf16 box of layer `layer_in` of a 3-d tensor and stores it to layer
`layer_out` of another (`kb.tma.load(..., layer=)`, `kb.tma.store(..., layer=)`): a batched GEMM's A, B and D.

    module, launch = build_reduce_add()      # tests/gpu/test_tma_reduce_layers_gpu.py runs them
"""

from __future__ import annotations

import mmatom
from mmatom.dialects.mma_types import SmemDescType

F32_BOX = (64, 32)  # rows x columns: 128-byte rows, swizzled 128B
F32_TILE = SmemDescType("B", "f32", "k", "128b", "Sw<3,4,3> o 0 o ((8,8),32):((32,256),1)")  # as TMA lands it
BF16_BOX = (64, 64)
BF16_TILE = SmemDescType("B", "bf16", "k", "128b", "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)")
THREADS = 128


def _barrier(kb: mmatom.KernelBuilder):
    """An mbarrier for the loads, initialised by thread 0 and visible to every thread and the TMA unit."""
    bar = kb.smem(8, align=8)
    with kb.if_(kb.tid() == 0):
        kb.mbarrier.init(bar, 1)
        kb.mbarrier.fence_init()
    kb.sync.barrier()
    return bar


def build_reduce_add(batched: bool = False):
    """d[r, c] += x0[r, c] + x1[r, c] (of layer `layer` when batched) over a grid of (ceil(rows / 64),
    ceil(cols / 32)) CTAs of 128 threads."""
    box = mmatom.TensorMapType("f32", *F32_BOX, "128b", batched=batched)
    params = [("x0", box), ("x1", box), ("d", box)] + ([("layer", "i32")] if batched else [])
    kb = mmatom.KernelBuilder("reduce_add", params, "sm_90a", threads=THREADS)
    layer = kb.param("layer") if batched else None
    tiles = kb.smem_tiles(2, F32_TILE)
    bar = _barrier(kb)
    row, col = kb.ctaid("x") * F32_BOX[0], kb.ctaid("y") * F32_BOX[1]
    leader = kb.tid() == 0
    with kb.if_(leader):
        kb.mbarrier.arrive_expect_tx(bar, 2 * F32_BOX[0] * F32_BOX[1] * 4)
        kb.tma.load(kb.param("x0"), row, col, tiles[0], bar, layer=layer)
        kb.tma.load(kb.param("x1"), row, col, tiles[1], bar, layer=layer)
    kb.mbarrier.wait(bar, 0)
    with kb.if_(leader):  # two reductions of one place: each element's is atomic
        kb.tma.store(tiles[0], kb.param("d"), row, col, layer=layer, reduce="add")
        kb.tma.store(tiles[1], kb.param("d"), row, col, layer=layer, reduce="add")
        kb.tma.commit_group()
        kb.tma.wait_group(0)
    return kb.finish()


def build_layer_copy():
    """dst[layer_out, r, c] = src[layer_in, r, c] over a grid of (ceil(rows / 64), ceil(cols / 64)) CTAs."""
    box = mmatom.TensorMapType("bf16", *BF16_BOX, "128b", batched=True)
    kb = mmatom.KernelBuilder("layer_copy", [("src", box), ("dst", box), ("layer_in", "i32"), ("layer_out", "i32")],
                              "sm_90a", threads=THREADS)
    tile = kb.smem_tiles(1, BF16_TILE)[0]
    bar = _barrier(kb)
    row, col = kb.ctaid("x") * BF16_BOX[0], kb.ctaid("y") * BF16_BOX[1]
    leader = kb.tid() == 0
    with kb.if_(leader):
        kb.mbarrier.arrive_expect_tx(bar, BF16_BOX[0] * BF16_BOX[1] * 2)
        kb.tma.load(kb.param("src"), row, col, tile, bar, layer=kb.param("layer_in"))
    kb.mbarrier.wait(bar, 0)
    with kb.if_(leader):
        kb.tma.store(tile, kb.param("dst"), row, col, layer=kb.param("layer_out"))
        kb.tma.commit_group()
        kb.tma.wait_group(0)
    return kb.finish()
