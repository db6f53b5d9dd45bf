"""ptxas from the PyPI wheels: the oracle that every catalogue form is checked against.

`nvidia-cuda-nvcc-cu12==12.9.86` is the only wheel with sm_70 (`.version` <= 8.8);
`nvidia-cuda-nvcc==13.5.37` covers sm_75..sm_121f including sm_110 (`.version` <= 9.5).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from mmatom.atoms.chips import chip

from .cache_dir import atomic_write, cache_dir


class PtxasNotFound(RuntimeError):
    pass


@dataclass(frozen=True)
class Ptxas:
    path: Path
    release: tuple[int, int]
    max_version: tuple[int, int]

    def supports(self, target: str) -> bool:
        return target != "sm_70" or self.release < (13, 0)


def _wheel_ptxas(package: str) -> Path | None:
    spec = find_spec(package) if _parent_importable(package) else None
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        p = Path(loc) / "bin" / "ptxas"
        if p.is_file():
            return p
    return None


def _parent_importable(package: str) -> bool:
    try:
        return find_spec(package.split(".")[0]) is not None
    except (ImportError, ValueError):
        return False


@lru_cache(maxsize=None)
def _probe(path: Path) -> Ptxas:
    release = _release(path)
    # the highest .version each release accepts: 12.9 -> 8.8, 13.0 -> 9.0 (reference); 13.5.37 accepts
    # up to 9.5 (checked here; the reference's "9.2" is the ISA text it was read from)
    known = {(12, 9): (8, 8), (13, 0): (9, 0), (13, 5): (9, 5)}
    max_version = known.get(release, (8, 8) if release < (13, 0) else (9, 0))
    return Ptxas(path, release, max_version)


def _release(path: Path) -> tuple[int, int]:
    """ptxas --version's release, remembered on disk by the binary's resolved path, size and mtime: a process's first
    kernel load (its cubin cached already) need not run every ptxas found (~15 ms each)."""
    record, identity = _release_record(path)
    if record is not None:
        try:
            known = json.loads(record.read_text())
            if known.get("identity") == identity:
                return tuple(known["release"])  # type: ignore[return-value]
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not remembered, or unreadable: run it
    out = subprocess.run([str(path), "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"release (\d+)\.(\d+)", out)
    if not m:
        raise PtxasNotFound(f"{path}: cannot read the release from --version")
    release = (int(m.group(1)), int(m.group(2)))
    if record is not None:
        try:
            atomic_write(record, json.dumps({"identity": identity, "release": release}).encode())
        except OSError:
            pass  # a cache that cannot be written costs the probe next time, nothing else
    return release


def _release_record(path: Path) -> tuple[Path | None, str]:
    """(the cache file that remembers this binary's release, the identity it must hold): None where the binary
    cannot be stat-ed."""
    try:
        resolved = path.resolve()
        stat = resolved.stat()
    except OSError:
        return None, ""
    identity = f"{resolved}|{stat.st_size}|{stat.st_mtime_ns}"
    return cache_dir("ptxas") / f"{hashlib.sha256(identity.encode()).hexdigest()[:32]}.json", identity


@lru_cache(maxsize=None)
def available() -> tuple[Ptxas, ...]:
    """Every ptxas found: the wheels first, then $MMATOM_PTXAS, then PATH."""
    paths: list[Path] = []
    for pkg in ("nvidia.cu13", "nvidia.cuda_nvcc"):
        p = _wheel_ptxas(pkg)
        if p:
            paths.append(p)
    if os.environ.get("MMATOM_PTXAS"):
        paths.append(Path(os.environ["MMATOM_PTXAS"]))
    if shutil.which("ptxas"):
        paths.append(Path(shutil.which("ptxas")))  # type: ignore[arg-type]
    seen, out = set(), []
    for p in paths:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            out.append(_probe(p))
    return tuple(out)


def for_target(target: str) -> Ptxas:
    """The newest ptxas that has `target` (sm_70 only exists before CUDA 13)."""
    chip(target)
    usable = [p for p in available() if p.supports(target)]
    if not usable:
        raise PtxasNotFound(
            f"no ptxas for {target}: install the test extra (pip install -e '.[test]'), "
            "which brings nvidia-cuda-nvcc-cu12==12.9.86 (sm_70) and nvidia-cuda-nvcc==13.5.37"
        )
    return max(usable, key=lambda p: p.release)


@dataclass(frozen=True)
class AssembleResult:
    ok: bool
    log: str
    error_lines: frozenset[int]  # 1-based PTX lines that ptxas reported errors on


def assemble(ptx: str, target: str) -> AssembleResult:
    tool = for_target(target)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(ptx)
        proc = subprocess.run(
            [str(tool.path), f"-arch={target}", str(src), "-o", os.devnull],
            capture_output=True, text=True,
        )
    log = (proc.stdout + proc.stderr).replace(str(src), "k.ptx")
    lines = frozenset(int(m) for m in re.findall(r"k\.ptx, line (\d+); error", log))
    return AssembleResult(proc.returncode == 0, log, lines)


@dataclass(frozen=True)
class Resources:
    """What ptxas -v reports for one function."""

    registers: int
    spill_store_bytes: int
    spill_load_bytes: int
    shared_bytes: int  # static shared memory
    stack_bytes: int


@dataclass(frozen=True)
class Cubin:
    data: bytes
    log: str
    functions: dict[str, Resources]


def parse_resources(log: str) -> dict[str, Resources]:
    """Per-function register, spill, shared memory and stack usage from `ptxas -v` output."""
    out: dict[str, Resources] = {}
    name = None
    fields: dict[str, dict[str, int]] = {}
    for line in log.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$.]+)'?", line)
        if m:
            name = m.group(1)
            fields.setdefault(name, {})
            continue
        if name is None:
            continue
        for key, pattern in (("stack", r"(\d+) bytes stack frame"), ("spill_st", r"(\d+) bytes spill stores"),
                             ("spill_ld", r"(\d+) bytes spill loads"), ("regs", r"Used (\d+) registers"),
                             ("smem", r"(\d+) bytes smem")):
            hit = re.search(pattern, line)
            if hit:
                fields[name][key] = int(hit.group(1))
    for name, f in fields.items():
        out[name] = Resources(f.get("regs", 0), f.get("spill_st", 0), f.get("spill_ld", 0), f.get("smem", 0),
                              f.get("stack", 0))
    return out


def assemble_cubin(ptx: str, target: str) -> Cubin:
    """PTX -> cubin with ptxas -v (no GPU needed); AssembleError carrying ptxas's log if it rejects the PTX."""
    tool = for_target(target)
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        src.write_text(ptx)
        proc = subprocess.run([str(tool.path), f"-arch={target}", "-v", str(src), "-o", str(out)],
                              capture_output=True, text=True)
        log = (proc.stdout + proc.stderr).replace(str(src), "k.ptx")
        if proc.returncode != 0:
            raise AssembleError(log)
        return Cubin(out.read_bytes(), log, parse_resources(log))


class AssembleError(RuntimeError):
    """ptxas rejected the PTX; the message is its log."""
