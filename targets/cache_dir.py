"""Where mmatom keeps what it caches on disk: one rule for every kind of entry.

    cache_dir("cubin")    driver-JIT cubins                       (targets/runtime.py)
    cache_dir("compile")  IR -> PTX results                       (mmatom/compile_cache.py)
    cache_dir("tuning")   the GEMM autotuner's choices            (mmatom.kernels.gemm.choices.tuning_file)
    cache_dir("ptxas")    each ptxas binary's release, by its stat (targets/ptxas.py)

The root is $MMATOM_CACHE_DIR if set, else $XDG_CACHE_HOME/mmatom, else ~/.cache/mmatom (the XDG rule, what
platformdirs would give on Linux, without the dependency); each kind is a folder of its own under it, so one
variable moves (or isolates, in tests) all of them together. Files are written by `atomic_write`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

KINDS = ("cubin", "compile", "tuning", "ptxas")


def cache_root() -> Path:
    explicit = os.environ.get("MMATOM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mmatom"


def cache_dir(kind: str) -> Path:
    """The folder of one kind of cache entry (read at each call: tests and tools change the variable)."""
    if kind not in KINDS:
        raise ValueError(f"cache_dir: no cache kind '{kind}'; one of {', '.join(KINDS)}")
    return cache_root() / kind


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder and rename it into place: concurrent processes reading the
    cache see the old file or the whole new one, never part of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["KINDS", "atomic_write", "cache_dir", "cache_root"]
