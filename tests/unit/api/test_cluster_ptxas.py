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
