"""GPU: TMA reduce-stores and batched (3-d) tensor maps (examples/tma_reduce_layers.py): two reduce-adds into one
f32 tile (2-d, and into one layer of a 3-d tensor), a bf16 box moved from layer to layer, a launch refusing a map
of the other rank. Outputs are views into larger buffers poisoned with a finite value, so a write or an addition
past the tensor's edge, or into another layer, shows; every check is exact (integer-valued f32, bit-equal bf16).
Marker `gpu`."""

import os
import sys

import pytest

pytestmark = pytest.mark.gpu
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))

POISON = 1.0e6  # finite: an addition into it changes it (NaN would hide one)


def _ceil(n: int, d: int) -> int:
    return -(-n // d)


def _integers(shape, seed: int, bound: int = 64):
    import torch
    gen = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randint(-bound, bound, shape, device="cuda", generator=gen).float()


def test_two_reduce_add_stores_sum_into_d_and_stop_at_its_edge():
    import torch
    from tma_reduce_layers import F32_BOX, build_reduce_add

    import mmatom
    kernel = mmatom.compile(build_reduce_add()[0])
    rows, cols = 100, 40  # neither a multiple of the 64 x 32 box: the last boxes are clipped
    x0, x1 = _integers((rows, cols), 1), _integers((rows, cols), 2)
    big = torch.full((rows + 30, 48), POISON, device="cuda")  # d's row stride: 48 f32, 192 bytes
    big[:rows, :cols] = _integers((rows, cols), 3, 1000)
    expected = big.clone()
    expected[:rows, :cols] += x0 + x1
    maps = [mmatom.tensor_map(t, *F32_BOX) for t in (x0, x1, big[:rows, :cols])]
    kernel.launch(*maps, grid=(_ceil(rows, F32_BOX[0]), _ceil(cols, F32_BOX[1])), stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert torch.equal(big, expected)


def test_a_batched_reduce_add_adds_into_its_layer_only():
    import torch
    from tma_reduce_layers import F32_BOX, build_reduce_add

    import mmatom
    kernel = mmatom.compile(build_reduce_add(batched=True)[0])
    layers, rows, cols, layer = 3, 70, 36, 1
    x0, x1 = _integers((layers, rows, cols), 4), _integers((layers, rows, cols), 5)
    big = torch.full((layers, rows + 10, 40), POISON, device="cuda")  # d's strides: 80 x 40, 40, 1 f32
    big[:, :rows, :cols] = _integers((layers, rows, cols), 6, 1000)
    expected = big.clone()
    expected[layer, :rows, :cols] += x0[layer] + x1[layer]
    maps = [mmatom.tensor_map(t, *F32_BOX) for t in (x0, x1, big[:, :rows, :cols])]
    kernel.launch(*maps, layer, grid=(_ceil(rows, F32_BOX[0]), _ceil(cols, F32_BOX[1])),
                  stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert torch.equal(big, expected)


@pytest.mark.parametrize("layer_in, layer_out", [(2, 1), (0, 2)])
def test_a_box_moves_from_one_layer_to_another_clipped_at_the_edges(layer_in, layer_out):
    import torch
    from tma_reduce_layers import BF16_BOX, build_layer_copy

    import mmatom
    kernel = mmatom.compile(build_layer_copy()[0])
    layers, rows, cols = 3, 100, 136  # 2 x 3 boxes of 64 x 64, the last row and column of boxes clipped
    gen = torch.Generator(device="cuda").manual_seed(7)
    src = torch.randn((layers, rows, cols), device="cuda", generator=gen).to(torch.bfloat16)
    big = torch.full((layers, rows + 28, 144), POISON, device="cuda", dtype=torch.bfloat16)
    expected = big.clone()
    expected[layer_out, :rows, :cols] = src[layer_in]
    dst = big[:, :rows, :cols]  # strides: 128 x 144, 144, 1
    kernel.launch(mmatom.tensor_map(src, *BF16_BOX), mmatom.tensor_map(dst, *BF16_BOX), layer_in, layer_out,
                  grid=(_ceil(rows, BF16_BOX[0]), _ceil(cols, BF16_BOX[1])), stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert torch.equal(big.view(torch.int16), expected.view(torch.int16))  # bit for bit


def test_a_launch_refuses_a_2d_map_for_a_batched_parameter():
    import torch
    from tma_reduce_layers import BF16_BOX, build_layer_copy

    import mmatom
    kernel = mmatom.compile(build_layer_copy()[0])
    flat = torch.zeros((128, 64), device="cuda", dtype=torch.bfloat16)
    layered = mmatom.tensor_map(flat.view(2, 64, 64), *BF16_BOX)
    with pytest.raises(TypeError, match="argument 0: the parameter is a batched tensor map"):
        kernel.launch(mmatom.tensor_map(flat, *BF16_BOX), layered, 0, 1, grid=(1, 1))
