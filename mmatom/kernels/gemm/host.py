"""The GEMM's host side: `mmatom.gemm(a, b)` on torch tensors -- the config (stored choice or prior), the compiled
kernel (cached in memory and on disk by its parameters), tensor maps, and launches packed once and replayed. A call
that differs from an earlier one only in M and where A and D are (a serving loop's next batch) skips the checks and
planning through that call's any-rows template (_AnyRows): the config for its M, two tensor maps, the launch.

    d = mmatom.gemm(a, b)                       # a: M x K, b: N x K (like F.linear's weight), bf16 -> bf16
    d = mmatom.gemm(a8, b8, scale_a=sa, scale_b=sb)   # fp8 e4m3/e5m2 with per-tensor scales (torch._scaled_mm)
    d = mmatom.gemm(a8, b8, scale_a=sa_m, scale_b=sb_n)   # rowwise: sa_m of M floats ((M,) or (M, 1)), sb_n of N
    d = mmatom.gemm(a16, b16)                   # float16 in -> float16 out (f32 accumulation)
    kernel = mmatom.gemm_kernel(dtype="bf16")          # the compiled Kernel (one per config: every shape)

Operands TMA cannot address (rows that are not a multiple of 16 bytes apart, a misaligned base) are copied
here once, into rows padded ROW_PITCH_BYTES (128) apart, by the repack kernel (repack.py; a 128B-swizzled TMA box must
start on a 16-byte column, so such rows cannot be read in place: benchmarks/tma_inner_alignment.py); a caller's `out`
TMA cannot store to is written in place by a kernel storing D through its pointer (direct_d); so is an operand whose rows are an odd multiple of 16 bytes
apart where the copy pays for itself (TMA's boxes over such rows load slower: choices.pitch_plan weighs the two).
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import NamedTuple

import mmatom
from mmatom.errors import api_error
from mmatom.optional import require_torch

from ..torch_launch import addresses, current_stream, tensor_map
from .choices import (FULL_SPEED_PITCH_BYTES, ROW_PITCH_BYTES, choose_config, realign_pays, realign_splits,
                      realigning_us, repacked_operands, slice_steps, sm_count, splits)
from .config import (ELEM_BYTES, FP8, OUT_DTYPES, SPLIT_K_CONFIGS, TORCH_DTYPE_NAMES, GemmConfig, check_dtypes,
                     box_row_bytes, kernel_majors, operand_box, output_box, output_swizzle, reads_majors, widened)
from .kernel import DIRECT_STREAM_K_ACCUMULATORS, build_gemm, realigned_ring
from .repack import THREADS as REPACK_THREADS
from .repack import repack_arguments, repack_kernel
from .split_sums import stream_k_workspace_sizes, workspace_sizes
from ..split_workspace import SplitLaunch, forget_workspaces

REPACK_CTAS_PER_SM = 8  # the repack's grid: enough warps in flight to keep DRAM busy (each strides over the rest)


def persistent_ctas(config: GemmConfig, m: int, n: int, sms: int, splits: int = 1, k: int = 0,
                    dtype: str = "bf16") -> int:
    """The persistent grid: a CTA per SM, or fewer when there are fewer tiles (times the K slices; stream-K: fewer
    tile K steps, each CTA's run at least one); whole clusters (split-K in a cluster: a cluster a tile)."""
    cluster = config.cluster_ctas
    units = -(-m // (config.block_m * config.cluster_m)) * -(-n // (config.block_n * config.cluster_n)) * splits
    if config.stream_k:
        units *= max(1, -(-k // config.block_k(dtype)))
    return min(units, sms // cluster) * cluster


def resident_sms(kernel: mmatom.Kernel, config: GemmConfig, sms: int, device: int) -> int:
    """The SMs a persistent grid of `config`'s kernel fills: all `sms`, or for clusters of more than two CTAs (a
    cluster's CTAs share a GPC, whose SMs need not divide by 4) as many as the GPU runs of its clusters at once --
    a grid past that would run its last clusters as a second wave."""
    if config.cluster_ctas <= 2:
        return sms
    return kernel.max_active_clusters(device) * config.cluster_ctas


def clusters_for(p: "Problem", out_dtype: str, direct: bool = False):
    """call_clusters for problem `p` (None for operands off the GPU)."""
    return call_clusters(p.dtypes, p.majors, out_dtype, p.a.get_device() if p.a.is_cuda else None,
                         rowwise=p.rowwise, direct=direct, unaligned=any(p.unaligned))


def call_clusters(dtypes: tuple[str, str], majors: tuple[str, str], out_dtype: str, device: int | None, *,
                  rowwise: bool = False, direct: bool = False, unaligned: bool = False):
    """What the prior's one-wave rule asks of a call (choices.one_wave_clustered): how many clusters of a
    2x2-cluster config GPU `device` runs at once, as a function of the config (its kernel for these (A's, B's)
    types and majors and D's type). None -- the rule left out -- but for what the 2x2-cluster kernels were timed
    and GPU-tested on (CLUSTERED_CALLS): not for a D stored through its pointer, rowwise scales, rows TMA cannot
    address (realigned or copied), no GPU."""
    if (dtypes, out_dtype) not in CLUSTERED_CALLS or device is None or rowwise or direct or unaligned:
        return None
    return lambda variant: gemm_kernel(dtype=dtypes[0], b_dtype=dtypes[1], config=variant, out_dtype=out_dtype,
                                       b_major=majors[1], a_major=majors[0]).max_active_clusters(device)


# (A's and B's types, D's) of the calls the one-wave rule may run clustered: those session 31 timed and
# test_two_by_two_clusters checks (records/GEMM.md)
CLUSTERED_CALLS = ((("bf16", "bf16"), "bf16"), (("e4m3", "e4m3"), "bf16"))
_KERNELS: dict[tuple, mmatom.Kernel] = {}
OUR_NAMES = {torch_name: name for name, torch_name in TORCH_DTYPE_NAMES.items()}


def gemm_kernel(*, dtype: str = "bf16", out_dtype: str | None = None, target: str = "sm_90a",
                config: GemmConfig | None = None, b_dtype: str | None = None, b_major: str = "k",
                a_major: str = "k", batched: bool = False, rowwise: bool = False,
                direct_d: bool = False, realigned: tuple = ()) -> mmatom.Kernel:
    """The compiled GEMM kernel of a config (A `dtype`, B `b_dtype` (default: A's), D `out_dtype` (default bf16);
    parameters: tensor maps of A, B, D, the sizes m, n, k, a split-K config's `splits` and `slice_steps`, then for fp8 the two scale
    pointers): one kernel serves every shape; `b_major="n"` / `a_major="m"`: B's / A's tensor map is of the K x N /
    K x M tensor; `batched`: 3-d tensor maps and the batch's size after k; `rowwise` (fp8): the scales are
    vectors of M and N floats; `realigned`: those operands ("a", "b") are pointers to rows at any alignment
    (kernel.build_gemm). Compiled once per process and cached on disk by its parameters
    (mmatom.compile_generated)."""
    out_dtype, b_dtype = out_dtype or "bf16", b_dtype or dtype
    check_dtypes("gemm_kernel", dtype, out_dtype, b_dtype)
    config = config or GemmConfig()
    key = (dtype, b_dtype, target, config, out_dtype, b_major, a_major, batched, rowwise, direct_d, tuple(realigned))
    if key not in _KERNELS:  # on disk, found by the generator's parameters without building the module
        _KERNELS[key] = mmatom.compile_generated(
            ["mmatom.kernels.gemm", "any shape", *key[:3], asdict(config), *key[4:-1],
             *([list(realigned)] if realigned else [])],
            lambda: build_gemm(dtype, target, config, out_dtype, b_dtype, b_major, a_major, batched, rowwise,
                               direct_d, tuple(realigned))[0])
    return _KERNELS[key]


def _dtype_name(x) -> str:
    name = str(x.dtype).removeprefix("torch.")
    return OUR_NAMES.get(name, name)


def _aligned_columns(x, elem_bytes: int):
    """`x` (rows x cols) as TMA can address it: `x` itself where it can (_tma_addressable: a column slice of an
    aligned matrix too), else one copy into rows ROW_PITCH_BYTES apart (padded_copy)."""
    if _tma_addressable(x, elem_bytes):
        return x
    return padded_copy(require_torch("mmatom.gemm"), x)


def _padded_like(torch, x):
    """An uninitialised matrix (or batch) of `x`'s shape whose rows start ROW_PITCH_BYTES apart."""
    return _padded(torch, tuple(x.shape), x.dtype, x.device, x.element_size())


def _padded(torch, shape: tuple, dtype, device, elem_bytes: int):
    """An uninitialised tensor of `shape` whose rows start ROW_PITCH_BYTES apart (the storage padded, the view not)."""
    align, cols = ROW_PITCH_BYTES // elem_bytes, shape[-1]
    return torch.empty(*shape[:-1], -(-cols // align) * align, dtype=dtype, device=device)[..., :cols]


def row_copier(torch, pairs):
    """A function of a stream that copies each (destination, source) pair on it: matrices with contiguous rows on a
    GPU by the repack kernel, two at a time in one launch (repack.py: aligned 16-byte chunks at any alignment of the
    rows, into 16-byte aligned rows); the rest (a batch, a transposed view) by torch, as the widest integer words
    (_word_views)."""
    ours = [(d, s) for d, s in pairs if s.is_cuda and s.dim() == 2 and s.stride(1) == d.stride(1) == 1
            and d.stride(0) * d.element_size() % 16 == 0 and d.data_ptr() % 16 == 0]
    theirs = [_word_views(torch, d, s) for d, s in pairs if not any(d is x for x, _ in ours)]
    launches = [_repack_launch(group) for group in _repack_groups(ours)]

    def copy(stream) -> None:
        for launch in launches:
            launch(stream)
        for dst, src in theirs:
            dst.copy_(src)
    return copy


def _repack_groups(pairs) -> list:
    """The pairs in launches of one or two whose rows hold the same bytes."""
    groups: list[list] = []
    for pair in pairs:
        row_bytes = pair[1].shape[1] * pair[1].element_size()
        fits = [g for g in groups if len(g) < 2 and g[0][1].shape[1] * g[0][1].element_size() == row_bytes]
        fits[0].append(pair) if fits else groups.append([pair])
    return groups


def _repack_launch(pairs):
    """The repack kernel on these (one or two) pairs, packed: a warp per segment of a row, the grid at most
    REPACK_CTAS_PER_SM CTAs an SM (its warps stride over the rest)."""
    args, units = repack_arguments(pairs)
    ctas = max(1, min(-(-units // (REPACK_THREADS // 32)), sm_count() * REPACK_CTAS_PER_SM))
    return repack_kernel().prepare(*args, grid=(ctas,))


def padded_copy(torch, x):
    """`x` (a matrix, or a batch of them) copied into rows that start ROW_PITCH_BYTES apart, its layers consecutive,
    on torch's current stream: TMA addresses it at full speed. The pad is never written: the tensor map's extent is
    `x`'s columns, and TMA reads zeros past it. Copied as row_copier copies (the repack kernel, or torch in the widest
    words the rows allow: its copy of 1- and 2-byte elements into strided rows ran at a third of the speed of the same
    bytes as 8-byte words -- H100: a 3456 x 28096 fp8 operand 224.7 us as bytes, 82.7 us as int64)."""
    copy = _padded_like(torch, x)
    row_copier(torch, [(copy, x)])(current_stream(torch, x.device) if x.is_cuda else 0)
    return copy


def _word_views(torch, dst, src) -> tuple:
    """(dst, src) as the widest integer words (8, 4 or 2 bytes) that tile both's rows -- their last dimensions
    contiguous, bases, strides and a row's bytes multiples of the word -- or as they are: a copy between them moves
    the same bytes in fewer elements."""
    size = src.element_size()
    for word, dtype in ((8, torch.int64), (4, torch.int32), (2, torch.int16)):
        if word > size and all(x.stride(-1) == 1 and x.data_ptr() % word == 0 and x.shape[-1] * size % word == 0
                               and all(stride * size % word == 0 for stride in x.stride()[:-1]) for x in (dst, src)):
            return dst.view(dtype), src.view(dtype)
    return dst, src


def odd_pitch(x) -> bool:
    """`x`'s rows (its last dimension contiguous) start an odd multiple of 16 bytes apart: TMA's boxes over them load
    slower (choices.ODD_PITCH_STEP_SLOWDOWN); rows a multiple of FULL_SPEED_PITCH_BYTES apart load at full speed. One
    row has no pitch."""
    return x.shape[-2] > 1 and _slow_stride(x)


def _slow_stride(x) -> bool:
    """`x`'s row stride is one odd_pitch slows, whatever its rows (a template's A of any M)."""
    return x.stride(-2) * x.element_size() % FULL_SPEED_PITCH_BYTES != 0


def _tma_addressable(x, elem_bytes: int) -> bool:
    """A matrix TMA takes as it is: its last dimension contiguous, rows a multiple of 16 bytes apart and not
    overlapping, the base 16-byte aligned."""
    rows_apart = x.stride(0)
    return x.stride(1) == 1 and rows_apart >= x.shape[1] and (rows_apart * elem_bytes) % 16 == 0 \
        and x.data_ptr() % 16 == 0


def _padded_empty(torch, shape: tuple[int, int], dtype, device, elem_bytes: int):
    """An uninitialised rows x cols matrix TMA stores to (the storage padded, the tensor not): rows exactly cols long
    where that is a multiple of 16 bytes (a contiguous D), else padded to ROW_PITCH_BYTES like the operands' copies
    (rows an odd multiple of 16 bytes apart load slower: choices.FULL_SPEED_PITCH_BYTES). One allocation, what the
    copy or the kernel then writes."""
    if shape[1] * elem_bytes % 16 == 0:
        return torch.empty(shape, dtype=dtype, device=device)
    return _padded(torch, shape, dtype, device, elem_bytes)


def gemm(a, b, *, out=None, scale_a=None, scale_b=None, config: GemmConfig | None = None, b_major: str = "k",
         out_dtype: str | None = None):
    """D = A . B^T (b_major "k": B is N x K, like F.linear's weight) or A . B (b_major "n": B is K x N) on the
    current torch stream, asynchronously. A and B bf16 or f16 (f32 accumulation), or fp8 -- e4m3 / e5m2, the two
    kinds may differ -- with float32 scales on A's device, as torch._scaled_mm takes them: per tensor (`scale_a`,
    `scale_b` one element each) or rowwise (`scale_a` of M elements, shape (M,) or (M, 1); `scale_b` of N, shape
    (N,) or (1, N); D[i, j] = scale_a[i] * scale_b[j] * (A . B^T)[i, j]). D is A's type for bf16 / f16 inputs and bf16 for fp8, or `out_dtype` ("bf16", "f16", "f32")
    or `out`'s type. `out` (M x N, its rows contiguous, at any pitch) is written in place if given, else allocated.
    M or N of 0 gives an empty D, K of 0 zeros.
    Operands are read as they are stored: a 16-bit A or B that is a transposed view (A.t() of a K x M tensor) is
    read M- / N-major by wgmma's transpose bits, with no copy; fp8 operands are read K-major only (an MN-major one
    is transposed here: keep a K-major copy of an fp8 weight); an operand whose rows are an odd multiple of 16 bytes
    apart is copied per call into 128-byte rows where the copy costs less than TMA's slower loads over them
    (choices.pitch_plan; D is written where it is given). Few output tiles with a long K (small M) run
    split-K in the same launch: the K slices' f32 partial sums added up in a fixed order by the tile's last slice
    (the same bits run to run), in a workspace of the stream's own (kernels/split_workspace.py). A swapped-operand
    config (`config=` one of SWAP_AB_CONFIGS, for M <= 64: D^T = B . A^T, M on wgmma's N, D staged transposed; chosen
    untuned once the prior's table has its measured terms) takes B either way, A K-major (M-major on the 64-wide
    one), and a 16-bit D. Inside
    torch.compile, or when a or b requires grad, the call is the torch op torch.ops.mmatom.gemm (torch_op.py);
    otherwise there is no op dispatch."""
    torch = require_torch("mmatom.gemm")
    if _through_torch_op(torch, a, b):
        return call_torch_op(a, b, out=out, scale_a=scale_a, scale_b=scale_b, config=config, b_major=b_major,
                             out_dtype=out_dtype)
    rows_key = _any_rows_key(a, b, out, scale_a, scale_b, config, b_major, out_dtype)
    if (known := _known_call(torch, rows_key, a, b, out, scale_a, scale_b)) is not None:
        return known
    key = _call_key(rows_key, a, out)
    p = _problem(torch, a, b, scale_a, scale_b, b_major, config)
    out_dtype = _out_dtype(out, out_dtype, p.dtypes[0])
    d = _output(torch, out, out_dtype, p.m, p.n, a.device)
    if 0 in (p.m, p.n, p.k):  # nothing to compute, or a sum of no products
        return _result(d.zero_() if p.m and p.n else d, out, p.n)
    direct = d is out and not _tma_storable(out)  # the caller's D at a pitch TMA cannot store to
    run, planned = _plan(torch, p, d, out_dtype, config, direct)  # planned: as it runs (swapped operands: N, M)
    run(current_stream(torch, a.device))
    _remember(torch, (key, rows_key), (run, planned), p, (a, b, d, out), out_dtype, config)
    return _result(d, out, p.n)


def _remember(torch, keys: tuple, launch: tuple, p: Problem, tensors: tuple, out_dtype: str, config) -> None:
    """Keep what a later call like this one replays: the packed launch (with its copies) into `out`, or (no `out`)
    the launch and D's allocation; and the any-rows template of the call's key."""
    (key, rows_key), (run, planned), (a, b, d, out) = keys, launch, tensors
    if out is not None and key is not None and planned.copies is not None:
        _keep_prepared(key, run if d is out and not planned.copies else _with_copies(run, planned.copies, d, out, p.n))
    if out is None and rows_key is not None and planned.copies is not None:
        _keep_prepared(_own_output_key(rows_key, a), _OwnOutput(torch, planned, d, out_dtype, run))
    if rows_key is not None and planned.copies == () and _AnyRows.takes(p, a, d, out):
        _keep_any_rows(rows_key, _AnyRows(p, b, out_dtype, config, d.dtype))


def _known_call(torch, rows_key: tuple | None, a, b, out, scale_a, scale_b):
    """D of a call like one before, launched on torch's current stream: replayed as packed (the same operands), or
    through the any-rows template of its key (another M); None: the full path."""
    key = _call_key(rows_key, a, out)
    if key is not None and (replay := _PREPARED.get(key)) is not None:
        replay(current_stream(torch, a.device))
        return out
    if out is None and rows_key is not None and (own := _PREPARED.get(_own_output_key(rows_key, a))) is not None:
        return own(torch, current_stream(torch, a.device))
    template = _ANY_ROWS.get(rows_key)
    ran = template.run(torch, a, b, out, scale_a, scale_b) if template is not None else None
    if ran is None:
        return None
    if key is not None:
        _keep_prepared(key, ran[1])
    return ran[0]


def _with_copies(run, copies: tuple, d, out, n: int) -> _CopyingReplay:
    return _CopyingReplay(run, copies, d, out, n)


class _CopyingReplay:
    """A replay of a call that copied: each operand copied again into the padded buffer the packed launch reads,
    the launch, and D copied into `out` where the kernel wrote its own padded matrix -- all on the launch's stream
    (torch's current one), in order. `held_bytes`: the buffers (and sources) it keeps alive."""

    def __init__(self, run, copies: tuple, d, out, n: int):
        torch = require_torch("mmatom.gemm")
        self.run = run
        self.copy = row_copier(torch, copies)
        self.d_copy = None if d is out else _word_views(torch, out, d[:, :n])
        self.held_bytes = sum(x.untyped_storage().nbytes() for pair in copies for x in pair) + \
            (d.untyped_storage().nbytes() if d is not out else 0)

    def __call__(self, stream) -> None:
        self.copy(stream)
        self.run(stream)
        if self.d_copy is not None:
            self.d_copy[0].copy_(self.d_copy[1])


class _OwnOutput:
    """A replay of a call that allocated its D (no `out`): D allocated again as that call did, the operands copied
    again where it copied them, the launch. The caching allocator mostly hands D back at an address seen before,
    whose packed launch is kept (a few); another packs one (D's tensor map). It holds no D: the caller owns each
    (one held would keep its address from coming back)."""

    KEPT_ADDRESSES = 8

    def __init__(self, torch, planned: Problem, d, out_dtype: str, run):
        self.planned, self.out_dtype = planned, out_dtype
        self.shape, self.dtype, self.device = tuple(d.shape), d.dtype, d.device
        self.copy = row_copier(torch, planned.copies) if planned.copies else None
        self.launches = {d.data_ptr(): run}
        self.held_bytes = sum(x.untyped_storage().nbytes() for pair in planned.copies for x in pair)

    def __call__(self, torch, stream):
        d = _padded_empty(torch, self.shape, self.dtype, self.device, OUT_DTYPES[self.out_dtype])
        if self.copy is not None:
            self.copy(stream)
        self.launch_into(d)(stream)
        return d

    def launch_into(self, d):
        """The packed launch into `d`."""
        launch = self.launches.get(d.data_ptr())
        if launch is None:
            if len(self.launches) >= self.KEPT_ADDRESSES:
                self.launches.clear()
            p, sms = self.planned, sm_count()
            launch = self.launches[d.data_ptr()] = _prepared_launch(p, p.config, d, self.out_dtype,
                                                                    _splits_of(p, sms), sms)
        return launch


def _own_output_key(rows_key: tuple, a) -> tuple:
    """A call that allocates its D, as its replay depends on it: the any-rows key, A's address and rows."""
    return "own output", rows_key, a.data_ptr(), a.shape[0]


def _keep_prepared(key: tuple, run) -> None:
    """Remember a packed launch. One holding copies' buffers (and their sources) is kept within COPY_BYTES_KEPT: the
    oldest such launches are dropped to make room (a loop over many odd shapes keeps replaying its recent ones); one
    larger than the whole budget is not kept."""
    global _HELD_BYTES
    held = getattr(run, "held_bytes", 0)
    if held > COPY_BYTES_KEPT:
        return
    if len(_PREPARED) >= CACHED_CALLS:
        _PREPARED.clear()
        _HELD_BYTES = 0
    for old in [k for k, r in _PREPARED.items() if getattr(r, "held_bytes", 0)] if held else ():
        if _HELD_BYTES + held <= COPY_BYTES_KEPT:
            break
        _HELD_BYTES -= _PREPARED.pop(old).held_bytes
    _PREPARED[key] = run
    _HELD_BYTES += held


def _plan(torch, p: Problem, d, out_dtype: str, config: GemmConfig | None, direct: bool = False):
    """The launch of problem `p` into `d` as a function of the stream, and `p` as it runs (its `copies`: the
    operands' copies made for this call)."""
    sms = sm_count()
    config, p = configured(torch, p, out_dtype, config, sms, direct)
    config = _staging_for(config, out_dtype, direct)
    p = p._replace(config=config)
    return _prepared_launch(p, config, d, out_dtype, _splits_of(p, sms), sms, direct), p


def _staging_for(config: GemmConfig, out_dtype: str, direct: bool) -> GemmConfig:
    """`config`, or for a D stored through its pointer (direct_store.py reads staged boxes of 128-byte rows) a narrow
    tile's 64-column neighbour, and a stream-K tile of more accumulators than fit beside its fixup its whole-tile
    config (kernel.DIRECT_STREAM_K_ACCUMULATORS) -- given or the prior's: the autotuner times every config on
    such outs too."""
    if not direct:
        return config
    if box_row_bytes(config, out_dtype) != 128:
        return widened(config)
    if config.stream_k and config.accumulators > DIRECT_STREAM_K_ACCUMULATORS:
        return replace(config, stream_k=False)
    return config


def _splits_of(p: Problem, sms: int) -> int:
    """The K slices of `p` (as it runs, its config set): the cost model's, which reads the problem unswapped --
    or, where the kernel realigns operands, the count that costs it least (choices.realign_splits)."""
    if not p.config.split_k:  # (every other config runs whole: no cost model asked)
        return 1
    m, n = (p.n, p.m) if p.config.swap_ab else (p.m, p.n)
    dtype = p.operand_types
    if any(p.unaligned):
        return realign_splits(p.config, m, n, p.k, dtype, sms)
    return splits(p.config, m, n, p.k, dtype, sms)


def _prepared_launch(p: Problem, config: GemmConfig, d, kernel_out: str, split: int, sms: int,
                     direct: bool = False):
    """`config`'s kernel on problem `p` (as it runs: swapped for a swapped-operand config) into `d`, packed; `direct`:
    D (the caller's, at a pitch TMA cannot store to) stored through its pointer (direct_d). A split-K launch is
    packed per stream, with that stream's workspace (kernels/split_workspace.py)."""
    realigned = tuple(x for x, odd in zip("ab", p.unaligned) if odd)
    kernel = gemm_kernel(dtype=p.dtypes[0], b_dtype=p.dtypes[1], config=config, out_dtype=kernel_out,
                         b_major=p.majors[1], a_major=p.majors[0], rowwise=p.rowwise, direct_d=direct,
                         realigned=realigned)
    maps = [x if name in realigned else tensor_map(x, *operand_box(config, p.dtypes[0], name, major))
            for x, name, major in ((p.a, "a", p.majors[0]), (p.b, "b", p.majors[1]))]
    d_map = d if direct else tensor_map(d, *output_box(config, kernel_out), output_swizzle(config, kernel_out))
    maps.append(d_map)
    # direct: D's pitch (elements) and its base address mod 16 (where its rows sit against 16-byte chunks); the
    # same of each realigned operand
    sizes = [p.m, p.n, p.k] + ([d.stride(0), d.data_ptr() % 16] if direct else [])
    sizes += [v for x in (getattr(p, name) for name in realigned) for v in (x.stride(0), x.data_ptr() % 16)]
    scales = [p.scale_a, p.scale_b] if p.dtypes[0] in FP8 else []  # pointers: one float each, or M and N
    device = d.get_device()  # every operand's (the full path checked them; a template's key names them)
    grid = (persistent_ctas(config, p.m, p.n, resident_sms(kernel, config, sms, device), split, p.k, p.dtypes[0]),)
    if not (config.split_k or config.stream_k):
        return kernel.prepare(*maps, *sizes, *scales, grid=grid, device=device)
    tiles = -(-p.m // config.block_m) * -(-p.n // config.block_n)
    if config.stream_k:  # two tiles' partial sums per CTA (split_sums.stream_k_workspace_sizes)
        partial_bytes, counters = stream_k_workspace_sizes(tiles, grid[0], config.block_m, config.block_n)
    else:
        partial_bytes, counters = workspace_sizes(tiles, split, config.block_m, config.block_n)
        m, n = (p.n, p.m) if config.swap_ab else (p.m, p.n)  # the model reads the problem unswapped
        sizes += [split, slice_steps(config, m, n, p.k, p.operand_types, sms, split, realigning=bool(realigned))]
    torch = require_torch("mmatom.gemm")
    held, held_scales = addresses([*maps, *sizes]), addresses(scales)  # addresses, not the call's tensors
    return SplitLaunch(torch, d.device, partial_bytes, counters, lambda partials, counts: kernel.prepare(
        *held, partials, counts, *held_scales, grid=grid, device=device))


def configured(torch, p: Problem, out_dtype: str, config: GemmConfig | None, sms: int,
               direct: bool = False) -> tuple[GemmConfig, Problem]:
    """The config (given, stored, or the prior, which prices odd row pitches) and `p` as it runs: A and B repacked
    into rows ROW_PITCH_BYTES apart where choices.repacked_operands says the copy pays for itself, then swapped for a
    swapped-operand config."""
    dtype = p.operand_types
    odd = tuple(odd_pitch(x) and not unaligned for x, unaligned in zip((p.a, p.b), p.unaligned))
    if config is None:
        config = _realigning_variant(choose_config(p.m, p.n, p.k, dtype, p.majors[1], p.majors[0], odd_rows=odd,
                                                   swap_ab=out_dtype != "f32",
                                                   resident_clusters=clusters_for(p, out_dtype, direct)), p, sms)
    p = _copied_unaligned(torch, p, _realigned_by(config, p, sms))
    repack = repacked_operands(config, p.m, p.n, p.k, dtype, odd, splits(config, p.m, p.n, p.k, dtype, sms), sms=sms)
    repack = tuple(copy and not unaligned for copy, unaligned in zip(repack, p.unaligned))
    if any(repack):
        copies = tuple((_padded_like(torch, x), x) for x, copy in zip((p.a, p.b), repack) if copy)
        row_copier(torch, copies)(current_stream(torch, p.a.device) if p.a.is_cuda else 0)
        a, b = (next((new for new, old in copies if old is x), x) for x in (p.a, p.b))
        p = p._replace(a=a, b=b, copies=None if p.copies is None else p.copies + copies)
    return config, _swapped(p) if config.swap_ab else p


# Whether calls realign unaligned operands in the kernel (kernel.build_gemm's `realigned`) rather than copy them:
# None (the default), where choices.realign_pays says the realigning producer costs less than the copy -- short K
# walks per CTA (a small or few-wave problem with an odd K); True always, False never (tests set them).
REALIGN_UNALIGNED: bool | None = None


def _realigned_by(config: GemmConfig, p: Problem, sms: int) -> tuple[bool, bool]:
    """Which of `p`'s unaligned operands `config`'s kernel realigns (kernel.realigned_ring): both, else the larger
    (B, the weight, unless A has more rows), else the other, else none -- the rest are copied; none where
    REALIGN_UNALIGNED is False, or (None) where realigning them does not pay."""
    # stream-K: whole-tile walks only; split-K in a cluster: TMA-loaded operands only (both copy odd rows instead)
    if REALIGN_UNALIGNED is False or not any(p.unaligned) or config.stream_k or config.cluster_k > 1:
        return (False, False)
    names = ("b", "a") if config.swap_ab else ("a", "b")  # the kernel's operand each of p's is
    larger = 1 if p.n >= p.m else 0
    for keep in (p.unaligned, *(tuple(odd and i == one for i, odd in enumerate(p.unaligned))
                                for one in (larger, 1 - larger))):
        realigned = tuple(sorted(name for name, odd in zip(names, keep) if odd))
        try:
            realigned_ring(config, p.dtypes[0], realigned, False, kernel_majors(config.swap_ab, *p.majors))
        except mmatom.CompileError:
            continue
        return keep if REALIGN_UNALIGNED or _realign_pays(config, p, keep, sms) else (False, False)
    return (False, False)


def _realigning_variant(config: GemmConfig, p: Problem, sms: int) -> GemmConfig:
    """The prior's `config`, or its split-K variant where that one realigns odd rows `config` would copy, or
    realigns them all in less time (its slices shorten each CTA's realigning K walk: choices.realign_splits and
    realigning_us)."""
    variant = replace(config, split_k=True)
    if config.split_k or not any(p.unaligned) or REALIGN_UNALIGNED is False or \
            not (variant in SPLIT_K_CONFIGS or variant.swap_ab):
        return config
    by_variant = _realigned_by(variant, p, sms)
    if not any(by_variant):
        return config
    if _realigned_by(config, p, sms) != p.unaligned:
        return variant
    times = [realigning_us(c, p.m, p.n, p.k, p.operand_types, sms) for c in (config, variant)]
    return variant if by_variant == p.unaligned and times[1] < times[0] else config


def _realign_pays(config: GemmConfig, p: Problem, keep: tuple[bool, bool], sms: int) -> bool:
    copied = sum(rows * p.k * ELEM_BYTES[t] for rows, t, kept in zip((p.m, p.n), p.dtypes, keep) if kept)
    return realign_pays(config, p.m, p.n, p.k, p.operand_types, copied, sms)


def _swapped(p: Problem) -> Problem:
    """`p` as a swapped-operand config runs it: D^T = B . A^T, staged transposed into D."""
    majors = kernel_majors(True, *p.majors)  # B's N-major is its A's M-major
    return p._replace(dtypes=p.dtypes[::-1], m=p.n, n=p.m, a=p.b, b=p.a, majors=majors, scale_a=p.scale_b,
                      scale_b=p.scale_a, unaligned=p.unaligned[::-1])


class _AnyRows:
    """A call's plan for any number of rows M: what the host path computed that A's and D's rows and addresses do
    not change -- the checked types, extents and majors, B as read, the scales -- kept after a call that copied
    nothing (A read K-major as given, neither A's nor B's rows an odd pitch apart (odd_pitch), D written in place,
    per-tensor scales). A call that differs from it only in M and where A and D are (a serving loop's next batch:
    _any_rows_key) takes its config (stored choice or the prior), the two new tensor maps and the packed launch;
    an address TMA cannot take goes the full way."""

    def __init__(self, p: Problem, b, out_dtype: str, config: GemmConfig | None, torch_dtype):
        # no tensor kept (a template must not hold a caller's memory): each call brings its own B and scales, at the
        # addresses the key names
        self.p = p._replace(a=None, b=None, scale_a=None, scale_b=None)
        self.b_transposed = p.b.stride() != b.stride()  # B given K x N, read N-major: its transpose, N x K
        self.out_dtype, self.config, self.torch_dtype = out_dtype, config, torch_dtype
        self.dtype = p.operand_types
        self.bound: dict[GemmConfig, _Bound] = {}  # the configs its calls ran, resolved (_Bound.takes)
        self.direct: bool | None = None  # (asked on the first call)

    @staticmethod
    def takes(p: Problem, a, d, out) -> bool:
        """The full path ran `p` on A as given and D in place (or one it allocated whole), no pitch odd."""
        return p.a is a and p.majors[0] == "k" and not p.rowwise and (d is out or out is None and d.is_contiguous()) \
            and not (_slow_stride(a) or odd_pitch(p.b))

    def run(self, torch, a, b, out, scale_a, scale_b):
        """(D, the launch) of A (m x K, where the template's A was) into `out` (or a new D), launched on torch's
        current stream; None where the call needs the full path."""
        m, p = a.shape[0], self.p
        if not m or (out is not None and (out.shape[0] != m or out.data_ptr() % 16)) or a.data_ptr() % 16:
            return None
        sms = sm_count()
        if self.direct is None:  # out's pitch and row bytes (its key's): stored through its pointer or not
            self.direct = out is not None and not _tma_storable(out)
        direct = self.direct
        config = _staging_for(self.config or choose_config(
            m, p.n, p.k, self.dtype, p.majors[1], p.majors[0], swap_ab=self.out_dtype != "f32",
            resident_clusters=clusters_for(p._replace(a=a), self.out_dtype, direct)), self.out_dtype, direct)
        d = out if out is not None else torch.empty((m, p.n), dtype=self.torch_dtype, device=a.device)
        bound = self.bound.get(config)
        if bound is not None and not direct:
            launch = bound.prepare(a, d, m, sms)
        else:
            now = p._replace(m=m, a=a, b=b.t() if self.b_transposed else b, scale_a=scale_a, scale_b=scale_b,
                             config=config)
            if any(p.unaligned) and _realigned_by(config, now, sms) != p.unaligned:
                return None  # odd rows this config would not realign at this M: the full path copies them
            now = _swapped(now) if config.swap_ab else now  # as it runs
            launch = _prepared_launch(now, config, d, self.out_dtype, _splits_of(now, sms), sms, direct)
            if _Bound.takes(now, direct) and len(self.bound) < 64:
                self.bound[config] = _Bound(now, d, self.out_dtype)
        launch(current_stream(torch, a.device))
        return d, launch


class _Bound:
    """One config's launch as an any-rows template's calls make it (_prepared_launch, specialised): what no new M
    changes resolved once -- the kernel, B's map (the template's B as read, at the address its key names), the
    first call's A and D maps as prototypes (their pitch, box and swizzle), N, K, the scales' addresses --, so a new
    M's call moves the two maps to its rows and packs. Only for a config that runs whole (no K slices), A and B read
    through their maps, D stored through its own."""

    __slots__ = ("kernel", "config", "swap", "fixed_map", "a_map", "d_map", "n", "k", "scales", "device")

    def __init__(self, now: Problem, d, kernel_out: str):
        config, fixed = now.config, 0 if now.config.swap_ab else 1  # `now` as it runs: B is a swapped kernel's A
        self.kernel = gemm_kernel(dtype=now.dtypes[0], b_dtype=now.dtypes[1], config=config, out_dtype=kernel_out,
                                  b_major=now.majors[1], a_major=now.majors[0])
        self.config, self.swap, dtype = config, config.swap_ab, now.dtypes[0]
        boxes = [operand_box(config, dtype, name, major) for name, major in zip("ab", now.majors)]
        maps = [tensor_map(x, *box) for x, box in zip((now.a, now.b), boxes)]
        self.fixed_map, self.a_map = maps[fixed], maps[1 - fixed]  # the caller's A: a prototype its calls move
        self.d_map = tensor_map(d, *output_box(config, kernel_out), output_swizzle(config, kernel_out))
        self.n, self.k = (now.m, now.k) if self.swap else (now.n, now.k)
        self.scales = addresses([now.scale_a, now.scale_b]) if dtype in FP8 else []
        self.device = d.get_device()

    @staticmethod
    def takes(now: Problem, direct: bool) -> bool:
        config = now.config
        return not (config.split_k or config.stream_k or direct or any(now.unaligned)) and now.copies == ()

    def prepare(self, a, d, m: int, sms: int):
        """The packed launch of A (m x K, the caller's: its row pitch the template's) into D (m x N, D's pitch the
        template's): the first call's maps moved to their rows (TensorMap.over)."""
        a_map, d_map = self.a_map.over(a.data_ptr(), m), self.d_map.over(d.data_ptr(), m)
        config, n, sms = self.config, self.n, resident_sms(self.kernel, self.config, sms, self.device)
        if self.swap:
            grid = (persistent_ctas(config, n, m, sms),)
            return self.kernel.prepare(self.fixed_map, a_map, d_map, n, m, self.k, *self.scales, grid=grid,
                                       device=self.device)
        grid = (persistent_ctas(config, m, n, sms),)
        return self.kernel.prepare(a_map, self.fixed_map, d_map, m, n, self.k, *self.scales, grid=grid,
                                   device=self.device)


def _any_rows_key(a, b, out, scale_a, scale_b, config, b_major, out_dtype) -> tuple | None:
    """What an _AnyRows template depends on: the call's key (_call_key) but A's and D's rows and addresses; None
    for operands that are not tensors."""
    try:
        return (a.shape[1], a.stride(), a.dtype, a.device, b.data_ptr(), b.shape, b.stride(), b.dtype, b.device,
                None if out is None else (out.shape[1], out.stride(), out.dtype, out.device), _scale_key(scale_a),
                _scale_key(scale_b), config, b_major, out_dtype)
    except (AttributeError, IndexError, TypeError):
        return None


def _keep_any_rows(key: tuple, template: _AnyRows) -> None:
    if len(_ANY_ROWS) >= CACHED_CALLS:
        _ANY_ROWS.clear()
    _ANY_ROWS[key] = template


class Problem(NamedTuple):
    """A GEMM call's operands as the kernel reads them: (A's, B's dtype); M, N, K; A (M x K, or K x M when read
    M-major) and B (N x K, or K x N when read N-major) with rows TMA can address; their majors; the copies made
    for this call; the fp8 scales (one element each, or `rowwise`: M and N, contiguous)."""
    dtypes: tuple[str, str]
    m: int
    n: int
    k: int
    a: object
    b: object
    majors: tuple[str, str]
    copies: tuple | None  # (copy, source) of each operand copied for this call; None: a scale copied (no replay)
    scale_a: object
    scale_b: object
    rowwise: bool = False
    config: GemmConfig | None = None  # the config it runs with (set by _plan)
    # (A, B) read in place though TMA cannot address their rows (not 16-byte aligned): the kernel realigns them
    unaligned: tuple[bool, bool] = (False, False)

    @property
    def operand_types(self) -> str:
        """The dtype the cost model reads: A's, or (fp8 of two kinds) A's and B's joined by x."""
        return "x".join(dict.fromkeys(self.dtypes))


def _problem(torch, a, b, scale_a, scale_b, b_major: str, config: GemmConfig | None = None,
             read: bool = True) -> Problem:
    """The call's Problem: types and shapes checked, each operand read in the major it is stored in where the
    kernel reads that (16-bit types), else transposed or padded into a copy TMA can address -- an MN-major copy only
    where `config` (given) reads it; `read=False`: the types, extents and scales alone, A and B as given (a batch
    reads its 3-d operands itself)."""
    _check_tensors(torch, a=a, b=b)
    dtypes = (_dtype_name(a), _dtype_name(b))
    if not all(t in ELEM_BYTES for t in dtypes) or (dtypes[0] != dtypes[1] and not set(dtypes) <= set(FP8)):
        raise api_error(f"gemm: A is {a.dtype} and B {b.dtype}; both bfloat16, both float16, or float8_e4m3fn / "
                        f"float8_e5m2 (the two fp8 kinds may differ)")
    if b_major not in ("k", "n"):
        raise api_error(f"gemm: b_major {b_major!r}; 'k' (B is N x K) or 'n' (B is K x N)")
    b_nk = b.t() if b_major == "n" else b  # B as N x K, whatever its storage
    (m, k), (n, k_b) = a.shape, b_nk.shape
    if k != k_b:
        raise api_error(f"gemm: A is {m}x{k} and B is {n}x{k_b} (N x K); the K extents differ")
    fp8 = dtypes[0] in FP8
    scales = check_scales(torch, fp8, a.device, m, n, scale_a, scale_b)
    if not read:
        return Problem(dtypes, m, n, k, a, b_nk, ("k", "k"), (), scales.a, scales.b, scales.rowwise)
    mn_copies = [config is None or reads_majors(config, *majors, dtypes[0]) for majors in (("m", "k"), ("k", "n"))]
    (a_read, a_major, a_odd, a_from), (b_read, b_major, b_odd, b_from) = (
        _as_stored(x, mn, ELEM_BYTES[t], fp8, ok) for x, mn, t, ok in ((a, "m", dtypes[0], mn_copies[0]),
                                                                        (b_nk, "n", dtypes[1], mn_copies[1])))
    copies = tuple((new, old) for new, old in ((a_read, a_from), (b_read, b_from)) if new.data_ptr() != old.data_ptr())
    return Problem(dtypes, m, n, k, a_read, b_read, (a_major, b_major), None if scales.copied else copies,
                   scales.a, scales.b, scales.rowwise, unaligned=(a_odd, b_odd))


def _copied_unaligned(torch, p: Problem, keep: tuple[bool, bool]) -> Problem:
    """`p` with its unaligned operands that the kernel will not realign (`keep` False) copied into rows TMA
    addresses (all of them in one go: row_copier), the copies recorded."""
    pending = [(_padded_like(torch, x), x) for x, odd, kept in zip((p.a, p.b), p.unaligned, keep) if odd and not kept]
    if not pending:
        return p
    row_copier(torch, pending)(current_stream(torch, p.a.device) if p.a.is_cuda else 0)
    a, b = (next((new for new, old in pending if old is x), x) for x in (p.a, p.b))
    return p._replace(a=a, b=b, copies=None if p.copies is None else p.copies + tuple(pending),
                      unaligned=tuple(odd and kept for odd, kept in zip(p.unaligned, keep)))


def _as_stored(x, mn_major: str, elem_bytes: int, fp8: bool, mn_copy: bool = True) -> tuple:
    """An operand given as rows x K, as the kernel reads it: (the tensor, its major, whether TMA cannot address its
    rows, the matrix it is or was copied from) -- itself (K-major); its transpose (K x rows, read MN-major: a
    16-bit type stored that way), or where TMA cannot address that one's rows and they hold ROW_PITCH_BYTES or more, a
    copy of it row for row into rows ROW_PITCH_BYTES apart, still MN-major (the repack kernel's copy, where a
    transposing one ran at a fraction of it: 3 x 6596 x 10359 `a @ b` 534 us against torch's 121,
    records/gemm-2026-11-28-h200-s30; shorter rows, a few columns of A, are transposed: a small copy, as where the
    call's config reads no MN-major operand, `mn_copy` False); or itself,
    K-major, with rows off 16 bytes (fp8 wgmma reads K-major operands only): the kernel realigns them, or the host
    copies them where the config cannot (_copied_unaligned). An operand whose elements are not contiguous along
    either dimension is copied here."""
    if _tma_addressable(x, elem_bytes):
        return x, "k", False, x
    if not fp8 and x.stride(0) == 1 and x.stride(1) >= x.shape[0] and (
            _tma_addressable(x.t(), elem_bytes) or (mn_copy and x.shape[0] * elem_bytes >= ROW_PITCH_BYTES)):
        stored = x.t()  # its rows contiguous: as it is, or (rows of a row pitch or more) copied row for row
        return _aligned_columns(stored, elem_bytes), mn_major, False, stored
    if x.stride(1) == 1 and x.stride(0) >= x.shape[1] and x.data_ptr() % elem_bytes == 0:
        return x, "k", True, x
    return _aligned_columns(x, elem_bytes), "k", False, x


def _through_torch_op(torch, a, b) -> bool:
    """A gradient wanted, or torch.compile tracing: the call goes through the registered torch op."""
    wants_grad = getattr(a, "requires_grad", False) or getattr(b, "requires_grad", False)
    return (wants_grad and torch.is_grad_enabled()) or torch.compiler.is_compiling()


def call_torch_op(a, b, **kwargs):
    """The call as the torch op (a gradient wanted, or torch.compile tracing; a matrix A or a batch): torch_op.py,
    loaded and the op registered on the first such call."""
    from .torch_op import call_op

    return call_op(a, b, **kwargs)


def _check_tensors(torch, **tensors) -> None:
    """Each a 2-d CUDA tensor, all on one device."""
    for name, x in tensors.items():
        if not isinstance(x, torch.Tensor):
            raise api_error(f"gemm: {name} is a {type(x).__name__}; a torch tensor")
        if x.dim() != 2:
            raise api_error(f"gemm: {name} has shape {tuple(x.shape)}; a matrix, or (A) a batch of them (L, M, K)")
        if x.device.type != "cuda":
            raise api_error(f"gemm: {name} is on {x.device}; mmatom.gemm runs on a CUDA device (move it with .cuda())")
    devices = {name: x.device for name, x in tensors.items()}
    if len(set(devices.values())) > 1:
        raise api_error(f"gemm: the operands are on different devices ({devices})")


class Scales(NamedTuple):
    """The fp8 scales as the kernel reads them (None for 16-bit inputs): one float each, or (`rowwise`) M and N
    contiguous floats; `copied`: either is a contiguous copy made for this call."""
    a: object
    b: object
    rowwise: bool
    copied: bool


def check_scales(torch, fp8: bool, device, m: int, n: int, scale_a, scale_b) -> Scales:
    """fp8: float32 tensors on the operands' device, both one element (per tensor) or both rowwise -- scale_a of M
    elements, (M,) or (M, 1), scale_b of N, (N,) or (1, N), as torch._scaled_mm takes them; 16-bit types: none."""
    given = {name: x for name, x in (("scale_a", scale_a), ("scale_b", scale_b)) if x is not None}
    if not fp8:
        if given:
            raise api_error(f"gemm: {', '.join(given)} given for 16-bit inputs; scales are for fp8 inputs")
        return Scales(None, None, False, False)
    for name, x in (("scale_a", scale_a), ("scale_b", scale_b)):
        if not isinstance(x, torch.Tensor) or x.dtype != torch.float32 or x.device != device:
            got = "none" if x is None else f"a {type(x).__name__}" if not isinstance(x, torch.Tensor) else \
                f"{x.dtype} on {x.device}"
            raise api_error(f"gemm: fp8 inputs take {name} as a float32 tensor on {device} (one element, or "
                            f"rowwise {'M' if name == 'scale_a' else 'N'} elements, as torch._scaled_mm); got {got}")
    if scale_a.numel() == 1 and scale_b.numel() == 1:  # per tensor (M = N = 1 too: the same product)
        return Scales(scale_a, scale_b, False, False)
    for name, x, legal in (("scale_a", scale_a, ((m,), (m, 1))), ("scale_b", scale_b, ((n,), (1, n)))):
        if tuple(x.shape) not in legal:
            raise api_error(f"gemm: {name} has shape {tuple(x.shape)}; rowwise scaling takes scale_a of shape "
                            f"({m},) or ({m}, 1) and scale_b of shape ({n},) or (1, {n}) (M = {m}, N = {n}), or "
                            f"both scales of one element")
    copied = not (scale_a.is_contiguous() and scale_b.is_contiguous())
    return Scales(scale_a.contiguous(), scale_b.contiguous(), True, copied)


def _out_dtype(out, out_dtype: str | None, a_dtype: str) -> str:
    """D's type: `out_dtype`, else `out`'s, else A's for 16-bit inputs and bf16 for fp8."""
    if out_dtype is not None:
        return out_dtype
    if out is not None:
        return _dtype_name(out)
    return a_dtype if a_dtype not in FP8 else "bf16"


def _output(torch, out, out_dtype: str, m: int, n: int, device):
    """Where the kernel writes D: `out` itself when its rows are contiguous (TMA-stored where _tma_storable, else
    stored through its pointer: direct_d), else a new m x n matrix (_padded_empty: TMA's stores past n land in its
    pad), copied into `out` after (a transposed `out`)."""
    if out_dtype not in OUT_DTYPES:
        raise api_error(f"gemm: D of type {out_dtype!r}; one of {', '.join(OUT_DTYPES)}")
    torch_out = getattr(torch, TORCH_DTYPE_NAMES[out_dtype])
    if out is not None and (tuple(out.shape) != (m, n) or out.dtype != torch_out or out.device != device):
        raise api_error(f"gemm: out is {tuple(out.shape)} {out.dtype} on {out.device}; expected ({m}, {n}) "
                        f"{torch_out} on {device}")
    # TMA clips a store at the tensor's last column rounded up to 16 bytes (measured on the H100: an out of 470 bf16
    # columns inside a wider matrix had columns 470 and 471 written): an out TMA cannot store to (_tma_storable) is
    # written by a kernel that stores D through its pointer (direct_d) -- or, a transposed one, through the kernel's
    # own padded matrix, then copied
    elem = OUT_DTYPES[out_dtype]
    if out is not None and out.stride(1) == 1 and out.stride(0) >= n:
        return out
    return _padded_empty(torch, (m, n), torch_out, device, OUT_DTYPES[out_dtype])


def _tma_storable(d) -> bool:
    """D's rows as TMA stores them: 16-byte aligned, a multiple of 16 bytes apart, and ending on a 16-byte granule."""
    return _tma_addressable(d, d.element_size()) and d.shape[1] * d.element_size() % 16 == 0


def _result(d, out, n: int):
    """D as the caller asked for it: `out` (written by the kernel, or copied once from the kernel's matrix where
    TMA could not store to it), or the kernel's matrix, its first n columns."""
    if d is out:
        return out
    result = d if d.shape[1] == n else d[:, :n]
    return result if out is None else out.copy_(result)


CACHED_CALLS = 4096  # packed launches kept (a bound: a caller may keep allocating new buffers)
COPY_BYTES_KEPT = 512 << 20  # what the kept launches that copy may hold: their padded buffers and the sources
_HELD_BYTES = 0  # what they hold now
_PREPARED: dict[tuple, object] = {}
_ANY_ROWS: dict[tuple, _AnyRows] = {}


def forget_kernels() -> None:
    """Drop this process's compiled GEMM kernels and the repack kernel (the next call reads the compile cache
    again)."""
    _KERNELS.clear()
    repack_kernel.cache_clear()


def forget_prepared_calls() -> None:
    """Drop the packed launches and the any-rows templates (after the autotuner stores a new choice, so the next
    calls use it)."""
    global _HELD_BYTES
    _PREPARED.clear()
    _ANY_ROWS.clear()
    _HELD_BYTES = 0
    forget_workspaces()  # no packed launch is left to use them


def _call_key(rows_key: tuple | None, a, out) -> tuple | None:
    """What a packed launch depends on: every operand's address, shape, strides and type, and the config asked
    for (a tensor freed and another allocated at its address with the same shape is the same launch) -- the
    any-rows key and A's and D's rows and addresses; None without `out` (a call that allocates D is not replayed)
    or for operands that are not tensors (the full path says what is wrong with them)."""
    if rows_key is None or out is None:
        return None
    return rows_key, a.data_ptr(), a.shape[0], out.data_ptr(), out.shape[0]


def _scale_key(x) -> tuple | None:
    """A scale as a packed launch depends on it: its address, and (per tensor or rowwise) its shape and strides."""
    return None if x is None else (x.data_ptr(), x.shape, x.stride())


__all__ = ["forget_kernels", "forget_prepared_calls", "gemm", "gemm_kernel", "persistent_ctas"]
