"""The H100 GEMM kernel, D (m x n) = A (m x k) . B (n x k)^T [* scale_a * scale_b: per tensor, or per row and column],
on mmatom's public API.

sm_90a (A and B bf16, f16, or fp8 of either kind each), persistent (one CTA per SM walking output tiles in grouped raster order: TileScheduler) and warp-specialized:
warpgroup 0 is the producer -- one thread TMA-loads A and B tiles, 128B-swizzled, into an N-stage SmemRing, its
registers given away with setmaxnreg (a kernel that realigns rows TMA cannot address: warpgroups 0 and 1, every
thread copying, realigned_loads.py) -- and the two warpgroups after it are the consumers, cooperative (one tile, half its
rows each) or ping-pong (a tile each, taking turns on the tensor cores), issuing one wgmma tile op per K step with
the accumulators in registers; a config may keep the previous step's wgmma in flight, and pair CTAs in a cluster
that multicasts A or B. The epilogue converts to bf16 or f16 (or keeps f32), stmatrix-es 64-row boxes into swizzled SMEM
(double-buffered per warpgroup) and TMA-stores them, which also clips the M and N tails -- or (`direct_d`, D's rows
at a pitch TMA cannot store to) reads each box back and stores it through D's pointer (direct_store.py); the K tail
reads TMA's zero fill.

    module, launch = HopperGemm("bf16", "sm_90a", GemmConfig(), "bf16").build()
    module, launch = HopperGemm("e4m3", "sm_90a", GemmConfig(), "bf16", rowwise=True).build()  # scales of M, N

The sizes are kernel arguments (m, n, k after the tensor maps): one compiled kernel per config serves every shape,
its tile counts and K loop computed on the device; the tensor maps carry the extents TMA clips at.
"""

from __future__ import annotations

from dataclasses import replace

import mmatom
from mmatom import ceil_div

from mmatom.errors import api_error

from .config import (BOX, BOX_BYTES, CONSUMER_REGISTERS, CONSUMER_THREADS, FP8, ORDER_BARRIER, OUT_DTYPES,
                     PRODUCER_REGISTERS, REALIGNED_ACCUMULATORS, REALIGNING_REGISTERS, GemmConfig, box_columns,
                     box_row_bytes, check_dtypes, check_majors, operand_box, output_box, output_swizzle)
from .cluster_sums import HANDOVER_BARRIERS, ClusterSums
from .direct_store import DirectStore
from .realigned_loads import PRODUCER_THREADS, PRODUCER_WARPGROUPS, RealignedLoads, raw_bytes
from .split_sums import REALIGNED_SUMMED_AT_ONCE, SUMMED_AT_ONCE, TIGHT_SUMMED_AT_ONCE, SliceSums


def _check_variant(config: GemmConfig, dtype: str, out_dtype: str, batched: bool, rowwise: bool, direct_d: bool,
                   realigned: tuple) -> None:
    """The kernel variants a config does not combine with: a CompileError naming both."""
    if config.swap_ab and (out_dtype == "f32" or batched):
        raise api_error(f"build_gemm: a swapped-operand config ({config.name}) stages D transposed with "
                        f"stmatrix.trans into a 16-bit D, not batched; out_dtype {out_dtype!r}, batched={batched}")
    if (config.split_k or config.stream_k) and batched:
        raise api_error(f"build_gemm: a split-K or stream-K config ({config.name}) runs one GEMM's K slices or "
                        f"runs, not a batch (batched=True)")
    if config.cluster_k > 1 and (batched or realigned):
        raise api_error(f"build_gemm: a split-K-in-a-cluster config ({config.name}) runs one GEMM's K slices on TMA-"
                        f"loaded operands; batched={batched}, realigned operands {list(realigned)}")
    if config.stream_k and realigned:
        raise api_error(f"build_gemm: a stream-K config ({config.name}) with realigned operands {list(realigned)}; "
                        f"the realigning producer walks whole tiles")
    if direct_d and box_row_bytes(config, out_dtype) != 128:
        raise api_error(f"build_gemm: a D stored through its pointer (direct_d) reads staged boxes of 128-byte "
                        f"rows; config {config.name} stages {out_dtype} D in 64-byte rows (block_n "
                        f"{config.block_n}): a block_n that is a multiple of 64")
    if direct_d and batched:
        raise api_error(f"build_gemm: a D stored through its pointer (direct_d) takes one 2-d D, not a batch; "
                        f"config {config.name}")
    if direct_d and config.stream_k and config.accumulators > DIRECT_STREAM_K_ACCUMULATORS:
        raise api_error(f"build_gemm: a D stored through its pointer (direct_d) after stream-K's fixup holds at "
                        f"most {DIRECT_STREAM_K_ACCUMULATORS} accumulators a thread (ptxas spilled beside "
                        f"{config.accumulators}); config {config.name}: its whole-tile config "
                        f"{replace(config, stream_k=False).name}, or a stream-K tile of 64")
    if rowwise and (dtype not in FP8 or batched):
        raise api_error(f"build_gemm: rowwise scales (scale_a of M, scale_b of N elements) are for a 2-d fp8 "
                        f"GEMM; dtype {dtype!r}, batched={batched}")


