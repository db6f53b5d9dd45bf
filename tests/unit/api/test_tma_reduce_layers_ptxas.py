"""TMA reduce-stores and batched (3-d) tensor maps through the public API on the CPU: the kernels of
examples/tma_reduce_layers.py assemble with ptxas (sm_90a) with the PTX forms they stand for (2-d and 3-d
reduce-adds, a 3-d load and store with the layer innermost last), and what they cannot do is an API or compile
error naming the legal set."""

import os
import re
import sys

import pytest

import mmatom

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))

from tma_reduce_layers import BF16_BOX, BF16_TILE, F32_BOX, build_layer_copy, build_reduce_add  # noqa: E402


def _assembled(module):
    kernel = mmatom.compile(module, options={"cache": False})
    meta = kernel.metadata  # assembles: ptxas rejects what it does not know
    assert meta.spill_bytes == 0 and meta.warnings == ()
    return kernel.ptx


@pytest.mark.ptxas
def test_a_2d_reduce_add_store_assembles():
    module, launch = build_reduce_add()
    ptx = _assembled(module)
    stores = [line.strip() for line in ptx.splitlines() if "cp.reduce.async.bulk.tensor" in line]
    assert len(stores) == 2 and all(
        s.startswith("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [") for s in stores)
    assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" not in ptx  # no plain store left
    assert launch.block == (128, 1, 1)


def _store_kernel(elem: str, box: tuple[int, int], reduce: str):
    kb = mmatom.KernelBuilder("k", [("d", mmatom.TensorMapType(elem, *box, "128b"))], "sm_90a", threads=32)
    kb.tma.store(kb.smem(box[0] * 128), kb.param("d"), 0, 0, reduce=reduce)
    kb.tma.commit_group()
    kb.tma.wait_group(0)
    return kb.finish()


def test_a_reduction_ptx_lacks_is_an_api_error():
    kb = mmatom.KernelBuilder("k", [("d", mmatom.TensorMapType("f32", *F32_BOX, "128b"))], "sm_90a", threads=32)
    with pytest.raises(mmatom.CompileError, match="tma.store: reduce='mul' is not a TMA reduction; one of add, min, "
                                                  "max, inc, dec, and, or, xor"):
        kb.tma.store(kb.smem(8192), kb.param("d"), 0, 0, reduce="mul")


def test_an_element_type_its_reduction_does_not_take_is_refused_with_the_legal_set():
    with pytest.raises(mmatom.CompileError, match=r"reduce add into !mma.tensor_map<s8, 64x128, sw128>: "
                                                  r"cp.reduce.async.bulk.tensor .add does not reduce s8 elements; it "
                                                  r"takes s32, f32, f16, bf16 \(and PTX's u32, u64\)"):
        _store_kernel("s8", (64, 128), "add")


@pytest.mark.ptxas
@pytest.mark.parametrize("elem, box, reduce", [("bf16", (64, 64), "add"), ("f16", (64, 64), "min"),
                                               ("s32", (64, 32), "max"), ("b32", (64, 32), "xor")])
def test_every_admitted_reduction_assembles(elem, box, reduce):
    ptx = _assembled(_store_kernel(elem, box, reduce)[0])
    assert f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.{reduce}.tile.bulk_group [" in ptx


@pytest.mark.ptxas
def test_a_3d_load_and_store_assemble_with_the_layer_innermost_last():
    module, _ = build_layer_copy()
    ptx = _assembled(module)
    # {col, row, layer}: the layers are the kernel's 3rd and 4th parameters
    layer_in, layer_out = (re.search(rf"ld.param.u32 (%r\d+), \[layer_copy_param_{i}\];", ptx).group(1) for i in (2, 3))
    load = re.findall(r"cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes "
                      r"\[%rd\d+\], \[%rd\d+, \{%r\d+, %r\d+, (%r\d+)\}\], \[%rd\d+\];", ptx)
    store = re.findall(r"cp.async.bulk.tensor.3d.global.shared::cta.bulk_group \[%rd\d+, \{%r\d+, %r\d+, (%r\d+)\}\], "
                       r"\[%rd\d+\];", ptx)
    assert load == [layer_in] and store == [layer_out]
    assert "cp.async.bulk.tensor.2d" not in ptx


@pytest.mark.ptxas
def test_a_3d_reduce_add_store_assembles():
    ptx = _assembled(build_reduce_add(batched=True)[0])
    stores = [line.strip() for line in ptx.splitlines() if "cp.reduce.async.bulk.tensor" in line]
    assert len(stores) == 2 and all(
        s.startswith("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [") for s in stores)


def _copy_kernel(batched: bool, layer):
    box = mmatom.TensorMapType("bf16", *BF16_BOX, "128b", batched=batched)
    kb = mmatom.KernelBuilder("k", [("m", box)], "sm_90a", threads=32)
    tile, bar = kb.smem_tiles(1, BF16_TILE)[0], kb.smem(8, align=8)
    kb.mbarrier.arrive_expect_tx(bar, 8192)
    kb.tma.load(kb.param("m"), 0, 0, tile, bar, layer=layer)
    return kb.finish()


def test_a_batched_map_needs_the_layer_and_a_2d_map_refuses_one():
    with pytest.raises(mmatom.CompileError, match=r"mma.tma_load: !mma.tensor_map<bf16, 64x64, sw128, batched> is "
                                                  r"batched \(a 3-d tensor, L x rows x cols\): the box needs its "
                                                  r"layer, `\[%row, %col, layer %l\]`"):
        _copy_kernel(True, None)
    with pytest.raises(mmatom.CompileError, match=r"mma.tma_load: a layer coordinate on !mma.tensor_map<bf16, "
                                                  r"64x64, sw128>, a 2-d map; only a batched map"):
        _copy_kernel(False, 1)
