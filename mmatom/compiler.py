"""The Python API a DSL calls: IR (mma level or nvvm level, as a module or .mlir text) -> Kernel.

    kernel = mmatom.compile(module)            # verify, lower-mma-to-ptx, emit PTX
    kernel.ptx                                 # works without a GPU
    kernel(a, b, c, d, grid=(1,), block=(32,)) # JIT through the driver, launch, copy numpy back
"""

from __future__ import annotations

import gc
import json
import os
import re
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, ModuleOp
from xdsl.ir import BlockArgument
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from mmatom.dialects.diagnostics import OpError
from mmatom.atoms.chips import UnknownChip, chip
from mmatom.dialects.launch_bounds import KERNEL, REQNTID, SHARED_BYTES, LaunchBounds, launch_bounds
from mmatom.dialects.mma_tma import AsTensorMapOp, tensor_map_param
from mmatom.dialects.mma_types import TARGET_ATTR, TargetAttr, module_target
from mmatom.dialects.source import (Diagnostic, LocatingParser, make_context, op_diagnostic, recursion_room,
                                    verified_as_is, verify_located)
from mmatom.lowering.pipeline import LowerMmaToNvvm, LowerMmaToPtx
from mmatom.targets import ptxas, runtime
from mmatom.targets.ptx_emitter import emit_ptx

from . import compile_cache
from .errors import CompileError, api_error


@dataclass(frozen=True)
class Entry:
    """One kernel of a compiled module: its parameters and the launch bounds its llvm.func declares."""

    params: tuple[runtime.Param, ...]
    bounds: LaunchBounds

    def check_block(self, name: str, block: tuple[int, ...] | None) -> tuple[int, ...]:
        """The block to launch with: the declared `nvvm.reqntid` when `block` is None; a block that differs from
        it, or any block for a kernel that declares none, is refused (a short block leaves results unwritten
        and nothing would say so)."""
        declared = self.bounds.reqntid
        if declared is None:
            raise runtime.LaunchError(
                f"kernel '{name}' declares no thread count: give its llvm.func `{REQNTID} = array<i32: N>` (PTX "
                f".reqntid), so that a launch can be checked against it")
        if block is None:
            return declared
        shape = tuple(block) + (1,) * (3 - len(block))
        if shape != declared:
            raise runtime.LaunchError(
                f"kernel '{name}' is declared for block {declared} ({REQNTID}, PTX .reqntid); launched with "
                f"block={tuple(block)}")
        return shape

    def check_shared_bytes(self, name: str, shared_bytes: int | None) -> int:
        """The dynamic shared memory to launch with: the declared `mma.shared_bytes` by default; less is refused."""
        need = self.bounds.shared_bytes
        if shared_bytes is None:
            return need
        if shared_bytes < need:
            raise runtime.LaunchError(f"kernel '{name}' needs {need} bytes of dynamic shared memory "
                                      f"({SHARED_BYTES}); launched with shared_bytes={shared_bytes}")
        return shared_bytes


# ptxas's performance notes come as `ptxas info : (C75xx) ...` (wgmma serialized or waits injected, setmaxnreg
# ignored), not as warnings: the metadata reports them with the warnings
PERFORMANCE_NOTE = re.compile(r"\(C7\d{3}\)")


@dataclass(frozen=True)
class KernelMetadata:
    """One kernel as ptxas built it: the threads it declares, the shared memory it needs (static from ptxas plus
    the dynamic `mma.shared_bytes` it declares), registers per thread and spill bytes (stores + loads)."""

    name: str
    threads: int | None
    shared_bytes: int
    registers: int
    spill_bytes: int
    warnings: tuple[str, ...] = ()  # ptxas's warnings and C7xxx performance notes (wgmma serialized, setmaxnreg)


