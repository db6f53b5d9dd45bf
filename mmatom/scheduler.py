"""TileScheduler: which output tiles a persistent CTA computes, in which order (CuTe's tile scheduler).

The output is a grid of tiles_m x tiles_n tiles (Python ints, or runtime Values: one kernel for every shape). A
cluster of cluster_m x cluster_n CTAs takes that many neighbouring tiles as one unit (each CTA its own tile of the
unit, by its rank: row rank_m = rank % cluster_m, column rank_n = rank // cluster_m). The units are walked in grouped
raster order -- `group_m` rows of units at a time, down the rows then across -- so that a wave of CTAs shares
rows of A and columns of B in L2. A persistent CTA (or cluster) takes units first, first + step, ... where first is
its index in the grid and step the grid's size; `every=2` takes every other one (ping-pong consumers sharing a CTA).
`layers` stacks that many such grids (a batch of GEMMs, or the K slices of a split-K GEMM), walked one whole layer
after the other so that a wave's CTAs share A and B in L2: `layer(unit)` says which. `snake=True` walks every odd
whole wave of units backwards (the CTA that took a wave's first unit takes the next wave's last): where units differ
in length down a grid's rows (causal attention's query blocks), each CTA gets a long one and a short one in turn
instead of the same row of every wave (snake_unit). `group_m` and `snake` may be runtime values (an i32, an i1): a
host that knows the units' lengths picks the walk per launch. Where no raster spreads them evenly, ListedWalk walks
the units a host-built table lists per CTA (a static schedule: kb.listed_walk).

    sched = kb.tile_scheduler(tiles_m, tiles_n, cluster=(2, 1), group_m=8)
    with (tiles := sched.loop([it0])) as (t, (it,)):
        row_tile, col_tile = sched.coords(t)
        ...
        tiles.yield_(it_next)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .errors import api_error
from .values import Value, ceil_div, max_value, min_value, select

if TYPE_CHECKING:
    from .kernel_builder import KernelBuilder
    from .control_flow import Loop


class TileScheduler:
    """A persistent, grouped-raster walk over tiles_m x tiles_n output tiles in units of a cluster."""

    def __init__(self, kb: KernelBuilder, tiles_m: Value | int, tiles_n: Value | int, cluster: tuple[int, int] = (1, 1),
                 group_m: Value | int = 1, layers: Value | int = 1, snake: Value | bool = False, shared_by: int = 1):
        """`shared_by`: CTAs of a cluster that all take each of its units (split-K in a cluster: each its slice of
        the tile's K, by its rank); the cluster walks the units as one CTA would."""
        cluster_m, cluster_n = cluster
        if shared_by > 1 and (cluster_m * cluster_n > 1 or (kb.cluster_shape or (1, 1, 1)) != (shared_by, 1, 1)):
            raise api_error(f"tile_scheduler: units shared by {shared_by} CTAs of a cluster take a kernel launched in "
                            f"clusters of ({shared_by}, 1, 1) and no {cluster_m}x{cluster_n} cluster of tiles; the "
                            f"kernel's clusters are {kb.cluster_shape}")
        self.shared_by = shared_by
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
        # its row and column of tiles within the unit: rank = rank_m + cluster_m * rank_n
        both = cluster_m > 1 and cluster_n > 1
        self.rank_m = self.rank % cluster_m if both else self.rank if cluster_m > 1 else 0
        self.rank_n = self.rank // cluster_m if both else self.rank if cluster_n > 1 else 0
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
        return self.kb.cluster.id() if self.cluster_size > 1 or self.shared_by > 1 else self.kb.ctaid()

    def step(self) -> Value:
        """The distance between a CTA's units: the grid's CTAs, or clusters."""
        return self.kb.cluster.count() if self.cluster_size > 1 or self.shared_by > 1 else self.kb.nctaid()

    def loop(self, carried, first: Value | int = 0, every: int = 1) -> Loop:
        """`scf.for` over this CTA's units, from its `first`-th on, taking one in `every`, carrying `carried`."""
        if self.snake is not False and every != 1:
            raise api_error(f"tile_scheduler: snake=True walks whole waves; a loop taking one unit in {every} has none")
        start, step = self.first(), self.step()
        return self.kb.for_range(start + step * first, self.units, step * every, carried)

    def unit(self, t: Value) -> Value:
        """The unit of loop index `t`, as coords and layer take it: `t` (they apply the walk; ListedWalk's loads
        it)."""
        return t

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
        row_tile = unit_m * self.cluster_m + self.rank_m if self.cluster_m > 1 else unit_m
        col_tile = unit_n * self.cluster_n + self.rank_n if self.cluster_n > 1 else unit_n
        return row_tile, col_tile

    def has_next(self, unit: Value, every: int = 1) -> Value:
        """An i1: this CTA has a unit after `unit` (taking one in `every`)."""
        return unit + self.step() * every < self.units

    def has_previous(self, unit: Value) -> Value:
        """An i1: this CTA took a unit before `unit` (whichever of its consumers took it)."""
        return unit >= self.first() + self.step()


class ListedWalk:
    """A persistent walk whose units the host lists per CTA: a static schedule balanced on the host, where units
    differ in length (causal attention's query blocks) and neither a raster nor a snake spreads them evenly, or a
    unit is cut into parts (a tile's KV blocks over several CTAs). The list is an i32 table in global memory
    (`table`, a pointer): its first nctaid + 1 entries are where each CTA's entries start in the rest (CTA c's are
    entries [starts[c], starts[c + 1]) after them), each entry `words` words, the first a unit of `tiles` (its plain
    walk: group_m 1, no snake) that its `coords` and `layer` decode, the others the kernel's own (e.g. a KV range).
    ListedWalk.table builds such a table on the host.

        walk = kb.listed_walk(kb.tile_scheduler(m_tiles, heads, layers=batch), kb.param("walk"), words=3)
        with (tiles := walk.loop([it0])) as (i, (it,)):
            unit, lo, hi = walk.entry(i)             # loads of the table
            row_tile, head = walk.coords(unit)
    """

    def __init__(self, kb: KernelBuilder, tiles: TileScheduler, table: Value, words: int = 1):
        if tiles.cluster_size > 1 or not (tiles.snake is False and isinstance(tiles.group_m, int)
                                          and tiles.group_m == 1):
            raise api_error("listed_walk: the listed units are decoded by the tile scheduler's plain walk (no "
                            "clusters, group_m=1, no snake); the host's table sets the order")
        if not isinstance(words, int) or words < 1:
            raise api_error(f"listed_walk: {words!r} words an entry; at least 1 (the unit)")
        self.kb, self.tiles, self.table, self.words = kb, tiles, table, words

    def loop(self, carried) -> Loop:
        """`scf.for` over the list index of this CTA's entries (walk.entry(i) reads one)."""
        kb, cta = self.kb, self.kb.ctaid()
        start, end = (kb.load_scalar(self.table, "i32", cta + i) for i in (0, 1))
        return kb.for_range(start, end, 1, carried)

    def entry(self, index: Value, start: int = 0, stop: int | None = None) -> list[Value]:
        """The entry at list index `index`: its i32 words [start, stop) (all `words` by default; the unit is word
        0). Words read where they are used are not held in registers in between."""
        first = self._first(index)
        stop = self.words if stop is None else stop
        return [self.kb.load_scalar(self.table, "i32", first + w) for w in range(start, stop)]

    def unit(self, index: Value) -> Value:
        """The unit of the entry at list index `index`."""
        return self.kb.load_scalar(self.table, "i32", self._first(index))

    def _first(self, index: Value) -> Value:
        """Where entry `index` starts in the table (the CTAs' nctaid + 1 starts come first)."""
        return self.kb.nctaid() + 1 + index * self.words

    def coords(self, unit: Value) -> tuple[Value, Value]:
        return self.tiles.coords(unit)

    def layer(self, unit: Value) -> Value | int:
        return self.tiles.layer(unit)

    @staticmethod
    def table(lists, words: int = 1) -> np.ndarray:
        """The i32 table (a numpy array) of per-CTA lists (`lists[c]`: CTA c's entries in order, each a unit, or a
        tuple of `words` ints, the unit first)."""
        sizes = np.array([len(entries) for entries in lists], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)])
        entries = np.array([e for entries in lists for e in entries], dtype=np.int64).reshape(-1, words)
        if starts[-1] * words >= 2**31 or np.abs(entries).max(initial=0) >= 2**31:
            raise api_error(f"listed_walk: {starts[-1]} entries of {words} words; the table holds i32")
        return np.concatenate([starts, entries.reshape(-1)]).astype(np.int32)


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


