"""mmatom.gemm: an H100 GEMM built from atoms through the public API only (the reference DSL program).

    d = mmatom.gemm(a, b)                       # a: M x K, b: N x K (like F.linear's weight), bf16 -> bf16
    d = mmatom.gemm(a8, b8, scale_a=sa, scale_b=sb)   # fp8 e4m3/e5m2 with per-tensor scales (torch._scaled_mm)
    kernel = mmatom.gemm_kernel(4096, 4096, 4096)      # the compiled Kernel, for inspection

The kernel (sm_90a): persistent (one CTA per SM, tiles in grouped raster order), warp-specialized -- warpgroup 0
is the producer (one elected thread issues TMA loads of A and B boxes, 128B-swizzled, into an N-stage SMEM ring
of full/empty mbarriers; its registers are given away with setmaxnreg), warpgroups 1 and 2 are the consumers
(cooperative: one 128 x BN tile, 64 rows each, one wgmma tile op per K step, accumulators in registers; a
config may keep the previous step's wgmma in flight, and pair CTAs in a cluster that multicasts B). The
epilogue converts to bf16, stmatrix-es 64x64 boxes into swizzled SMEM (double-buffered per warpgroup) and TMA-
stores them, which also clips the M and N tails; the K tail reads TMA's zero fill. Shapes TMA cannot describe
(a row that is not a multiple of 16 bytes) are padded on the host.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from functools import lru_cache

import mmatom

from . import gemm_choices
from .errors import api_error

FP8 = ("e4m3", "e5m2")
PRODUCER_REGISTERS, CONSUMER_REGISTERS = 40, 232  # CUTLASS's split below 208 accumulators per thread
CONSUMER_THREADS = 256
ORDER_BARRIER = 3  # named barriers 3 and 4: ping-pong warpgroup 0 / 1 waits there for the other's K loop to end
BOX = 64  # rows of the epilogue's TMA store box: 64 x 128 bytes (64 bf16 or 32 f32 columns, one swizzle row)
BOX_BYTES = BOX * 128
OUT_DTYPES = {"bf16": 2, "f32": 4}  # D's element types and their bytes
WAVE_CTAS = 132  # the persistent grid the raster is shaped for: an H100 SXM's SMs


def box_columns(out_dtype: str) -> int:
    return 128 // OUT_DTYPES[out_dtype]


MAX_ACCUMULATORS = 128  # f32 accumulators per consumer thread that fit CONSUMER_REGISTERS with the epilogue's


@dataclass(frozen=True)
class GemmConfig:
    """One kernel configuration: the CTA tile (block_m x block_n; block_k along K is 128 bytes of it, the
    swizzle span), SMEM stages, the grouped raster's rows of tiles (0: see raster_group), how many K steps'
    wgmma groups a consumer keeps in flight while it issues the next (0: it waits for each step's wgmma before
    releasing the stage; 1: it releases the previous step's stage after `wait_group 1`, so the tensor cores do
    not drain between K steps), the consumers' schedule, and the cluster.

    Consumers: cooperative (both consumer warpgroups on one tile, block_m / 2 rows each) or `pingpong` (each
    warpgroup a whole tile of its own, the two taking turns down the CTA's tiles: one's epilogue runs while the
    other's wgmmas do, CUTLASS's ping-pong kernel). A warpgroup covering more than 64 rows repeats its wgmma
    down M. Cluster: `cluster_m` CTAs on consecutive row tiles of one column tile (each loads 1/cluster_m of
    the B tile they share and multicasts it: B read from L2 once per cluster), or `cluster_n` CTAs on
    consecutive column tiles of one row tile (sharing A the same way)."""

    block_m: int = 128
    block_n: int = 256
    stages: int = 4
    group_m: int = 0  # 0: raster_group's choice for the tile
    wgmma_in_flight: int = 0
    cluster_m: int = 1
    cluster_n: int = 1
    pingpong: bool = False

    @property
    def name(self) -> str:
        """`128x256x4`: block_m x block_n x stages (the autotuner's and the bench's label), `w1` appended when the
        consumers keep a wgmma group in flight, `c2x1` / `c1x2` for a cluster, `p` for ping-pong consumers,
        `g<n>` for an explicit raster group."""
        depth = f"w{self.wgmma_in_flight}" if self.wgmma_in_flight else ""
        cluster = f"c{self.cluster_m}x{self.cluster_n}" if self.cluster_size > 1 else ""
        group = f"g{self.group_m}" if self.group_m else ""
        return f"{self.block_m}x{self.block_n}x{self.stages}{depth}{cluster}{'p' * self.pingpong}{group}"

    @property
    def cluster_size(self) -> int:
        return self.cluster_m * self.cluster_n

    @property
    def tile_warpgroups(self) -> int:
        """Consumer warpgroups sharing one tile."""
        return 1 if self.pingpong else CONSUMER_THREADS // 128

    @property
    def raster_group(self) -> int:
        """Rows of tiles per raster group: `group_m`, or else the one that makes a wave of WAVE_CTAS tiles as
        square in bytes as it can (A rows g * block_m against B rows WAVE_CTAS / g * block_n, per unit of K):
        g = sqrt(WAVE_CTAS * block_n / block_m). On the H100, 4096^3 and 8192^3 bf16 128x256 tiles read 149 MB
        and 1.26 GB from DRAM with g = 16, against 187 MB and 1.51 GB with g = 8 (ncu; cuBLAS 151 MB, 1.29 GB)."""
        if self.group_m:
            return self.group_m
        # a cluster's unit is cluster_m x cluster_n tiles, a wave WAVE_CTAS / (cluster_m cluster_n) units; g rows
        # of units against the wave's columns of units squares when g^2 = WAVE_CTAS bn / (bm cluster_m^2)
        return max(1, round((WAVE_CTAS * self.block_n / (self.block_m * self.cluster_m ** 2)) ** 0.5))

    @classmethod
    def from_name(cls, name: str) -> GemmConfig:
        """The config a `name` spells (`128x128x6w1c2x1g8`, `128x128x6w1p`; `c2` alone is `c2x1`)."""
        found = re.fullmatch(r"(\d+)x(\d+)x(\d+)(?:w(\d+))?(?:c(\d+)(?:x(\d+))?)?(p)?(?:g(\d+))?", name)
        if found is None:
            raise api_error(f"GemmConfig.from_name: {name!r}; block_m x block_n x stages, then optionally w<wgmma "
                            f"groups in flight>, c<cluster M>x<cluster N>, p (ping-pong) and g<raster group rows>, "
                            f"e.g. 128x128x6w1c2x1 or 128x128x6w1p")
        bm, bn, stages, depth, cm, cn, pingpong, group = found.groups()
        return cls(int(bm), int(bn), int(stages), group_m=int(group or 0), wgmma_in_flight=int(depth or 0),
                   cluster_m=int(cm or 1), cluster_n=int(cn or 1), pingpong=bool(pingpong))

    def block_k(self, dtype: str) -> int:
        return 128 if dtype in FP8 else 64

    def check(self, dtype: str) -> None:
        rows = self.block_m // self.tile_warpgroups  # one consumer warpgroup's rows of a tile
        if self.block_m % self.tile_warpgroups or rows % 64 or rows // 64 not in (1, 2):
            legal = "64 or 128 (each warpgroup a whole tile)" if self.pingpong else "128 or 256 (64 or 128 rows per warpgroup)"
            raise api_error(f"GemmConfig: block_m={self.block_m} with {'ping-pong' if self.pingpong else 'cooperative'} "
                            f"consumers; block_m is {legal}")
        if self.block_n % BOX or not BOX <= self.block_n <= 256:
            raise api_error((
                f"GemmConfig: block_n={self.block_n}; a multiple of {BOX} in [64, 256]"))
        if rows * self.block_n // 128 > MAX_ACCUMULATORS:
            raise api_error(f"GemmConfig: a {self.block_m}x{self.block_n} tile is {rows * self.block_n // 128} f32 "
                            f"accumulators per consumer thread ({rows} rows per warpgroup); at most "
                            f"{MAX_ACCUMULATORS} fit its {CONSUMER_REGISTERS} registers")
        if self.group_m < 0:
            raise api_error(f"GemmConfig: group_m={self.group_m}; rows of tiles per raster group, or 0 for the tile's own")
        if self.wgmma_in_flight not in (0, 1) or self.stages < 2:
            raise api_error((
                f"GemmConfig: wgmma_in_flight={self.wgmma_in_flight} with stages={self.stages}; 0 or 1 (deeper, "
                f"verify-pipeline cannot tell the older in-flight steps' stages apart), and at least 2 stages"))
        cm, cn = self.cluster_m, self.cluster_n
        if (cm, cn) not in ((1, 1), (2, 1), (1, 2)):
            raise api_error(f"GemmConfig: cluster {cm}x{cn}; 1x1, 2x1 (sharing B) or 1x2 (sharing A)")
        if self.block_n // cm % BOX or self.block_m // cn % BOX:
            raise api_error((
                f"GemmConfig: cluster {cm}x{cn} with a {self.block_m}x{self.block_n} tile; each CTA multicasts a "
                f"slice of the shared tile whose rows are a multiple of {BOX}"))


# the shipped configs (the autotuner's candidates; each passes the ptxas gates in tests/unit/api/test_gemm_ptxas.py):
# four tiles, each with and without a wgmma group kept in flight -- the first of a tile is the prior's choice
# (on the H100: 128x256 gains nothing from it with 4 stages, of which the consumers then hold 2; 128x128 with 6
# stages gains 5-7%) -- the widest tile in clusters of two (B multicast: 3-8% faster on 4095 x 4104 x 4112,
# 2-7% slower on the large squares; benchmarks/gemm_configs.py), cuBLAS's 256x128 tile alone and in a 1x2
# cluster multicasting A, and ping-pong consumers on 128x128 tiles (CUTLASS's; without a wgmma kept in flight
# the tensor cores drain at every K step of the one warpgroup issuing: 0.72-0.80x cuBLAS at 4096^3/8192^3), and
# 64-row ping-pong tiles for small M (64 x 8192 x 8192: a 128-row tile spends half of each A load and wgmma on
# TMA's zero rows; 64x128x8w1p 1.00x / 1.02x cuBLAS bf16 / fp8 there, against 0.82x / 0.89x for 128x64x8)
TILES = (GemmConfig(128, 256, 4), GemmConfig(128, 128, 6, wgmma_in_flight=1), GemmConfig(128, 192, 4),
         GemmConfig(128, 64, 8, wgmma_in_flight=1))
ROW64_TILE = GemmConfig(64, 128, 8, wgmma_in_flight=1, pingpong=True)
CONFIGS = TILES + tuple(replace(c, wgmma_in_flight=1 - c.wgmma_in_flight) for c in TILES) + (
    GemmConfig(128, 256, 4, cluster_m=2), GemmConfig(128, 256, 4, wgmma_in_flight=1, cluster_m=2),
    GemmConfig(256, 128, 4), GemmConfig(256, 128, 4, cluster_n=2),
    GemmConfig(128, 128, 6, wgmma_in_flight=1, pingpong=True), ROW64_TILE)


def build_gemm(m: int, n: int, k: int, dtype: str = "bf16", target: str = "sm_90a",
               config: GemmConfig = GemmConfig(), out_dtype: str = "bf16") -> tuple[object, mmatom.LaunchConfig, int]:
    """The GEMM kernel's module for D (m x n, bf16 or f32) = A (m x k) . B (n x k)^T [* scale_a * scale_b]; also
    its launch config and the number of output tiles (the persistent grid is min(tiles, SMs))."""
    config.check(dtype)
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"build_gemm: out_dtype {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")
    box_cols = box_columns(out_dtype)
    bm, bn, bk = config.block_m, config.block_n, config.block_k(dtype)
    fp8 = dtype in FP8
    wgs = config.tile_warpgroups
    k_atom = 32 if fp8 else 16

    def tiled_mma(rows: int, cols: int) -> mmatom.TiledMma:
        atom = mmatom.atom(target, "wgmma", m=64, n=cols, k=k_atom, a=dtype, b=dtype, d="f32")
        return mmatom.TiledMma(atom, atom_layout_mnk=(wgs, 1, 1), permutation=(rows, cols, bk))

    tiled = tiled_mma(bm, bn)
    tile_a, tile_b = tiled.smem_desc_type("A"), tiled.smem_desc_type("B")
    cm, cn = config.cluster_m, config.cluster_n
    cluster = config.cluster_size
    slice_a, slice_b = bm // cn, bn // cm  # the rows of A / B each CTA of a cluster loads (and multicasts)
    # a slice's SMEM tile (rows x bk, the same canonical layout): what its TMA box lands as
    tile_a_slice = tile_a if cn == 1 else mmatom.TiledMma(
        mmatom.atom(target, "wgmma", m=64, n=bn, k=k_atom, a=dtype, b=dtype, d="f32"),
        atom_layout_mnk=(1, 1, 1), permutation=(slice_a, bn, bk)).smem_desc_type("A")
    tile_b_slice = tile_b if cm == 1 else tiled_mma(bm, slice_b).smem_desc_type("B")
    elem_bytes = 1 if fp8 else 2
    a_bytes, b_bytes = bm * bk * elem_bytes, bn * bk * elem_bytes
    params = [("a", mmatom.TensorMapType(dtype, slice_a, bk, "128b")),
              ("b", mmatom.TensorMapType(dtype, slice_b, bk, "128b")),
              ("d", mmatom.TensorMapType(out_dtype, BOX, box_cols, "128b"))]
    if fp8:
        params += [("scale_a", "ptr"), ("scale_b", "ptr")]
    kb = mmatom.KernelBuilder("gemm", params, target, threads=128 + CONSUMER_THREADS, min_ctas_per_sm=1,
                              cluster=(cluster, 1, 1) if cluster > 1 else None)
    smem_a = kb.smem(config.stages * a_bytes)
    smem_b = kb.smem(config.stages * b_bytes)
    staging = kb.smem(2 * 2 * BOX_BYTES)  # per consumer warpgroup, two boxes (double-buffered)
    # a stage is free once every thread of the warpgroups that read it (one CTA), or every such warp of every
    # CTA of the cluster (each CTA's slice lands in all of them), has released it
    readers = wgs * 128
    releases = readers if cluster == 1 else readers // 32 * cluster
    ring = mmatom.Pipeline(kb, config.stages, consumers=releases, stage_bytes=a_bytes + b_bytes)

    tiles_m, tiles_n, k_tiles = -(-m // bm), -(-n // bn), -(-k // bk)
    units_m, units_n = -(-tiles_m // cm), -(-tiles_n // cn)  # a cluster takes cm x cn neighbouring tiles
    units = units_m * units_n
    tiles = units * cluster
    tid = kb.tid()
    with kb.if_(kb.cmpi("eq", tid, 0)):
        ring.init()
    if cluster > 1:
        kb.cluster_sync()  # every CTA's barriers exist before a peer multicasts into it or releases its stages
        rank = kb.cluster_rank()
    else:
        kb.barrier()

    def tile_origin(t):
        """Grouped raster over the clusters' units (a tile, or cm x cn of them): group_m rows of units at a
        time, down the rows then across (L2 reuse of B); this CTA's tile within its unit."""
        group_m = config.raster_group
        group = group_m * units_n
        first_m = kb.mul(kb.div(t, group), group_m)
        rows = kb.min(kb.sub(units_m, first_m), group_m)
        within = kb.rem(t, group)
        unit_m, unit_n = kb.add(first_m, kb.rem(within, rows)), kb.div(within, rows)
        row_tile = kb.add(kb.mul(unit_m, cm), rank) if cm > 1 else unit_m
        col_tile = kb.add(kb.mul(unit_n, cn), rank) if cn > 1 else unit_n
        return kb.mul(row_tile, bm), kb.mul(col_tile, bn)

    def tile_walk():
        """(this CTA's first tile, the step to its next, the end): tiles in units of its cluster."""
        if cluster == 1:
            return kb.ctaid(), kb.nctaid(), tiles
        return kb.cluster_id(), kb.cluster_count(), units

    def tile_loop(it, first=None, every: int = 1):
        """This CTA's tiles, from its `first`-th (a value) on, taking one in `every`."""
        start, step, total = tile_walk()
        if first is not None:
            start = kb.add(start, kb.mul(step, first))
        return kb.for_range(start, total, kb.mul(step, every) if every > 1 else step, [it])

    def release(stage):
        """This consumer thread is done with `stage` (after the wgmma wait that covers its reads)."""
        if cluster == 1:
            ring.consumer_release(stage)
            return
        with kb.if_(kb.elect()):  # one lane per warp, on every CTA whose slice the stage holds
            ring.consumer_release(stage)
            for peer in range(1, cluster):
                kb.mbarrier_arrive(kb.mapa(ring.empty(stage), kb.rem(kb.add(rank, peer), cluster)))

    def load(param, origin, k0, dst, bar, slice_rows: int, sliced: bool, box):
        """One operand's box: the whole tile, or (a tile the cluster shares) this CTA's slice of it, landing at
        the same place in every CTA of the cluster."""
        if not sliced:
            kb.tma_load(kb.param(param), origin, k0, dst, bar, box)
            return
        kb.tma_load(kb.param(param), kb.add(origin, kb.mul(rank, slice_rows)), k0,
                    kb.offset(dst, kb.mul(rank, slice_rows * bk * elem_bytes)), bar, box,
                    multicast=(1 << cluster) - 1)

    with kb.if_(kb.cmpi("eq", kb.warpgroup_id(), 0)) as producer:
        kb.setmaxnreg("decrease", PRODUCER_REGISTERS)
        with kb.if_(kb.cmpi("eq", tid, 0)):
            with (tiles_loop := tile_loop(kb.const(0))) as (t, (it,)):
                m0, n0 = tile_origin(t)
                with (k_loop := kb.for_range(0, k_tiles, 1, [it])) as (kt, (it_k,)):
                    stage = ring.producer_acquire(it_k)
                    k0 = kb.mul(kt, bk)
                    load("a", m0, k0, kb.offset(smem_a, kb.mul(stage, a_bytes)), ring.full(stage), slice_a, cn > 1,
                         tile_a_slice)
                    load("b", n0, k0, kb.offset(smem_b, kb.mul(stage, b_bytes)), ring.full(stage), slice_b, cm > 1,
                         tile_b_slice)
                    k_loop.yield_(kb.add(it_k, 1))
                tiles_loop.yield_(k_loop.results[0])
    with producer.otherwise():
        kb.setmaxnreg("increase", CONSUMER_REGISTERS)
        consumer = kb.sub(kb.warpgroup_id(), 1)  # 0 or 1
        # cooperative: the tile's rows this warpgroup owns (as the wgmma tile places them: warpgroup 1 of the
        # CTA is the accumulator's warpgroup 1, tid.x / 128 mod 2); ping-pong: the tiles it takes
        half = kb.and_(kb.warpgroup_id(), 1) if not config.pingpong else kb.const(0)
        issuer = kb.cmpi("eq", kb.and_(tid, 127), 0)
        barrier_id = kb.add(consumer, 1)  # named barrier 1 or 2: one consumer warpgroup's 128 threads
        boxes = kb.offset(staging, kb.mul(consumer, 2 * BOX_BYTES))
        if fp8:
            scale = kb.mulf(kb.load_scalar(kb.param("scale_a"), "f32"),
                            kb.load_scalar(kb.param("scale_b"), "f32"))
        if config.pingpong:  # warpgroup w takes this CTA's tiles w, w + 2, ...: ring iterations from w * k_tiles
            tiles_loop = tile_loop(kb.mul(consumer, k_tiles), first=consumer, every=2)
        else:
            tiles_loop = tile_loop(kb.const(0))
        with tiles_loop as (t, (it,)):
            m0, n0 = tile_origin(t)
            if config.pingpong:
                # a warpgroup starts a tile's K loop only after the other finished the previous tile's: the ring's
                # full barriers are then at most one phase behind its first wait (a parity wait cannot tell a
                # phase from the one two before it), and the two take turns on the tensor cores
                first, step, total = tile_walk()
                with kb.if_(kb.cmpi("sge", t, kb.add(first, step))):
                    kb.named_barrier(kb.add(consumer, ORDER_BARRIER), CONSUMER_THREADS)
            acc = kb.fill(0.0, tiled.fragment_type("C"))
            depth = config.wgmma_in_flight
            with (k_loop := kb.for_range(0, k_tiles, 1, [it, acc])) as (kt, (it_k, c)):
                stage = ring.consumer_wait(it_k)
                kb.wgmma_fence()
                d = tiled.mma_smem(kb, kb.make_desc(kb.offset(smem_a, kb.mul(stage, a_bytes)), tile_a),
                                   kb.make_desc(kb.offset(smem_b, kb.mul(stage, b_bytes)), tile_b), c)
                kb.wgmma_commit()
                kb.wgmma_wait(depth)  # retires the wgmma of step kt - depth: its stage may be refilled
                if depth == 0:
                    release(stage)
                else:
                    with kb.if_(kb.cmpi("sge", kt, depth)):
                        release(ring.stage(kb.sub(it_k, depth)))
                # the accumulator stays in flight into the next step's wgmma (a role change, no instruction)
                k_loop.yield_(kb.add(it_k, 1), kb.convert(d, tiled.fragment_type("C")))
            it_next, acc = k_loop.results
            if config.pingpong:  # the other warpgroup's next tile may start its K loop (if there is one)
                with kb.if_(kb.cmpi("slt", kb.add(t, step), total)):
                    kb.named_barrier_arrive(kb.sub(ORDER_BARRIER + 1, consumer), CONSUMER_THREADS)
            if depth:
                kb.wgmma_wait(0)
                release(ring.stage(kb.sub(it_next, 1)))  # the last step's stage, retired now
            result = kb.convert(acc, tiled.fragment_type("D"))
            if fp8:
                result = kb.map(result, lambda kb_, x, _v: kb_.mulf(x, scale))
            out = kb.convert(result, "bf16") if out_dtype == "bf16" else result
            repeats, blocks = bm // (64 * wgs), bn // box_cols
            for repeat in range(repeats):  # this warpgroup's 64-row blocks: 64 * wgs * repeat further
                row0 = kb.add(m0, kb.add(kb.mul(half, BOX), repeat * 64 * wgs))
                for block in range(blocks):
                    stored = repeat * blocks + block  # boxes alternate; each tile's stores start at box 0
                    box = kb.offset(boxes, (stored % 2) * BOX_BYTES)
                    # the store that last read this box is done reading it: the one before last, or (an odd
                    # number of stores per tile, the tile's first) the previous tile's last store
                    in_flight = 0 if stored == 0 and repeats * blocks % 2 else 1
                    with kb.if_(issuer):
                        kb.bulk_wait(in_flight, read=True)
                    kb.named_barrier(barrier_id, 128)
                    kb.stmatrix_tile(out, block, box, repeat)
                    kb.fence_proxy_async()
                    kb.named_barrier(barrier_id, 128)
                    with kb.if_(issuer):
                        kb.tma_store(box, kb.param("d"), row0, kb.add(n0, block * box_cols))
                        kb.bulk_commit()
            # ping-pong: skip the other warpgroup's tile's ring iterations
            tiles_loop.yield_(kb.add(it_next, k_tiles) if config.pingpong else it_next)
        with kb.if_(issuer):
            kb.bulk_wait(0)
    if cluster > 1:
        kb.cluster_sync()  # no CTA exits while a peer may still multicast into it or release its stages
    module, launch = kb.finish()
    return module, launch, tiles


