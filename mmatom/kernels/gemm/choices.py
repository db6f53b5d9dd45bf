"""The GEMM autotuner's persistent choices: one config per (GPU, dtype, M, N, K), in
cache_dir("tuning")/gemm_tuning.json (default ~/.cache/mmatom/tuning/gemm_tuning.json), and the prior used before a
problem has been tuned. The tuner itself is mmatom.gemm_autotune (autotune.py); mmatom.gemm reads here.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import mmatom
from mmatom.targets.cache_dir import atomic_write, cache_dir

from .config import ROW64_TILE, TILES, GemmConfig


def tuning_file() -> Path:
    return cache_dir("tuning") / "gemm_tuning.json"


def problem_key(gpu: str, dtype: str, m: int, n: int, k: int) -> str:
    return f"{gpu}|{dtype}|{m}x{n}x{k}"


def _read() -> dict[str, Any]:
    try:
        data = json.loads(tuning_file().read_text())
    except (OSError, ValueError):
        return {}  # no file yet, or a corrupt one: nothing stored
    return data if isinstance(data, dict) else {}


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
    data = _read()
    data[key] = entry
    atomic_write(tuning_file(), json.dumps(data, indent=1, sort_keys=True).encode())
    _MEMORY[key] = entry


def forget() -> None:
    """Drop what this process has read (the file is read again on the next lookup)."""
    _MEMORY.clear()


@lru_cache(maxsize=1)
def gpu_name() -> str:
    """What the autotuner's choices are stored per: the GPU's name and SM count."""
    info = mmatom.device_info()
    return f"{info.name()} ({info.sm_count} SMs)"


@lru_cache(maxsize=1)
def sm_count() -> int:
    return mmatom.device_info().sm_count


def choose_config(m: int, n: int, k: int, dtype: str) -> GemmConfig:
    """The autotuner's stored choice for this problem on this GPU (mmatom.gemm_autotune), else a prior: the
    widest shipped tile among those whose waves of tiles over the SMs waste least (a narrow tile when there are
    few tiles, e.g. small M; a 64-row tile for M <= 64)."""
    found = stored(problem_key(gpu_name(), dtype, m, n, k))
    if found is not None:
        try:
            return GemmConfig(**found["config"])
        except TypeError:
            pass  # written by another version of GemmConfig: use the prior
    sms = sm_count()

    def fill(c: GemmConfig) -> tuple[float, int]:
        """(the share of the SMs' waves of tiles that is useful output, to 0.1; then the wider tile)"""
        tiles = -(-m // c.block_m) * -(-n // c.block_n)
        return round(m * n / (-(-tiles // sms) * sms * c.block_m * c.block_n), 1), c.block_n

    return max(TILES + (ROW64_TILE,) * (m <= 64), key=fill)  # 64-row tiles where 128-row ones are half padding


__all__ = ["choose_config", "forget", "gpu_name", "problem_key", "sm_count", "store", "stored", "tuning_file"]
