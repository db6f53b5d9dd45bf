"""The GEMM autotuner's persistent choices: one config per (GPU, dtype, M, N, K), in
cache_dir("tuning")/gemm_tuning.json (default ~/.cache/mmatom/tuning/gemm_tuning.json), and the prior used before a
problem has been tuned. The tuner itself is mmatom.gemm_autotune (autotune.py); mmatom.gemm reads here.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, replace
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, NamedTuple

import numpy as np

import mmatom
from mmatom.targets.cache_dir import atomic_write, cache_dir

from .config import (CLUSTER_2X2_CONFIGS, CONFIGS, ELEM_BYTES, FP8, REALIGNED_ACCUMULATORS, SPLIT_K_CONFIGS,
                     SWAP_AB_CONFIGS, GemmConfig, reads_majors)


def tuning_file() -> Path:
    return cache_dir("tuning") / "gemm_tuning.json"


def problem_key(gpu: str, dtype: str, m: int, n: int, k: int, layers: int = 1) -> str:
    """A stored choice's key; a batch's (L > 1) is its own ("L4x3000x5000x1000"): its tiles are L layers of a
    layer's tiles, not those of the L*M rows folded (partial row tiles in every layer)."""
    return f"{gpu}|{dtype}|{f'L{layers}x' if layers > 1 else ''}{m}x{n}x{k}"


class _Seen(NamedTuple):
    """The tuning file as last read: its path, when it was stat-ed (time.monotonic), its (mtime_ns, size)."""
    path: Path
    checked: float
    version: tuple | None


def _read(fresh: bool = False) -> dict[str, Any]:
    """The tuning file's choices, parsed again only when the file changed (its mtime and size) or moved (cache_root's
    variables), both looked at most every RECHECK_S seconds (`fresh`, or after forget(): now) -- a new shape's first
    call looks its key up here and must not pay for a file system call or the environment; a choice another process
    stores is seen within that time."""
    seen, choices = _PARSED
    now = time.monotonic()
    if not fresh and seen is not None and now - seen.checked < RECHECK_S:
        return choices
    path = tuning_file()
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = None  # no file yet: nothing stored
    if seen is None or seen.path != path or seen.version != version:
        try:
            data = json.loads(path.read_text()) if version else {}
        except (OSError, ValueError):
            data = {}  # a corrupt file: nothing stored
        choices = data if isinstance(data, dict) else {}
    _PARSED[:] = [_Seen(path, now, version), choices]
    return choices


RECHECK_S = 1.0
_PARSED: list = [None, {}]  # [_Seen of the tuning file last read, its choices]


_MEMORY: dict[str, dict | None] = {}  # what this process has looked up (misses too: gemm asks on every call)


def stored(key: str) -> dict | None:
    """The stored choice for `key` (its config fields and the timings it was chosen from), or None."""
    if key not in _MEMORY:
        found = _read().get(key)
        ok = isinstance(found, dict) and isinstance(found.get("config"), dict)
        _MEMORY[key] = found if ok else None
    return _MEMORY[key]


def store(key: str, config: Any, timings_us: dict[str, float], final_us: dict[str, float] | None = None) -> None:
    """Record `config` (a GemmConfig) as the choice for `key` with the timings it was chosen from (every
    candidate's screening median; the finalists' sustained-burst medians), merged into the file (read again
    first, so processes tuning different shapes keep each other's choices)."""
    entry = {"config": asdict(config), "timings_us": timings_us, "final_us": final_us or {},
             "date": time.strftime("%Y-%m-%d %H:%M")}
    data = dict(_read(fresh=True))  # as the file is now (another process may have stored since); a copy to write
    data[key] = entry
    atomic_write(tuning_file(), json.dumps(data, indent=1, sort_keys=True).encode())
    _PARSED[1] = data  # what this process reads until the file is looked at again (choose_config asks it first)
    _MEMORY[key] = entry


def forget() -> None:
    """Drop what this process has read (the file is read again on the next lookup)."""
    _MEMORY.clear()
    _PARSED[:] = [None, {}]
    _prior.cache_clear()
    _pool.cache_clear()  # priced from COST_MODEL
    _sized_pool.cache_clear()
    _FITTED_BLOCKS.clear()
    _PLANS_ASKED.clear()
    _sized.cache_clear()
    splits.cache_clear()


@lru_cache(maxsize=1)
def gpu_name() -> str:
    """What the autotuner's choices are stored per: the GPU's name and SM count."""
    info = mmatom.device_info()
    return f"{info.name()} ({info.sm_count} SMs)"


@lru_cache(maxsize=1)
def sm_count() -> int:
    return mmatom.device_info().sm_count


@lru_cache(maxsize=1)
def dram_bytes_per_us() -> float:
    """The GPU's peak DRAM bandwidth (double data rate x bus width), in bytes per microsecond."""
    props = mmatom.device_info().handle.properties
    return 2 * props.memory_clock_rate * 1e3 * props.global_memory_bus_width / 8 / 1e6


def choose_config(m: int, n: int, k: int, dtype: str, b_major: str = "k", a_major: str = "k",
                  split_k: bool = True, layers: int = 1, swap_ab: bool = True,
                  odd_rows: tuple[bool, bool] = (False, False),
                  resident_clusters: Callable[[GemmConfig], int] | None = None) -> GemmConfig:
    """The autotuner's stored choice for this problem on this GPU (mmatom.gemm_autotune), else the prior: the
    shipped config the cost model (COST_MODEL) predicts fastest (`split_k=False`: among those without split-K;
    `swap_ab=False`: without swapped operands, which stage a 16-bit D). An MN-major operand takes no cluster
    multicasting it; an M-major A no swapped-operand config (an N-major B does). `layers`: a batch of that many m x n x k problems in one launch
    (no split-K, no swapped operands); `odd_rows`: A's / B's rows an odd pitch apart (host.odd_pitch: the prior prices
    their repacking or slower loads, pitch_plan); `resident_clusters`: how many clusters of a 2x2-cluster config this
    GPU runs at once (the host asks its kernel), for the prior's one-wave rule (one_wave_clustered)."""
    found = stored(problem_key(gpu_name(), dtype, m, n, k, layers)) if _read() else None  # (none stored: no key)
    if found is not None:
        try:
            config = GemmConfig(**found["config"])
            if _takes_majors(config, a_major, b_major) and (swap_ab or not config.swap_ab):
                return config
        except TypeError:
            pass  # written by another version of GemmConfig: use the prior
    config = prior_config(m, n, k, dtype, b_major, a_major, split_k and layers == 1, layers=layers,
                          swap_ab=swap_ab and layers == 1, odd_rows=tuple(odd_rows))
    if layers != 1 or any(odd_rows) or resident_clusters is None:
        return config
    return one_wave_clustered(config, m, n, a_major, b_major, sm_count(), resident_clusters)


