"""The GEMM's configurations: the CTA tile, the SMEM ring's depth, how the consumers share work, the cluster --
and the shipped set the autotuner chooses from (each passes the ptxas gates: tests/unit/api/test_gemm_ptxas.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from mmatom.errors import CompileError, api_error

FP8 = ("e4m3", "e5m2")
PRODUCER_REGISTERS, CONSUMER_REGISTERS = 40, 232  # CUTLASS's split below 208 accumulators per thread
# producer warpgroups that realign rows themselves (realigned_loads.py: two of them) compute: a split with room
# for their addresses. The CTA of 512 threads is launched with 128 registers a thread; the consumers' 200 leave the
# producers 56 (a larger increase waits forever: verify-pipeline refuses it)
REALIGNING_REGISTERS = {"producer": 56, "consumer": 200}
CONSUMER_THREADS = 256
ORDER_BARRIER = 3  # named barriers 3 and 4: ping-pong warpgroup 0 / 1 waits there for the other's K loop to end
BOX = 64  # rows of the epilogue's TMA store box: 64 x 128 bytes (64 bf16 or 32 f32 columns, one swizzle row)
BOX_BYTES = BOX * 128
OUT_DTYPES = {"bf16": 2, "f16": 2, "f32": 4}  # D's element types and their bytes
WAVE_CTAS = 132  # the persistent grid the raster is shaped for: an H100 SXM's SMs


ELEM_BYTES = {"bf16": 2, "f16": 2, "e4m3": 1, "e5m2": 1}  # A's and B's element types and their bytes
# our element type names -> torch's dtype attribute names (the one table the host, the tuner and the torch op read)
TORCH_DTYPE_NAMES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "e4m3": "float8_e4m3fn",
                     "e5m2": "float8_e5m2"}


def check_dtypes(who: str, dtype: str, out_dtype: str, b_dtype: str | None = None) -> None:
    """A's and B's element types (the same 16-bit type, or any two fp8 kinds: wgmma has the mixed e4m3 x e5m2
    forms) and D's."""
    b_dtype = b_dtype or dtype
    for name, t in (("dtype", dtype), ("b_dtype", b_dtype)):
        if t not in ELEM_BYTES:
            raise api_error(f"{who}: {name} {t!r}; one of {', '.join(ELEM_BYTES)}")
    if b_dtype != dtype and not (dtype in FP8 and b_dtype in FP8):
        raise api_error(f"{who}: A is {dtype} and B {b_dtype}; both the same 16-bit type, or both fp8 "
                        f"({' / '.join(FP8)}, mixed kinds allowed)")
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"{who}: out_dtype {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")


