"""Conformance: every atom of a family, as a generated single-atom kernel, assembled by ptxas for every
target the catalogue claims and, on a GPU, run and checked against a float64 reference.

Families: `register` (SM70..SM90 mma.sync / mma.sp), `wgmma` (SM90a), `sm120` (SM120/121 kind::f8f6f4
and block-scaled mma.sync) and `tcgen05` (SM100/103/110). A family module provides cases(),
build_module(), make_inputs(), check() and optionally PREAMBLE (module-level PTX such as the
shared-memory symbol), launch_config(case) and REJECT_ON: targets on which every case of the family
that does not claim them must be rejected by ptxas (assembly is checked both ways).
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, UnitAttr, i32
from xdsl.ir import Block, Region

from mmatom.atoms.catalogue import Atom, resolve
from mmatom.atoms.chips import ALL_TARGET_NAMES, chip
from mmatom.compiler import lower_for_ptx
from mmatom.dialects.launch_bounds import KERNEL, REQNTID
from mmatom.targets import ptxas, runtime
from mmatom.targets.ptx_emitter import PTXEmitter, ptx_header


@dataclass(frozen=True)
class Case:
    name: str  # kernel symbol
    label: str  # PTX spelling (+ selector)
    atom: Atom
    targets: tuple[str, ...]  # targets the catalogue claims
    options: object = None  # what else the family's kernel varies (e.g. wgmma: swizzle, scale-d)


def kernel_function(name: str, block: Block, threads: int) -> llvm.FuncOp:
    """A kernel (`nvvm.kernel`) of `threads` threads (`nvvm.reqntid`, PTX .reqntid) whose parameters are `block`'s
    arguments (the global pointers of a case)."""
    func = llvm.FuncOp(name, llvm.LLVMFunctionType([a.type for a in block.args]), llvm.LinkageAttr("external"),
                       body=Region(block))
    func.attributes[KERNEL] = UnitAttr()
    func.attributes[REQNTID] = DenseArrayBase.from_list(i32, [threads])
    return func


@dataclass
class Outcome:
    case: Case
    passed: bool
    detail: str
    error: float | None = None


@dataclass
class Report:
    family: str
    mode: str  # "assemble" or "run"
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.passed]

    def lines(self) -> list[str]:
        out = [f"{'PASS' if o.passed else 'FAIL'}  {o.case.label}  {o.detail}" for o in self.outcomes]
        out.append(f"{len(self.outcomes) - len(self.failed)} passed, {len(self.failed)} failed")
        return out


def compare(got: np.ndarray, poisoned: int, decoded: np.ndarray, reference: np.ndarray, scale: np.ndarray,
            bound: float) -> tuple[bool, float, str]:
    """(passed, error, note): every D element written, finite, and within `bound` of the float64 reference,
    the error measured as max |D - ref| / max(sum |a||b| + |c|) (0 = exact, for integers and b1)."""
    unwritten = int((got == poisoned).sum())
    if unwritten:
        return False, float("inf"), f"{unwritten} of {got.size} D elements never written"
    if not np.all(np.isfinite(decoded)):
        return False, float("inf"), "non-finite values in D"
    err = float(np.max(np.abs(decoded - reference)) / max(1.0, float(np.max(scale))))
    return err <= bound, err, f"bound {bound:.1e}" if bound else "exact"


FAMILIES = ("register", "wgmma", "sm120", "tcgen05")


def family_module(name: str):
    if name not in FAMILIES:
        raise KeyError(f"unknown conformance family '{name}'; known: {', '.join(FAMILIES)}")
    return importlib.import_module(f"{__name__}.{name}")


def lowered_functions(fam, cases: list[Case], jobs: int | None = None):
    """name -> (PTX function text, atoms): each kernel lowered once at its first claimed target, and once per
    process (the assembly check and the PTX manifest both read a family's whole set: the wgmma family's lowering
    is ~3 minutes of a CI run). Lowering is pure Python and takes most of a family's time, so chunks of cases are
    lowered in parallel (forked worker processes, one per core, forked, or from a fork server once threads exist;
    `jobs=1` in-process); each function's PTX does not depend on its chunk."""
    key = (fam.__name__, tuple(cases))
    if key not in _LOWERED:
        _LOWERED[key] = _lowered(fam, cases, jobs)
    return dict(_LOWERED[key])


