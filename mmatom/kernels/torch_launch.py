"""What the kernels' torch hosts share: TMA tensor maps cached by the tensor they describe (a serving loop calls with
the same buffers again and again: encoding a map costs microseconds), torch's current stream as a raw handle, and
tensors' addresses for a launch packed later."""

from __future__ import annotations

import mmatom

CACHED_MAPS = 4096  # tensor maps kept (a bound: a caller may keep allocating new buffers)
_MAPS: dict[tuple, object] = {}


def tensor_key(x) -> tuple:
    """What a launch packed with `x` depends on: its address, shape, strides, dtype and device."""
    return x.data_ptr(), x.shape, x.stride(), x.dtype, x.device  # torch.Size: a tuple already


def tensor_map(x, box_rows: int, box_cols: int, swizzle: str = "128b"):
    """mmatom.tensor_map(x, box_rows, box_cols, swizzle), encoded once per tensor, box and swizzle."""
    key = (*tensor_key(x), box_rows, box_cols, swizzle)
    found = _MAPS.get(key)
    if found is None:
        if len(_MAPS) >= CACHED_MAPS:
            _MAPS.clear()
        found = _MAPS[key] = mmatom.tensor_map(x, box_rows, box_cols, swizzle)
    return found


def forget_maps() -> None:
    """Drop the cached maps (a benchmark timing the encodes)."""
    _MAPS.clear()


class DeviceAddress:
    """A CUDA tensor's address and GPU, without the tensor: what a launch packed later (per stream, split_workspace.
    SplitLaunch) keeps in place of the call's tensors. Holding them would keep each call's outputs and per-call
    operands alive, so the next call's could never land at their addresses -- and the prepared-launch caches, keyed
    by address, would miss on every call."""

    __slots__ = ("address", "device")
    is_cuda = True  # what the runtime's argument packing asks (runtime.device_of, runtime._device_pointer)

    def __init__(self, tensor):
        self.address, self.device = tensor.data_ptr(), tensor.get_device()

    def data_ptr(self) -> int:
        return self.address

    def get_device(self) -> int:
        return self.device


def addresses(args) -> list:
    """`args` with every CUDA tensor among them as its DeviceAddress (tensor maps, sizes: as they are)."""
    return [DeviceAddress(x) if getattr(x, "is_cuda", False) and hasattr(x, "data_ptr") else x for x in args]


def current_stream(torch, device) -> int:
    """torch's current stream on `device` as a raw handle (torch.cuda.current_stream() builds a Stream object:
    ~10 us of a small GEMM's host path)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(device.index) if raw is not None else torch.cuda.current_stream(device).cuda_stream


__all__ = ["DeviceAddress", "addresses", "current_stream", "forget_maps", "tensor_key", "tensor_map"]