@dataclass
class Kernel:
    """One compiled module; calling it launches its (first, or `entry`) kernel with the block it declares."""

    ptx: str
    entries: dict[str, Entry]
    target: str
    digest: str | None = field(default=None, repr=False, compare=False)  # runtime.ptx_digest(ptx); None: not known
    _module: runtime.Module | None = field(default=None, repr=False)
    _cubin: ptxas.Cubin | None = field(default=None, repr=False)
    _launchers: dict = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return next(iter(self.entries))

    @property
    def cubin(self) -> bytes:
        """The PTX assembled by ptxas for this kernel's target (no GPU needed)."""
        return self._assembled().data

    @property
    def metadata(self) -> KernelMetadata:
        """The first kernel's metadata (`entry_metadata(name)` for another)."""
        return self.entry_metadata(self.name)

    def entry_metadata(self, name: str) -> KernelMetadata:
        entry = self._entry(name)
        res = self._assembled().functions.get(name, ptxas.Resources(0, 0, 0, 0, 0))
        warnings = tuple(line.strip() for line in self._assembled().log.splitlines()
                         if "warning" in line.lower() or PERFORMANCE_NOTE.search(line))
        return KernelMetadata(name, entry.bounds.threads, res.shared_bytes + entry.bounds.shared_bytes,
                              res.registers, res.spill_store_bytes + res.spill_load_bytes, warnings)

    def _assembled(self) -> ptxas.Cubin:
        if self._cubin is None:
            self._cubin = assemble_cubin(self.ptx, self.target)
        return self._cubin

    def _entry(self, name: str) -> Entry:
        if name not in self.entries:
            raise KeyError(f"no kernel '{name}' in this module; it has {', '.join(self.entries)}")
        return self.entries[name]

    def __call__(self, *args: Any, grid=(1,), block: tuple[int, ...] | None = None,
                 shared_bytes: int | None = None, entry: str | None = None) -> None:
        name = entry or self.name
        declared = self._entry(name)
        block = declared.check_block(name, block)
        shared_bytes = declared.check_shared_bytes(name, shared_bytes)
        if self._module is None:
            self._module = runtime.Module(self.ptx, label=name, digest=self.digest)
        runtime.launch(self._module, name, declared.params, args, grid, block, shared_bytes)

    def launch(self, *args: Any, grid=(1,), stream: Any = None, cluster: tuple[int, int, int] | None = None,
               entry: str | None = None) -> None:
        """Launch without synchronizing (device arrays, tensor maps and scalars only) on `stream` (a CUDA stream
        handle, or an object with `.cuda_stream` such as torch.cuda.current_stream(); default: the legacy
        stream), with the block and shared memory the kernel declares and, if given, a thread-block cluster."""
        handle = getattr(stream, "cuda_stream", stream)
        self._launcher(entry, cluster)(args, grid, int(handle or 0))

    def prepare(self, *args: Any, grid=(1,), cluster: tuple[int, int, int] | None = None,
                entry: str | None = None, device: int | None = None) -> Callable[[Any], None]:
        """`launch` with its arguments packed once: the result, called with a stream (as `launch` takes it),
        launches the kernel on it without re-reading the arguments -- for a library's hot path. The arguments
        (tensor maps, device arrays) must stay alive and unchanged while it is used. `device`: the ordinal of the
        GPU the arguments are on, where the caller already knows it (a hot path's template): it is not checked
        against them; else each argument is asked and two GPUs refused."""
        run = self._launcher(entry, cluster).prepare(args, grid, device)

        def launch(stream: Any = None) -> None:
            run(stream if type(stream) is int else int(getattr(stream, "cuda_stream", stream) or 0))
        return launch

    def max_active_clusters(self, device: int = 0, entry: str | None = None) -> int:
        """How many clusters of this kernel (launched in the clusters it declares) GPU `device` runs at once: the
        most a persistent grid of clusters should launch (a cluster's CTAs share a GPC, so clusters of 4 may fill
        fewer SMs than the SM count)."""
        return self._launcher(entry, None).max_active_clusters(device)

    def _launcher(self, entry: str | None, cluster: tuple[int, int, int] | None) -> runtime.AsyncLaunch:
        name = entry or self.name
        launcher = self._launchers.get((name, cluster))
        if launcher is None:
            declared = self._entry(name)
            required = declared.bounds.cluster_dim
            if cluster is not None:
                cluster = tuple(cluster) + (1,) * (3 - len(cluster))
            if required is not None and cluster not in (None, required):
                raise runtime.LaunchError(f"kernel '{name}' declares clusters of {required} CTAs "
                                          f"(nvvm.cluster_dim); a launch with cluster {cluster} would be refused")
            cluster = cluster or required
            if self._module is None:
                self._module = runtime.Module(self.ptx, label=name, digest=self.digest)
            launcher = runtime.AsyncLaunch(self._module, name, declared.params, declared.check_block(name, None),
                                           declared.bounds.shared_bytes, cluster)
            self._launchers[(name, cluster)] = launcher
        return launcher

    def record(self) -> dict:
        """What the compile cache stores (the PTX's digest with it: a cached load finds its cubin without hashing
        the PTX)."""
        return {"ptx": self.ptx, "ptx_sha256": self.digest or runtime.ptx_digest(self.ptx), "target": self.target,
                "entries": {n: {"params": [p.kind for p in e.params], "bounds": asdict(e.bounds)}
                            for n, e in self.entries.items()}}

    @classmethod
    def from_record(cls, record: dict) -> Kernel:
        entries = {}
        for n, e in record["entries"].items():
            b = e["bounds"]
            bounds = LaunchBounds(*(tuple(b[k]) if b[k] else None for k in ("reqntid", "maxntid")),
                                  b["minctasm"], b["maxnreg"], b["shared_bytes"],
                                  tuple(b["cluster_dim"]) if b.get("cluster_dim") else None)
            entries[n] = Entry(tuple(runtime.Param(k) for k in e["params"]), bounds)
        return cls(record["ptx"], entries, record["target"], record.get("ptx_sha256"))


