"""The encode call itself without a GPU (cuTensorMapEncodeTiled faked): what it reads at the addresses it is given --
the extents and byte strides (written after the map's 128 bytes), the box, unit element strides, the enums -- and
a thread without a current context retried under the GPU's."""

import ctypes
from contextlib import contextmanager

import pytest

from mmatom.targets import runtime


class Encoder:
    """Records what each encode reads; fails (CUDA_ERROR_INVALID_CONTEXT) while `context` is off."""

    def __init__(self, context: bool = True):
        self.context, self.seen = context, []

    def encode_tiled(self, handle, dtype, rank, address, dims, strides, box, element_strides, *enums):
        if not self.context:
            return 201
        u64, u32 = ctypes.c_uint64, ctypes.c_uint32
        self.seen.append((handle % 64, dtype, rank, address, list((u64 * rank).from_address(dims)),
                          list((u64 * (rank - 1)).from_address(strides)), list((u32 * rank).from_address(box)),
                          list((u32 * rank).from_address(element_strides)), enums))
        return 0

    def has_context(self) -> bool:
        return self.context


@pytest.fixture
def encoder(monkeypatch):
    fake = Encoder()
    monkeypatch.setattr(runtime, "_tensor_map_encoder", lambda: fake)
    return fake


def test_a_2d_encode_reads_its_extents_strides_and_box(encoder):
    tmap = runtime.tensor_map_2d(0x7000, 300, 136, 144, "bf16", 2, 64, 32, "64b", device=0)
    assert encoder.seen == [(0, 9, 2, 0x7000, [136, 300], [288], [32, 64], [1, 1], (0, 2, 3, 0))]
    assert tmap.handle.getPtr() % 64 == 0


def test_a_3d_encode_reads_its_extents_strides_and_box(encoder):
    runtime.tensor_map_3d(0x7000, 5, 300, 136, 144, 300 * 144, "e4m3", 1, 64, 128, device=0)
    assert encoder.seen == [(0, 0, 3, 0x7000, [136, 300, 5], [144, 300 * 144], [128, 64, 1], [1, 1, 1],
                             (0, 3, 3, 0))]


def test_maps_encoded_one_after_another_keep_their_own_sizes(encoder):
    maps = [runtime.tensor_map_2d(0x7000, rows, 64, 64, "bf16", 2, 64, 64, device=0) for rows in (1, 2, 3)]
    assert [seen[4] for seen in encoder.seen] == [[64, 1], [64, 2], [64, 3]]
    assert len({m.handle.getPtr() for m in maps}) == 3


def test_a_thread_without_a_context_encodes_under_the_gpus(encoder, monkeypatch):
    encoder.context = False
    pushed = []

    class Gpu:
        @contextmanager
        def current(self):
            pushed.append(True)
            encoder.context = True
            yield self

    monkeypatch.setattr(runtime, "opened", lambda ordinal: Gpu())
    runtime.tensor_map_2d(0x7000, 8, 64, 64, "bf16", 2, 8, 64, device=0)
    assert pushed == [True] and len(encoder.seen) == 1


def test_a_map_moved_over_other_rows_keeps_everything_else(encoder):
    tmap = runtime.tensor_map_2d(0x7000, 300, 136, 144, "bf16", 2, 64, 32, "64b", device=1)
    moved = tmap.over(0x9000, 7)
    assert encoder.seen[-1] == (0, 9, 2, 0x9000, [136, 7], [288], [32, 64], [1, 1], (0, 2, 3, 0))
    assert (moved.address, moved.rows, moved.cols, moved.row_stride, moved.box_rows, moved.box_cols, moved.swizzle,
            moved.device) == (0x9000, 7, 136, 144, 64, 32, "64b", 1)
    with pytest.raises(runtime.LaunchError, match=r"tensor map: the tensor's address 0x9008 is not 16-byte aligned"):
        tmap.over(0x9008, 7)


def test_a_batched_map_is_not_moved(encoder):
    tmap = runtime.tensor_map_3d(0x7000, 5, 300, 136, 144, 300 * 144, "bf16", 2, 64, 32, device=0)
    with pytest.raises(runtime.LaunchError, match=r"TensorMap.over: a batched map; encode the new tensor with "
                                                  r"mmatom.tensor_map"):
        tmap.over(0x9000, 7)