class HopperGemm:
    """One GEMM kernel: element types and config fixed at construction (Python), the kernel built by `build()`;
    its sizes are runtime values."""

    def __init__(self, dtype: str = "bf16", target: str = "sm_90a", config: GemmConfig = GemmConfig(),
                 out_dtype: str = "bf16", b_dtype: str | None = None, b_major: str = "k", a_major: str = "k",
                 batched: bool = False, rowwise: bool = False, direct_d: bool = False, realigned: tuple = ()):
        config.check(dtype)
        check_dtypes("build_gemm", dtype, out_dtype, b_dtype)
        check_majors("build_gemm", a_major, b_major, dtype, config)
        _check_variant(config, dtype, out_dtype, batched, rowwise, direct_d, realigned)
        self.batched = batched  # A, B and D of L layers (3-d tensor maps): the scheduler's layers are the batch
        self.rowwise = rowwise  # fp8: D scaled by scale_a[row] * scale_b[col], not by two scalars
        self.direct_d = direct_d  # D's rows at any pitch: each staged box stored by the threads, not TMA
        # operands whose rows TMA cannot address (not 16-byte aligned), copied and realigned by the producer
        self.realigned = tuple(x for x in "ab" if x in realigned)
        self.dtype, self.b_dtype, self.target = dtype, b_dtype or dtype, target
        self.majors = {"a": a_major, "b": b_major}
        self.config, self.out_dtype, self.fp8 = config, out_dtype, dtype in FP8
        self.bm, self.bn, self.bk = config.block_m, config.block_n, config.block_k(dtype)
        self.warpgroups = config.tile_warpgroups  # consumer warpgroups sharing one tile
        self.tiled = self._tiled_mma(self.bm, self.bn, self.warpgroups)
        # the rows of A / B each CTA of a cluster loads (and multicasts to the others)
        self.slice_rows = {"a": self.bm // config.cluster_n, "b": self.bn // config.cluster_m}
        self.sliced = {"a": config.cluster_n > 1, "b": config.cluster_m > 1}
        self.stages, self.raw_depth = realigned_ring(config, dtype, self.realigned, batched, (a_major, b_major))
        # warpgroups 0 .. producers - 1 load (one, or those that realign), the two after them consume
        self.producer_warpgroups = PRODUCER_WARPGROUPS if self.realigned else 1

    def _tiled_mma(self, rows: int, cols: int, warpgroups: int) -> mmatom.TiledMma:
        """`warpgroups` warpgroups of m64 x `cols` wgmma atoms over a rows x cols x block_k step."""
        atom = mmatom.atom(self.target, "wgmma", m=64, n=cols, k=32 if self.fp8 else 16, a=self.dtype,
                           b=self.b_dtype, d="f32")
        return mmatom.TiledMma(atom, atom_layout_mnk=(warpgroups, 1, 1), permutation=(rows, cols, self.bk))

    def _slice_types(self) -> dict:
        """The SMEM tile a TMA box of each operand lands as: the whole tile, or one CTA's slice of it."""
        tile_a = self.tiled.smem_desc_type("A")
        if self.majors["a"] == "m":  # boxes of a K x M tensor: block_k rows of K x 64 columns of M each
            tile_a = self._tiled_mma(BOX, self.bn, 1).smem_desc_type("A", major="mn")
        elif self.sliced["a"]:
            tile_a = self._tiled_mma(self.slice_rows["a"], self.bn, 1).smem_desc_type("A")
        tile_b = self.tiled.smem_desc_type("B")
        if self.majors["b"] == "n":  # boxes of a K x N tensor: block_k rows of K x 64 columns of N each
            tile_b = self._tiled_mma(self.bm, BOX, self.warpgroups).smem_desc_type("B", major="mn")
        elif self.sliced["b"]:
            tile_b = self._tiled_mma(self.bm, self.slice_rows["b"], self.warpgroups).smem_desc_type("B")
        return {"a": tile_a, "b": tile_b}

    # -- the kernel ---------------------------------------------------------------------------------------------

    def build(self) -> tuple[object, mmatom.LaunchConfig]:
        """The kernel's module and its launch config (the grid is the host's: host.persistent_ctas)."""
        kb = self.kb = self._declare()
        self.tid = kb.tid()
        with kb.if_(self.tid == 0):
            self.ring.init()
            if self.paired:
                ClusterSums.init(kb, self.handover_bars)
                kb.mbarrier.fence_init()
        if self.clustered or self.paired:
            self._all_ctas_meet()
        else:
            kb.sync.barrier()
        with kb.if_(kb.warpgroup_id() < self.producer_warpgroups) as role:
            self.producer()
        with role.otherwise():
            self.consumer()
        if self.clustered or self.paired:
            self._all_ctas_meet()  # no CTA exits while a peer may still multicast into it, release its stages or
            # hand it sums
        return kb.finish()

    @property
    def clustered(self) -> bool:
        """CTAs of a cluster on different tiles, multicasting operands."""
        return self.config.cluster_size > 1

    @property
    def paired(self) -> bool:
        """CTAs of a cluster on one tile's slices of K, adding their sums up in shared memory (cluster_sums.py)."""
        return self.config.cluster_k > 1

    def _all_ctas_meet(self) -> None:
        """Every CTA of the cluster: its barriers exist before a peer multicasts into it or releases its stages."""
        self.kb.cluster.sync()

    def _params(self) -> list:
        """The kernel's parameters: the tensor maps (or pointers) of A, B and D, the sizes, then what the variant
        takes."""
        c, batched = self.config, self.batched
        box_a, box_b = (operand_box(c, self.dtype, x, self.majors[x]) for x in "ab")
        params = [("a", "ptr" if "a" in self.realigned else
                   mmatom.TensorMapType(self.dtype, *box_a, "128b", batched=batched)),
                  ("b", "ptr" if "b" in self.realigned else
                   mmatom.TensorMapType(self.b_dtype, *box_b, "128b", batched=batched)),
                  ("d", "ptr" if self.direct_d else mmatom.TensorMapType(
                      self.out_dtype, *output_box(c, self.out_dtype), output_swizzle(c, self.out_dtype),
                      batched=batched)),
                  ("m", "i32"), ("n", "i32"), ("k", "i32")]
        # D's row pitch in elements, and its base address mod 16
        params += [("ldd", "i64"), ("d_align", "i32")] if self.direct_d else []
        for x in self.realigned:  # its row pitch in elements, and its base address mod 16
            params += [(f"ld{x}", "i64"), (f"{x}_align", "i32")]
        # split-K: the K slices per tile, the workspace of their partial sums and the tiles' counters (split_sums.py);
        # stream-K: the workspace and the counters
        params += [("splits", "i32"), ("slice_steps", "i32"), ("partials", "ptr"), ("counters", "ptr")] if c.split_k else \
            [("partials", "ptr"), ("counters", "ptr")] if c.stream_k else [("batch", "i32")] if batched else []
        return params + ([("scale_a", "ptr"), ("scale_b", "ptr")] if self.fp8 else [])

    def _declare(self) -> mmatom.KernelBuilder:
        """The kernel's parameters, SMEM (the operand ring and the epilogue's staging boxes) and tile scheduler."""
        c, batched, params = self.config, self.batched, self._params()
        kb = mmatom.KernelBuilder("gemm", params, self.target, threads=128 * self.producer_warpgroups + CONSUMER_THREADS,
                                  min_ctas_per_sm=1,
                                  cluster=(c.cluster_ctas, 1, 1) if c.cluster_ctas > 1 else None)
        # a stage is free once every thread of the warpgroups that read it (one CTA), or every such warp of every
        # CTA of the cluster (each CTA's slice lands in all of them), has released it
        readers = self.warpgroups * 128
        releases = readers // 32 * c.cluster_size if self.clustered else readers
        # a realigned operand's tile is written by the producer warpgroups' threads: each arrives on full
        producers = (1 if len(self.realigned) < 2 else 0) + (PRODUCER_THREADS if self.realigned else 0)
        self.ring = kb.smem_ring(self.stages, releases, producers,
                                 a=self.tiled.smem_desc_type("A", major="k" if self.majors["a"] == "k" else "mn"),
                                 b=self.tiled.smem_desc_type("B", major="k" if self.majors["b"] == "k" else "mn"))
        self.staging = kb.smem_tiles((2, 2), BOX_BYTES)  # per consumer warpgroup, two boxes (double-buffered)
        self.handover_bars = kb.smem(8 * HANDOVER_BARRIERS, align=8) if self.paired else None
        # split-K: each of `splits` layers of units sums the products of its slice of K, `slice_steps` (the host's)
        # K steps of it but the last layer's, which takes the rest (at least one step: TMA reads zeros past K) and
        # adds up the tile; in a cluster each CTA takes k_tiles steps (the last slice may run past K)
        self.k_steps = ceil_div(kb.param("k"), self.bk)
        self.k_tiles = kb.param("slice_steps") if c.split_k else ceil_div(self.k_steps, c.cluster_k)
        if not c.split_k:
            self.k_tiles.ssa.name_hint = "k_tiles"  # what verify-pipeline's diagnostics call it
        splits = kb.param("splits") if c.split_k else c.cluster_k
        layers = splits if c.split_k else kb.param("batch") if batched else 1
        self.scheduler = kb.tile_scheduler(ceil_div(kb.param("m"), self.bm), ceil_div(kb.param("n"), self.bn),
                                           cluster=(c.cluster_m, c.cluster_n), group_m=c.raster_group, layers=layers,
                                           shared_by=c.cluster_k)
        # stream-K: whole waves as the scheduler walks them, the last wave's K steps in runs (scheduler.StreamKWalk)
        self.walk = kb.stream_k(self.scheduler, self.k_tiles) if c.stream_k else None
        self.box_types = self._slice_types()
        return kb

    def tile_origin(self, unit) -> tuple:
        """The (row, column) of D where this CTA's tile of scheduler unit `unit` starts, and (batched) its layer."""
        row_tile, col_tile = self.scheduler.coords(unit)
        return row_tile * self.bm, col_tile * self.bn, self.scheduler.layer(unit) if self.batched else None

    # -- producer: one thread issues every TMA load --------------------------------------------------------------

    def producer(self) -> None:
        kb = self.kb
        kb.sync.setmaxnreg("decrease", REALIGNING_REGISTERS["producer"] if self.realigned else PRODUCER_REGISTERS)
        if self.realigned:
            self.realigning_producer()
            return
        with kb.if_(self.tid == 0):
            with (tiles := self.tile_loop()) as (unit, (it,)):
                unit = self.unit_tile(unit)
                m0, n0, layer = self.tile_origin(unit)
                first_step, steps = self.k_range(unit)
                with (k_loop := kb.for_range(0, steps, 1, [it])) as (kt, (it_k,)):
                    stage = self.ring.producer_acquire(it_k)
                    k0 = (kt + first_step) * self.bk
                    self.load("a", stage, m0, k0, layer)
                    self.load("b", stage, n0, k0, layer)
                    k_loop.yield_(it_k + 1)
                tiles.yield_(k_loop.results[0])

    def tile_loop(self):
        """This CTA's tiles (stream-K: its units, walk.tile of each the tile), carrying the ring iteration from 0."""
        return self.walk.loop([0]) if self.walk else self.scheduler.loop([0])

    def unit_tile(self, unit):
        """The loop index `unit`'s tile in the scheduler's walk (stream-K's units are its own)."""
        return self.walk.tile(unit) if self.walk else unit

    def k_range(self, unit) -> tuple:
        """(first K step, K steps) this CTA computes of the tile at loop index `unit`: all of them; split-K its
        slice's; stream-K its run's."""
        if self.walk:
            return self.walk.segment(unit)
        if self.paired:
            return self.kb.cluster.rank() * self.k_tiles, self.k_tiles
        if not self.config.split_k:
            return 0, self.k_tiles
        first = self.scheduler.layer(unit) * self.k_tiles
        last = self.scheduler.layer(unit) == self.kb.param("splits") - 1
        return first, mmatom.select(last, mmatom.max_value(self.k_steps - first, 1), self.k_tiles)

    def realigning_producer(self) -> None:
        """Every producer thread: the realigned operands' copies `raw_depth - 1` K steps ahead and their
        realignment into each stage (realigned_loads.py); thread 0 also TMA-loads the other operand."""
        kb, depth = self.kb, self.raw_depth
        specs = {x: (self.bm if x == "a" else self.bn, self.dtype if x == "a" else self.b_dtype,
                     self.ring.tiles[x].desc_type.layout.data) for x in self.realigned}
        loads = RealignedLoads(kb, self.tid, specs, depth, {"a": kb.param("m"), "b": kb.param("n")})
        with (tiles := self.scheduler.loop([0])) as (unit, (it,)):
            m0, n0, layer = self.tile_origin(unit)
            origins = {"a": m0, "b": n0}
            first_step, steps = self.k_range(unit)
            rows = {x: loads.tile_rows(loads.operands[x], origins[x]) for x in self.realigned}
            kb.sync.warp()  # the last tile's slots all read (a warp's rows are its own: realigned_loads.py)
            for ahead in range(depth - 1):
                self.copy_ahead(loads, rows, ahead, first_step, steps)
            with (k_loop := kb.for_range(0, steps, 1, [it])) as (kt, (it_k,)):
                kb.cp_async.wait_group(depth - 2)  # this thread's copies of step kt landed; the sync: its warp's
                kb.sync.warp()
                self.copy_ahead(loads, rows, kt + depth - 1, first_step, steps)
                self.fill(loads, rows, it_k, kt, first_step, origins, layer)
                k_loop.yield_(it_k + 1)
            tiles.yield_(k_loop.results[0])

    def copy_ahead(self, loads: RealignedLoads, rows: dict, step, first_step, steps) -> None:
        """The copies of the tile's K step `step` (none past its `steps`) and their group."""
        with self.kb.if_(step < steps):
            loads.issue(rows, step, (step + first_step) * self.bk)
        self.kb.cp_async.commit_group()

    def fill(self, loads: RealignedLoads, rows: dict, it, kt, first_step, origins: dict, layer) -> None:
        """Ring iteration `it` (the tile's K step kt): the TMA-loaded operand by thread 0, the realigned ones by
        every thread, each then arriving on the stage's full barrier."""
        kb, ring = self.kb, self.ring
        stage = ring.producer_wait(it)
        k0 = (kt + first_step) * self.bk
        loaded = [x for x in "ab" if x not in self.realigned]
        if loaded:
            with kb.if_(self.tid == 0):
                ring.expect(stage, *loaded)
                for x in loaded:
                    self.load(x, stage, origins[x], k0, layer)
        loads.realign(stage, rows, kt, k0)
        kb.sync.fence_proxy_async()
        ring.producer_arrive(stage)

    def load(self, operand: str, stage, origin, k0, layer) -> None:
        """One operand's box: the whole tile, or (a tile the cluster shares) this CTA's slice of it, landing at the
        same place in every CTA of the cluster."""
        kb, tile = self.kb, getattr(stage, operand)
        if self.majors[operand] != "k":  # given K x M / K x N: one box per 64 columns of M / N, K down the box
            for j in range((self.bm if operand == "a" else self.bn) // BOX):
                kb.tma.load(kb.param(operand), k0, origin + j * BOX,
                            tile.row_block(j, BOX, self.box_types[operand]), stage.full, layer=layer)
            return
        if not self.sliced[operand]:
            kb.tma.load(kb.param(operand), origin, k0, tile, stage.full, layer=layer)
            return
        # A's tile is shared along the cluster's row of tiles (the CTAs of its rank_m), B's down its column
        rank = self.scheduler.rank_n if operand == "a" else self.scheduler.rank_m
        rows = self.slice_rows[operand]
        kb.tma.load(kb.param(operand), origin + rank * rows, k0, tile.row_block(rank, rows, self.box_types[operand]),
                    stage.full, multicast=self.sharers(operand), layer=layer)

    def sharers(self, operand: str):
        """The CTA mask of the cluster's CTAs that share this CTA's tile of `operand` (rank = rank_m + cluster_m *
        rank_n): A's, the CTAs of its row rank_m; B's, those of its column rank_n. A constant where the cluster is
        a row or a column of CTAs."""
        cm, cn = self.config.cluster_m, self.config.cluster_n
        if operand == "a":
            row = sum(1 << (cm * j) for j in range(cn))
            return row << self.scheduler.rank_m if cm > 1 else row
        column = (1 << cm) - 1
        return column << (cm * self.scheduler.rank_n) if cn > 1 else column

    # -- consumers -------------------------------------------------------------------------------------------

    def consumer(self) -> None:
        """Both consumer warpgroups: their tiles, each a K loop and an epilogue."""
        kb, pingpong = self.kb, self.config.pingpong
        kb.sync.setmaxnreg("increase", REALIGNING_REGISTERS["consumer"] if self.realigned else CONSUMER_REGISTERS)
        warpgroup = kb.warpgroup_id() - self.producer_warpgroups  # 0 or 1
        self._consumer_state(warpgroup)
        # ping-pong: warpgroup w takes this CTA's tiles w, w + 2, ...: warpgroup 1's ring iterations start past
        # the CTA's first tile's
        tiles = self.scheduler.loop([warpgroup * self.k_range(self.scheduler.first())[1]], first=warpgroup, every=2) \
            if pingpong else \
            self.tile_loop()
        with tiles as (unit, (it,)):
            unit = self.unit_tile(unit)
            origin = self.tile_origin(unit)
            if pingpong:
                self.wait_turn(unit, warpgroup)
            it_next, acc = self.mainloop(it, self.k_range(unit)[1])
            if pingpong:
                self.pass_turn(unit, warpgroup)
            self.drain(it_next)
            self.tile_epilogue(acc, unit, origin, warpgroup)
            # ping-pong: skip the other warpgroup's tile's ring iterations (the CTA's next tile)
            tiles.yield_(it_next + self.k_range(unit + self.scheduler.step())[1] if pingpong else it_next)
        with kb.if_(self.issuer):
            kb.tma.wait_group(0)

    def _consumer_state(self, warpgroup) -> None:
        """What a consumer thread keeps across its tiles: its staging boxes and TMA-store issuer, the split sums'
        protocol, its rows of the tile, D's scales."""
        kb = self.kb
        self.issuer = self.tid & 127 == 0  # the warpgroup's thread that issues its TMA stores
        self.boxes = self.staging[warpgroup]  # this warpgroup's two staging boxes
        self.direct = DirectStore(kb, self.tid, self.config, self.out_dtype) if self.direct_d else None
        self.sums = self._slice_sums(warpgroup) if self.config.split_k or self.config.stream_k else None
        # cooperative: the tile's rows this warpgroup owns (as the wgmma tile places them: warpgroup 1 of the CTA
        # is the accumulator's warpgroup 1, tid.x / 128 mod 2); ping-pong: the whole tile
        self.half = 0 if self.config.pingpong else kb.warpgroup_id() & 1
        self.scale = kb.load_scalar(kb.param("scale_a"), "f32") * kb.load_scalar(kb.param("scale_b"), "f32") \
            if self.fp8 and not self.rowwise else None
        if self.rowwise:  # the thread's base row and column in the tile, and the last row and column of D
            self.coords = self.tiled.fragment_coords(kb, "D", thread=self.tid % self.tiled.threads)
            self.last = {"scale_a": kb.param("m") - 1, "scale_b": kb.param("n") - 1}

    def tile_epilogue(self, acc, unit, origin: tuple, warpgroup) -> None:
        """The tile's accumulator to D: stored, or first added up with its other K slices' (split-K through global
        memory or in a cluster, stream-K)."""
        if self.paired:
            self.cluster_k_epilogue(acc, unit, origin, warpgroup)
        elif self.sums is None:
            self.epilogue(acc, origin, warpgroup)
        elif self.walk:
            self.stream_k_epilogue(acc, unit, origin, warpgroup)
        else:
            self.split_epilogue(acc, unit, origin, warpgroup)

    def _slice_sums(self, warpgroup) -> SliceSums:
        """Split-K's and stream-K's partial sums, this consumer thread's part (its place after the producers)."""
        consumer_tid = self.tid - 128 * self.producer_warpgroups
        # fewer sums a pass where registers are tight: a realigning kernel's consumers hold 200 (64 accumulators
        # at once spilled, 64x128x8w1ps), a D stored through its pointer and stream-K's f32 D need more beside them
        # (32 at once spilled 8 to 348 bytes: tests/unit/api/test_gemm_ptxas.py, SUMMED)
        if self.direct_d or (self.config.stream_k and self.out_dtype == "f32"):
            at_once = TIGHT_SUMMED_AT_ONCE
        else:
            at_once = REALIGNED_SUMMED_AT_ONCE if self.realigned else SUMMED_AT_ONCE
        return SliceSums(self.kb, consumer_tid, self.tiled.fragment_type("C"), self.warpgroups, warpgroup, at_once)

    def wait_turn(self, unit, warpgroup) -> None:
        """Ping-pong: a warpgroup starts a tile's K loop only after the other finished the previous tile's: the
        ring's full barriers are then at most one phase behind its first wait (a parity wait cannot tell a phase
        from the one two before it), and the two take turns on the tensor cores."""
        with self.kb.if_(self.scheduler.has_previous(unit)):
            self.kb.sync.named_barrier(warpgroup + ORDER_BARRIER, CONSUMER_THREADS)

    def pass_turn(self, unit, warpgroup) -> None:
        """Ping-pong: the other warpgroup's next tile may start its K loop (if there is one)."""
        with self.kb.if_(self.scheduler.has_next(unit)):
            self.kb.sync.named_barrier_arrive(ORDER_BARRIER + 1 - warpgroup, CONSUMER_THREADS)

    def mainloop(self, it, steps) -> tuple:
        """One tile's K loop of `steps` steps from ring iteration `it`: (the next iteration, the accumulator)."""
        kb, ring, tiled, depth = self.kb, self.ring, self.tiled, self.config.wgmma_in_flight
        acc = kb.fill(0.0, tiled.fragment_type("C"))
        with (k_loop := kb.for_range(0, steps, 1, [it, acc])) as (kt, (it_k, c)):
            stage = ring.consumer_wait(it_k)
            kb.wgmma.fence()
            d = tiled.mma_smem(kb, stage.a.desc(), stage.b.desc(), c)
            kb.wgmma.commit_group()
            kb.wgmma.wait_group(depth)  # retires the wgmma of step kt - depth: its stage may be refilled
            if depth == 0:
                self.release(stage)
            else:
                with kb.if_(kt >= depth):
                    self.release(ring.stage(it_k - depth))
            # the accumulator stays in flight into the next step's wgmma (a role change, no instruction)
            k_loop.yield_(it_k + 1, kb.convert(d, tiled.fragment_type("C")))
        return k_loop.results

    def drain(self, it_next) -> None:
        """With a wgmma kept in flight: retire the last step's and release its stage."""
        if self.config.wgmma_in_flight:
            self.kb.wgmma.wait_group(0)
            self.release(self.ring.stage(it_next - 1))

    def release(self, stage) -> None:
        """This consumer thread is done with `stage` (after the wgmma wait that covers its reads); in a cluster,
        one lane per warp releases it on every CTA whose slice the stage holds."""
        kb, ring = self.kb, self.ring
        if not self.clustered:
            ring.consumer_release(stage)
            return
        cluster = self.config.cluster_size
        with kb.if_(kb.sync.elect()):
            ring.consumer_release(stage)
            rank = self.scheduler.rank
            for peer in range(1, cluster):
                kb.mbarrier.arrive(kb.cluster.map_shared(stage.empty, (rank + peer) % cluster))

    # -- epilogue ------------------------------------------------------------------------------------------------

    def split_epilogue(self, acc, unit, origin: tuple, warpgroup) -> None:
        """Split-K: this slice's partial sums to the workspace; the tile's last slice to count adds up all of them
        and stores the tile -- most often its last layer's, which walks the most K steps and asks first whether
        the others counted (split_sums.py)."""
        row_tile, col_tile = self.scheduler.coords(unit)
        tile, splits, layer = row_tile * self.scheduler.tiles_n + col_tile, self.kb.param("splits"), \
            self.scheduler.layer(unit)
        with self.kb.if_(self.sums.publish(acc, tile, tile * splits + layer, splits, ask_first=layer == splits - 1)):
            self.epilogue(self.sums.total(splits, lambda s: tile * splits + s), origin, warpgroup)

    def cluster_k_epilogue(self, acc, unit, origin: tuple, warpgroup) -> None:
        """Split-K in a cluster: the slices' sums handed down a tree of pairs through shared memory; rank 0 stores
        the tile (cluster_sums.py)."""
        kb, scheduler = self.kb, self.scheduler
        sums = ClusterSums(kb, self.config.cluster_k, self.boxes, self.tid - 128 * self.producer_warpgroups,
                           self.tiled.fragment_type("C"), warpgroup, self.handover_bars)
        tile = (unit - scheduler.first()) // scheduler.step()  # this CTA's tiles before this one
        sums.reduce(acc, tile, lambda total: self.epilogue(total, origin, warpgroup))

    def stream_k_epilogue(self, acc, unit, origin: tuple, warpgroup) -> None:
        """Stream-K: a tile this CTA computed whole is stored; a segment of a split one writes its partial sums to
        its run's slot, and the tile's segment that counts last adds up all of them in run order and stores the
        tile (split_sums.py)."""
        kb, walk = self.kb, self.walk
        first, segments = walk.segments(unit)
        with kb.if_(walk.whole(unit)) as whole:
            self.epilogue(acc, origin, warpgroup)
        with whole.otherwise():
            with kb.if_(self.sums.publish(acc, unit, walk.slot(walk.cta, unit), segments)):
                self.epilogue(self.sums.total(segments, lambda s: walk.slot(first + s, unit)), origin, warpgroup)

    def epilogue(self, acc, origin: tuple, warpgroup) -> None:
        """The accumulator (scaled, converted) to D: 64-row x 128-byte boxes through SMEM, TMA-stored."""
        kb, cols = self.kb, box_columns(self.config, self.out_dtype)
        out = kb.convert(acc, self.tiled.fragment_type("D"))
        m0, n0, layer = origin
        if self.rowwise:
            out = self.scale_rows_and_columns(out, m0, n0)
        elif self.fp8:
            out = kb.map(out, lambda x: x * self.scale)
        out = out if self.out_dtype == "f32" else kb.convert(out, self.out_dtype)  # bf16 / f16: packed pairs
        repeats, blocks = self.bm // (64 * self.warpgroups), self.boxes_per_repeat
        for repeat in range(repeats):  # this warpgroup's 64-row blocks: 64 * warpgroups * repeat further
            row0 = m0 + (self.half * BOX + repeat * 64 * self.warpgroups)
            if self.config.swap_ab:  # the block is D^T's: its block_n rows of D at n0, its 64 columns at row0
                self.store_box(out, repeat, 0, warpgroup, (n0, row0, layer))
                continue
            for block in range(blocks):
                self.store_box(out, repeat, block, warpgroup, (row0, n0 + block * cols, layer))

    @property
    def boxes_per_repeat(self) -> int:
        """Staged boxes per 64-row repeat of a warpgroup: one per 128 bytes of columns, or (swapped) one."""
        return 1 if self.config.swap_ab else self.bn // box_columns(self.config, self.out_dtype)

    def scale_rows_and_columns(self, out, m0, n0):
        """Each value times scale_a[its row] * scale_b[its column] (torch._scaled_mm's rowwise scaling). The
        thread's rows (2 per 64-row repeat) and columns (block_n / 4) each load their scale once per tile, all
        before the multiplies (their latencies overlap); the index is clamped to D's last row / column, so a tail
        tile reads nothing past M or N (the values there are clipped by the TMA store anyway)."""
        place, coords = self.coords.placement, self.coords
        row_scale = self._scales("scale_a", m0 + coords.base_row, place.row_offsets)
        col_scale = self._scales("scale_b", n0 + coords.base_col, sorted({dc for _, dc in place.offsets}))
        return self.kb.map(out, lambda x, v: x * row_scale[place.offsets[v][0]] * col_scale[place.offsets[v][1]])

    def _scales(self, vector: str, first, offsets) -> dict:
        """{offset: vector[min(first + offset, last)]} for the scale vector `vector` ("scale_a" or "scale_b")."""
        kb, last = self.kb, self.last[vector]
        return {d: kb.load_scalar(kb.param(vector), "f32", mmatom.min_value(first + d, last)) for d in offsets}

    def store_box(self, out, repeat: int, block: int, warpgroup, at: tuple) -> None:
        """One 64 x 128-byte box of the tile: stmatrix into a staging box, then one thread's TMA store."""
        kb = self.kb
        repeats, blocks = self.bm // (64 * self.warpgroups), self.boxes_per_repeat
        stored = repeat * blocks + block  # boxes alternate; each tile's stores start at box 0
        box = self.boxes[stored % 2]
        # the store that last read this box is done reading it: the one before last, or (an odd number of stores
        # per tile, the tile's first) the previous tile's last store
        in_flight = 0 if stored == 0 and repeats * blocks % 2 else 1
        barrier_id = warpgroup + 1  # named barrier 1 or 2: one consumer warpgroup's 128 threads
        with kb.if_(self.issuer):
            kb.tma.wait_group(in_flight, read=True)
        kb.sync.named_barrier(barrier_id, 128)
        kb.stmatrix_tile(out, block, box, repeat, transposed=self.config.swap_ab,
                         row_bytes=box_row_bytes(self.config, self.out_dtype))
        row, col, layer = at
        if self.direct_d:  # the warpgroup reads the box back and stores it; the next box's barrier orders reuse
            kb.sync.named_barrier(barrier_id, 128)
            self.direct.store(box, row, col)
            return
        kb.sync.fence_proxy_async()
        kb.sync.named_barrier(barrier_id, 128)
        with kb.if_(self.issuer):
            kb.tma.store(box, kb.param("d"), row, col, layer=layer)
            kb.tma.commit_group()


SMEM_LIMIT = 227 * 1024
# a D stored through its pointer beside stream-K's fixup: the most accumulators a thread that fit (128: 16 bytes
# spilled, e4m3 128x256x4k)
DIRECT_STREAM_K_ACCUMULATORS = 64
STAGING_BYTES = 4 * BOX_BYTES  # the epilogue's boxes: two per consumer warpgroup
# raw slots of realigned rows, deepest first: depth - 1 K steps in flight while one is realigned (a memory-bound
# CTA needs its DRAM latency's worth of bytes in flight), beside at least MIN_STAGES ring stages
RAW_DEPTHS, MIN_STAGES = (4, 2), 3  # powers of two: a slot is the step mod depth (a mask, no division)


def realigned_ring(config: GemmConfig, dtype: str, realigned: tuple, batched: bool = False,
                   majors: tuple = ("k", "k")) -> tuple[int, int]:
    """(ring stages, raw slots) for a kernel that realigns `realigned` operands: the config's stages where nothing
    is realigned; else the raw slots (deepest first) and as many of the config's stages as fit beside them in
    SMEM, at least 2 -- an api_error where none fit, or where a realigned operand is MN-major, multicast or
    batched."""
    if not realigned:
        return config.stages, 0
    sliced = {"a": config.cluster_n > 1, "b": config.cluster_m > 1}
    bad = [x for x in realigned if x not in "ab" or sliced[x] or majors["ab".index(x)] != "k"]
    if bad or batched:
        raise api_error(f"build_gemm: realigned operands {list(realigned)} with config {config.name}, majors "
                        f"{majors}, batched={batched}; a realigned operand is a K-major one no cluster multicasts, "
                        f"not batched")
    if config.accumulators > REALIGNED_ACCUMULATORS:
        raise api_error(f"build_gemm: config {config.name} realigning {list(realigned)}: {config.accumulators} f32 "
                        f"accumulators per consumer thread; a realigning kernel's 512 threads hold at most "
                        f"{REALIGNED_ACCUMULATORS}")
    rows = {"a": config.block_m, "b": config.block_n}
    stage = (config.block_m + config.block_n) * 128  # a stage's tiles: 128 bytes of K per row
    for depth in RAW_DEPTHS:
        room = SMEM_LIMIT - STAGING_BYTES - 1024 - sum(raw_bytes(rows[x], depth) for x in realigned)
        if room // stage >= (MIN_STAGES if depth > RAW_DEPTHS[-1] else 2):
            return min(config.stages, room // stage), depth
    raise api_error(f"build_gemm: config {config.name} realigning {list(realigned)}: its tiles and the raw rows "
                    f"do not fit {SMEM_LIMIT} bytes of SMEM with 2 stages")


def build_gemm(dtype: str = "bf16", target: str = "sm_90a", config: GemmConfig = GemmConfig(),
               out_dtype: str = "bf16", b_dtype: str | None = None, b_major: str = "k",
               a_major: str = "k", batched: bool = False, rowwise: bool = False,
               direct_d: bool = False, realigned: tuple = ()) -> tuple[object, mmatom.LaunchConfig]:
    """The GEMM kernel's module (every shape: m, n, k are arguments) and its launch config; `b_major="n"`: B is
    read as the K x N tensor `a @ b` hands over, `a_major="m"`: A as a K x M tensor (16-bit types), wgmma reading
    their MN-major tiles transposed. A split-K config takes `splits` and `slice_steps` (the K steps of a slice but a tile's last) after k, then its workspace: `partials`
    (splits x tiles x block_m x block_n f32) and `counters` (a zeroed i32 per tile; split_sums.py); `batched`: A, B
    and D are L x (their matrix) (3-d tensor maps), L the `batch` argument after k. `rowwise` (fp8): the scale
    pointers are of M and N floats, D[i, j] scaled by scale_a[i] * scale_b[j] (else each a single float).
    `direct_d`: D is a pointer, then its row pitch `ldd` and `d_align` (its base address mod 16) after k -- rows at any
    pitch, each staged box stored by the threads (a caller's `out` TMA cannot store to). `realigned` ("a", "b"):
    those operands are pointers, then each one's row pitch `ld<x>` and base address mod 16 `<x>_align` after k (and
    D's): rows at any alignment, copied and realigned by the producer warpgroup (realigned_loads.py)."""
    return HopperGemm(dtype, target, config, out_dtype, b_dtype, b_major, a_major, batched, rowwise,
                      direct_d, realigned).build()


__all__ = ["HopperGemm", "build_gemm", "realigned_ring"]