def assemble_cubin(ptx: str, target: str) -> ptxas.Cubin:
    try:
        return ptxas.assemble_cubin(ptx, target)
    except ptxas.AssembleError as err:
        raise api_error(f"ptxas rejected the PTX for {target}:\n{err}") from None
    except (ptxas.PtxasNotFound, UnknownChip) as err:
        raise api_error(str(err)) from None


def assemble(ptx: str, target: str) -> bytes:
    """PTX text -> cubin bytes with ptxas for `target` (no GPU needed); CompileError with ptxas's log if it
    rejects the PTX."""
    return assemble_cubin(ptx, target).data


def _batched_map_params(module: ModuleOp) -> set[tuple[str, int]]:
    """(kernel, parameter index) of each parameter viewed as a batched tensor map: what a launch checks its map
    against, read before lowering (which drops the views)."""
    found = set()
    for op in module.walk():
        if isinstance(op, AsTensorMapOp) and op.res.type.batched and isinstance(op.param, BlockArgument):
            func = op.param.owner.parent_op()
            if isinstance(func, llvm.FuncOp):
                found.add((func.sym_name.data, op.param.index))
    return found


def _param(t, func: llvm.FuncOp, index: int, batched_maps: set[tuple[str, int]]) -> runtime.Param:
    if tensor_map_param(func.body.blocks[0].args[index]) is None:
        return runtime.Param("tmap_batched" if (func.sym_name.data, index) in batched_maps else "tmap")
    if isinstance(t, llvm.LLVMPointerType):
        return runtime.Param("ptr")
    if isinstance(t, IntegerType):
        return runtime.Param("u64" if t.width.data == 64 else "u32")
    if isinstance(t, Float32Type):
        return runtime.Param("f32")
    if isinstance(t, Float64Type):
        return runtime.Param("f64")
    raise CompileError([op_diagnostic(func, f"kernel @{func.sym_name.data}: a parameter of type {t} cannot be "
                                            f"passed from Python (pointers, i32/i64, f32, f64 can)")])


def parse(text: str, name: str = "<text>") -> ModuleOp:
    """The module `text` spells, verified."""
    module = _parse(text, name)
    _verify(module, name)
    return module


def _parse(text: str, name: str = "<text>") -> ModuleOp:
    try:
        return LocatingParser(make_context(), text, name, 0).parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        raise CompileError([Diagnostic(loc.line, loc.col, err.msg)], name) from None
    except Exception as err:  # noqa: BLE001 - the parser locates what it knows; bad text is never a bare exception
        raise CompileError([Diagnostic(1, 1, f"cannot parse: {err}")], name) from None


def lower(module: ModuleOp) -> ModuleOp:
    """Verify and lower a module to the nvvm level in place (a no-op for an nvvm-level module); its control flow
    stays structured (what upstream MLIR reads)."""
    _verify(module)
    return _lowered(module, LowerMmaToNvvm())


