"""The cluster IR on the CPU: examples/cluster_multicast.py builds through the public API, passes
verify-pipeline (2 x 4096 multicast bytes = the 8192 expected), and assembles (ptxas, sm_90a) with the
cluster directives, multicast TMA, mapa and a release.cluster remote arrival."""

import os
import sys

import pytest

import mmatom

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
pytestmark = pytest.mark.ptxas


def test_cluster_kernel_ptx():
    from cluster_multicast import build_cluster_multicast
    module, launch = build_cluster_multicast()
    kernel = mmatom.compile(module, options={"cache": False})
    ptx = kernel.ptx
    for line in (".explicitcluster", ".reqnctapercluster 2, 1, 1", "mov.u32 %r1, %cluster_ctarank;",
                 "barrier.cluster.arrive.release.aligned;", "barrier.cluster.wait.acquire.aligned;",
                 "mbarrier::complete_tx::bytes.multicast::cluster", "mapa.shared::cluster.u64",
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _,"):
        assert line in ptx, line
    meta = kernel.metadata
    assert meta.spill_bytes == 0 and meta.warnings == () and launch.shared_bytes == 8208
    assert kernel.entries["cluster_multicast"].bounds.cluster_dim == (2, 1, 1)


def test_cluster_dim_limits():
    with pytest.raises(mmatom.CompileError, match=r"nvvm.cluster_dim = array<i32: 4, 4, 1> asks for 16 CTAs; a "
                                                  r"portable cluster has at most 8"):
        kb = mmatom.KernelBuilder("k", [], "sm_90a", threads=32, cluster=(4, 4))
        kb.finish()


def test_a_mask_computed_from_the_rank():
    """A multicast mask may be an integer Value (the 2x2-cluster GEMM's come from the CTA's rank): cast to the
    16 bits the instruction takes; verify-pipeline leaves its bytes unchecked (a mask known at run time)."""
    from cluster_multicast import build_cluster_multicast
    module, _ = build_cluster_multicast(mask=lambda kb, rank: (1 << rank) | (1 << (1 - rank)))
    ptx = mmatom.compile(module, options={"cache": False}).ptx
    (load,) = [line for line in ptx.splitlines() if ".multicast::cluster [" in line]
    mask = load.rsplit(",", 1)[1].strip(" ;")
    assert mask.startswith("%rs") and f"cvt.u16.u32 {mask}," in ptx, load


def test_a_mask_that_is_not_an_integer_is_refused():
    from cluster_multicast import build_cluster_multicast
    with pytest.raises(mmatom.CompileError, match=r"tma.load: the multicast mask is f32; a CTA mask is an integer"):
        build_cluster_multicast(mask=lambda kb, rank: kb.const(3.0))


def test_max_active_clusters_of_a_kernel_without_clusters():
    kernel = mmatom.compile(mmatom.KernelBuilder("k", [], "sm_90a", threads=32).finish()[0],
                            options={"cache": False})
    from mmatom.targets.runtime import LaunchError
    with pytest.raises(LaunchError, match=r"kernel 'k': max_active_clusters of a kernel launched without "
                                                 r"clusters"):
        kernel.max_active_clusters()
