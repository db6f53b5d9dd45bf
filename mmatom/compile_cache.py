"""The compile cache: IR -> PTX results keyed by content, in memory and on disk.

The key is SHA-256 of (the module's text, the target, the options, the toolchain). The toolchain is xDSL's
version and a fingerprint of mmatom's own source files (not just its version number: a developer's edit must
not be served stale PTX). Entries are small JSON files under cache_dir("compile") (targets/cache_dir.py:
$MMATOM_CACHE_DIR/compile, default ~/.cache/mmatom/compile) written to a temporary file and renamed into place,
so several processes compiling the same kernel never read a partial entry; a corrupt or unreadable entry is a miss.
A record's PTX is a text file beside its JSON (read as it is: a cached load of a big kernel stays under a ms).
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from xdsl import __version__ as xdsl_version

from mmatom.targets.cache_dir import atomic_write, cache_dir as _cache_dir

# every package whose source a compiled module depends on -- the kernels too: a kernel generator's cache key
# (compile_generated) names its parameters, not its code, so an edited kernel must change the toolchain (an H100
# run served the previous realigned GEMM's cubin for an edited one, session 19)
_PACKAGES = ("mmatom", "mmatom.atoms", "mmatom.dialects", "mmatom.layout", "mmatom.lowering", "mmatom.passes",
             "mmatom.targets", "mmatom.kernels")


@lru_cache(maxsize=1)
def toolchain() -> str:
    """xDSL's version and a hash of every source file of the compiler (read once per process)."""
    digest = hashlib.sha256(str(xdsl_version).encode())  # xDSL reads it when asked: not at `import mmatom`
    for path in source_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def source_files() -> list[Path]:
    """The source files the toolchain hashes: each of _PACKAGES' -- by their folders under mmatom/, imported or not
    (`import mmatom` does not import the kernels)."""
    root = Path(sys.modules["mmatom"].__file__).parent
    files = []
    for name in _PACKAGES:
        # the layers are linked into mmatom/ (mmatom/dialects -> ../dialects): its own modules only, each file once
        folder = root.joinpath(*name.split(".")[1:])
        files += sorted(folder.glob("*.py" if name == "mmatom" else "**/*.py"))
    return files


def cache_dir() -> Path:
    return _cache_dir("compile")


def key(text: str, target: str | None, options: dict[str, Any]) -> str:
    blob = json.dumps([toolchain(), target, sorted(options.items()), text])
    return hashlib.sha256(blob.encode()).hexdigest()


class CompileCache:
    """key -> the JSON-able record of a compiled module (memory first, then disk)."""

    def __init__(self) -> None:
        self.memory: dict[str, dict] = {}
        self.hits = self.misses = 0

    def get(self, k: str) -> dict | None:
        record = self.memory.get(k)
        if record is None:
            try:
                record = json.loads((cache_dir() / f"{k}.json").read_text())
                if PTX_FILE in record:  # the PTX beside it, as written: no JSON string to unescape
                    record["ptx"] = (cache_dir() / record.pop(PTX_FILE)).read_text()
            except (OSError, ValueError, TypeError):
                record = None
            if record is not None:
                self.memory[k] = record
        if record is None:
            self.misses += 1
        else:
            self.hits += 1
        return record

    def put(self, k: str, record: dict) -> None:
        self.memory[k] = record
        try:
            on_disk = dict(record)
            if isinstance(on_disk.get("ptx"), str):  # written first: a reader that finds the record finds its PTX
                atomic_write(cache_dir() / f"{k}.ptx", on_disk.pop("ptx").encode())
                on_disk[PTX_FILE] = f"{k}.ptx"
            atomic_write(cache_dir() / f"{k}.json", json.dumps(on_disk).encode())
        except OSError:
            pass  # a read-only or full disk: the memory cache still works


def structure(module) -> tuple | None:
    """The module as a hashable value, equal exactly when the modules are the same IR up to value names and
    locations: per op its name, operands (as indices of the values they use), result types, properties,
    attributes, regions' block arguments and successors. A memory-cache key that costs a walk, not a print
    (printing a kernel of a few hundred ops takes milliseconds). None if some attribute is not hashable."""
    values: dict = {}
    blocks: dict = {}
    ops = list(module.walk())
    for op in ops:
        for region in op.regions:
            for block in region.blocks:
                blocks[block] = len(blocks)
                for arg in block.args:
                    values[arg] = len(values)
        for result in op.results:
            values[result] = len(values)
    out = tuple((op.name, tuple(values.get(v, -1) for v in op.operands), tuple(r.type for r in op.results),
                 tuple(sorted(op.properties.items())), tuple(sorted(op.attributes.items())),
                 tuple(tuple(tuple(a.type for a in b.args) for b in r.blocks) for r in op.regions),
                 tuple(blocks.get(b, -1) for b in op.successors)) for op in ops)
    try:
        hash(out)
    except TypeError:
        return None
    return out


PTX_FILE = "ptx_file"  # a record's PTX is stored beside it (its JSON would cost ~0.3 ms to parse for a big kernel)
CACHE = CompileCache()

__all__ = ["CACHE", "CompileCache", "cache_dir", "key", "structure", "toolchain"]