def lower_for_ptx(module: ModuleOp) -> ModuleOp:
    """Verify and lower a module in place to what the PTX target prints (lower-mma-to-ptx: blocks and branches)."""
    _verify(module)
    return _lowered(module, LowerMmaToPtx())


def _lowered(module: ModuleOp, pipeline: LowerMmaToNvvm | LowerMmaToPtx) -> ModuleOp:
    """`module`, verified already, lowered in place by `pipeline`; the lowered IR is verified (the nvvm ops' atoms
    are those the mma ops carried: the lowering's output is checked, the input is not read again)."""
    try:
        pipeline.apply(make_context(), module)
    except OpError as err:
        raise CompileError([op_diagnostic(err.op, str(err).splitlines()[0])]) from None
    _verify(module)
    return module


def _verify(module: ModuleOp, name: str | None = None) -> None:
    diags = verify_located(module)
    if diags:
        raise CompileError(diags, name or "<module>")


OPTIONS = {"cache": True}  # option -> default


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while a compile runs (as it was, after): a compile allocates ~100k IR
    objects that stay alive until it ends, and the full passes the collector makes over them -- and over the rest
    of the heap, torch's in a torch process -- cost ~0.1 s of a 1.4 s cold compile (attention, d 128) for nothing.
    What the compile leaves as garbage goes at the collector's next pass."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile(module_or_text: ModuleOp | str | os.PathLike, *, target: str | None = None,  # noqa: A001 - the API's name
            options: dict[str, Any] | None = None) -> Kernel:
    """Verify, lower and emit PTX for an mma- or nvvm-level module (or its .mlir text, or a Path to that). The
    caller's module is never changed (a copy is lowered). `target` sets the module's chip when it names none (and
    must agree when it does). Options: `cache` (default True: a module compiled before, by this process or
    another, is read from the compile cache). Every failure is a CompileError located at the op it is about."""
    with recursion_room(), collector_paused():  # IR nested as deep as the parser reads: room to verify, lower, print
        return _compile(module_or_text, target, options)


def _compile(module_or_text: ModuleOp | str | os.PathLike, target: str | None, options: dict[str, Any] | None,
             owned: bool = False) -> Kernel:
    """`owned`: a module made for this compile alone (compile_generated's, cached under its generator's key): lowered
    in place, with no key of its own (no structure walk, no print, no clone: ~15% of a large kernel's cold compile)."""
    opts = _options(options)
    if owned and isinstance(module_or_text, ModuleOp):
        return _compiled(module_or_text, target, None, None, None, {**opts, "cache": False})
    shape, name = None, "<text>"
    if isinstance(module_or_text, os.PathLike):
        name, module_or_text = os.fspath(module_or_text), _read_source(module_or_text)
    if isinstance(module_or_text, str):
        _refuse_a_path(module_or_text)
        text = module_or_text
    elif isinstance(module_or_text, ModuleOp):
        # a module compiled before in this process is found by its structure, without printing it
        shape = (compile_cache.structure(module_or_text), target, tuple(sorted(opts.items()))) if opts["cache"] else None
        if shape is not None and shape[0] is not None and (known := _BY_STRUCTURE.get(shape)) is not None:
            return Kernel.from_record(known)
        text = _print(module_or_text)
    else:
        raise api_error(f"mmatom.compile takes a builtin.module (ModuleOp), .mlir text or a pathlib.Path, not "
                        f"{type(module_or_text).__name__}")
    key = compile_cache.key(text, target, opts)
    if opts["cache"] and (record := compile_cache.CACHE.get(key)) is not None:
        if shape is not None and shape[0] is not None:
            _BY_STRUCTURE[shape] = record
        return Kernel.from_record(record)
    module = _parse(text, name) if isinstance(module_or_text, str) else module_or_text.clone()
    return _compiled(module, target, name if isinstance(module_or_text, str) else None, key, shape, opts)


