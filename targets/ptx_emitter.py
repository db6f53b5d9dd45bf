"""The PTX target: an nvvm-level module (llvm.func kernels of arith, scf or cf branches, llvm memory ops and
nvvm) -> a complete PTX module that ptxas accepts for the module's chip.

  mmatom-opt kernel.mlir -p lower-mma-to-ptx -t ptx

`.target` is the module's `mma.target`; `.version` is the largest of the chip's first PTX version and
every MMA instruction's minimum from the catalogue. MMA instructions are spelled by the catalogue
(`catalogue.spell`), never by the emitters: each nvvm MMA op knows its atom (`op.atom()`).

This module drives the emission: module-level declarations and one PTXFunction per llvm.func, whose ops
go to the emitters registered by the modules imported below (one per group of ops). The target runs no pass: it
prints blocks and branches (ptx_control: labels, register copies and `bra`) and refuses structured control flow,
naming mma-scf-to-branches, the last step of lower-mma-to-ptx (lowering/pipeline.py), which lowers it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.target import Target

from mmatom.atoms.catalogue import Atom
from mmatom.atoms.chips import chip
from mmatom.atoms.tma import MAP_BYTES
from mmatom.dialects.mma_tma import tensor_map_param
from mmatom.dialects.mma_types import TARGET_ATTR, module_target
from mmatom.dialects.launch_bounds import launch_bounds
from mmatom.dialects.op_walk import nested_ops
from mmatom.lowering.scf_to_branches import STRUCTURED, ScfToBranches
from mmatom.lowering.pipeline import LowerMmaToPtx

# the op emitters: importing a module registers its ops (ptx_function.emits)
from . import ptx_arith, ptx_control, ptx_hopper, ptx_llvm, ptx_math, ptx_mma, ptx_nvvm, ptx_tcgen05, ptx_warp
from .ptx_function import B16, B32, B64, CLASSES, F32, F64, PTXEmissionError, PTXFunction, addr_space, reg_class

EMITTER_MODULES = (ptx_arith, ptx_math, ptx_llvm, ptx_control, ptx_nvvm, ptx_hopper, ptx_mma, ptx_tcgen05, ptx_warp)


class PTXEmitter:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.target = chip_of(module)
        self.versions: list[tuple[int, int]] = [chip(self.target).min_ptx_version]

    def emit(self) -> str:
        bodies = [text for _, text, _ in self.functions()]
        return ptx_header(self.target, max(self.versions)) + self.shared_globals() + "\n".join(bodies) + "\n"

    def shared_globals(self) -> str:
        """`llvm.mlir.global` in address space 3: a zero-length array is the dynamic SMEM (`.extern`)."""
        lines = []
        for op in nested_ops(self.module):
            if not isinstance(op, llvm.GlobalOp):
                continue
            space = op.addr_space.value.data if op.addr_space else 0
            if space != 3:
                raise PTXEmissionError(op, f"llvm.mlir.global @{op.sym_name.data}: only shared-memory globals "
                                           f"(addr_space = 3) are emitted, not address space {space}")
            t = op.global_type
            if not isinstance(t, llvm.LLVMArrayType):
                raise PTXEmissionError(op, f"llvm.mlir.global @{op.sym_name.data}: a shared global is an "
                                           f"!llvm.array of i8, not {t}")
            align = op.alignment.value.data if op.alignment else 16
            size = t.size.data
            prefix = ".extern .shared" if size == 0 else ".shared"
            lines.append(f"{prefix} .align {align} .b8 {op.sym_name.data}[{size if size else ''}];")
        return "\n".join(lines) + "\n\n" if lines else ""

    def functions(self) -> list[tuple[str, str, list[Atom]]]:
        """(name, PTX text, MMA atoms used) of every function, independent of .target/.version."""
        funcs = [op for op in nested_ops(self.module) if isinstance(op, llvm.FuncOp)]
        if not funcs:
            raise PTXEmissionError(self.module, "the module has no llvm.func kernels to emit")
        out = []
        for f in funcs:
            refuse_structured_control_flow(f)
            fn = PTXFunction(f.sym_name.data, self.target)
            out.append((fn.name, function_text(fn, f), fn.atoms))
            self.versions += fn.versions
        return out


PARAM_TYPES = {B64: ".u64", B32: ".u32", F32: ".f32", F64: ".f64", B16: ".b16"}


def function_text(fn: PTXFunction, func: llvm.FuncOp) -> str:
    """`func` as a PTX .entry (a kernel) or .func: parameters, register declarations, body."""
    is_kernel = "nvvm.kernel" in func.attributes
    if is_kernel and func.linkage.linkage.data != "external":
        raise PTXEmissionError(func, f"kernel @{fn.name} has {func.linkage.linkage.data} linkage; a kernel entry "
                                     f"must be external (as upstream NVPTX requires)")
    if not func.body.blocks:
        raise PTXEmissionError(func, f"@{fn.name} is a declaration (no body); the PTX target emits functions it "
                                     f"has the body of")
    block = func.body.blocks[0]
    params = []
    for i, arg in enumerate(block.args):
        if tensor_map_param(arg) is None:  # by value: the kernel addresses the launch's parameter copy
            pname = f"{fn.name}_param_{i}"
            params.append(f"\t.param .align 64 .b8 {pname}[{MAP_BYTES}]")
            raw = fn.new(B64)
            fn.emit(f"mov.b64 {raw}, {pname};")
            fn.emit(f"cvta.param.u64 {fn.define(arg)}, {raw};")
            continue
        try:
            ptype = PARAM_TYPES[reg_class(arg.type)]
        except KeyError:  # no register class at all (i128), or a predicate (PTX has no .pred parameters)
            raise PTXEmissionError(func, f"@{fn.name} parameter {i} has type {arg.type}; a PTX parameter is one of "
                                         f"i8..i64, f16, bf16, f32, f64 or a pointer") from None
        pname = f"{fn.name}_param_{i}"
        params.append(f"\t.param {ptype} {pname}")
        if isinstance(arg.type, llvm.LLVMPointerType) and addr_space(arg.type) == 1:
            raw = fn.new(B64)  # a kernel receives generic addresses; global accesses need global ones
            fn.emit(f"ld.param{ptype} {raw}, [{pname}];")
            fn.emit(f"cvta.to.global.u64 {fn.define(arg)}, {raw};")
        else:
            fn.emit(f"ld.param{ptype} {fn.define(arg)}, [{pname}];")
    ptx_control.emit_body(fn, func.body)
    decls = [f"\t.reg {c.ptx_type} \t{c.prefix}<{fn.counts[c] + 1}>;" for c in CLASSES if fn.counts[c]]
    entry = ".visible .entry" if is_kernel else ".visible .func"
    sig = f"{entry} {fn.name}(\n" + ",\n".join(params) + "\n)" if params else f"{entry} {fn.name}()"
    sig += "".join(f"\n{d}" for d in launch_bounds(func).ptx_directives())
    return sig + "\n{\n" + "\n".join(decls) + "\n\n" + "\n".join(fn.lines) + "\n}\n"


def chip_of(module: ModuleOp) -> str:
    """The chip the module is for (`.target`): its `#mma.target`, which it must name."""
    try:
        target = module_target(module)
    except VerifyException as err:
        raise PTXEmissionError(module, str(err)) from None
    if target is None:
        raise PTXEmissionError(module, f"the module names no chip: add `{TARGET_ATTR} = #mma.target<sm_..>`")
    return target


def refuse_structured_control_flow(func: llvm.FuncOp) -> None:
    """PTX has branches, not regions: structured control flow is lowered before the target, not by it."""
    for op in nested_ops(func):
        if isinstance(op, STRUCTURED):
            raise PTXEmissionError(op, f"{op.name}: the PTX target prints blocks and branches, not structured "
                                       f"control flow; run {ScfToBranches.name} first (the last step of "
                                       f"{LowerMmaToPtx.name}: -p {LowerMmaToPtx.name} -t ptx)")


def ptx_header(target: str, version: tuple[int, int]) -> str:
    return (f"//\n// Generated by mmatom for {target}\n//\n.version {version[0]}.{version[1]}\n.target {target}\n"
            ".address_size 64\n\n")


def emit_ptx(module: ModuleOp) -> str:
    return PTXEmitter(module).emit()


@dataclass(frozen=True)
class PTXTarget(Target):
    """`-t ptx`: print the module as PTX."""

    name = "ptx"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(emit_ptx(module))
