"""Batched (3-d) tensor maps without a GPU: mmatom.tensor_map of an (L, rows, cols) tensor encodes a rank-3 map
(dimensions and strides innermost first, a box of one layer) after TMA's stride rules, a 2-d tensor's encode is
unchanged, and a launch refuses a map whose batched-ness is not its parameter's."""

import pytest

import mmatom
from mmatom.targets import runtime

P = runtime.Param


class Tensor:
    """What mmatom.tensor_map reads of a torch tensor on GPU 0."""

    is_cuda, dtype = True, "torch.bfloat16"

    def __init__(self, shape, strides, address=0x1000):
        self.shape, self._strides, self.address = shape, strides, address

    def stride(self):
        return self._strides

    def data_ptr(self) -> int:
        return self.address

    def element_size(self) -> int:
        return 2

    def get_device(self) -> int:
        return 0


@pytest.fixture
def encoded(monkeypatch):
    calls = []
    monkeypatch.setattr(runtime, "_encode", lambda *args: calls.append(args) or ("HANDLE", 0))
    return calls


def test_a_3d_tensor_encodes_a_rank_3_map_of_one_layer_boxes(encoded):
    tmap = mmatom.tensor_map(Tensor((3, 100, 136), (100 * 144, 144, 1)), 64, 32)
    assert encoded == [("bf16", 0x1000, [136, 100, 3], [144 * 2, 100 * 144 * 2], [32, 64, 1], "128b", 0)]
    assert tmap.batched and (tmap.layers, tmap.layer_stride, tmap.rows, tmap.cols, tmap.row_stride) == (
        3, 100 * 144, 100, 136, 144)


def test_a_2d_tensor_encodes_as_before(encoded):
    tmap = mmatom.tensor_map(Tensor((100, 136), (144, 1)), 64, 32, "64b")
    assert encoded == [("bf16", 0x1000, [136, 100], [144 * 2], [32, 64], "64b", 0)]
    assert not tmap.batched and tmap.layers is None


@pytest.mark.parametrize("shape, strides, message", [
    ((3, 100, 136), (100 * 136 + 4, 136, 1), r"tensor map: a layer stride of 13604 elements \(27208 bytes\) is not a "
                                             r"positive multiple of 16 bytes; TMA cannot address it"),
    ((3, 100, 136), (0, 136, 1), r"a layer stride of 0 elements \(0 bytes\) is not a positive multiple of 16 bytes"),
    ((3, 100, 132), (100 * 132, 132, 1), r"tensor map: a row stride of 132 elements \(264 bytes\) is not a multiple "
                                         r"of 16 bytes at least one row long"),
    ((2, 3, 100, 136), (300 * 136, 100 * 136, 136, 1), r"tensor_map: a 2-d tensor \(rows, cols\) or a 3-d one \(L, "
                                                       r"rows, cols\) with a contiguous last dimension; got shape "
                                                       r"\(2, 3, 100, 136\)"),
])
def test_what_tma_cannot_address_is_named(encoded, shape, strides, message):
    with pytest.raises(runtime.LaunchError, match=message):
        mmatom.tensor_map(Tensor(shape, strides), 64, 32)
    assert encoded == []


def _fake_map(batched: bool) -> runtime.TensorMap:
    return runtime.TensorMap(0x1000, 64, 64, 64, "bf16", 2, 64, 64, "128b", None, 0, 2 if batched else None,
                             4096 if batched else None)


@pytest.mark.parametrize("kind, batched, message", [
    ("tmap_batched", False, r"kernel 'k' argument 1: the parameter is a batched tensor map \(TensorMapType\(..., "
                            r"batched=True\)\) but the argument is a 2-d one \(mmatom.tensor_map of a 2-d tensor\)"),
    ("tmap", True, r"kernel 'k' argument 1: the parameter is a 2-d tensor map \(TensorMapType\(..., batched=False\)\) "
                   r"but the argument is a batched one \(mmatom.tensor_map of a 3-d tensor\)"),
])
def test_a_launch_refuses_a_map_of_the_other_rank(kind, batched, message):
    with pytest.raises(TypeError, match=message):
        runtime.pack_arguments("k", [P("u32"), P(kind)], [1, _fake_map(batched)])


def test_a_kernel_records_which_tensor_map_parameters_are_batched():
    kb = mmatom.KernelBuilder("k", [("flat", mmatom.TensorMapType("bf16", 64, 64)), ("n", "i32"),
                                    ("layered", mmatom.TensorMapType("bf16", 64, 64, batched=True))], "sm_90a",
                              threads=32)
    box = kb.smem(8192)
    kb.tma.store(box, kb.param("flat"), 0, 0)
    kb.tma.store(box, kb.param("layered"), 0, 0, layer=kb.param("n"))
    kb.tma.commit_group()
    kb.tma.wait_group(0)
    kernel = mmatom.compile(kb.finish()[0], options={"cache": False})
    assert [p.kind for p in kernel.entries["k"].params] == ["tmap", "u32", "tmap_batched"]
    again = mmatom.compiler.Kernel.from_record(kernel.record())  # the compile cache's round trip keeps it
    assert [p.kind for p in again.entries["k"].params] == ["tmap", "u32", "tmap_batched"]
