"""The persistent grid of a clustered GEMM config (CPU): clusters of two fill every SM the count says; clusters of
four as many as the GPU runs at once (the kernel's max_active_clusters), so no cluster waits for a second wave."""

import pytest

from mmatom.kernels.gemm import CLUSTER_2X2_CONFIGS, GemmConfig
from mmatom.kernels.gemm.host import persistent_ctas, resident_sms


class _Kernel:
    def __init__(self, clusters: int | None):
        self.clusters, self.asked = clusters, []

    def max_active_clusters(self, device: int = 0) -> int:
        if self.clusters is None:
            raise AssertionError("a config of clusters of two or fewer asked the GPU")
        self.asked.append(device)
        return self.clusters


@pytest.mark.parametrize("name", ["128x256x4", "128x256x4c2x1", "256x128x4c1x2"])
def test_clusters_of_two_or_fewer_fill_every_sm(name):
    assert resident_sms(_Kernel(None), GemmConfig.from_name(name), 132, 0) == 132


@pytest.mark.parametrize("config", CLUSTER_2X2_CONFIGS, ids=lambda c: c.name)
def test_clusters_of_four_fill_the_resident_clusters(config):
    kernel = _Kernel(30)  # an H100 (measured): 30 clusters of four at once, 120 of its 132 SMs
    sms = resident_sms(kernel, config, 132, 1)
    assert (sms, kernel.asked) == (120, [1])
    grid = persistent_ctas(config, 8192, 8192, sms)  # many units: one per resident cluster
    assert grid == 120 and grid % config.cluster_size == 0
    # few units: a cluster per unit of 2x2 tiles (300 rows: 2 units of 256; 520 columns: 3 of 256, or 2 of 512)
    assert persistent_ctas(config, 300, 520, sms) == 4 * 2 * (2 if config.block_n == 256 else 3)
