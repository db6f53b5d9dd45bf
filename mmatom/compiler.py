"""The Python API a DSL calls: IR (mma level or nvvm level, as a module or .mlir text) -> Kernel.

    kernel = mmatom.compile(module)            # verify, lower-mma-to-nvvm, emit PTX
    kernel.ptx                                 # works without a GPU
    kernel(a, b, c, d, grid=(1,), block=(32,)) # JIT through the driver, launch, copy numpy back
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import FileLineColLoc, Float32Type, Float64Type, IntegerType, ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from mmatom.dialects.diagnostics import OpError
from mmatom.dialects.source import Diagnostic, LocatingParser, make_context, op_diagnostic, verify_located
from mmatom.lowering.pipeline import LowerMmaToNvvm
from mmatom.targets import runtime
from mmatom.targets.ptx_emitter import emit_ptx, module_target


class CompileError(DiagnosticException):
    """Why a module did not compile: every diagnostic located `file:line:col` at the op it is about.
    `mmatom.compile` turns every failure of parsing, verification, lowering and emission into this."""

    def __init__(self, diagnostics: list[Diagnostic], name: str = "<module>"):
        super().__init__("\n".join(d.render(name) for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass
class Kernel:
    """One compiled module; calling it launches its (first, or `entry`) kernel."""

    ptx: str
    entries: dict[str, tuple[runtime.Param, ...]]
    target: str
    _module: runtime.Module | None = field(default=None, repr=False)

    def __call__(self, *args: Any, grid=(1,), block=(32,), shared_bytes: int = 0, entry: str | None = None) -> None:
        name = entry or next(iter(self.entries))
        if name not in self.entries:
            raise KeyError(f"no kernel '{name}' in this module; it has {', '.join(self.entries)}")
        if self._module is None:
            self._module = runtime.Module(self.ptx, label=name)
        runtime.launch(self._module, name, self.entries[name], args, grid, block, shared_bytes)


def _param(t) -> runtime.Param:
    if isinstance(t, llvm.LLVMPointerType):
        return runtime.Param("ptr")
    if isinstance(t, IntegerType):
        return runtime.Param("u64" if t.width.data == 64 else "u32")
    if isinstance(t, Float32Type):
        return runtime.Param("f32")
    if isinstance(t, Float64Type):
        return runtime.Param("f64")
    raise CompileError([Diagnostic(0, 0, f"a kernel parameter of type {t} cannot be passed from Python")])


def parse(text: str, name: str = "<text>") -> ModuleOp:
    try:
        module = LocatingParser(make_context(), text, name, 0).parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        raise CompileError([Diagnostic(loc.line, loc.col, err.msg)], name) from None
    diags = verify_located(module)
    if diags:
        raise CompileError(diags, name)
    return module


def lower(module: ModuleOp) -> ModuleOp:
    """Verify and lower a module to the nvvm level in place (a no-op for an nvvm-level module)."""
    _verify(module)
    try:
        LowerMmaToNvvm().apply(make_context(), module)
    except OpError as err:
        raise CompileError([op_diagnostic(err.op, str(err).splitlines()[0])]) from None
    _verify(module)
    return module


def _verify(module: ModuleOp) -> None:
    diags = [Diagnostic(d.line, d.col, d.message, _file(module)) for d in verify_located(module)]
    if diags:
        raise CompileError(diags)


def _file(module: ModuleOp) -> str | None:
    return next((op.location.filename.data for op in module.walk() if isinstance(op.location, FileLineColLoc)), None)


def compile(module_or_text: ModuleOp | str) -> Kernel:  # noqa: A001 - the API's name
    """Verify, lower and emit PTX for an mma- or nvvm-level module (or its .mlir text). The caller's module is not
    changed (a copy is lowered). Every failure is a CompileError located at the op it is about."""
    if isinstance(module_or_text, str):
        module = parse(module_or_text)
    elif isinstance(module_or_text, ModuleOp):
        module = module_or_text.clone()
    else:
        raise CompileError([Diagnostic(0, 0, f"mmatom.compile takes a builtin.module (ModuleOp) or .mlir text, not "
                                             f"{type(module_or_text).__name__}")])
    lower(module)
    try:
        ptx = emit_ptx(module)
    except OpError as err:
        raise CompileError([op_diagnostic(err.op, str(err).splitlines()[0])]) from None
    entries = {f.sym_name.data: tuple(_param(a.type) for a in f.body.block.args)
               for f in module.walk() if isinstance(f, llvm.FuncOp) and "nvvm.kernel" in f.attributes}
    return Kernel(ptx, entries, module_target(module))