def _compiled(module: ModuleOp, target: str | None, name: str | None, key: str | None, shape: tuple | None,
              opts: dict[str, Any]) -> Kernel:
    """The Kernel of `module` (this compile's own: lowered in place), stored under `key` and `shape` when caching."""
    retargeted = target is not None and TARGET_ATTR not in module.attributes
    _set_target(module, target)
    if retargeted or not verified_as_is(module):  # a builder's module, just verified on its chip, is not again
        _verify(module, name)  # once: the input, on its chip
    batched_maps = _batched_map_params(module)
    _lowered(module, LowerMmaToPtx())
    try:
        ptx = emit_ptx(module)
    except OpError as err:
        raise CompileError([op_diagnostic(err.op, str(err).splitlines()[0])]) from None
    entries = {f.sym_name.data: Entry(tuple(_param(a.type, f, a.index, batched_maps) for a in f.body.blocks[0].args),
                                      launch_bounds(f))
               for f in module.walk() if isinstance(f, llvm.FuncOp) and KERNEL in f.attributes}
    if not entries:
        raise api_error("the module has no kernel: give an llvm.func the nvvm.kernel attribute")
    kernel = Kernel(ptx, entries, module_target(module), runtime.ptx_digest(ptx))  # hashed once, here
    if opts["cache"]:
        compile_cache.CACHE.put(key, kernel.record())
        if shape is not None and shape[0] is not None:
            _BY_STRUCTURE[shape] = kernel.record()
    return kernel


def _read_source(path: os.PathLike) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise api_error(f"cannot read {os.fspath(path)}: {getattr(err, 'strerror', None) or err}") from None


def _refuse_a_path(text: str) -> None:
    """Text that reads as a file name rather than IR (no '{', one line ending in .mlir or naming a file) is refused
    with the hint, rather than parsed into 'Operation examples is not registered'."""
    candidate = text.strip()
    if "{" in candidate or "\n" in candidate or not candidate:
        return
    if candidate.endswith(".mlir") or _is_file(candidate):
        raise api_error(f"mmatom.compile was given '{candidate}', which reads as a file path, not .mlir text: pass "
                        f"pathlib.Path('{candidate}') or open('{candidate}').read()")


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte: not a file
        return False


def compile_generated(key: Any, build: Callable[[], ModuleOp | str], *, target: str | None = None,
                      options: dict[str, Any] | None = None) -> Kernel:
    """The Kernel of the module `build()` returns, found by `key` without building it when it was compiled before
    (by this process or another): how a DSL's kernel generator skips its own IR construction on a warm cache.
    `key` (JSON-able) must name everything the module depends on besides mmatom itself -- the generator and
    its parameters, e.g. ("my_dsl.matmul", 2, m, n, k, dtype); mmatom's sources, xDSL's version, `target` and the
    options are part of the cache key already. The module `build()` returns is this call's: it is lowered in place
    (not copied, printed or keyed by its text first -- the key names it), and where KernelBuilder.finish() verified
    it and it still has as many ops, not verified again."""
    opts = _options(options)
    try:
        name = json.dumps(["generated", key], sort_keys=True)
    except TypeError as err:
        raise api_error(f"compile_generated: key {key!r} is not JSON-able ({err})") from None
    k = compile_cache.key(name, target, opts)
    if opts["cache"] and (record := compile_cache.CACHE.get(k)) is not None:
        return Kernel.from_record(record)
    with collector_paused():
        built = build()
        with recursion_room():  # a module built for this call: compiled in place under this key alone
            kernel = _compile(built, target, options, owned=True)
    if opts["cache"]:
        compile_cache.CACHE.put(k, kernel.record())
    return kernel


_BY_STRUCTURE: dict[tuple, dict] = {}  # the structure of a module compiled in this process -> its cache record


def _options(options: dict[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise api_error(f"unknown compile option {', '.join(sorted(unknown))}; the options are "
                        f"{', '.join(f'{k} (default {v})' for k, v in OPTIONS.items())}")
    return {**OPTIONS, **options}


def _print(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def _set_target(module: ModuleOp, target: str | None) -> None:
    if target is None:
        return
    try:
        chip(target)
    except UnknownChip as err:
        raise api_error(str(err)) from None
    have = module.attributes.get(TARGET_ATTR)
    if have is None:
        module.attributes[TARGET_ATTR] = TargetAttr(target)
    elif not isinstance(have, TargetAttr) or have.chip_name.data != target:
        named = have.chip_name.data if isinstance(have, TargetAttr) else have
        raise CompileError([op_diagnostic(module, f"the module is for {named} ({TARGET_ATTR}); compile was asked "
                                                  f"for {target}")])