MAX_SEGMENTS = 4  # stream-K: a last-wave tile's runs at most (about: a run may also end or start inside it)


class StreamKWalk:
    """Stream-K (Osama et al., 2023) for the last wave: whole waves of tiles are walked as `tiles` walks them (tile
    c + w x ctas for CTA c in wave w: the wave's tiles neighbours in raster order, sharing A and B in L2), and the
    tiles of a last, partial wave -- which would leave SMs idle -- have their K steps cut into as many equal runs as
    the grid has CTAs, one run each. A run covers the end of one tile, whole tiles, and the start of another. A tile
    whose steps fall in one run is computed whole; one split between runs has a segment in each, which write
    partial sums that the segment finishing last adds up (kernels/gemm/split_sums.py). Each run writes at most two
    partial segments, its first and its last: slot 2c and 2c + 1 of CTA c, a workspace of 2 x the grid's CTAs
    tiles. (All of the steps as one sequence of runs measured slower on the H100 -- 8192^3 bf16 3282 us against
    1425, runs of consecutive tiles losing the waves' L2 sharing: benchmarks/gemm_stream_k.py.)

        walk = kb.stream_k(sched, k_steps)          # sched: a TileScheduler without clusters or layers
        with (units := walk.loop([it0])) as (u, (it,)):
            t = walk.tile(u)                         # the tile (sched.coords(t): its row and column)
            first, steps = walk.segment(t)           # this CTA's K steps of it: first .. first + steps - 1
            ...
            with kb.if_(walk.whole(t)): ...          # all its steps this CTA's: the plain epilogue

    The runs: the last wave's `work` = its tiles x k_steps steps over `runs` = min(ctas, its tiles x MAX_SEGMENTS)
    of the grid's CTAs (the host launches no more CTAs than tiles x k_steps), run c of `work // runs` steps, and one
    more for the first `work % runs` runs: a last wave of few tiles is split 4 ways, not over every SM -- each
    split tile's last segment reads the others' partial sums alone, so a tile over 11 CTAs (12 tiles on 132 SMs)
    cost more than its runs saved (benchmarks/gemm_stream_k.py, H100)."""

    def __init__(self, kb: KernelBuilder | None, tiles: TileScheduler, k_steps: Value | int,
                 grid: tuple[int, int] | None = None):
        """`grid` (the grid's CTAs, this CTA's index), Python ints with `tiles.units` and `k_steps`: the same
        arithmetic on the host (a model of the kernel's walk: tests, a host's planning); else the kernel's."""
        if tiles.cluster_size > 1 or isinstance(tiles.layers, Value) or tiles.layers != 1:
            raise api_error("stream_k: a walk over one layer of single-CTA tiles (no cluster, no layers)")
        self.kb, self.tiles, self.k_steps = kb, tiles, k_steps
        self.ctas, self.cta = grid if grid is not None else (kb.nctaid(), kb.ctaid())
        self.waves = tiles.units // self.ctas  # whole waves: walked tile by tile
        self.walked = self.waves * self.ctas  # the tiles before the last wave's
        # the last wave's tiles in at most MAX_SEGMENTS runs each (the tile's last segment reads every other one's
        # partial sums alone), over as many CTAs as that takes; the rest have none
        last_tiles = tiles.units - self.walked
        self.runs = max_value(min_value(self.ctas, last_tiles * MAX_SEGMENTS), 1)
        work = last_tiles * k_steps
        self.per, self.extra = work // self.runs, work % self.runs  # run length; runs one step longer
        self.start, self.end = self.run_start(self.cta), self.run_start(self.cta + 1)
        first, last = self.start // k_steps, (self.end - 1) // k_steps
        self.first_tile = self.walked + first  # this CTA's first tile of the last wave, and how many
        self.last_wave_tiles = _pick(self.end > self.start, last - first + 1, 0)

    def run_start(self, cta) -> Value:
        """The first step of CTA `cta`'s run (steps of the last wave's tiles, from its first tile's first); past
        the runs, the end of the last one (an empty run)."""
        return min_value(cta, self.runs) * self.per + min_value(cta, self.extra)

    def run_of(self, step) -> Value:
        """The CTA whose run holds the last wave's step `step`."""
        long_steps = self.extra * (self.per + 1)  # the longer runs' steps come first
        return _pick(step < long_steps, step // (self.per + 1),
                     self.extra + (step - long_steps) // max_value(self.per, 1))

    def loop(self, carried) -> Loop:
        """`scf.for` over this CTA's units -- its whole waves' tiles, then its last-wave tiles -- carrying
        `carried`; `tile(u)` is the unit's tile."""
        return self.kb.for_range(0, self.waves + self.last_wave_tiles, 1, carried)

    def tile(self, unit) -> Value:
        """The tile (its index in `tiles`' walk) of this CTA's unit `unit`."""
        return _pick(unit < self.waves, self.cta + unit * self.ctas, self.first_tile + unit - self.waves)

    def segment(self, tile) -> tuple[Value, Value]:
        """(first K step, K steps) of tile `tile` this CTA computes: all of a whole wave's tile."""
        base = (tile - self.walked) * self.k_steps
        first = max_value(self.start, base)
        in_wave = tile < self.walked
        return _pick(in_wave, 0, first - base), \
            _pick(in_wave, self.k_steps, min_value(self.end, base + self.k_steps) - first)

    def segments(self, tile) -> tuple[Value, Value]:
        """(the first CTA, how many CTAs) with a segment of a last-wave tile `tile`."""
        base = (tile - self.walked) * self.k_steps
        first = self.run_of(base)
        return first, self.run_of(base + self.k_steps - 1) - first + 1

    def whole(self, tile) -> Value:
        """An i1: this CTA computes all of tile `tile`'s K steps."""
        return self.segment(tile)[1] == self.k_steps

    def slot(self, cta, tile) -> Value:
        """The workspace slot of CTA `cta`'s partial sums of last-wave tile `tile`: 2 cta for its run's first
        tile, else 2 cta + 1 (its last)."""
        return cta * 2 + _pick(self.walked + self.run_start(cta) // self.k_steps == tile, 0, 1)


def _pick(condition, a, b):
    """`condition ? a : b`: select on kernel values, Python's on the host's ints."""
    if isinstance(condition, Value):
        return select(condition, a, b)
    return a if condition else b


__all__ = ["ListedWalk", "StreamKWalk", "TileScheduler", "snake_unit"]
