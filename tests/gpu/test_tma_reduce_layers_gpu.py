"""GPU: TMA reduce-stores and batched (3-d) tensor maps (examples/tma_reduce_layers.py). Outputs are views into
larger buffers poisoned with a finite value, so a write or an addition past the tensor's edge shows; every check is
exact (integer-valued f32, bit-equal bf16). Marker `gpu`."""

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