_LOWERED: dict[tuple, dict] = {}  # (family, its cases) -> lowered_functions' answer, this process's


def _lowered(fam, cases: list[Case], jobs: int | None) -> dict:
    chunks = []
    by_target: dict[str, list[Case]] = {}
    for c in cases:
        by_target.setdefault(c.targets[0], []).append(c)
    for target, group in by_target.items():
        chunks += [(fam.__name__, group[i:i + LOWERING_CHUNK], target) for i in range(0, len(group), LOWERING_CHUNK)]
    jobs = min(jobs or os.cpu_count() or 1, len(chunks))
    if jobs <= 1 or multiprocessing.current_process().daemon:
        results = [_lower_chunk(*chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(worker_start_method())) as pool:
            results = list(pool.map(_lower_chunk, *zip(*chunks)))
    return {name: (text, atoms) for result in results for name, text, atoms in result}


LOWERING_CHUNK = 64


def worker_start_method() -> str:
    """How to start worker processes from this one: fork is cheapest, but not from a process that already has
    threads (CUDA's, torch's): a lock held by another thread would stay held in the child -- then a fork server."""
    return "fork" if _single_threaded() else "forkserver"


def _single_threaded() -> bool:
    """No other thread in this process, native ones (CUDA's, torch's) included, which `threading` does not see."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


def _lower_chunk(module_name: str, group: list[Case], target: str) -> list[tuple[str, str, list]]:
    module = lower_for_ptx(importlib.import_module(module_name).build_module(group, target))
    return [(name, text, atoms) for name, text, atoms in PTXEmitter(module).functions()]


def _assemble_group(fam, group: list[Case], functions: dict, target: str, version) -> dict[str, list[str]]:
    """ptxas `group` for `target` (a module per core's share of the kernels, assembled side by side: one ptxas of
    the wgmma family's ~2000 kernels runs ~90 s on one core): case name -> the error lines that fall in its kernel."""
    share = max(1, -(-len(group) // max(1, min(os.cpu_count() or 1, -(-len(group) // ASSEMBLY_CHUNK_MIN)))))
    parts = [group[i:i + share] for i in range(0, len(group), share)]
    if len(parts) <= 1:
        return _assemble_module(fam, group, functions, target, version)
    with ThreadPoolExecutor(len(parts)) as pool:  # each a ptxas process: threads run them at once
        found = list(pool.map(lambda part: _assemble_module(fam, part, functions, target, version), parts))
    return {name: errs for errors in found for name, errs in errors.items()}


ASSEMBLY_CHUNK_MIN = 100  # kernels a module at least: fewer do not repay a ptxas start


def _assemble_module(fam, group: list[Case], functions: dict, target: str, version) -> dict[str, list[str]]:
    """ptxas one module of `group` for `target`: case name -> the error lines that fall in its kernel."""
    text = ptx_header(target, version) + getattr(fam, "PREAMBLE", "")
    starts = []
    for c in group:
        starts.append((text.count("\n") + 1, c))
        text += functions[c.name][0] + "\n"
    result = ptxas.assemble(text, target)
    errors: dict[str, list[str]] = {}
    for line in result.error_lines:
        owner = max((s for s in starts if s[0] <= line), key=lambda s: s[0], default=None)
        if owner:
            errors.setdefault(owner[1].name, []).append(f"{target}: line {line}")
    if not result.ok and not result.error_lines:
        for c in group:
            errors.setdefault(c.name, []).append(f"{target}: {result.log.strip()[:200]}")
    return errors


def assemble(family: str, progress: Callable[[str], None] | None = None) -> Report:
    """ptxas every case for every target the catalogue claims (one PTX module per target), and, for the
    family's REJECT_ON targets it does not claim, check that ptxas rejects every kernel."""
    start = time.perf_counter()
    fam = family_module(family)
    cases = fam.cases()
    functions = lowered_functions(fam, cases)
    failures: dict[str, list[str]] = {}
    for target in ALL_TARGET_NAMES:
        group = [c for c in cases if target in c.targets]
        if not group:
            continue
        version = max([chip(target).min_ptx_version] + [resolve(a, target).min_version for c in group
                                                        for a in functions[c.name][1]])
        errors = _assemble_group(fam, group, functions, target, version)
        for name, errs in errors.items():
            failures.setdefault(name, []).extend(errs)
        if progress:
            progress(f"{target}: {len(group)} kernels, {'ok' if not errors else 'errors'}")
    rejected: dict[str, int] = {}
    for target in getattr(fam, "REJECT_ON", ()):
        group = [c for c in cases if target not in c.targets]
        if not group:
            continue
        version = max([chip(target).min_ptx_version] + [resolve(a, c.targets[0]).min_version for c in group
                                                        for a in functions[c.name][1]])
        errors = _assemble_group(fam, group, functions, target, version)
        for c in group:
            if c.name in errors:
                rejected[c.name] = rejected.get(c.name, 0) + 1
            else:
                failures.setdefault(c.name, []).append(f"{target}: accepted, but the catalogue does not claim it")
        if progress:
            progress(f"{target} (must reject): {len(group)} kernels, {len(group) - sum(c.name in errors for c in group)} accepted")
    report = Report(family, "assemble")
    for c in cases:
        errs = failures.get(c.name)
        detail = f"{len(c.targets)} targets" + (f", rejected on {rejected[c.name]}" if c.name in rejected else "")
        report.outcomes.append(Outcome(c, not errs, "; ".join(errs) if errs else detail))
    report.seconds = time.perf_counter() - start
    return report


def run(family: str, seed: int | None = None, progress: Callable[[str], None] | None = None) -> Report:
    """Run every case the GPU's chip supports, with fresh random inputs, and check it."""
    start = time.perf_counter()
    fam = family_module(family)
    dev = runtime.device()
    # the chip runs code for its own target and for its arch-specific one (sm_90 and sm_90a on an H100)
    runnable = (dev.chip, dev.chip + "a")
    chosen = {c.name: next((t for t in runnable if t in c.targets), None) for c in fam.cases()}
    cases = [c for c in fam.cases() if chosen[c.name]]
    modules = {}
    for target in sorted({chosen[c.name] for c in cases}):
        group = [c for c in cases if chosen[c.name] == target]
        functions = lowered_functions(fam, group)
        version = max([chip(target).min_ptx_version] + [resolve(a, target).min_version for c in group
                                                        for a in functions[c.name][1]])
        ptx = ptx_header(target, version) + getattr(fam, "PREAMBLE", "") + "\n".join(
            functions[c.name][0] for c in group)
        modules[target] = runtime.Module(ptx, label=f"conformance-{family}-{target}")
    rng = np.random.default_rng(seed)
    report = Report(family, "run")
    for c in cases:
        inputs = fam.make_inputs(c, rng)
        try:
            params = [runtime.Param("ptr")] * len(inputs.arrays)
            config = fam.launch_config(c) if hasattr(fam, "launch_config") else dict(grid=(1,), block=(32,))
            runtime.launch(modules[chosen[c.name]], c.name, params, inputs.arrays, **config)
            ok, err, note = fam.check(c, inputs, inputs.arrays[3])
            report.outcomes.append(Outcome(c, ok, f"max error {err:.2e} ({note})", err))
        except runtime.CudaError as exc:
            report.outcomes.append(Outcome(c, False, str(exc)))
        if progress and len(report.outcomes) % 50 == 0:
            progress(f"{len(report.outcomes)}/{len(cases)} run")
    report.seconds = time.perf_counter() - start
    return report
