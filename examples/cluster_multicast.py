"""A two-CTA thread-block cluster on the public API: each CTA loads half of a 64x64 bf16 box with TMA multicast
into both CTAs' shared memory (so each receives the whole box: 2 x 4096 bytes on its own full barrier), stores
the box to its own 64 rows of a 128x64 output, and CTA 1 tells CTA 0 it is done with a remote mbarrier arrival
(mapa) before the cluster's last barrier -- the pieces a cluster GEMM multicasts its A or B tiles with.

    kernel = build_cluster_multicast()       # -> (module, launch); tests/gpu/test_cluster_gpu.py runs it

`mask(kb, rank)` gives the CTA mask from the CTA's rank instead of the constant 0b11 (a 2x2 cluster's GEMM computes
each operand's mask so: the CTAs of its row for A, of its column for B).
"""

from __future__ import annotations

import mmatom

BOX_ROWS, BOX_COLS = 64, 64
HALF_BYTES = BOX_ROWS // 2 * BOX_COLS * 2


def build_cluster_multicast(mask=None):
    half = mmatom.TiledMma(mmatom.atom("sm_90a", "wgmma", m=64, n=BOX_ROWS // 2, k=16, a="bf16", b="bf16", d="f32"),
                           atom_layout_mnk=(1, 1, 1), permutation=(64, BOX_ROWS // 2, BOX_COLS)).smem_desc_type("B")
    kb = mmatom.KernelBuilder("cluster_multicast", [("x", mmatom.TensorMapType("bf16", BOX_ROWS // 2, BOX_COLS)),
                                                    ("d", mmatom.TensorMapType("bf16", BOX_ROWS, BOX_COLS))],
                              "sm_90a", threads=128, cluster=(2, 1, 1))
    halves = kb.smem_tiles(2, half)  # the box as the two CTAs' halves, one landing from each
    bars = kb.smem(16, align=8)
    full, done = bars, bars + 8
    rank, leader = kb.cluster.rank(), kb.tid() == 0
    with kb.if_(leader):
        kb.mbarrier.init(full, 1)
        kb.mbarrier.init(done, 1)
        kb.mbarrier.fence_init()
    kb.cluster.sync()  # both CTAs' barriers exist before either multicasts into the other
    with kb.if_(leader):
        kb.mbarrier.arrive_expect_tx(full, 2 * HALF_BYTES)  # this CTA's half and the peer's
        kb.tma.load(kb.param("x"), rank * (BOX_ROWS // 2), 0, halves[rank], full,
                    multicast=0b11 if mask is None else mask(kb, rank))  # CTA mask: both CTAs of the cluster
    kb.mbarrier.wait(full, 0)
    with kb.if_(leader):
        kb.tma.store(halves[0], kb.param("d"), rank * BOX_ROWS, 0)
        kb.tma.commit_group()
        kb.tma.wait_group(0)
        with kb.if_(rank == 1):
            kb.mbarrier.arrive(kb.cluster.map_shared(done, 0), scope="cluster")  # a remote arrival on CTA 0's barrier
        with kb.if_(rank == 0):
            kb.mbarrier.wait(done, 0)
    kb.cluster.sync()  # no CTA leaves while its peer may still signal or write its shared memory
    return kb.finish()
