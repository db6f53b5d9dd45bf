"""What the kernels' torch hosts share: TMA tensor maps cached by the tensor they describe (a serving loop calls with
the same buffers again and again: encoding a map costs microseconds) and torch's current stream as a raw handle."""

from __future__ import annotations

import mmatom

CACHED_MAPS = 4096  # tensor maps kept (a bound: a caller may keep allocating new buffers)
_MAPS: dict[tuple, object] = {}


def tensor_key(x) -> tuple:
    """What a launch packed with `x` depends on: its address, shape, strides, dtype and device."""
    return x.data_ptr(), x.shape, x.stride(), x.dtype, x.device  # torch.Size: a tuple already


def tensor_map(x, box_rows: int, box_cols: int):
    """mmatom.tensor_map(x, box_rows, box_cols), encoded once per tensor and box."""
    key = (*tensor_key(x), box_rows, box_cols)
    found = _MAPS.get(key)
    if found is None:
        if len(_MAPS) >= CACHED_MAPS:
            _MAPS.clear()
        found = _MAPS[key] = mmatom.tensor_map(x, box_rows, box_cols)
    return found


def forget_maps() -> None:
    """Drop the cached maps (a benchmark timing the encodes)."""
    _MAPS.clear()


def current_stream(torch, device) -> int:
    """torch's current stream on `device` as a raw handle (torch.cuda.current_stream() builds a Stream object:
    ~10 us of a small GEMM's host path)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(device.index) if raw is not None else torch.cuda.current_stream(device).cuda_stream


__all__ = ["current_stream", "forget_maps", "tensor_key", "tensor_map"]
