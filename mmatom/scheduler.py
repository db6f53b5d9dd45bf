"""TileScheduler: which output tiles a persistent CTA computes, in which order (CuTe's tile scheduler).

The output is a grid of tiles_m x tiles_n tiles (Python ints, or runtime Values: one kernel for every shape). A
cluster of cluster_m x cluster_n CTAs takes that many neighbouring tiles as one unit (each CTA its own tile of the
unit, by its rank). The units are walked in grouped
raster order -- `group_m` rows of units at a time, down the rows then across -- so that a wave of CTAs shares
rows of A and columns of B in L2. A persistent CTA (or cluster) takes units first, first + step, ... where first is
its index in the grid and step the grid's size; `every=2` takes every other one (ping-pong consumers sharing a CTA).
`layers` stacks that many such grids (a batch of GEMMs, or the K slices of a split-K GEMM), walked one whole layer
after the other so that a wave's CTAs share A and B in L2: `layer(unit)` says which. `snake=True` walks every odd
whole wave of units backwards (the CTA that took a wave's first unit takes the next wave's last): where units differ
in length down a grid's rows (causal attention's query blocks), each CTA gets a long one and a short one in turn
instead of the same row of every wave (snake_unit). `group_m` and `snake` may be runtime values (an i32, an i1): a
host that knows the units' lengths picks the walk per launch.

    sched = kb.tile_scheduler(tiles_m, tiles_n, cluster=(2, 1), group_m=8)
    with (tiles := sched.loop([it0])) as (t, (it,)):
        row_tile, col_tile = sched.coords(t)
        ...
        tiles.yield_(it_next)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import api_error
from .values import Value, ceil_div, min_value, select

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder
    from .control_flow import Loop


class TileScheduler:
    """A persistent, grouped-raster walk over tiles_m x tiles_n output tiles in units of a cluster."""

    def __init__(self, kb: KernelBuilder, tiles_m: Value | int, tiles_n: Value | int, cluster: tuple[int, int] = (1, 1),
                 group_m: Value | int = 1, layers: Value | int = 1, snake: Value | bool = False):
        cluster_m, cluster_n = cluster
        counts = [x for x in (tiles_m, tiles_n, cluster_m, cluster_n, group_m, layers) if not isinstance(x, Value)]
        if min(counts) < 1:
            raise api_error(f"tile_scheduler: {tiles_m} x {tiles_n} tiles, cluster {cluster_m}x{cluster_n}, "
                            f"group_m={group_m}, layers={layers}; each must be positive")
        if cluster_m * cluster_n > 1 and (kb.cluster_shape or (1, 1))[:2] != (cluster_m * cluster_n, 1):
            raise api_error(f"tile_scheduler: a {cluster_m}x{cluster_n} cluster in a kernel launched in clusters of "
                            f"{kb.cluster_shape}; declare KernelBuilder(cluster=({cluster_m * cluster_n}, 1, 1))")
        self.kb, self.tiles_m, self.tiles_n = kb, tiles_m, tiles_n
        self.cluster_m, self.cluster_n, self.group_m = cluster_m, cluster_n, group_m
        self.units_m, self.units_n = ceil_div(tiles_m, cluster_m), ceil_div(tiles_n, cluster_n)
        self.layer_units = self.units_m * self.units_n  # units (a tile, or a cluster's tiles) of one layer
        self.layers = layers
        self.units = self.layer_units * layers  # units in the walk: the loop's end
        self.rank = kb.cluster.rank() if self.cluster_size > 1 else 0  # this CTA's tile within its unit
        self.snake = snake

    @property
    def layered(self) -> bool:
        """More than one layer, or a runtime count of them."""
        return isinstance(self.layers, Value) or self.layers > 1

    @property
    def cluster_size(self) -> int:
        return self.cluster_m * self.cluster_n

    def first(self) -> Value:
        """This CTA's first unit: its CTA index, or its cluster's."""
        return self.kb.cluster.id() if self.cluster_size > 1 else self.kb.ctaid()

    def step(self) -> Value:
        """The distance between a CTA's units: the grid's CTAs, or clusters."""
        return self.kb.cluster.count() if self.cluster_size > 1 else self.kb.nctaid()

    def loop(self, carried, first: Value | int = 0, every: int = 1) -> Loop:
        """`scf.for` over this CTA's units, from its `first`-th on, taking one in `every`, carrying `carried`."""
        if self.snake is not False and every != 1:
            raise api_error(f"tile_scheduler: snake=True walks whole waves; a loop taking one unit in {every} has none")
        start, step = self.first(), self.step()
        return self.kb.for_range(start + step * first, self.units, step * every, carried)

    def walked(self, t: Value) -> Value:
        """The unit at loop index `t` (what `loop` yields): `t` itself, or with snake (True, or an i1 a kernel
        argument decides at run time) snake_unit's."""
        if self.snake is False:
            return t
        return snake_unit(t, self.step(), self.units, None if self.snake is True else self.snake)

    def layer(self, unit: Value) -> Value | int:
        """The layer the unit at loop index `unit` belongs to (0 when there is one)."""
        return self.walked(unit) // self.layer_units if self.layered else 0

    def coords(self, unit: Value) -> tuple[Value, Value]:
        """(row tile, column tile) of this CTA in the unit at loop index `unit`, within its layer: grouped raster over
        units, then the CTA's rank."""
        unit = self.walked(unit)
        if self.layered:
            unit = unit % self.layer_units
        group = self.group_m * self.units_n
        first_m = unit // group * self.group_m
        rows = min_value(self.units_m - first_m, self.group_m)  # the last group may have fewer rows
        within = unit % group
        unit_m, unit_n = first_m + within % rows, within // rows
        row_tile = unit_m * self.cluster_m + self.rank if self.cluster_m > 1 else unit_m
        col_tile = unit_n * self.cluster_n + self.rank if self.cluster_n > 1 else unit_n
        return row_tile, col_tile

    def has_next(self, unit: Value, every: int = 1) -> Value:
        """An i1: this CTA has a unit after `unit` (taking one in `every`)."""
        return unit + self.step() * every < self.units

    def has_previous(self, unit: Value) -> Value:
        """An i1: this CTA took a unit before `unit` (whichever of its consumers took it)."""
        return unit >= self.first() + self.step()

def snake_unit(t: Value | int, step: Value | int, units: Value | int, when: Value | None = None) -> Value | int:
    """The unit a persistent CTA takes at loop index t = first + w x step (w its wave): forwards in even waves,
    backwards in odd ones that are whole (the last, partial wave stays forwards: its units are the first CTAs'); with
    `when` (an i1) only where it holds."""
    wave_start = t - t % step
    backward = wave_start + (step - 1) - (t - wave_start)
    odd_whole = ((t // step) % 2 == 1) & (wave_start + step <= units)
    if when is not None:
        odd_whole = odd_whole & when
    if isinstance(odd_whole, Value):
        return select(odd_whole, backward, t)
    return backward if odd_whole else t


__all__ = ["TileScheduler", "snake_unit"]