def check_majors(who: str, a_major: str, b_major: str, dtype: str, config: GemmConfig) -> None:
    """A K-major (M x K) or M-major (K x M, a transposed view's storage); B K-major (N x K) or N-major (K x N, as
    `a @ b` passes it): wgmma reads MN-major tiles of 16-bit types only, and each CTA loads all of an MN-major
    tile (no cluster multicasting it). The kernel's operands: a swapped-operand config's A is the call's B (an
    N-major B its M-major A) and its B the call's A."""
    if a_major not in ("k", "m"):
        raise api_error(f"{who}: a_major {a_major!r}; 'k' (A is M x K) or 'm' (A is K x M)")
    if b_major not in ("k", "n"):
        raise api_error(f"{who}: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    for operand, major, shared_by in (("A", a_major, config.cluster_n), ("B", b_major, config.cluster_m)):
        if major != "k" and (dtype in FP8 or shared_by > 1):
            raise api_error(f"{who}: an MN-major {operand} takes 16-bit types and no cluster multicasting it; got "
                            f"{dtype}, cluster {config.cluster_m}x{config.cluster_n}")
    if b_major != "k" and config.block_n % BOX and config.swap_ab:
        wide = next(c.name for c in SWAP_AB_CONFIGS if c.block_n % BOX == 0)
        raise api_error(f"{who}: a swapped-operand config's B is the call's A, and an M-major A (K x M storage) is "
                        f"loaded in boxes of {BOX} columns of M; config {config.name} covers {config.block_n} rows "
                        f"of A: {wide}, a K-major A (a.contiguous()), or no config")
    if b_major != "k" and config.block_n % BOX:
        raise api_error(f"{who}: an N-major B is loaded in boxes of {BOX} columns of N; config {config.name} tiles "
                        f"N by {config.block_n}")


def kernel_majors(swap_ab: bool, a_major: str, b_major: str) -> tuple[str, str]:
    """A call's majors as a kernel reads its operands: a swapped-operand one's (`swap_ab`) A is the call's B (an
    N-major B its M-major A) and its B the call's A (an M-major A its N-major B)."""
    if not swap_ab:
        return a_major, b_major
    return {"n": "m"}.get(b_major, b_major), {"m": "n"}.get(a_major, a_major)


def reads_majors(config: GemmConfig, a_major: str, b_major: str, dtype: str) -> bool:
    """Whether `config`'s kernel takes a call's A and B in these majors (check_majors on its own operands)."""
    try:
        check_majors("gemm", *kernel_majors(config.swap_ab, a_major, b_major), dtype, config)
    except CompileError:
        return False
    return True


def output_shape(a_shape: tuple, b_shape: tuple, b_major: str) -> tuple:
    """D's shape for A and B of these shapes -- (M, N), or (L, M, N) for a batched A -- checked as the kernel takes
    them: A (M, K) or (L, M, K); B (N, K) / (K, N) by `b_major`, or (L, N, K) / (L, K, N) with A's L. The one
    check of ranks and extents that the torch op's fake and the batched call share."""
    if b_major not in ("k", "n"):
        raise api_error(f"gemm: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    if len(a_shape) not in (2, 3):
        raise api_error(f"gemm: a has shape {tuple(a_shape)}; a matrix, or (A) a batch of them (L, M, K)")
    if len(b_shape) != 2 and len(b_shape) != len(a_shape):
        raise api_error(f"gemm: a is {'batched ' if len(a_shape) == 3 else ''}{tuple(a_shape)}; b is (L, N, K), "
                        f"(L, K, N) or a shared (N, K) / (K, N) matrix for a batched A, a matrix for a matrix A; got "
                        f"{tuple(b_shape)}")
    if len(b_shape) == 3 and b_shape[0] != a_shape[0]:
        raise api_error(f"gemm: A has {a_shape[0]} layers and B {b_shape[0]}; the batch sizes differ")
    (m, k), (n, k_b) = a_shape[-2:], (b_shape[-2:] if b_major == "k" else b_shape[-2:][::-1])
    if k != k_b:
        raise api_error(f"gemm: A is {m}x{k} and B is {n}x{k_b} (N x K); the K extents differ")
    return (*a_shape[:-1], n)


def box_row_bytes(config: GemmConfig, out_dtype: str) -> int:
    """Bytes of a row of the epilogue's staged D box, its swizzle span: 128, or 64 where the tile's columns are not
    a multiple of 128 bytes (a 16-bit D of block_n 96, 160 or 224: 32-column boxes swizzled 64B)."""
    return 128 if config.swap_ab or config.block_n * OUT_DTYPES[out_dtype] % 128 == 0 else 64


def box_columns(config: GemmConfig, out_dtype: str) -> int:
    return box_row_bytes(config, out_dtype) // OUT_DTYPES[out_dtype]


def output_swizzle(config: GemmConfig, out_dtype: str) -> str:
    """D's tensor map swizzle: its staged box's row (box_row_bytes) as TMA's mode."""
    return f"{box_row_bytes(config, out_dtype)}b"


def operand_box(config: GemmConfig, dtype: str, operand: str, major: str) -> tuple[int, int]:
    """The TMA box (rows x columns of the tensor as stored) one load of `operand` ("a" or "b") moves: for a K-major
    operand its tile's rows (or one CTA's slice of a tile its cluster shares) x block_k; for an MN-major one (the
    K x M / K x N tensor) block_k rows x 64 columns of M / N."""
    if major != "k":
        return config.block_k(dtype), BOX
    shared_by = config.cluster_n if operand == "a" else config.cluster_m
    return (config.block_m if operand == "a" else config.block_n) // shared_by, config.block_k(dtype)


NARROW_N = 32  # block_n's granule: tiles of 96, 160 or 224 columns fill a wave where multiples of 64 leave SMs idle
SWAP_AB_BLOCK_N = (16, 32, 64)  # a swapped-operand tile's rows of A (its wgmma N): the transposed box's rows
def output_box(config: GemmConfig, out_dtype: str) -> tuple[int, int]:
    """The TMA box (rows x columns of D) one epilogue store moves: 64 rows x 128 bytes (64 bytes: box_row_bytes), or
    (swapped operands) the tile's block_n rows of D x 64 columns."""
    return (config.block_n, BOX) if config.swap_ab else (BOX, box_columns(config, out_dtype))


CLUSTER_K_SLICES = (2, 4)  # cluster_k: the tree of pairs its sums take
CLUSTER_K_ACCUMULATORS = 2 * BOX_BYTES // (4 * 128)  # a warpgroup's f32 sums in its two staging boxes: 32 a thread
MAX_ACCUMULATORS = 128  # f32 accumulators per consumer thread that fit CONSUMER_REGISTERS with the epilogue's
# a realigning kernel's (512 threads) are launched with 128 registers a thread, which ptxas holds every role to
REALIGNED_ACCUMULATORS = 64


@dataclass(frozen=True)
class GemmConfig:
    """One kernel configuration: the CTA tile (block_m x block_n; block_k along K is 128 bytes of it, the
    swizzle span), SMEM stages, the grouped raster's rows of tiles (0: see raster_group), how many K steps'
    wgmma groups a consumer keeps in flight while it issues the next (0: it waits for each step's wgmma before
    releasing the stage; 1: it releases the previous step's stage after `wait_group 1`, so the tensor cores do
    not drain between K steps), the consumers' schedule, the cluster, and split-K.

    Consumers: cooperative (both consumer warpgroups on one tile, block_m / 2 rows each) or `pingpong` (each
    warpgroup a whole tile of its own, the two taking turns down the CTA's tiles: one's epilogue runs while the
    other's wgmmas do, CUTLASS's ping-pong kernel). A warpgroup covering more than 64 rows repeats its wgmma
    down M. Cluster: `cluster_m` CTAs on consecutive row tiles of one column tile (each loads 1/cluster_m of
    the B tile they share and multicasts it: B read from L2 once per cluster), or `cluster_n` CTAs on
    consecutive column tiles of one row tile (sharing A the same way), or both: a 2x2 cluster's CTAs each share
    A with the CTA beside and B with the one below (every operand read from L2 once per two CTAs).

    split_k: the kernel takes a `splits` argument and walks that many layers of tiles, each over its slice of K;
    every slice writes its f32 partial sums to a workspace, and the last of a tile's slices to finish adds them up
    in slice order and stores the tile (split_sums.py): few output tiles (small M, or small M x N with a long K)
    then still fill the SMs, in one launch, and the result is the same bits from run to run.

    stream_k: whole waves of tiles walked as usual, and a last, partial wave's K steps cut into runs over the SMs (at
    most 4 a tile); a tile split between runs is added up as split-K's slices are (scheduler.StreamKWalk): no SM idles
    while the last wave's few tiles finish. Cooperative consumers, no cluster, no swap.

    cluster_k: split-K within a cluster of that many CTAs (2 or 4), each over its slice of K of the same tile; their
    partial sums meet in shared memory over the cluster (st.async into a peer's staging boxes, a barrier counting
    the bytes: cluster_sums.py), no workspace, fence or counter in global memory. Slices are fixed by the config;
    the sum's order is the ranks' (a tree of pairs), the same bits every run. Cooperative, unclustered otherwise,
    a tile's f32 partial sums fitting a warpgroup's two staging boxes (32 accumulators a thread).

    swap_ab: the kernel computes D^T = B . A^T -- the host hands it B as its A and A as its B -- so a small M
    lies on wgmma's N (block_n of 16, 32 or 64 rows of A per tile) instead of filling 64-row atoms with TMA's
    zeros; each warpgroup's 64 x block_n accumulator block is staged transposed (stmatrix.trans) into a box of
    block_n rows of D and TMA-stored through D's own (row-major) tensor map. 16-bit D, no cluster; B K-major or
    N-major (the kernel's A), A K-major (M-major: the 64-wide config only, its N-major B in 64-column boxes)."""

    block_m: int = 128
    block_n: int = 256
    stages: int = 4
    group_m: int = 0  # 0: raster_group's choice for the tile
    wgmma_in_flight: int = 0
    cluster_m: int = 1
    cluster_n: int = 1
    pingpong: bool = False
    split_k: bool = False
    swap_ab: bool = False
    stream_k: bool = False
    cluster_k: int = 1

    def __hash__(self) -> int:
        """The fields' hash, computed once per config (a new shape's first call hashes its config in several cache
        lookups; the dataclass's own hash builds the fields' tuple each time)."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash(_field_values(self))
            object.__setattr__(self, "_hash", found)
        return found

    @property
    def name(self) -> str:
        """`128x256x4`: block_m x block_n x stages (the autotuner's and the bench's label), `w1` appended when the
        consumers keep a wgmma group in flight, `c2x1` / `c1x2` for a cluster, `p` for ping-pong consumers,
        `g<n>` for an explicit raster group, `c1x1x<k>` for split-K in a cluster, `s` for split-K, `k` for stream-K,
        `t` for swapped operands (D^T = B . A^T)."""
        depth = f"w{self.wgmma_in_flight}" if self.wgmma_in_flight else ""
        cluster = f"c{self.cluster_m}x{self.cluster_n}" if self.cluster_size > 1 else ""
        cluster += f"c1x1x{self.cluster_k}" if self.cluster_k > 1 else ""
        group = f"g{self.group_m}" if self.group_m else ""
        return f"{self.block_m}x{self.block_n}x{self.stages}{depth}{cluster}{'p' * self.pingpong}{group}" \
            f"{'s' * self.split_k}{'k' * self.stream_k}{'t' * self.swap_ab}"

    @property
    def cluster_size(self) -> int:
        """CTAs of a cluster on different tiles (sharing operands by multicast)."""
        return self.cluster_m * self.cluster_n

    @property
    def cluster_ctas(self) -> int:
        """CTAs of a launch's cluster: those on different tiles, or (cluster_k) on one tile's slices of K."""
        return self.cluster_size * self.cluster_k

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
        """The config a `name` spells (`128x128x6w1c2x1g8`, `128x128x6w1p`, `64x128x8w1ps`; `c2` alone is `c2x1`)."""
        found = re.fullmatch(r"(\d+)x(\d+)x(\d+)(?:w(\d+))?(?:c(\d+)(?:x(\d+))?)?(?:c1x1x(\d+))?(p)?(?:g(\d+))?(s)?(k)?(t)?",
                             name)
        if found is None:
            raise api_error(f"GemmConfig.from_name: {name!r}; block_m x block_n x stages, then optionally w<wgmma "
                            f"groups in flight>, c<cluster M>x<cluster N>, p (ping-pong), g<raster group rows> and "
                            f"s (split-K), k (stream-K) and t (swapped operands), e.g. 128x128x6w1c2x1, 64x128x8w1ps, "
                            f"128x256x4k or 128x16x8w1t")
        bm, bn, stages, depth, cm, cn, ck, pingpong, group, split, stream, swap = found.groups()
        return cls(int(bm), int(bn), int(stages), group_m=int(group or 0), wgmma_in_flight=int(depth or 0),
                   cluster_m=int(cm or 1), cluster_n=int(cn or 1), pingpong=bool(pingpong), split_k=bool(split),
                   swap_ab=bool(swap), stream_k=bool(stream), cluster_k=int(ck or 1))

    def _check_block_n(self) -> None:
        if self.swap_ab:  # block_n rows of A, staged transposed: one stmatrix.trans x4 per 16
            if self.block_n not in SWAP_AB_BLOCK_N or self.cluster_size > 1:
                raise api_error(f"GemmConfig: swap_ab with block_n={self.block_n}, cluster {self.cluster_m}x"
                                f"{self.cluster_n}; block_n one of {', '.join(map(str, SWAP_AB_BLOCK_N))} (A's rows "
                                f"per tile), no cluster")
        elif self.block_n % NARROW_N or not BOX <= self.block_n <= 256:
            raise api_error(f"GemmConfig: block_n={self.block_n}; a multiple of {NARROW_N} in [64, 256]")

    def _check_cluster_k(self) -> None:
        if self.cluster_k == 1:
            return
        if self.cluster_k not in CLUSTER_K_SLICES:
            raise api_error(f"GemmConfig: cluster_k={self.cluster_k}; 1, or {' or '.join(map(str, CLUSTER_K_SLICES))} "
                            f"CTAs of a cluster splitting a tile's K")
        if self.pingpong or self.split_k or self.stream_k or self.cluster_size > 1:
            raise api_error(f"GemmConfig: {self.name}: split-K in a cluster (cluster_k) runs cooperative consumers "
                            f"on a cluster of its own, without split-K's workspace or stream-K")
        if self.accumulators > CLUSTER_K_ACCUMULATORS:
            raise api_error(f"GemmConfig: {self.name}: split-K in a cluster hands a warpgroup's f32 partial sums over "
                            f"in its two staging boxes, {CLUSTER_K_ACCUMULATORS} accumulators a thread; this tile "
                            f"has {self.accumulators} (block_n at most 64 for block_m 128)")

    def block_k(self, dtype: str) -> int:
        return 128 if dtype in FP8 else 64

    @property
    def accumulators(self) -> int:
        """f32 accumulators per consumer thread: one consumer warpgroup's rows of the tile x block_n / 128."""
        return self.block_m // self.tile_warpgroups * self.block_n // 128

    def check(self, dtype: str) -> None:
        rows = self.block_m // self.tile_warpgroups  # one consumer warpgroup's rows of a tile
        if self.block_m % self.tile_warpgroups or rows % 64 or rows // 64 not in (1, 2):
            legal = "64 or 128 (each warpgroup a whole tile)" if self.pingpong else "128 or 256 (64 or 128 rows per warpgroup)"
            raise api_error(f"GemmConfig: block_m={self.block_m} with {'ping-pong' if self.pingpong else 'cooperative'} "
                            f"consumers; block_m is {legal}")
        self._check_block_n()
        if self.accumulators > MAX_ACCUMULATORS:
            raise api_error(f"GemmConfig: a {self.block_m}x{self.block_n} tile is {self.accumulators} f32 "
                            f"accumulators per consumer thread ({rows} rows per warpgroup); at most "
                            f"{MAX_ACCUMULATORS} fit its {CONSUMER_REGISTERS} registers")
        if self.group_m < 0:
            raise api_error(f"GemmConfig: group_m={self.group_m}; rows of tiles per raster group, or 0 for the tile's own")
        if self.wgmma_in_flight not in (0, 1) or self.stages < 2:
            raise api_error((
                f"GemmConfig: wgmma_in_flight={self.wgmma_in_flight} with stages={self.stages}; 0 or 1 (deeper, "
                f"verify-pipeline cannot tell the older in-flight steps' stages apart), and at least 2 stages"))
        if self.stream_k and (self.pingpong or self.swap_ab or self.cluster_size > 1 or self.split_k):
            raise api_error(f"GemmConfig: {self.name} with stream_k; stream-K runs cooperative consumers on "
                            f"unswapped, unclustered tiles, without split-K")
        self._check_cluster_k()
        cm, cn = self.cluster_m, self.cluster_n
        if (cm, cn) not in ((1, 1), (2, 1), (1, 2), (2, 2)):
            raise api_error(f"GemmConfig: cluster {cm}x{cn}; 1x1, 2x1 (sharing B), 1x2 (sharing A) or 2x2 (both)")
        if self.cluster_size > 1 and (self.block_n // cm % BOX or self.block_m // cn % BOX):
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
# narrow tiles, block_n an odd multiple of 32 (D staged in 64-byte boxes): where N / 64-multiples leave a last wave
# mostly idle, 96, 160 or 224 columns fill it (2048 x 1728 on 128 x 224 tiles: 128 of 132 SMs against 112 of 128 x
# 256; 1024 x 5120: 256 tiles of 128 x 160, 2 whole waves, against 160 of 128 x 256, 1.2)
NARROW_TILES = (GemmConfig(128, 96, 6, wgmma_in_flight=1), GemmConfig(128, 160, 5, wgmma_in_flight=1),
                GemmConfig(128, 224, 4))
CONFIGS = TILES + tuple(replace(c, wgmma_in_flight=1 - c.wgmma_in_flight) for c in TILES) + (
    GemmConfig(128, 256, 4, cluster_m=2), GemmConfig(128, 256, 4, wgmma_in_flight=1, cluster_m=2),
    GemmConfig(256, 128, 4), GemmConfig(256, 128, 4, cluster_n=2),
    GemmConfig(128, 128, 6, wgmma_in_flight=1, pingpong=True), ROW64_TILE) + NARROW_TILES
# split-K variants (their own kernels: the epilogue's partial sums added up by each tile's last slice, split_sums.py)
# of the tiles that suit few output tiles -- and of each swapped-operand tile (the prior's candidates build those) --
# run with the number of K slices the cost model picks (choices.splits)
SPLIT_K_CONFIGS = (replace(ROW64_TILE, split_k=True), GemmConfig(128, 128, 6, wgmma_in_flight=1, split_k=True),
                   GemmConfig(128, 64, 8, wgmma_in_flight=1, split_k=True))
# swapped-operand variants for M <= 64 (D^T = B . A^T: M on wgmma's N): 128 rows of B x 16 / 32 / 64 of A per tile,
# deep rings (a stage is 16 KiB of B and 2-8 KiB of A). Among the prior's candidates (M <= 64) once choices.COST_MODEL
# has their measured terms (benchmarks/gemm_sweep.py --swap-ab, fit_gemm_prior.py); until then `config=` picks one
SWAP_AB_CONFIGS = tuple(GemmConfig(128, n, 8, wgmma_in_flight=1, swap_ab=True) for n in SWAP_AB_BLOCK_N)
# 2x2 clusters (each CTA shares A with the CTA beside it and B with the one below: half of each operand's L2 reads)
# -- mmatom.gemm_autotune's candidates and config= choices; the prior does not pick them. On the H100 sweep
# (records/gemm-2026-11-28-h100-s31/c2x2_sweep.json, the 300 shapes x bf16 / e4m3) they are slower than their
# unclustered tiles on most rows (geomean 0.85-0.91x): a cluster's CTAs wait on each other every K step, and 30
# clusters of four fit on an H100 at once, 120 of its 132 SMs (host.resident_sms); faster by > 5% on 28 bf16 rows
# (128x128), long-K problems of about a wave among them: 2496 x 704 x 6528 1.22x, 3000 x 5000 x 7000 1.23x (128x256,
# midsize_c2x2.txt; autotuned there 1.04x / 1.27x cuBLAS, autotune_c2x2.txt). The fitted prior would pick them on 9
# fp8 rows of short K only (c2x2_prior_eval.py).
CLUSTER_2X2_CONFIGS = (GemmConfig(128, 128, 6, wgmma_in_flight=1, cluster_m=2, cluster_n=2),
                       GemmConfig(128, 256, 4, cluster_m=2, cluster_n=2))
# stream-K variants (a last, partial wave's K steps in runs over the SMs: no idle last wave; scheduler.StreamKWalk)
# of the cooperative, unclustered tiles -- mmatom.gemm_autotune's candidates and config= choices; the prior does not
# pick them (benchmarks/gemm_stream_k.py: they pay only for a long K with a sparse last wave)
STREAM_K_CONFIGS = tuple(replace(c, stream_k=True) for c in TILES + (GemmConfig(256, 128, 4),))

# split-K in a cluster of two (cluster_sums.py) of the tiles that take it (128 x 64, the swapped 128 x 16/32/64):
# mmatom.gemm_autotune's candidates and config= choices; the prior does not pick them -- on the H100 they ran 0.4-3.8%
# faster than split-K through global memory in two slices on one-wave decode rows (11% on a two-wave one), within
# the noise of the prior's split-K pricing (records/gemm-2026-12-07-s37/call2-h100/cluster_k_ab.txt); clusters of
# four ran 1.3-1.6x slower there (30 clusters of four fit an H100 at once: 32 tiles took two turns)
CLUSTER_K_CONFIGS = tuple(replace(c, cluster_k=2)
                          for c in (GemmConfig(128, 64, 8, wgmma_in_flight=1), *SWAP_AB_CONFIGS))


def _field_values(config: GemmConfig) -> tuple:
    """The config's fields in order (what its equality compares)."""
    return tuple(getattr(config, f.name) for f in fields(config))


def widened(config: GemmConfig) -> GemmConfig:
    """The shipped unclustered config of a narrow tile's rows and its block_n rounded up to 64 columns (staging D in
    boxes of 128-byte rows, as a D stored through its pointer needs: direct_store.py)."""
    block_n = -(-config.block_n // BOX) * BOX
    return next(c for c in CONFIGS if (c.block_m, c.block_n, c.pingpong, c.cluster_size) ==
                (config.block_m, block_n, config.pingpong, 1))


__all__ = ["BOX", "CLUSTER_2X2_CONFIGS", "CLUSTER_K_CONFIGS", "NARROW_N", "NARROW_TILES", "ELEM_BYTES", "REALIGNED_ACCUMULATORS", "REALIGNING_REGISTERS",
           "TORCH_DTYPE_NAMES", "check_majors", "check_dtypes", "CONFIGS", "FP8", "OUT_DTYPES", "ROW64_TILE",
           "SPLIT_K_CONFIGS", "STREAM_K_CONFIGS", "SWAP_AB_CONFIGS", "TILES", "GemmConfig", "box_columns",
           "box_row_bytes", "operand_box", "output_box", "output_shape", "output_swizzle", "widened"]
