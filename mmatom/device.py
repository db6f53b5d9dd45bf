"""The GPU side of the public API that is not a kernel: the device's properties and TMA tensor maps built
from torch/cupy tensors (what a kernel with `TensorMapType` parameters is launched with)."""

from __future__ import annotations

from typing import Any

from mmatom.targets import runtime

ELEMENT_NAMES = {"bfloat16": "bf16", "float16": "f16", "float32": "f32", "float64": "f64", "int32": "s32",
                 "int8": "s8", "uint8": "u8", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}


_ELEMENTS: dict = {}  # a tensor's dtype object -> its ELEMENT_NAMES entry (a new shape's first call makes two maps)


def device_info() -> runtime.Device:
    """The current GPU (chip, SM count, shared memory a CTA may opt in to, driver version)."""
    return runtime.device()


def tensor_map(tensor: Any, box_rows: int, box_cols: int, swizzle: str = "128b") -> runtime.TensorMap:
    """The TMA tensor map of a 2-d device tensor (row-major: its last dimension contiguous) moving boxes of
    box_rows x box_cols elements, swizzled in SMEM as `swizzle` ("none", "32b", "64b", "128b"); out-of-bounds
    box elements read as zero and are not written. A 3-d tensor (L, rows, cols) gives a batched map, moving
    boxes of one layer (for a `TensorMapType(..., batched=True)` parameter). A LaunchError names what TMA cannot
    address (a tensor not on a GPU, a row or layer stride that is not a multiple of 16 bytes, a misaligned
    base). The map remembers the tensor's GPU: a launch with it runs there."""
    device = runtime.device_of(tensor)
    if device is None:
        raise runtime.LaunchError(f"tensor_map: the tensor is not on a GPU (device {getattr(tensor, 'device', '?')}); "
                                  f"TMA reads GPU memory")
    shape, strides = tuple(tensor.shape), tuple(tensor.stride())
    if len(shape) not in (2, 3) or strides[-1] != 1:
        raise runtime.LaunchError(f"tensor_map: a 2-d tensor (rows, cols) or a 3-d one (L, rows, cols) with a "
                                  f"contiguous last dimension; got shape {shape}, strides {strides}")
    elem = _ELEMENTS.get(tensor.dtype)
    if elem is None:
        elem = _ELEMENTS[tensor.dtype] = ELEMENT_NAMES.get(str(tensor.dtype).split(".")[-1])
    if elem is None:
        raise runtime.LaunchError(f"tensor_map: element type {tensor.dtype} has no TMA data type")
    address, elem_bytes = int(tensor.data_ptr()), tensor.element_size()
    if len(shape) == 3:
        return runtime.tensor_map_3d(address, *shape, strides[1], strides[0], elem, elem_bytes, box_rows, box_cols,
                                     swizzle, device)
    return runtime.tensor_map_2d(address, shape[0], shape[1], strides[0], elem, elem_bytes, box_rows, box_cols,
                                 swizzle, device)


__all__ = ["device_info", "tensor_map"]
