"""TMA reduce-stores on the public API: each CTA loads its 64 x 32 f32 box of x0 and of x1 into shared memory
and reduce-adds both into d at the same place (`kb.tma.store(..., reduce="add")`), so d becomes d + x0 + x1;
boxes past the tensor's edge are clipped (not added). What a split-K GEMM's CTAs do to one output tile.

    module, launch = build_reduce_add()      # tests/gpu/test_tma_reduce_layers_gpu.py runs it
"""

from __future__ import annotations

import mmatom
from mmatom.dialects.mma_types import SmemDescType

F32_BOX = (64, 32)  # rows x columns: 128-byte rows, swizzled 128B
F32_TILE = SmemDescType("B", "f32", "k", "128b", "Sw<3,4,3> o 0 o ((8,8),32):((32,256),1)")  # as TMA lands it
THREADS = 128


def _barrier(kb: mmatom.KernelBuilder):
    """An mbarrier for the loads, initialised by thread 0 and visible to every thread and the TMA unit."""
    bar = kb.smem(8, align=8)
    with kb.if_(kb.tid() == 0):
        kb.mbarrier.init(bar, 1)
        kb.mbarrier.fence_init()
    kb.sync.barrier()
    return bar


def build_reduce_add():
    """d[r, c] += x0[r, c] + x1[r, c] over a grid of (ceil(rows / 64), ceil(cols / 32)) CTAs of 128 threads."""
    box = mmatom.TensorMapType("f32", *F32_BOX, "128b")
    kb = mmatom.KernelBuilder("reduce_add", [("x0", box), ("x1", box), ("d", box)], "sm_90a", threads=THREADS)
    tiles = kb.smem_tiles(2, F32_TILE)
    bar = _barrier(kb)
    row, col = kb.ctaid("x") * F32_BOX[0], kb.ctaid("y") * F32_BOX[1]
    leader = kb.tid() == 0
    with kb.if_(leader):
        kb.mbarrier.arrive_expect_tx(bar, 2 * F32_BOX[0] * F32_BOX[1] * 4)
        kb.tma.load(kb.param("x0"), row, col, tiles[0], bar)
        kb.tma.load(kb.param("x1"), row, col, tiles[1], bar)
    kb.mbarrier.wait(bar, 0)
    with kb.if_(leader):
        kb.tma.store(tiles[0], kb.param("d"), row, col, reduce="add")  # two reductions of one place: each atomic
        kb.tma.store(tiles[1], kb.param("d"), row, col, reduce="add")
        kb.tma.commit_group()
        kb.tma.wait_group(0)
    return kb.finish()
