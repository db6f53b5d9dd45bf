"""The host's half of a kernel whose CTAs add up each other's partial results (the GEMM's split-K and stream-K:
gemm/split_sums.py; attention's split KV): each stream's workspace -- the partial results and a zeroed counter per
split tile -- and a launch packed per stream.

A workspace belongs to one (GPU, stream): two launches running side by side on two streams must not count on
the same counters. The kernel leaves every counter it used at 0, so a workspace is zeroed once, when allocated;
the stream orders each launch after the last. Workspaces grow (to the next power of two) and are never freed: a
packed launch keeps the addresses it was packed with.
"""

from __future__ import annotations

from typing import Callable


class _Workspace:
    __slots__ = ("partials", "counters")

    def __init__(self, partials, counters):
        self.partials, self.counters = partials, counters


_WORKSPACES: dict[tuple[int, int], _Workspace] = {}
_OUTGROWN: list = []  # the buffers a grown workspace replaced: launches packed on them still run


def _at_least(nbytes: int) -> int:
    return 1 << max(nbytes - 1, 255).bit_length()


def split_workspace(torch, device, stream: int, partial_bytes: int, counters: int) -> tuple:
    """(partial sums, counters): `stream`'s workspace on `device` (a uint8 and an int32 tensor), with room for
    `partial_bytes` and `counters` i32 counters; allocated (counters zeroed, on torch's current stream) or grown
    here."""
    key = (device.index, stream)
    found = _WORKSPACES.get(key)
    if found is not None and found.partials.numel() >= partial_bytes and found.counters.numel() >= counters:
        return found.partials, found.counters
    if found is not None:
        _OUTGROWN.append(found)
        partial_bytes = max(partial_bytes, found.partials.numel())
        counters = max(counters, found.counters.numel())
    grown = _Workspace(torch.empty(_at_least(partial_bytes), dtype=torch.uint8, device=device),
                       torch.zeros(_at_least(4 * counters) // 4, dtype=torch.int32, device=device))
    _WORKSPACES[key] = grown
    return grown.partials, grown.counters


class SplitLaunch:
    """A split-K launch as a function of the stream: packed once per stream (`pack(partials, counters)`: the
    prepared launch with that stream's workspace), then replayed."""

    __slots__ = ("pack", "torch", "device", "partial_bytes", "counters", "by_stream")

    def __init__(self, torch, device, partial_bytes: int, counters: int, pack: Callable[[int, int], Callable]):
        self.torch, self.device, self.pack = torch, device, pack
        self.partial_bytes, self.counters = partial_bytes, counters
        self.by_stream: dict[int, Callable] = {}

    def __call__(self, stream: int) -> None:
        launch = self.by_stream.get(stream)
        if launch is None:
            workspace = split_workspace(self.torch, self.device, stream, self.partial_bytes, self.counters)
            launch = self.by_stream[stream] = self.pack(*workspace)
        launch(stream)


def forget_workspaces() -> None:
    """Drop every workspace (tests; a later split-K launch allocates again)."""
    _WORKSPACES.clear()
    _OUTGROWN.clear()


__all__ = ["SplitLaunch", "forget_workspaces", "split_workspace"]