def persistent_ctas(config: GemmConfig, m: int, n: int, sms: int) -> int:
    """The persistent grid: a CTA per SM, or fewer when there are fewer tiles; whole clusters."""
    cluster = config.cluster_size
    units = -(-m // (config.block_m * config.cluster_m)) * -(-n // (config.block_n * config.cluster_n))
    return min(units, sms // cluster) * cluster


# -- host side ------------------------------------------------------------------------------------------------

ELEM_BYTES = {"bf16": 2, "e4m3": 1, "e5m2": 1}
_KERNELS: dict[tuple, mmatom.Kernel] = {}


def gemm_kernel(m: int, n: int, k: int, *, dtype: str = "bf16", out_dtype: str | None = None,
                target: str = "sm_90a", config: GemmConfig | None = None) -> mmatom.Kernel:
    """The compiled GEMM kernel for these sizes (D bf16, or f32 with out_dtype="f32"; parameters: tensor maps of
    A, B, D, then for fp8 the two scale pointers); compiled once per process and cached on disk by its
    parameters (mmatom.compile_generated)."""
    if dtype not in ELEM_BYTES:
        raise api_error(f"gemm_kernel: dtype {dtype!r}; one of {', '.join(ELEM_BYTES)}")
    out_dtype = out_dtype or "bf16"
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"gemm_kernel: out_dtype {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")
    config = config or GemmConfig()
    key = (m, n, k, dtype, target, config, out_dtype)
    if key not in _KERNELS:  # on disk, found by the generator's parameters without building the module
        _KERNELS[key] = mmatom.compile_generated(
            ["mmatom.hopper_gemm", m, n, k, dtype, target, asdict(config), out_dtype],
            lambda: build_gemm(m, n, k, dtype, target, config, out_dtype)[0])
    return _KERNELS[key]


def _torch_dtype_name(t) -> str:
    name = str(t.dtype).removeprefix("torch.")
    return {"bfloat16": "bf16", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}.get(name, name)


def _aligned_columns(x, elem_bytes: int):
    """`x` (rows x cols, row-major) with its rows padded with zeros to a multiple of 16 bytes (what TMA can
    address); `x` itself when they already are."""
    import torch  # noqa: PLC0415 - torch is optional: only the host entry point needs it
    align = 16 // elem_bytes
    if x.is_contiguous() and x.shape[1] % align == 0:
        return x
    cols = -(-x.shape[1] // align) * align
    padded = torch.empty((x.shape[0], cols), dtype=x.dtype, device=x.device)
    padded[:, : x.shape[1]] = x
    padded[:, x.shape[1]:].zero_()  # only the pad columns: the whole buffer zeroed first is one more pass over it
    return padded


def gemm(a, b, *, out=None, scale_a=None, scale_b=None, config: GemmConfig | None = None, b_major: str = "k",
         out_dtype: str | None = None):
    """D = A . B^T (b_major "k": B is N x K, like F.linear's weight) or A . B (b_major "n": B is K x N) on the
    current torch stream, asynchronously; bf16 in, or fp8 (e4m3/e5m2) in with per-tensor float32 scales
    (`scale_a`, `scale_b` device tensors, as torch._scaled_mm); D bf16, or float32 (`out_dtype="f32"` or a
    float32 `out`). `out` (M x N) is written if given, else allocated."""
    import torch  # noqa: PLC0415 - torch is optional: only the host entry point needs it
    if out is not None:  # the hot path: the same operands as an earlier call, launched as packed then
        key = _call_key(a, b, out, scale_a, scale_b, config, b_major, out_dtype)
        launch = _PREPARED.get(key)
        if launch is not None:
            launch(_current_stream(torch, a.device))
            return out
    a_in, b_in, config_in, out_dtype_in = a, b, config, out_dtype
    dtype = _torch_dtype_name(a)
    if _torch_dtype_name(b) != dtype or dtype not in ELEM_BYTES:
        raise api_error(f"gemm: A is {a.dtype} and B {b.dtype}; both bf16, or both float8_e4m3fn / float8_e5m2")
    if (dtype in FP8) != (scale_a is not None and scale_b is not None):
        raise api_error("gemm: fp8 inputs take scale_a and scale_b (float32 device tensors); bf16 takes neither")
    if b_major == "n":
        b = b.t().contiguous()  # K x N -> N x K (K contiguous): the wgmma K-major form both bf16 and fp8 have
    elif b_major != "k":
        raise api_error(f"gemm: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    (m, k), (n, k_b) = a.shape, b.shape
    if k != k_b:
        raise api_error(f"gemm: A is {m}x{k} and B is {n}x{k_b}; the K extents differ")
    esize = ELEM_BYTES[dtype]
    a, b = _aligned_columns(a, esize), _aligned_columns(b, esize)
    if out_dtype is None:
        out_dtype = "f32" if out is not None and out.dtype == torch.float32 else "bf16"
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"gemm: out_dtype {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")
    torch_out = torch.bfloat16 if out_dtype == "bf16" else torch.float32
    align = 16 // OUT_DTYPES[out_dtype]
    n_out = -(-n // align) * align  # rows of D must be a multiple of 16 bytes for the TMA store
    if out is not None and (tuple(out.shape) != (m, n) or out.dtype != torch_out):
        raise api_error(f"gemm: out is {tuple(out.shape)} {out.dtype}; expected ({m}, {n}) {torch_out}")
    d = out if out is not None and out.is_contiguous() and n_out == n else \
        torch.empty((m, n_out), dtype=torch_out, device=a.device)
    config = config or choose_config(m, n, k, dtype)
    kernel = gemm_kernel(m, n, a.shape[1], dtype=dtype, config=config, out_dtype=out_dtype)
    bk = config.block_k(dtype)
    maps = [_tensor_map(a, config.block_m // config.cluster_n, bk), _tensor_map(b, config.block_n // config.cluster_m, bk),
            _tensor_map(d, BOX, box_columns(out_dtype))]
    args = maps + ([scale_a, scale_b] if dtype in FP8 else [])
    launch = kernel.prepare(*args, grid=(persistent_ctas(config, m, n, _sm_count()),))
    launch(_current_stream(torch, a.device))
    if d is out and a is a_in and b is b_in:  # no per-call copy in the launch: it can be replayed as packed
        if len(_PREPARED) >= CACHED_CALLS:
            _PREPARED.clear()
        _PREPARED[_call_key(a_in, b_in, out, scale_a, scale_b, config_in, b_major, out_dtype_in)] = launch
    if d is out:
        return out
    result = d[:, :n]
    if out is not None:
        out.copy_(result)
        return out
    return result


CACHED_CALLS = 4096  # packed launches and tensor maps kept (a bound: a caller may keep allocating new buffers)
_MAPS: dict[tuple, object] = {}
_PREPARED: dict[tuple, object] = {}


def forget_kernels() -> None:
    """Drop this process's compiled GEMM kernels (the next gemm_kernel call reads the compile cache again)."""
    _KERNELS.clear()


def forget_prepared_calls() -> None:
    """Drop the packed launches (after the autotuner stores a new choice, so the next calls use it)."""
    _PREPARED.clear()


def _call_key(a, b, out, scale_a, scale_b, config, b_major, out_dtype) -> tuple:
    """What a packed launch depends on: every operand's address, shape, strides and type, and the config asked
    for (a tensor freed and another allocated at its address with the same shape is the same launch)."""
    return (a.data_ptr(), b.data_ptr(), out.data_ptr(), a.shape, b.shape, out.shape, a.stride(), b.stride(),
            out.stride(), a.dtype, b.dtype, out.dtype, None if scale_a is None else scale_a.data_ptr(),
            None if scale_b is None else scale_b.data_ptr(), config, b_major, out_dtype)


def _tensor_map(x, box_rows: int, box_cols: int):
    key = (x.data_ptr(), tuple(x.shape), tuple(x.stride()), x.dtype, box_rows, box_cols)
    found = _MAPS.get(key)
    if found is None:
        if len(_MAPS) >= CACHED_CALLS:
            _MAPS.clear()
        found = _MAPS[key] = mmatom.tensor_map(x, box_rows, box_cols)
    return found


@lru_cache(maxsize=1)
def _sm_count() -> int:
    return mmatom.device_info().sm_count


def _current_stream(torch, device) -> int:
    """torch's current stream on `device` as a raw handle (torch.cuda.current_stream() builds a Stream object:
    ~10 us of a small GEMM's host path)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(device.index) if raw is not None else torch.cuda.current_stream(device).cuda_stream


@lru_cache(maxsize=1)
def gpu_name() -> str:
    """What the autotuner's choices are stored per: the GPU's name and SM count."""
    info = mmatom.device_info()
    return f"{info.name()} ({info.sm_count} SMs)"


def choose_config(m: int, n: int, k: int, dtype: str) -> GemmConfig:
    """The autotuner's stored choice for this problem on this GPU (mmatom.gemm_autotune), else a prior: the
    widest shipped tile among those whose waves of tiles over the SMs waste least (a narrow tile when there are
    few tiles, e.g. small M; a 64-row tile for M <= 64)."""
    found = gemm_choices.stored(gemm_choices.problem_key(gpu_name(), dtype, m, n, k))
    if found is not None:
        try:
            return GemmConfig(**found["config"])
        except TypeError:
            pass  # written by another version of GemmConfig: use the prior
    sms = _sm_count()

    def fill(c: GemmConfig) -> tuple[float, int]:
        """(the share of the SMs' waves of tiles that is useful output, to 0.1; then the wider tile)"""
        tiles = -(-m // c.block_m) * -(-n // c.block_n)
        return round(m * n / (-(-tiles // sms) * sms * c.block_m * c.block_n), 1), c.block_n

    return max(TILES + (ROW64_TILE,) * (m <= 64), key=fill)  # 64-row tiles where 128-row ones are half padding


__all__ = ["CONFIGS", "ROW64_TILE", "TILES", "GemmConfig", "build_gemm", "choose_config", "gemm", "forget_kernels", "forget_prepared_calls", "gemm_kernel",
           "gpu_name"]