# A wave of 128 x 128 tiles that fills the SMs is L2-bound: on the H100, 2496 x 704 x 6528's 120 tiles took the same
# SM active cycles as cuBLAS's 4 x 2 clusters of the same tiles (ncu) and 54 us against 35 at free clocks, every CTA
# reading its A and B rows from L2 (records/GEMM.md, session 31). Its 2x2-cluster variant reads each operand from L2
# once per two CTAs: 0.713x -> 0.867x cuBLAS there, and on session 31's sweep of both (c2x2_sweep.json) 10-19%
# faster on every row where the prior picks 128x128x6w1 in one wave of clusters (2496 x 704 x 6528, 1472 x 1088 x
# 5632; bf16 and e4m3), while a grid of more units than the GPU holds clusters runs a second wave of them: 1.4-2.0x
# slower at 32-64 units (128 tiles), where 30 clusters of four fit the H100's 132 SMs. Only the measured tile: no
# sweep timed 128x256x4c2x2 on a one-wave grid
ONE_WAVE_CLUSTERED = {replace(CLUSTER_2X2_CONFIGS[0], cluster_m=1, cluster_n=1): CLUSTER_2X2_CONFIGS[0]}


def one_wave_clustered(config: GemmConfig, m: int, n: int, a_major: str, b_major: str, sms: int,
                       resident_clusters: Callable[[GemmConfig], int]) -> GemmConfig:
    """`config`, or its 2x2-cluster variant (ONE_WAVE_CLUSTERED) where its tiles are more than half a wave and at
    most one, and their 2x2 units no more than `resident_clusters(variant)` (asked only then): one wave of
    clusters, multicasting what an L2-bound wave of single CTAs reads twice. K-major operands only (no cluster
    multicasts an MN-major one)."""
    variant = ONE_WAVE_CLUSTERED.get(config)
    if variant is None:
        return config
    rows, cols = -(-m // config.block_m), -(-n // config.block_n)
    if not sms // 2 < rows * cols <= sms or not reads_majors(variant, a_major, b_major, "bf16"):
        return config
    units = -(-rows // variant.cluster_m) * -(-cols // variant.cluster_n)
    return variant if units <= resident_clusters(variant) else config


def prior_config(m: int, n: int, k: int, dtype: str, b_major: str = "k", a_major: str = "k", split_k: bool = True,
                 sms: int | None = None, bandwidth: float | None = None, layers: int = 1,
                 swap_ab: bool = True, odd_rows: tuple[bool, bool] = (False, False)) -> GemmConfig:
    """The prior alone, as an untuned problem gets it (no stored choice): the shipped config the cost model predicts
    fastest on `sms` SMs with `bandwidth` bytes/us of DRAM (default: this GPU's), for `layers` problems in one
    launch (`odd_rows`: as choose_config) -- what the bench's untuned column times."""
    return _prior(m, n, k, dtype, a_major, b_major, split_k, sm_count() if sms is None else sms, bandwidth, layers,
                  swap_ab and layers == 1, tuple(odd_rows))


def _takes_majors(config: GemmConfig, a_major: str, b_major: str) -> bool:
    """Whether the prior may pick `config` for these majors: what its kernel reads (config.reads_majors: no cluster
    multicasting an MN-major operand, N-major B in 64-column boxes, a swapped kernel's operands the call's swapped),
    less the swapped configs on an M-major A -- built on request on the 64-wide one, but mixed on the H200 (8 x 4096
    x 4096 1.36 -> 0.91x torch, 64 x 8192 x 8192 0.91 -> 1.02x; records/gemm-2026-11-28-h200-s30/
    majors_new_swap_m_major_a.txt): left to the unswapped tiles. Read as for a 16-bit type: an fp8 operand reaches
    the prior K-major (host._as_stored copies it so)."""
    return reads_majors(config, a_major, b_major, "bf16") and not (config.swap_ab and a_major != "k")


# remembered, and kept lean: a new shape's first call runs the model over every candidate in Python. What no M changes
# -- each candidate's fitted terms, its tiles across N, its K steps -- is priced once per (N, K) (_sized_pool: a serving
# loop's M changes every step, its projections' N and K do not); per M the formula is a few integer divisions, and
# split-K's slices are searched only where a split call could beat the best config before it
@lru_cache(maxsize=4096)
def _prior(m: int, n: int, k: int, dtype: str, a_major: str, b_major: str, split_k: bool, sms: int,
           bandwidth: float | None, layers: int = 1, swap_ab: bool = True,
           odd_rows: tuple[bool, bool] = (False, False)) -> GemmConfig:
    bandwidth = bandwidth or dram_bytes_per_us()
    plan = (m <= ROW64_MAX_M, swap_ab and m <= SWAP_AB_MAX_M, split_k, dtype, a_major, b_major, n, k, sms)
    pool, variants = _sized_pool(*plan)
    floor = _memory_floor(m, n, k, dtype, bandwidth, layers)
    if odd_rows[0] or odd_rows[1]:  # the pitch costs read M: every candidate priced
        plain = [i for i, z in enumerate(pool) if not z.p.split and m <= z.m_most]
    else:  # the fitted time alone orders them (_least_fitted)
        plain = [_least_fitted(*plan, layers, -(-m // M_GRANULE))]
    # (the time with the floors, the fitted time alone, the pool's order): ties under the memory floor (small M:
    # every config reads A and B once) go to the fitted model's order
    best = min((_cost(pool[i], m, n, k, 1, bandwidth, floor, layers, odd_rows), i) for i in plain)
    if not (odd_rows[0] or odd_rows[1]):
        best = _narrowest_streaming(pool, best, m, n, k, bandwidth, floor, layers)
    # split-K only as the best plain config's own variant: the fitted terms rank one config's slice counts better
    # than they rank split calls of one config against plain calls of another (benchmarks/gemm_split_k.py)
    for i in variants.get(best[1], ()):
        z = pool[i]
        if _split_floor(z, m, n, floor, bandwidth) > best[0][0]:
            continue
        s = _best_splits(z, m, n, k, bandwidth, floor)
        if s > 1:  # one slice: its base config's kernel plus the split's costs, never the better
            best = min(best, (_cost(z, m, n, k, s, bandwidth, floor, layers, odd_rows), i))
    return pool[best[1]].config


def _narrowest_streaming(pool: tuple, best: tuple, m: int, n: int, k: int, bandwidth: float, floor: float,
                         layers: int) -> tuple:
    """`best`, or where it is a swapped-operand config, the narrowest swapped config that covers M: at M <= 64 a
    call streams B (M flops a byte, far under the tensor cores' ridge), every swapped config through the same
    128-row tiles of it, and a wider one moves more of TMA's zero rows into SMEM and issues more MMAs on them. The
    fitted terms cannot order them (their c0 and c1 nearly collinear past one wave: COST_MODEL): on the H100
    sweep's 113 rows of M <= 64 the narrowest is within 2% of the fastest swapped config on 99 (16-bit) and 94
    (fp8), the rest odd pitches or problems of a few us; 1 x 28672 x 8192 bf16 ran 160.5 us on 128x16 against 167.8
    on 128x64 (H100), and 13% faster on an H200 (records/gemm-2026-11-28-h200-s30)."""
    if not pool[best[1]].config.swap_ab:
        return best
    i = min((y.m_block, j) for j, y in enumerate(pool) if y.config.swap_ab and not y.p.split and m <= y.m_most)[1]
    return (_cost(pool[i], m, n, k, 1, bandwidth, floor, layers), i)


M_GRANULE = 16  # every tile's extent along M is a multiple of it: the fitted time reads M as ceil(M / M_GRANULE)
GRANULES_PRICED = 64  # granules of M ranked together (one numpy pass): a serving loop's next M usually falls in them


def _least_fitted(small_m: bool, swapped: bool, split_k: bool, dtype: str, a_major: str, b_major: str, n: int,
                  k: int, sms: int, layers: int, m_granules: int) -> int:
    """The pool's first candidate without split-K of least fitted time at M = m_granules x M_GRANULE rows: the
    prior's pick among those where no operand's rows are odd -- the DRAM floor and the host's are the same for
    every one, so max(fitted, floor) then fitted orders them as fitted does (the few-CTA floor, _few_ctas_floor, is
    not ranked here: it prices a split-K variant's extra CTAs against this pick). A plan's first M is ranked alone (one
    problem of a new N and K must not pay for 64 granules); from its second, GRANULES_PRICED granules at once."""
    plan = (small_m, swapped, split_k, dtype, a_major, b_major, n, k, sms, layers)
    block, at = divmod(m_granules - 1, GRANULES_PRICED)
    ranked = _FITTED_BLOCKS.get((plan, block))
    if ranked is not None:
        return ranked[at]
    if plan not in _PLANS_ASKED:  # ranked alone, in plain Python (numpy's calls cost more on one row)
        _remember(_PLANS_ASKED, plan, True)
        m, pool = m_granules * M_GRANULE, _sized_pool(*plan[:-1])[0]
        return min((_fitted(z.p, *_grid(z, m, 1, layers))[0], i) for i, z in enumerate(pool)
                   if not z.p.split and m <= z.m_most)[1]
    ranked = _least_fitted_ranked(plan, (block * GRANULES_PRICED + np.arange(1, GRANULES_PRICED + 1))[None, :] *
                                  M_GRANULE)
    _remember(_FITTED_BLOCKS, (plan, block), ranked)
    return ranked[at]


def _least_fitted_ranked(plan: tuple, m) -> tuple[int, ...]:
    """_least_fitted at each of the rows `m` (a 1 x G array): the scalar path's formula (_grid, _fitted) on numpy
    arrays, candidates x rows (float64 in the same order of operations: the same times as the scalar path's)."""
    *pool_plan, layers = plan
    pool = _sized_pool(*pool_plan)[0]
    rows = [i for i, z in enumerate(pool) if not z.p.split]
    sized = SimpleNamespace(**{name: np.array([getattr(pool[i], name) for i in rows])[:, None]
                               for name in ("m_block", "m_cluster", "n_units", "ctas", "k_steps", "m_most")})
    terms = SimpleNamespace(**{name: np.array([getattr(pool[i].p, name) for i in rows])[:, None]
                               for name in ("c0", "c1", "c2")})
    fitted = np.where(m <= sized.m_most, _fitted(terms, *_grid(sized, m, 1, layers))[0], np.inf)
    return tuple(np.asarray(rows)[fitted.argmin(axis=0)].tolist())  # argmin: the first of equal times


def _remember(memory: dict, key, value) -> None:
    if len(memory) >= REMEMBERED:
        memory.clear()
    memory[key] = value


REMEMBERED = 4096  # plans and ranked blocks kept (a bound: a caller may bring ever new N and K)
_FITTED_BLOCKS: dict[tuple, tuple[int, ...]] = {}  # (plan, block of granules) -> the pool index ranked first
_PLANS_ASKED: dict[tuple, bool] = {}  # plans whose first M was ranked alone


@lru_cache(maxsize=64)
def _pool(small_m: bool, swapped: bool, split_k: bool, dtype: str, a_major: str,
          b_major: str) -> tuple[tuple[_Placed, ...], dict[int, tuple[int, ...]]]:
    """The prior's candidates (as `candidates`: small_m, M <= ROW64_MAX_M; swapped, M <= SWAP_AB_MAX_M -- each
    swapped config still needs M within its tile; SWAP_AB_MAX_M <= ROW64_MAX_M) that read these majors, each
    priced and placed (_place), and each base config's split-K variants (their indices, by the base's)."""
    pool = candidates(1 if small_m else max(ROW64_MAX_M, SWAP_AB_MAX_M) + 1, split_k, swapped, dtype)
    placed = tuple(_place(c, _priced(COST_MODEL, c, dtype)) for c in pool if _takes_majors(c, a_major, b_major))
    at = {x.config: i for i, x in enumerate(placed)}
    variants: dict[int, tuple[int, ...]] = {}
    for i, x in enumerate(placed):
        if x.p.split and (base := at.get(base_config(x.config))) is not None:
            variants[base] = variants.get(base, ()) + (i,)
    return placed, variants


@lru_cache(maxsize=1024)
def _sized_pool(small_m: bool, swapped: bool, split_k: bool, dtype: str, a_major: str, b_major: str, n: int, k: int,
                sms: int) -> tuple[tuple[_Sized, ...], dict[int, tuple[int, ...]]]:
    """_pool's candidates sized on one N and K (the prior's plan for every M of that projection), and each base
    config's split-K variants (_pool)."""
    placed, variants = _pool(small_m, swapped, split_k, dtype, a_major, b_major)
    return tuple(x.on(n, k, sms) for x in placed), variants


@lru_cache(maxsize=4096)
def splits(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int, bandwidth: float | None = None) -> int:
    """How many K slices a split-K config runs this problem in (the cost model's best, at most MAX_SPLITS, no more
    than there are K steps, and no more than fill one wave of the SMs and one step past it: past a wave, each slice
    only adds its launch, traffic and tiles); 1 for any other config."""
    if not config.split_k:
        return 1
    bandwidth = bandwidth or dram_bytes_per_us()
    z = _sized(config, _priced(COST_MODEL, config, dtype), n, k, sms)
    return _best_splits(z, m, n, k, bandwidth, _memory_floor(m, n, k, dtype, bandwidth))


def _best_splits(z: _Sized, m: int, n: int, k: int, bandwidth: float, floor: float) -> int:
    most = min(MAX_SPLITS, z.k_steps, max(1, z.ctas // (_m_units(z, m) * z.n_units)) + 1)
    return min(range(1, most + 1), key=lambda s: _cost(z, m, n, k, s, bandwidth, floor)[0])


def _split_floor(z: _Sized, m: int, n: int, floor: float, bandwidth: float) -> float:
    """The least split-K config `z` can cost in two slices or more (a bound on _cost): its tiles' K steps spread
    evenly over the SMs in at least one wave, the memory floor, the extra launches, two slices' traffic, the host's
    floor."""
    p = z.p
    if p.c1 < 0 or p.c2 < 0:  # no such bound from these terms
        return 0.0
    spread = p.c0 + p.c1 + p.c2 * _m_units(z, m) * z.n_units * z.k_steps / z.ctas
    return max(max(spread, floor) + _split_costs(m, n, 2, bandwidth), HOST_US)


# The prior's cost model, per config: time_us ~ c0 + c1 * waves + c2 * waves * k_steps (model_terms): a fixed cost, a
# per-wave cost (prologue, epilogue) and a per-K-step cost of a wave of tiles over the SMs. Fitted by
# benchmarks/fit_gemm_prior.py to records/sweep-2026-11-26-h100/gemm_sweep.json (every config -- the swapped-operand
# ones on M <= 64 -- on the bench's 300 sweep shapes per class: model projections x batch sizes 1..16384 and random
# aligned/odd sizes; one H100). There the model's pick is within 5% of the fastest config on 257/300 shapes (16-bit)
# and 234/300 (fp8), p90 1.068x / 1.084x (held-out halves: 133/150, 118/150); the table fitted on an H200 before
# it, judged on the same H100 rows, 226/300 and 217/300, p90 1.175x / 1.160x. The swapped configs' c0 and c1 are
# nearly collinear (their tiles cover N x M, one wave up to N = 16896): trusted where one wave is, pessimistic past
# it. The narrow tiles (128x96, 128x160, 128x224) came later (session 27): timed with their neighbours 128x128x6w1,
# 128x192x4w1 and 128x256x4 on the same 300 shapes in one run (records/gemm-2026-11-27-h100-s27/narrow_sweep.json,
# gemm_sweep.py --configs), fitted, and put on this table's scale through those neighbours (c0 shifted, c1 and c2
# scaled as the neighbours' fitted terms there differ from theirs here: that record's narrow_terms.py).
# Judged again on session 32's H200 sweep of every config at today's kernels (records/gemm-2026-12-06-h200-s32,
# fit_gemm_prior.py judging the prior's own picks): within 5% of the fastest config on 247/300 (16-bit) and 253/300
# (fp8), geomean 1.029x the fastest -- a refit on those rows did no better there (245/300, 247/300) nor on held-out
# halves, so the table stands: what the picks lose is the fitted form's, not stale terms.
# A table, not a rule: refit it from a new sweep when configs or kernels change, and keep a refit only where it
# beats the committed table on held-out rows.
COST_MODEL: dict[str, dict[str, tuple[float, float, float]]] = {
    "16-bit": {
        "128x256x4": (0.906, 5.495, 0.6662),
        "128x128x6w1": (4.577, 1.700, 0.3747),
        "128x192x4": (2.607, 3.546, 0.5164),
        "128x64x8w1": (4.128, 0.747, 0.3157),
        "128x256x4w1": (0.457, 5.651, 0.6657),
        "128x128x6": (4.189, 1.675, 0.4086),
        "128x192x4w1": (2.594, 3.512, 0.5161),
        "128x64x8": (4.241, 0.834, 0.3202),
        "128x256x4c2x1": (2.265, 5.698, 0.6704),
        "128x256x4w1c2x1": (2.231, 5.624, 0.6670),
        "256x128x4": (1.507, 4.894, 0.6956),
        "256x128x4c1x2": (2.881, 5.152, 0.6970),
        "128x128x6w1p": (5.362, 1.134, 0.4047),
        "64x128x8w1p": (4.613, 0.869, 0.2550),
        "128x16x8w1t": (-29.634, 38.406, 0.1482),
        "128x32x8w1t": (-28.665, 38.141, 0.1559),
        "128x64x8w1t": (7.240, 0.870, 0.2014),
        "128x96x6w1": (5.189, 1.495, 0.3425),
        "128x160x5w1": (3.899, 3.064, 0.4443),
        "128x224x4": (1.879, 4.785, 0.5987),
    },
    "fp8": {
        "128x256x4": (4.187, 5.731, 0.6412),
        "128x128x6w1": (7.557, 1.715, 0.3611),
        "128x192x4": (5.949, 3.594, 0.4931),
        "128x64x8w1": (7.603, 1.019, 0.2988),
        "128x256x4w1": (3.895, 5.863, 0.6399),
        "128x128x6": (7.264, 1.723, 0.3936),
        "128x192x4w1": (5.651, 3.823, 0.4954),
        "128x64x8": (7.507, 1.093, 0.3038),
        "128x256x4c2x1": (5.793, 5.754, 0.6508),
        "128x256x4w1c2x1": (5.593, 5.818, 0.6493),
        "256x128x4": (4.241, 5.735, 0.6672),
        "256x128x4c1x2": (6.297, 5.962, 0.6693),
        "128x128x6w1p": (7.947, 1.587, 0.3906),
        "64x128x8w1p": (7.807, 0.893, 0.2452),
        "128x16x8w1t": (-1.385, 15.882, 0.0874),
        "128x32x8w1t": (-1.780, 16.318, 0.0921),
        "128x64x8w1t": (10.269, 2.323, 0.1495),
        "128x96x6w1": (8.640, 1.439, 0.3244),
        "128x160x5w1": (6.160, 3.313, 0.4266),
        "128x224x4": (4.729, 5.321, 0.5701),
    },
}
ROW64_MAX_M = 256  # the 64-row ping-pong tile is for small M; the linear model overrates it on large M (1.9x off)
SWAP_AB_MAX_M = max(c.block_n for c in SWAP_AB_CONFIGS)  # swapped operands: M on wgmma's N, one tile's width at most
# split-K: its kernel is its base config's but for the epilogue (split_sums.py: each slice writes its f32 partial
# sums, the tile's last slice reads them all back and stores the tile), so the base's fitted terms apply with the
# units multiplied and the K steps divided by the splits; to that come the partial sums' traffic (every slice writes
# its tile and the last reads them all: mostly L2, priced at DRAM's bandwidth), a fixed and a per-slice cost (the
# epilogue's fences and counter, the last slice reading every slice back: SPLIT_TAIL_US, SPLIT_SLICE_US, chosen on
# benchmarks/gemm_split_k.py's two H100 runs over 37 small-M and few-tile shapes, 2 and 0.5 us with DRAM_SHARE then 0.9:
# the slice count the prior gives its config a geomean 1.015x the fastest of that config's timed counts, 30 of 36
# within 3%, at worst 1.16x), and two floors the fitted model lacks: A and B read once from DRAM at DRAM_SHARE of its
# peak, on few CTAs at what they stream, not where they stay in L2 (_memory_floor, _few_ctas_floor: small M is
# memory-bound, and splitting K past that floor only adds the slices' traffic), and the host's time per call
# (back-to-back calls of a small problem are host-bound). One launch, as any other config's: the split-K of
# sessions 13-19 zeroed an f32 D first and converted it after (three launches, 22 us of host time against 9, and
# 14 us on the GPU on the H100 sweep).
SPLIT_TAIL_US, SPLIT_SLICE_US = 2.0, 0.5
# split-K in a cluster (GemmConfig.cluster_k, cluster_sums.py): the slices' sums meet in shared memory, no workspace
# traffic, fence or counter -- what it adds to its base config's fitted time at its slices. Measured in two slices
# on nine H100 decode rows against split-K through global memory (records/gemm-2026-12-07-s37/call2-h100/
# cluster_k_ab.txt): 0.1-0.9 us faster where _split_costs prices 3.0-4.6 us, so the hand-over costs ~3.4 us (the
# median) -- about as much. The prior's pool holds no such config (CLUSTER_K_CONFIGS: the autotuner's); predicted_us
# prices them.
CLUSTER_K_US = 3.4
HOST_US = 9.0  # per call


def _split_costs(m: int, n: int, splits: int, bandwidth: float) -> float:
    """What a split-K call adds to its base config's fitted time: the fixed and per-slice costs, and each slice's
    f32 partial sums written and read back."""
    return SPLIT_TAIL_US + SPLIT_SLICE_US * splits + m * n * 8 * splits / bandwidth
MAX_SPLITS = 16
# split-K's slices but a tile's last publish their partial sums (written, fenced at gpu scope, counted: most of the
# 2.4-3.8 us fix-up records/gemm-2026-12-07-s37's probe_split_fixup measured on H200 decode rows) while the last slice,
# which asks first whether they counted (split_sums.py) and adds them up, walks K steps that take about as long past
# theirs (slice_steps). On an H100 (session 40's probe, records/GEMM.md) leads of 1, 2 and 3 us timed alike, each
# 0.3-0.4 us under the even slices with main's fences on the N 4096 x K 14336 decode rows; 2 us stays.
SPLIT_HANDOVER_US = 2.0


def slice_steps(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int, splits: int,
                bandwidth: float | None = None, realigning: bool = False) -> int:
    """The K steps of each of a split-K tile's slices but its last (the kernel's `slice_steps`; the last takes the
    rest, at least one, and never fewer than the others): even slices of the K steps less the last's lead -- the
    steps a wave walks in SPLIT_HANDOVER_US at the model's time per step (the fitted one, or the memory floor's share
    where that decides; a kernel `realigning` odd rows walks no faster than REALIGN_STEP_US a step)."""
    steps = -(-k // config.block_k(operand_dtypes(dtype)[0]))
    if splits < 2:
        return steps
    bandwidth = bandwidth or dram_bytes_per_us()
    z = _sized(config, _priced(COST_MODEL, config, dtype), n, k, sms)
    waves, per_slice = _grid(z, m, splits)
    floor = _few_ctas_floor(z, m, splits, 1, _memory_floor(m, n, k, dtype, bandwidth), bandwidth)
    step_us = max(z.p.c2, floor / (waves * per_slice), REALIGN_STEP_US if realigning else 0.0)
    lead = round(SPLIT_HANDOVER_US / step_us) if step_us > 0 else 0
    return max(1, min((steps - lead) // splits, (steps - 1) // (splits - 1)))


@lru_cache(maxsize=64)
def operand_class(dtype: str) -> str:
    """Which fitted table a problem's operand type reads: fp8 steps 128 of K per stage, 16-bit types 64."""
    return "fp8" if dtype.split("x")[0] in FP8 else "16-bit"


def candidates(m: int, split_k: bool = True, swap_ab: bool = False, dtype: str = "bf16",
               table: dict | None = None) -> tuple[GemmConfig, ...]:
    """The prior's pool for M rows: the shipped configs (the 64-row tile for M <= ROW64_MAX_M), split-K's, and
    (`swap_ab`, M <= SWAP_AB_MAX_M) each swapped-operand config whose tile covers M, and its split-K variant -- once
    `table` (default COST_MODEL) has its measured terms for `dtype`'s class: a config without them is never guessed
    at."""
    pool = CONFIGS + SPLIT_K_CONFIGS if split_k else CONFIGS
    if swap_ab and m <= SWAP_AB_MAX_M:
        fitted = (COST_MODEL if table is None else table).get(operand_class(dtype), {})
        swapped = tuple(c for c in SWAP_AB_CONFIGS if c.name in fitted and m <= c.block_n)
        pool += swapped + (tuple(replace(c, split_k=True) for c in swapped) if split_k else ())
    return tuple(c for c in pool if c.block_m >= 128 or m <= ROW64_MAX_M)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


class _Tile(NamedTuple):
    """A config's geometry as the cost model reads it, for one operand type (K steps of block_k)."""
    block_m: int
    block_n: int
    cluster_m: int
    cluster_n: int
    cluster_size: int
    block_k: int
    swap: bool


class _Priced(NamedTuple):
    """A config as the cost model prices it: its fitted terms (c0, c1, c2), its tile, and what else the formula
    reads."""
    c0: float
    c1: float
    c2: float
    tile: _Tile
    split: bool
    a_bytes: int
    b_bytes: int
    handover: int = 1  # split-K in a cluster: its CTAs (the slices); 1 for split-K through global memory


@lru_cache(maxsize=512)
def _tile(config: GemmConfig, dtype: str) -> _Tile:
    return _Tile(config.block_m, config.block_n, config.cluster_m, config.cluster_n, config.cluster_size,
                 config.block_k(operand_dtypes(dtype)[0]), config.swap_ab)


def _priced(table: dict, config: GemmConfig, dtype: str) -> _Priced:
    """`config`'s constants under `table` (per operand class, or one class's table), for problems of `dtype`."""
    cls, base = operand_class(dtype), _base_name(config)
    c0, c1, c2 = table[cls][base] if cls in table else table[base]
    return _Priced(c0, c1, c2, _tile(config, dtype), config.split_k or config.cluster_k > 1, *_operand_bytes(dtype),
                   config.cluster_k)


class _Sized(NamedTuple):
    """A priced config on one problem's N and K (on `sms` SMs): what the cost model reads that M does not change."""
    config: GemmConfig
    p: _Priced
    n_units: int  # cluster units across the extent M does not tile (N; a swapped config tiles D^T: its M side)
    m_block: int  # the tile's extent along M, and its cluster's
    m_cluster: int
    ctas: int  # cluster slots on the SMs
    k_steps: int
    m_most: int  # the most rows of A it takes (a swapped config: its tile's width)


@lru_cache(maxsize=8192)
def _sized(config: GemmConfig, p: _Priced, n: int, k: int, sms: int) -> _Sized:
    return _place(config, p).on(n, k, sms)


class _Placed(NamedTuple):
    """A priced config's tile as the model lays it over a problem: along M (a swapped config tiles D^T: its N side)
    and along the other extent, its cluster's size, its K step, the most rows of A it takes."""
    config: GemmConfig
    p: _Priced
    m_block: int
    m_cluster: int
    n_block: int
    n_cluster: int
    cluster_size: int
    block_k: int
    m_most: int

    def on(self, n: int, k: int, sms: int) -> _Sized:
        """On N and K (on `sms` SMs): what the cost model reads that M does not change."""
        return _Sized(self.config, self.p, -(-(-(-n // self.n_block)) // self.n_cluster), self.m_block,
                      self.m_cluster, max(1, sms // self.cluster_size), -(-k // self.block_k), self.m_most)


def _place(config: GemmConfig, p: _Priced) -> _Placed:
    t = p.tile
    (m_block, m_cluster), (n_block, n_cluster) = ((t.block_n, t.cluster_n), (t.block_m, t.cluster_m)) if t.swap \
        else ((t.block_m, t.cluster_m), (t.block_n, t.cluster_n))
    if m_block % M_GRANULE:
        raise ValueError(f"{config.name}: tiles of {m_block} rows along M; the prior reads M in granules of "
                         f"{M_GRANULE} (_least_fitted)")
    return _Placed(config, p, m_block, m_cluster, n_block, n_cluster, t.cluster_size, t.block_k,
                   t.block_n if t.swap else 1 << 62)


def _m_units(z: _Sized, m: int) -> int:
    """Cluster units across M (plain ints, or numpy arrays of them: _least_fitted_ranked)."""
    return -(-(-(-m // z.m_block)) // z.m_cluster)


def _grid(z: _Sized, m: int, splits: int = 1, layers: int = 1) -> tuple[int, int]:
    """(waves of cluster units over the SMs, K steps per unit): the units are `splits` slices of each of `layers`
    problems' tiles (a batch: every layer its own partial row and column tiles); a swapped config tiles D^T."""
    units = _m_units(z, m) * z.n_units * splits * layers
    return -(-units // z.ctas), -(-z.k_steps // splits)


def _fitted(p: _Priced, waves: int, steps: int) -> tuple[float, float]:
    """The fitted time (COST_MODEL) and its per-K-step part; on numbers, or numpy arrays of them."""
    stepping = p.c2 * waves * steps
    return p.c0 + p.c1 * waves + stepping, stepping


# the share of DRAM's peak bandwidth a GEMM's operand loads reach (the memory floor's): where the floor decides
# (memory-bound small M), split-K must beat it by its own costs. At 0.9 of the peak (sessions 20-35), decode shapes of
# 40-48 tiles split in two and ran 2-5 us slower than whole (1 x 5120 x 5120, 64 x 5120 x 5120, 64 x 6144 x 4096;
# benchmarks/gemm_split_k.py, records/gemm-2026-12-07-s36/probe_split_decode.txt, H100): the best whole tiles and
# cuBLAS stream B at 0.75-0.84 of the H100's 3.35 TB/s there. This floor orders no two configs without split-K
# differently (max(fitted, floor), then fitted, ranks as fitted does)
DRAM_SHARE = 0.8
# what one CTA streams from DRAM at most, bytes/us: a grid of fewer CTAs than DRAM_SHARE of the peak over this (40 on
# an H100) does not reach the floor above, which is what splitting K into more CTAs buys on long-K decode rows (8 x
# 4096 x 14336 bf16: 32 tiles whole 44.0-46.1 us, in two slices 42.6-44.2; 5120 x 5120's 40 tiles gain nothing). Judged
# with DRAM_SHARE and L2_RESIDENT_BYTES: on session 20's split-K sweep (172 config rows, every slice count) the model's
# count is > 5% off the fastest on 16 (24 before), geomean 1.0243 (1.0295); on session 36's probes and A/B (27 timed
# runs) on 3; the prior's picks on the H100 and H200 sweeps as before (223 -> 224, 213 -> 212; 247, 253 -> 254 of 300
# within 5%). Anywhere in 60-75 KB/us reads the same; 85 loses what it gains. Like SPLIT_TAIL_US it ranks slice counts
# rather than predicts: 32 CTAs measured 80-83 KB/us each, so the whole 32-tile grid is priced above its time (54.9 us
# against 44.0-46.1).
CTA_STREAM_BYTES_PER_US = 67e3


# operands of this many bytes or fewer stay in L2 from one call to the next, so a loop of such calls is not DRAM-bound
# and they have no DRAM floor. With one, DRAM_SHARE 0.8 cut the slices of L2-resident decode rows and lost 5-11% (1 x
# 4096 x 4096 bf16: four slices 9.9 us, three 11.1; 64 x 4096 x 4096 12.0 / 13.5; 8 x 4608 x 3584 three 9.6, two 10.3;
# records/gemm-2026-12-07-s36/at-4ad1571, H100). What stays resident is less than the H100's 50 MiB of L2: 38 MB did
# (3 x 832 x 23040 bf16), 50 MB did not (64 x 6144 x 4096, slower split: session 20), so the bound lies between.
# Without a floor there, the model's slice count is > 5% off the fastest on 16 of session 20's 172 split-K rows (20
# with it; 26 with the bound at 50 MiB); the sweeps' picks are the same.
L2_RESIDENT_BYTES = 44_000_000


def _memory_floor(m: int, n: int, k: int, dtype: str, bandwidth: float, layers: int = 1) -> float:
    """Every layer's A and B read once from DRAM at DRAM_SHARE of `bandwidth` bytes/us; none where they fit in L2
    (L2_RESIDENT_BYTES)."""
    a_bytes, b_bytes = _operand_bytes(dtype)
    operands = layers * (m * k * a_bytes + n * k * b_bytes)
    return 0.0 if operands <= L2_RESIDENT_BYTES else operands / (bandwidth * DRAM_SHARE)


def _cost(z: _Sized, m: int, n: int, k: int, splits: int, bandwidth: float, floor: float, layers: int = 1,
          odd_rows: tuple[bool, bool] = (False, False)) -> tuple[float, float]:
    """The model (see COST_MODEL, predicted_us) with the memory `floor` (_memory_floor): (its time with the floors
    and the additions, the fitted time alone)."""
    p = z.p
    fitted, stepping = _fitted(p, *_grid(z, m, splits, layers))
    floor = _few_ctas_floor(z, m, splits, layers, floor, bandwidth)
    gpu = fitted if fitted > floor else floor
    if odd_rows[0] or odd_rows[1]:
        t = p.tile
        gpu += sum(min(costs) for costs in _pitch_costs(_box_rows(t.block_m, t.block_n, t.swap, m, n), m, n, k,
                                                         (p.a_bytes, p.b_bytes), stepping, odd_rows, bandwidth, layers))
    if p.split:
        gpu += _split_costs(m, n, splits, bandwidth) if p.handover == 1 else CLUSTER_K_US
    return (gpu if gpu > HOST_US else HOST_US), fitted


def _few_ctas_floor(z: _Sized, m: int, splits: int, layers: int, floor: float, bandwidth: float) -> float:
    """The memory floor of a grid whose CTAs streaming at once (a wave's, at most the SMs) cannot draw DRAM_SHARE of
    `bandwidth` at CTA_STREAM_BYTES_PER_US each: `floor` scaled up by the shortfall."""
    streaming = min(_m_units(z, m) * z.n_units * splits * layers, z.ctas) * z.p.tile.cluster_size
    reach = streaming * CTA_STREAM_BYTES_PER_US
    share = bandwidth * DRAM_SHARE
    return floor if reach >= share or not streaming else floor * share / reach  # (M or N of 0: no grid, no floor)


def model_terms(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int, splits: int = 1,
                layers: int = 1) -> tuple[int, int]:
    """(waves of cluster units over the SMs, K steps per unit), the units `splits` layers of tiles of each of
    `layers` problems (a batch: every layer its own partial row and column tiles); a swapped-operand config tiles
    D^T (N x M)."""
    return _grid(_sized(config, _priced(COST_MODEL, config, dtype), n, k, sms), m, splits, layers)


@lru_cache(maxsize=256)
def _base_name(config: GemmConfig) -> str:
    """The config whose fitted terms price this one: a split-K config runs its base config's mainloop."""
    return base_config(config).name


def base_config(config: GemmConfig) -> GemmConfig:
    """The whole-tile config a split-K one (through global memory or in a cluster) splits."""
    return replace(config, split_k=False, cluster_k=1)


def fitted_terms(table: dict, config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int, splits: int = 1,
                 layers: int = 1) -> tuple[float, float]:
    """The cost model's fitted time for `config` on this problem and, of it, the per-K-step part (c2 * waves *
    steps: the mainloop's TMA loads and MMAs)."""
    p = _priced(table, config, dtype)
    return _fitted(p, *_grid(_sized(config, p, n, k, sms), m, splits, layers))


def predicted_us(table: dict, config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int,
                 splits: int = 1, bounded: bool = True, bandwidth: float | None = None, layers: int = 1,
                 odd_rows: tuple[bool, bool] = (False, False)) -> float:
    """The cost model's time for `config` on this problem, `layers` of them in one launch (`bounded`: no less than
    reading every layer's A and B from DRAM once at DRAM_SHARE of `bandwidth` bytes/us (default: this GPU's peak),
    scaled up where the grid has too few CTAs to draw that (_few_ctas_floor) and none where they stay in L2
    (L2_RESIDENT_BYTES), or the call's host time, plus split-K's extra launches and traffic, plus what A's / B's rows
    an odd pitch apart (`odd_rows`) cost: read in place or repacked, whichever pitch_plan says is less). A ranking
    more than a prediction where the few-CTA floor decides (CTA_STREAM_BYTES_PER_US)."""
    bandwidth = bandwidth or (dram_bytes_per_us() if bounded else 1.0)  # the fitted time alone reads no bandwidth
    z = _sized(config, _priced(table, config, dtype), n, k, sms)
    bounded_us, fitted = _cost(z, m, n, k, splits, bandwidth, _memory_floor(m, n, k, dtype, bandwidth, layers),
                               layers, tuple(odd_rows))
    return bounded_us if bounded else fitted


@lru_cache(maxsize=64)
def operand_dtypes(dtype: str) -> tuple[str, str]:
    """A's and B's types of a problem's dtype ("bf16", or "e4m3xe5m2" for two fp8 kinds)."""
    return tuple((dtype.split("x") * 2)[:2])


@lru_cache(maxsize=64)
def _operand_bytes(dtype: str) -> tuple[int, int]:
    return tuple(ELEM_BYTES[t] for t in operand_dtypes(dtype))


# Row pitch: TMA boxes over rows an odd multiple of 16 bytes apart ran the GEMM at about half speed on an H100
# (benchmarks/gemm_batched.py, bf16, 128x128x6w1, A, B and D padded together -- D's part not separated): L=4
# 3000x5000x1000 427.1 us as given vs 255.5 us padded to 128 B, L=1 3000x5000x7000 620.1 vs 347.5. The loss, 171.6
# and 272.6 us, is 0.95 and 0.83 of the model's per-K-step term there (c2 * waves * steps: 0.3747 * 30 * 16 = 179.9,
# 0.3747 * 8 * 110 = 329.7 us): the odd pitch slows the mainloop's loads, not the prologue or epilogue. The smaller
# factor is taken (a repack must pay for itself). Measured again per pitch (benchmarks/gemm_pitch.py, H100, bf16 and
# e4m3, three shapes, D aligned): rows 16, 48, 80 or 112 bytes past a multiple of 128 apart lose 0.63-0.97 of the
# K-step term (median 0.80, 24 problems); rows a multiple of 32 bytes apart lose nothing (in place / padded 0.92-1.16,
# median 0.96) -- the pitch of every fp8 K a multiple of 32 but not of 128, which the host had copied at up to 2.8x the
# GEMM's time.
ROW_PITCH_BYTES = 128
FULL_SPEED_PITCH_BYTES = 32
ODD_PITCH_STEP_SLOWDOWN = 1.83
REPACK_LAUNCH_US = 3.0  # one torch copy: half the two torch ops measured around a split-K kernel (gemm_split_k.py)
# the repack kernel's copy (repack.py) moves 0.72-0.79 of DRAM's peak bytes per us on the H100 with 16-byte accesses
# (benchmarks/gemm_repack.py, session 27: fp8 3456 x 28095 83.0 us, 8152 x 27021 177.3 us, 20444 x 11386 192.3 us,
# bf16 12572 x 11538 224.6 us), 0.55-0.70 with the 4-byte words it had before
REPACK_BANDWIDTH_SHARE = 0.75


class PitchPlan(NamedTuple):
    """Which of A, B to repack into rows ROW_PITCH_BYTES apart, and the time the odd pitches add (the copies taken,
    the slower loads of the operands read in place)."""
    repacked: tuple[bool, bool]
    extra_us: float


def pitch_plan(config: GemmConfig, m: int, n: int, k: int, dtype: str, stepping_us: float,
               odd_rows: tuple[bool, bool], bandwidth: float, layers: int = 1) -> PitchPlan:
    """For each operand with `odd_rows`: read in place, its share of the mainloop's loads (box_shares) of the K-step
    time `stepping_us` slowed by ODD_PITCH_STEP_SLOWDOWN; or repacked once, REPACK_LAUNCH_US and its bytes read and
    written at REPACK_BANDWIDTH_SHARE of `bandwidth` -- whichever is less. Small M (decode) or a short K leaves
    little K-step time to lose."""
    costs = _pitch_costs(_box_rows(config.block_m, config.block_n, config.swap_ab, m, n), m, n, k,
                         _operand_bytes(dtype), stepping_us, odd_rows, bandwidth, layers)
    return PitchPlan(tuple(odd and copy < in_place for odd, (in_place, copy) in zip(odd_rows, costs)),
                     sum(min(c) for c in costs))


def _pitch_costs(box_rows: tuple[int, int], m: int, n: int, k: int, elem_bytes: tuple[int, int], stepping_us: float,
                 odd_rows: tuple[bool, bool], bandwidth: float, layers: int) -> tuple[tuple[float, float], ...]:
    """(read in place, repacked) time each operand adds (0 in place where its rows are not odd)."""
    shares = [rows / (box_rows[0] + box_rows[1]) for rows in box_rows]
    return tuple(((ODD_PITCH_STEP_SLOWDOWN - 1) * share * stepping_us if odd else 0.0,
                  REPACK_LAUNCH_US + 2 * layers * rows * k * size / (bandwidth * REPACK_BANDWIDTH_SHARE))
                 for odd, share, rows, size in zip(odd_rows, shares, (m, n), elem_bytes))


def box_shares(config: GemmConfig, m: int, n: int) -> tuple[float, float]:
    """A's and B's shares of the bytes a K step loads: their boxes' rows (A's on the tile's M side, or its N side in
    a swapped-operand config), no more than the operand has (TMA fetches nothing past the tensor)."""
    a_rows, b_rows = _box_rows(config.block_m, config.block_n, config.swap_ab, m, n)
    return a_rows / (a_rows + b_rows), b_rows / (a_rows + b_rows)


def _box_rows(block_m: int, block_n: int, swap: bool, m: int, n: int) -> tuple[int, int]:
    """The rows A's and B's boxes load a K step: the tile's M side for A (its N side in a swapped-operand config),
    no more than the operand has (TMA fetches nothing past the tensor)."""
    a_rows, b_rows = (block_n, block_m) if swap else (block_m, block_n)
    return min(a_rows, m), min(b_rows, n)


def repacked_operands(config: GemmConfig, m: int, n: int, k: int, dtype: str, odd_rows: tuple[bool, bool],
                      splits: int = 1, layers: int = 1, sms: int | None = None,
                      bandwidth: float | None = None) -> tuple[bool, bool]:
    """Which of A and B (`odd_rows`: rows an odd pitch apart, host.odd_pitch) the host repacks for `config` (pitch_plan,
    what the prior priced); none for a config the cost model has no terms for (nothing to weigh a copy against)."""
    if not any(odd_rows) or operand_class(dtype) not in COST_MODEL \
            or _base_name(config) not in COST_MODEL[operand_class(dtype)]:
        return False, False
    stepping = fitted_terms(COST_MODEL, config, m, n, k, dtype, sm_count() if sms is None else sms, splits, layers)[1]
    return pitch_plan(config, m, n, k, dtype, stepping, odd_rows, bandwidth or dram_bytes_per_us(), layers).repacked


# rows TMA cannot address (not starting on 16 bytes: odd K), realigned by the kernel's producer warpgroups
# (realigned_loads.py) or copied into aligned rows first: the realigning producer is slow per K step -- ~1.1 us a
# step of 144 rows, whichever the element type (H100, two producer warpgroups: session 26; one took ~1.5 us, ~360
# instructions per warp per step at ~7 cycles each) -- and slow to start, where the copy is a launch of its own and
# the operand's bytes read and written. REALIGN_FIXED_US and REALIGN_STEP_US are fitted on GPU time (session 34,
# H100, torch.profiler's kernel durations, records/gemm-2026-12-07-s34/): the split variant 64x128x8w1ps on six
# small odd rows (3-16 steps a CTA) took 14-34 us, 6.7 us + 1.2 us a step over its split costs; copying instead
# (the repack kernel, then 128x64x8w1) took 7-10 us on the three smallest, where cuBLAS took 8-10. Priced by GPU
# time, not the host's: a fast host (session 32's H200) runs these calls GPU-bound, where copying won 11.6 us to
# 26; on a slow one (session 33's H100) every way is host-bound, cuBLAS with it, and the copy's second launch costs
# the ratio nothing below 1.0x. Earlier (benchmarks/gemm_realigned.py, H100, host-bound timing): realigned faster on
# 19 of 22 small odd shapes (bf16 14 x 15737 x 2561 74.5 us against 112.5 copied), slower where a CTA walks
# hundreds of K steps (e4m3 9 x 4090 x 23434, 32 CTAs: 205-237 against 139-162 us)
REALIGN_FIXED_US = 6.7
REALIGN_STEP_US = 1.2
COPY_CALL_US = 8.0


def realign_splits(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int,
                   bandwidth: float | None = None) -> int:
    """The K slices of a split-K config whose kernel realigns its operands: the count, up to as many as fill one
    wave of the SMs (at most MAX_SPLITS, and the K steps there are), that costs least -- each slice shortens every
    CTA's realigning K walk (REALIGN_STEP_US a step) and adds its partial sums (_realigning_split_us; session 33
    measured 14-16 slices, each CTA then walking 2-11 steps, 12-14 us over the walk's price); 1 for any other
    config."""
    if not config.split_k:
        return 1
    z = _sized(config, _priced(COST_MODEL, config, dtype), n, k, sms)
    most = max(1, min(MAX_SPLITS, z.k_steps, z.ctas // (_m_units(z, m) * z.n_units)))
    bandwidth = bandwidth or dram_bytes_per_us()
    return min(range(1, most + 1), key=lambda s: _realigning_split_us(config, m, n, k, dtype, sms, s, bandwidth))


def _realigning_split_us(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int, slices: int,
                         bandwidth: float) -> float:
    """A realigning kernel in `slices` K slices: REALIGN_FIXED_US, its CTAs' walk at REALIGN_STEP_US a step, and
    (split-K) the slices' own costs."""
    waves, steps = model_terms(config, m, n, k, dtype, sms, slices)
    walk = REALIGN_FIXED_US + waves * steps * REALIGN_STEP_US
    return walk + _split_costs(m, n, slices, bandwidth) if config.split_k else walk


def _realigning_walk(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int,
                     bandwidth: float | None = None) -> tuple[int, int]:
    """(K steps a realigning CTA walks: waves x steps per unit, the slices): split-K in realign_splits slices."""
    slices = realign_splits(config, m, n, k, dtype, sms, bandwidth)
    waves, steps = model_terms(config, m, n, k, dtype, sms, slices)
    return waves * steps, slices


def realigning_us(config: GemmConfig, m: int, n: int, k: int, dtype: str, sms: int | None = None,
                  bandwidth: float | None = None) -> float:
    """A realigning kernel's GPU time as its producers' walk bounds it: REALIGN_FIXED_US, the K steps a CTA walks
    at REALIGN_STEP_US, and a split-K config's slices' own costs (_realigning_split_us, in realign_splits
    slices)."""
    sms, bandwidth = sm_count() if sms is None else sms, bandwidth or dram_bytes_per_us()
    slices = realign_splits(config, m, n, k, dtype, sms, bandwidth)
    return _realigning_split_us(config, m, n, k, dtype, sms, slices, bandwidth)


def realign_pays(config: GemmConfig, m: int, n: int, k: int, dtype: str, copied_bytes: int, sms: int | None = None,
                 bandwidth: float | None = None) -> bool:
    """Whether `config`'s kernel realigning operands of `copied_bytes` costs less than copying them first: its
    start (REALIGN_FIXED_US) and waves x K steps (split-K: in realign_splits slices) at REALIGN_STEP_US (less the
    plain step's fitted cost) against COPY_CALL_US and the bytes read and written at REPACK_BANDWIDTH_SHARE of
    `bandwidth`. A tile of more than REALIGNED_ACCUMULATORS per consumer thread, or a config without fitted terms,
    copies."""
    name, cls = _base_name(config), operand_class(dtype)
    if config.accumulators > REALIGNED_ACCUMULATORS or name not in COST_MODEL.get(cls, {}):
        return False
    bandwidth = bandwidth or dram_bytes_per_us()
    walk = _realigning_walk(config, m, n, k, dtype, sm_count() if sms is None else sms, bandwidth)[0]
    realigning = REALIGN_FIXED_US + walk * (REALIGN_STEP_US - COST_MODEL[cls][name][2])
    return realigning < COPY_CALL_US + 2 * copied_bytes / (bandwidth * REPACK_BANDWIDTH_SHARE)


__all__ = ["COST_MODEL", "FULL_SPEED_PITCH_BYTES", "ODD_PITCH_STEP_SLOWDOWN", "ONE_WAVE_CLUSTERED", "PitchPlan",
           "SPLIT_HANDOVER_US", "slice_steps",
           "ROW_PITCH_BYTES", "box_shares", "candidates", "choose_config", "dram_bytes_per_us", "fitted_terms",
           "forget", "gpu_name", "model_terms", "one_wave_clustered", "operand_class", "operand_dtypes", "pitch_plan",
           "predicted_us", "prior_config", "problem_key", "realign_pays", "realign_splits", "realigning_us",
           "repacked_operands", "sm_count", "splits", "store", "stored", "tuning_file"]
