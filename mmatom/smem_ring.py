"""SmemRing: an N-stage ring of SMEM tiles between a TMA producer and its consumers (CuTe's PipelineTmaAsync).

Each stage holds one tile of every operand the ring was declared with, a `full` mbarrier (one producer arrival +
the bytes its TMA loads land; with `producers=1 + P`, also P plain arrivals of threads that write a tile
themselves: rows TMA cannot address, copied with cp.async and realigned) and an `empty` mbarrier (`consumers`
arrivals). Producer and consumers walk the same
sequence of iterations `it` (a counter the kernel carries through its loops); the ring turns it into the stage
(it % N) and the phase parity ((it / N) % 2, flipping each time the ring wraps). The producer waits `empty` with
the opposite parity (a fresh barrier counts as having completed the phase before its first), the consumers wait
`full` with the parity itself -- `verify-pipeline` proves the whole protocol at compile time.

    ring = kb.smem_ring(4, consumers=256, a=tiled.smem_desc_type("A"), b=tiled.smem_desc_type("B"))
    ring.init()                                    # one thread; then a CTA (or cluster) barrier
    # producer:  stage = ring.producer_acquire(it); kb.tma.load(map_a, row, k0, stage.a, stage.full)
    # consumers: stage = ring.consumer_wait(it); tiled.mma_smem(kb, stage.a.desc(), stage.b.desc(), acc)
    #            kb.wgmma.wait_group(0); ring.consumer_release(stage)
    # a tile written by P threads (ring declared with producers=1 + P):
    #   stage = ring.producer_wait(it)                # every writing thread
    #   with kb.if_(tid == 0): ring.expect(stage, "b"); kb.tma.load(map_b, row, k0, stage.b, stage.full)
    #   ... st.shared into stage.a ...; kb.sync.fence_proxy_async(); ring.producer_arrive(stage)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mmatom.dialects.mma_types import SmemDescType

from .errors import api_error
from .smem import SmemTile, SmemTiles, allocate_tiles
from .values import Value

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder

BARRIER_BYTES = 8


class Stage:
    """One stage of a ring, at a runtime index: its tiles by operand name (`stage.a`), its barriers."""

    def __init__(self, ring: SmemRing, index: Value):
        self.ring, self.index = ring, index

    def __getattr__(self, operand: str) -> SmemTile:
        tiles = self.__dict__["ring"].tiles
        if operand not in tiles:
            raise AttributeError(f"the ring holds tiles {', '.join(tiles)}; no {operand!r}")
        return tiles[operand][self.index]

    @property
    def full(self) -> Value:
        return self.ring.full(self.index)

    @property
    def empty(self) -> Value:
        return self.ring.empty(self.index)


class SmemRing:
    """An N-stage ring of SMEM operand tiles with full/empty mbarriers (see the module docstring)."""

    def __init__(self, kb: KernelBuilder, stages: int, consumers: int, tiles: dict[str, SmemDescType],
                 producers: int = 1):
        if stages < 1 or consumers < 1 or producers < 1 or not tiles:
            raise api_error(f"smem_ring: stages={stages}, consumers={consumers}, producers={producers}, tiles "
                            f"{list(tiles)}; positive counts and at least one operand tile")
        for name, tile in tiles.items():
            if not isinstance(tile, SmemDescType):
                raise api_error(f"smem_ring: tile {name}={tile!r} is not an !mma.smem_desc type")
        self.kb, self.stages, self.consumers, self.producers = kb, stages, consumers, producers
        self.tiles: dict[str, SmemTiles] = {name: allocate_tiles(kb, stages, t) for name, t in tiles.items()}
        self._barriers: Value | None = None

    @property
    def barriers(self) -> Value:
        """The ring's 2 x stages mbarriers (full, then empty), allocated when first used -- after the SMEM a kernel
        declares between the ring and its init, which keeps the large tiles together."""
        if self._barriers is None:
            self._barriers = self.kb.smem(2 * self.stages * BARRIER_BYTES, align=BARRIER_BYTES)
        return self._barriers

    @property
    def stage_bytes(self) -> int:
        """The bytes that land in one stage: every operand's whole tile (a cluster's slices included)."""
        return sum(t.tile_bytes for t in self.tiles.values())

    def full(self, stage: Value | int) -> Value:
        return self._barrier(stage, 0)

    def empty(self, stage: Value | int) -> Value:
        return self._barrier(stage, self.stages)

    def _barrier(self, stage: Value | int, first: int) -> Value:
        return self.barriers + (stage + first) * BARRIER_BYTES

    def init(self) -> None:
        """Initialise every barrier and fence the inits (run by one thread, then a CTA or cluster barrier)."""
        for s in range(self.stages):
            self.kb.mbarrier.init(self.full(s), self.producers)
            self.kb.mbarrier.init(self.empty(s), self.consumers)
        self.kb.mbarrier.fence_init()

    def stage(self, it: Value) -> Stage:
        """The stage of iteration `it`."""
        index = it % self.stages
        index.ssa.name_hint = "stage"  # what verify-pipeline's diagnostics call it
        return Stage(self, index)

    def _position(self, it: Value) -> tuple[Stage, Value]:
        stage = self.stage(it)
        phase = it // self.stages & 1
        phase.ssa.name_hint = "phase"
        return stage, phase

    def producer_acquire(self, it: Value) -> Stage:
        """Wait until the consumers released the stage of iteration `it`, then post the bytes the stage's TMA
        loads will land on its full barrier."""
        stage = self.producer_wait(it)
        self.expect(stage, *self.tiles)
        return stage

    def producer_wait(self, it: Value) -> Stage:
        """Wait until the consumers released the stage of iteration `it` (each thread that writes into it)."""
        stage, phase = self._position(it)
        self.kb.mbarrier.wait(stage.empty, phase ^ 1)
        return stage

    def expect(self, stage: Stage, *operands: str) -> None:
        """The producer's arrival on the stage's full barrier, posting the bytes TMA lands in these operands'
        tiles (one thread)."""
        unknown = [x for x in operands if x not in self.tiles]
        if unknown or not operands:
            raise api_error(f"smem_ring.expect: operands {list(operands)}; some of the ring's {', '.join(self.tiles)}")
        self.kb.mbarrier.arrive_expect_tx(stage.full, sum(self.tiles[x].tile_bytes for x in operands))

    def producer_arrive(self, stage: Stage) -> None:
        """This thread wrote its part of the stage itself (after kb.sync.fence_proxy_async, which shows its
        shared-memory stores to the wgmma that reads them): a plain arrival on the full barrier (the ring declared
        with one more producer per such thread)."""
        if self.producers == 1:
            raise api_error("smem_ring.producer_arrive: the ring counts one producer (its TMA arrival); declare it "
                            "with producers=1 + the threads that write a tile themselves")
        self.kb.mbarrier.arrive(stage.full)

    def consumer_wait(self, it: Value) -> Stage:
        """Wait until the stage of iteration `it` is full."""
        stage, phase = self._position(it)
        self.kb.mbarrier.wait(stage.full, phase)
        return stage

    def consumer_release(self, stage: Stage) -> None:
        """This thread is done reading the stage (after the wgmma wait that covers its reads)."""
        self.kb.mbarrier.arrive(stage.empty)


__all__ = ["SmemRing", "Stage"]
