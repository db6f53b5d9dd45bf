"""GPU: the runtime on cuda.core (marker `gpu`) -- the device's properties, a module loaded through
ObjectCode with its cubin cached under cache_dir("cubin"), scalar arguments packed in their declared widths
by the synchronous launch (numpy copied back) and by a prepared launch replayed on two streams."""

import numpy as np
import pytest
from gpu_kernels import STORE_SCALARS  # tests/gpu is on sys.path (pytest's rootdir-relative imports)

pytestmark = pytest.mark.gpu


def test_the_device_comes_from_cuda_core():
    import cuda.core

    from mmatom.targets import runtime
    dev = runtime.device()
    assert isinstance(dev.handle, cuda.core.Device) and dev.chip.startswith("sm_")
    assert dev.sm_count > 0 and dev.threads_per_block == 1024 and dev.shared_bytes_optin >= 48 * 1024
    assert runtime.device() is dev and dev.name()


def test_the_synchronous_launch_packs_scalars_and_copies_numpy_back(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    import mmatom
    from mmatom.targets import runtime
    out = np.zeros(2, np.uint32)
    kernel = mmatom.compile(STORE_SCALARS)
    kernel(out, 7, 1.5)
    assert out[0] == 7 and out[1:].view(np.float32)[0] == 1.5
    assert len(list((tmp_path / "cubin").glob("*.cubin"))) == 1
    reloaded = runtime.Module(kernel.ptx, label="k")
    reloaded.function("k")
    assert reloaded.from_cache  # the cubin came from disk, not from the driver's JIT


def test_a_prepared_launch_replays_on_any_stream():
    import torch

    import mmatom
    kernel = mmatom.compile(STORE_SCALARS)
    out = torch.zeros(2, dtype=torch.int32, device="cuda")
    launch = kernel.prepare(out, 2**31 + 5, -0.25)
    side = torch.cuda.Stream()
    launch(torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert out[0].item() == (2**31 + 5) - 2**32 and out[1:].view(torch.float32).item() == -0.25
    out.zero_()
    torch.cuda.synchronize()
    launch(side)
    side.synchronize()
    assert out[0].item() == (2**31 + 5) - 2**32
