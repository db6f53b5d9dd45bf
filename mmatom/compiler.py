"""The Python API a DSL calls: IR (mma level or nvvm level, as a module or .mlir text) -> Kernel.

    kernel = mmatom.compile(module)            # verify, lower-mma-to-nvvm, emit PTX
    kernel.ptx                                 # works without a GPU
    kernel(a, b, c, d, grid=(1,), block=(32,)) # JIT through the driver, launch, copy numpy back
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from mmatom.dialects.source import LocatingParser, make_context, verify_located
from mmatom.lowering.pipeline import LowerMmaToNvvm
from mmatom.targets import runtime
from mmatom.targets.ptx_emitter import emit_ptx, module_target


class CompileError(DiagnosticException):
    pass


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
    raise CompileError(f"a kernel parameter of type {t} cannot be passed from Python")


def parse(text: str, name: str = "<text>") -> ModuleOp:
    module = LocatingParser(make_context(), text, name, 0).parse_module()
    diags = verify_located(module)
    if diags:
        raise CompileError("\n".join(f"{name}:{d.line}:{d.col}: error: {d.message}" for d in diags))
    return module


def lower(module: ModuleOp) -> ModuleOp:
    """Verify and lower a module to the nvvm level in place (a no-op for an nvvm-level module)."""
    module.verify()
    LowerMmaToNvvm().apply(make_context(), module)
    module.verify()
    return module


def compile(module_or_text: ModuleOp | str) -> Kernel:  # noqa: A001 - the API's name
    module = parse(module_or_text) if isinstance(module_or_text, str) else module_or_text
    lower(module)
    ptx = emit_ptx(module)
    entries = {f.sym_name.data: tuple(_param(a.type) for a in f.body.block.args)
               for f in module.walk() if isinstance(f, llvm.FuncOp) and "nvvm.kernel" in f.attributes}
    return Kernel(ptx, entries, module_target(module))
