"""GPU: a two-CTA cluster (examples/cluster_multicast.py) -- TMA multicast of two half boxes into both CTAs'
shared memory, a remote mbarrier arrival through mapa, cluster barriers; each CTA's 64 output rows must be the
whole input box (marker `gpu`)."""

import os
import sys

import pytest

pytestmark = pytest.mark.gpu
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))


@pytest.mark.parametrize("clusters", [1, 3])
def test_multicast_reaches_both_ctas(clusters):
    import torch
    from cluster_multicast import build_cluster_multicast

    import mmatom
    module, _ = build_cluster_multicast()
    kernel = mmatom.compile(module)
    x = torch.randn(64, 64, device="cuda").to(torch.bfloat16)
    d = torch.full((128, 64), float("nan"), device="cuda", dtype=torch.bfloat16)
    kernel.launch(mmatom.tensor_map(x, 32, 64), mmatom.tensor_map(d, 64, 64), grid=(2 * clusters,),
                  stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert torch.equal(d[:64], x) and torch.equal(d[64:], x)


def test_a_cluster_kernel_refuses_another_cluster_shape():
    import torch
    from cluster_multicast import build_cluster_multicast

    import mmatom
    kernel = mmatom.compile(build_cluster_multicast()[0])
    x = torch.zeros(64, 64, device="cuda", dtype=torch.bfloat16)
    maps = (mmatom.tensor_map(x, 32, 64), mmatom.tensor_map(torch.zeros(128, 64, device="cuda",
                                                                        dtype=torch.bfloat16), 64, 64))
    with pytest.raises(Exception, match="declares clusters of"):
        kernel.launch(*maps, grid=(2,), cluster=(1, 1, 1))
    with pytest.raises(Exception, match="whole number of clusters"):
        kernel.launch(*maps, grid=(3,))
