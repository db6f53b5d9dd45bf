"""mmatom.gemm: an H100 GEMM built from atoms through the public API only (the reference DSL program).

    d = mmatom.gemm(a, b)                       # a: M x K, b: N x K (like F.linear's weight), bf16 -> bf16
    d = mmatom.gemm(a8, b8, scale_a=sa, scale_b=sb)   # fp8 e4m3/e5m2 with per-tensor scales (torch._scaled_mm)
    kernel = mmatom.gemm_kernel(4096, 4096, 4096)      # the compiled Kernel, for inspection

The kernel (sm_90a): persistent (one CTA per SM, tiles in grouped raster order), warp-specialized -- warpgroup 0
is the producer (one elected thread issues TMA loads of A and B boxes, 128B-swizzled, into an N-stage SMEM ring
of full/empty mbarriers; its registers are given away with setmaxnreg), warpgroups 1 and 2 are the consumers
(cooperative: one 128 x BN tile, 64 rows each, one wgmma tile op per K step, accumulators in registers). The
epilogue converts to bf16, stmatrix-es 64x64 boxes into swizzled SMEM (double-buffered per warpgroup) and TMA-
stores them, which also clips the M and N tails; the K tail reads TMA's zero fill. Shapes TMA cannot describe
(a row that is not a multiple of 16 bytes) are padded on the host.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache

import mmatom

from . import gemm_choices
from .errors import api_error

FP8 = ("e4m3", "e5m2")
PRODUCER_REGISTERS, CONSUMER_REGISTERS = 40, 232  # CUTLASS's split below 208 accumulators per thread
CONSUMER_THREADS = 256
BOX = 64  # rows of the epilogue's TMA store box: 64 x 128 bytes (64 bf16 or 32 f32 columns, one swizzle row)
BOX_BYTES = BOX * 128
OUT_DTYPES = {"bf16": 2, "f32": 4}  # D's element types and their bytes


def box_columns(out_dtype: str) -> int:
    return 128 // OUT_DTYPES[out_dtype]


@dataclass(frozen=True)
class GemmConfig:
    """One kernel configuration: the CTA tile (block_m rows over the two consumer warpgroups, block_n columns,
    block_k along K: 128 bytes of it, the swizzle span), SMEM stages, and the grouped raster width."""

    block_m: int = 128
    block_n: int = 256
    stages: int = 4
    group_m: int = 8

    @property
    def name(self) -> str:
        """`128x256x4`: block_m x block_n x stages (the autotuner's and the bench's label)."""
        return f"{self.block_m}x{self.block_n}x{self.stages}"

    def block_k(self, dtype: str) -> int:
        return 128 if dtype in FP8 else 64

    def check(self, dtype: str) -> None:
        if self.block_m != 128:
            raise api_error((
                f"GemmConfig: block_m={self.block_m}; the cooperative kernel's two consumer warpgroups take 64 rows "
                f"each (block_m=128)"))
        if self.block_n % BOX or not BOX <= self.block_n <= 256:
            raise api_error((
                f"GemmConfig: block_n={self.block_n}; a multiple of {BOX} in [64, 256]"))


# the shipped tiles (the autotuner's candidates; each passes the ptxas gates in tests/unit/api/test_gemm_ptxas.py)
CONFIGS = (GemmConfig(128, 256, 4), GemmConfig(128, 128, 6), GemmConfig(128, 192, 4), GemmConfig(128, 64, 8))


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
    atom = mmatom.atom(target, "wgmma", m=64, n=bn, k=32 if fp8 else 16, a=dtype, b=dtype, d="f32")
    tiled = mmatom.TiledMma(atom, atom_layout_mnk=(2, 1, 1), permutation=(bm, bn, bk))
    tile_a, tile_b = tiled.smem_desc_type("A"), tiled.smem_desc_type("B")
    elem_bytes = 1 if fp8 else 2
    a_bytes, b_bytes = bm * bk * elem_bytes, bn * bk * elem_bytes
    params = [("a", mmatom.TensorMapType(dtype, bm, bk, "128b")), ("b", mmatom.TensorMapType(dtype, bn, bk, "128b")),
              ("d", mmatom.TensorMapType(out_dtype, BOX, box_cols, "128b"))]
    if fp8:
        params += [("scale_a", "ptr"), ("scale_b", "ptr")]
    kb = mmatom.KernelBuilder("gemm", params, target, threads=128 + CONSUMER_THREADS, min_ctas_per_sm=1)
    smem_a = kb.smem(config.stages * a_bytes)
    smem_b = kb.smem(config.stages * b_bytes)
    staging = kb.smem(2 * 2 * BOX_BYTES)  # per consumer warpgroup, two boxes (double-buffered)
    ring = mmatom.Pipeline(kb, config.stages, consumers=CONSUMER_THREADS, stage_bytes=a_bytes + b_bytes)

    tiles_m, tiles_n, k_tiles = -(-m // bm), -(-n // bn), -(-k // bk)
    tiles = tiles_m * tiles_n
    tid = kb.tid()
    with kb.if_(kb.cmpi("eq", tid, 0)):
        ring.init()
    kb.barrier()

    def tile_origin(t):
        """Grouped raster: group_m rows of tiles at a time, down the rows then across (L2 reuse of B)."""
        group = config.group_m * tiles_n
        first_m = kb.mul(kb.div(t, group), config.group_m)
        rows = kb.min(kb.sub(tiles_m, first_m), config.group_m)
        within = kb.rem(t, group)
        return kb.mul(kb.add(first_m, kb.rem(within, rows)), bm), kb.mul(kb.div(within, rows), bn)

    def tile_loop(it):
        return kb.for_range(kb.ctaid(), tiles, kb.nctaid(), [it])

    with kb.if_(kb.cmpi("eq", kb.warpgroup_id(), 0)) as producer:
        kb.setmaxnreg("decrease", PRODUCER_REGISTERS)
        with kb.if_(kb.cmpi("eq", tid, 0)):
            with (tiles_loop := tile_loop(kb.const(0))) as (t, (it,)):
                m0, n0 = tile_origin(t)
                with (k_loop := kb.for_range(0, k_tiles, 1, [it])) as (kt, (it_k,)):
                    stage = ring.producer_acquire(it_k)
                    k0 = kb.mul(kt, bk)
                    kb.tma_load(kb.param("a"), m0, k0, kb.offset(smem_a, kb.mul(stage, a_bytes)), ring.full(stage),
                                tile_a)
                    kb.tma_load(kb.param("b"), n0, k0, kb.offset(smem_b, kb.mul(stage, b_bytes)), ring.full(stage),
                                tile_b)
                    k_loop.yield_(kb.add(it_k, 1))
                tiles_loop.yield_(k_loop.results[0])
    with producer.otherwise():
        kb.setmaxnreg("increase", CONSUMER_REGISTERS)
        half = kb.and_(kb.warpgroup_id(), 1)  # the rows a consumer warpgroup owns (as the wgmma tile places them)
        issuer = kb.cmpi("eq", kb.and_(tid, 127), 0)
        barrier_id = kb.add(half, 1)  # named barrier 1 or 2: one consumer warpgroup's 128 threads
        boxes = kb.offset(staging, kb.mul(half, 2 * BOX_BYTES))
        if fp8:
            scale = kb.mulf(kb.load_scalar(kb.param("scale_a"), "f32"),
                            kb.load_scalar(kb.param("scale_b"), "f32"))
        with (tiles_loop := tile_loop(kb.const(0))) as (t, (it,)):
            m0, n0 = tile_origin(t)
            acc = kb.fill(0.0, tiled.fragment_type("C"))
            with (k_loop := kb.for_range(0, k_tiles, 1, [it, acc])) as (_, (it_k, c)):
                stage = ring.consumer_wait(it_k)
                kb.wgmma_fence()
                d = tiled.mma_smem(kb, kb.make_desc(kb.offset(smem_a, kb.mul(stage, a_bytes)), tile_a),
                                   kb.make_desc(kb.offset(smem_b, kb.mul(stage, b_bytes)), tile_b), c)
                kb.wgmma_commit()
                kb.wgmma_wait(0)
                ring.consumer_release(stage)
                k_loop.yield_(kb.add(it_k, 1), kb.convert(d, tiled.fragment_type("C")))
            it_next, acc = k_loop.results
            result = kb.convert(acc, tiled.fragment_type("D"))
            if fp8:
                result = kb.map(result, lambda kb_, x, _v: kb_.mulf(x, scale))
            out = kb.convert(result, "bf16") if out_dtype == "bf16" else result
            row0 = kb.add(m0, kb.mul(half, BOX))
            for block in range(bn // box_cols):
                box = kb.offset(boxes, (block % 2) * BOX_BYTES)
                with kb.if_(issuer):
                    kb.bulk_wait(1, read=True)  # the store that last read this box is done reading it
                kb.named_barrier(barrier_id, 128)
                kb.stmatrix_tile(out, block, box)
                kb.fence_proxy_async()
                kb.named_barrier(barrier_id, 128)
                with kb.if_(issuer):
                    kb.tma_store(box, kb.param("d"), row0, kb.add(n0, block * box_cols))
                    kb.bulk_commit()
            tiles_loop.yield_(it_next)
        with kb.if_(issuer):
            kb.bulk_wait(0)
    module, launch = kb.finish()
    return module, launch, tiles




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
    padded = torch.zeros((x.shape[0], cols), dtype=x.dtype, device=x.device)
    padded[:, : x.shape[1]] = x
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
    maps = [_tensor_map(a, config.block_m, bk), _tensor_map(b, config.block_n, bk), _tensor_map(d, BOX, box_columns(out_dtype))]
    args = maps + ([scale_a, scale_b] if dtype in FP8 else [])
    tiles = -(-m // config.block_m) * -(-n // config.block_n)
    launch = kernel.prepare(*args, grid=(min(tiles, _sm_count()),))
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
    few tiles, e.g. small M)."""
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

    return max(CONFIGS, key=fill)


__all__ = ["CONFIGS", "GemmConfig", "build_gemm", "choose_config", "gemm", "forget_kernels", "forget_prepared_calls", "gemm_kernel",
           "gpu_name"]
