"""The PTX target: an nvvm-level module (llvm.func kernels of arith, scf, llvm memory ops and nvvm) ->
a complete PTX module that ptxas accepts for the module's chip.

  mmatom-opt kernel.mlir -p lower-mma-to-nvvm -t ptx

`.target` is the module's `mma.target`; `.version` is the largest of the chip's first PTX version and
every MMA instruction's minimum from the catalogue. MMA instructions are spelled by the catalogue
(`catalogue.spell`), never by this file: the nvvm op is read back into a catalogue atom first.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.target import Target

from mmatom.dialects import nvvm
from mmatom.dialects.mma import TargetAttr

from mmatom.atoms.catalogue import Atom, family, resolve, spelling
from mmatom.atoms.chips import chip
from . import ptx_tcgen05
from .ptx_function import (
    B16, B32, B64, CLASSES, F32, F64, PRED, SPACES, PTXEmissionError, PTXFunction, RegClass, addr_space, constant_int,
    reg_class, value_bits,
)

TARGET_ATTR = "mma.target"


class PTXEmitter:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.target = module_target(module)
        self.versions: list[tuple[int, int]] = [chip(self.target).min_ptx_version]
        self.atoms: list[Atom] = []

    def emit(self) -> str:
        bodies = [text for _, text, _ in self.functions()]
        return ptx_header(self.target, max(self.versions)) + self.shared_globals() + "\n".join(bodies) + "\n"

    def shared_globals(self) -> str:
        """`llvm.mlir.global` in address space 3: a zero-length array is the dynamic SMEM (`.extern`)."""
        lines = []
        for op in self.module.walk():
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
        funcs = [op for op in self.module.walk() if isinstance(op, llvm.FuncOp)]
        if not funcs:
            raise PTXEmissionError(self.module, "the module has no llvm.func kernels to emit")
        out = []
        for f in funcs:
            self.atoms = []
            text = self._function(f)
            out.append((f.sym_name.data, text, self.atoms))
        return out

    # functions

    def _function(self, func: llvm.FuncOp) -> str:
        fn = PTXFunction(func.sym_name.data)
        is_kernel = "nvvm.kernel" in func.attributes
        if is_kernel and func.linkage.linkage.data != "external":
            raise PTXEmissionError(func, f"kernel @{fn.name} has {func.linkage.linkage.data} linkage; a kernel entry "
                                         f"must be external (as upstream NVPTX requires)")
        block = func.body.block
        params = []
        for i, arg in enumerate(block.args):
            cls = reg_class(arg.type)
            ptype = {B64: ".u64", B32: ".u32", F32: ".f32", F64: ".f64", B16: ".b16"}[cls]
            pname = f"{fn.name}_param_{i}"
            params.append(f"\t.param {ptype} {pname}")
            if isinstance(arg.type, llvm.LLVMPointerType) and addr_space(arg.type) == 1:
                raw = fn.new(B64)  # a kernel receives generic addresses; global accesses need global ones
                fn.emit(f"ld.param{ptype} {raw}, [{pname}];")
                fn.emit(f"cvta.to.global.u64 {fn.define(arg)}, {raw};")
            else:
                fn.emit(f"ld.param{ptype} {fn.define(arg)}, [{pname}];")
        self._block(fn, block)
        decls = [f"\t.reg {c.ptx_type} \t{c.prefix}<{fn.counts[c] + 1}>;" for c in CLASSES if fn.counts[c]]
        entry = ".visible .entry" if is_kernel else ".visible .func"
        sig = f"{entry} {fn.name}(\n" + ",\n".join(params) + "\n)" if params else f"{entry} {fn.name}()"
        return sig + "\n{\n" + "\n".join(decls) + "\n\n" + "\n".join(fn.lines) + "\n}\n"

    def _block(self, fn: PTXFunction, block: Block) -> None:
        for op in block.ops:
            self._op(fn, op)

    def _r(self, fn: PTXFunction, v: SSAValue) -> str:
        try:
            return fn.names[v]
        except KeyError:
            raise PTXEmissionError(v.owner if isinstance(v.owner, Operation) else None,
                                   "a value is used before the emitter defined it") from None

    # ops

    def _op(self, fn: PTXFunction, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is None:
            if isinstance(op, nvvm.SpecialRegisterOp):
                fn.emit(f"mov.u32 {fn.define(op.res)}, %{op.register};")
                return
            raise PTXEmissionError(op, f"the PTX target cannot emit '{op.name}'")
        handler(self, fn, op)

    def _constant(self, fn: PTXFunction, op: arith.ConstantOp) -> None:
        dst = fn.define(op.result)
        value = op.value
        t = op.result.type
        if isinstance(t, IntegerType):
            n = value.value.data
            if t.width.data == 1:
                fn.emit(f"setp.ne.u32 {dst}, {1 if n else 0}, 0;")
            else:
                cls = reg_class(t)
                fn.emit(f"mov.b{cls.bits} {dst}, {n & ((1 << cls.bits) - 1)};")
        elif isinstance(t, Float32Type):
            fn.emit(f"mov.f32 {dst}, 0f{struct.unpack('<I', struct.pack('<f', value.value.data))[0]:08X};")
        elif isinstance(t, Float64Type):
            fn.emit(f"mov.f64 {dst}, 0d{struct.unpack('<Q', struct.pack('<d', value.value.data))[0]:016X};")
        else:
            raise PTXEmissionError(op, f"arith.constant of type {t} is not supported by the PTX target")

    def _binary(self, fn: PTXFunction, op: Operation) -> None:
        t = op.result.type
        mnemonic = _INT_BINARY.get(op.name) if isinstance(t, IntegerType) else _FLOAT_BINARY.get(op.name)
        if mnemonic is None:
            raise PTXEmissionError(op, f"'{op.name}' on {t} is not supported by the PTX target")
        bits = value_bits(t)
        suffix = mnemonic[1].replace("N", str(bits))
        a, b = self._r(fn, op.lhs), self._r(fn, op.rhs)
        if mnemonic[0] in ("shl", "shr") and bits == 64:  # PTX shift amounts are .u32
            amount = fn.new(B32)
            fn.emit(f"cvt.u32.u64 {amount}, {b};")
            b = amount
        fn.emit(f"{mnemonic[0]}{suffix} {fn.define(op.result)}, {a}, {b};")

    def _cast(self, fn: PTXFunction, op: Operation) -> None:
        src_t, dst_t = op.input.type, op.result.type
        sb, db = value_bits(src_t), value_bits(dst_t)
        src = self._r(fn, op.input)
        dst = fn.define(op.result)
        sc, dc = reg_class(src_t).bits, reg_class(dst_t).bits
        signed = isinstance(op, arith.ExtSIOp)
        if sc == dc:  # i8 <-> i16 both live in .b16
            if isinstance(op, arith.TruncIOp) and db < sc:
                fn.emit(f"and.b{sc} {dst}, {src}, {(1 << db) - 1};")
            elif signed and sb < sc:
                fn.emit(f"cvt.s{sc}.s{sb} {dst}, {src};")
            else:
                fn.emit(f"mov.b{sc} {dst}, {src};")
            return
        kind = "s" if signed else "u"
        fn.emit(f"cvt.{kind}{dc}.{kind}{sb if sb >= 8 and sb < sc else sc} {dst}, {src};")

    def _float_cast(self, fn: PTXFunction, op: Operation) -> None:
        """truncf/extf/sitofp/fptosi: one cvt, rounding to nearest even where the value can change."""
        src_t, dst_t = op.input.type, op.result.type
        src, dst = self._r(fn, op.input), fn.define(op.result)
        name = lambda t: "s32" if isinstance(t, IntegerType) else _float_name(t)  # noqa: E731
        rounding = {"arith.truncf": ".rn", "arith.sitofp": ".rn", "arith.fptosi": ".rzi", "arith.extf": ""}[op.name]
        fn.emit(f"cvt{rounding}.{name(dst_t)}.{name(src_t)} {dst}, {src};")

    def _arith_bitcast(self, fn: PTXFunction, op: arith.BitcastOp) -> None:
        src = self._r(fn, op.input)
        if reg_class(op.input.type) == reg_class(op.result.type):
            fn.names[op.result] = src
        else:
            fn.emit(f"mov.b{value_bits(op.result.type)} {fn.define(op.result)}, {src};")

    def _cmpi(self, fn: PTXFunction, op: arith.CmpiOp) -> None:
        pred, kind = _CMPI[op.predicate.value.data]
        bits = value_bits(op.lhs.type)
        fn.emit(f"setp.{pred}.{kind}{bits} {fn.define(op.result)}, {self._r(fn, op.lhs)}, {self._r(fn, op.rhs)};")

    def _select(self, fn: PTXFunction, op: arith.SelectOp) -> None:
        cls = reg_class(op.result.type)
        fn.emit(f"selp.b{cls.bits} {fn.define(op.result)}, {self._r(fn, op.lhs)}, {self._r(fn, op.rhs)}, "
                f"{self._r(fn, op.cond)};")

    def _gep(self, fn: PTXFunction, op: llvm.GEPOp) -> None:
        indices = list(op.rawConstantIndices.iter_values())
        if len(indices) != 1:
            raise PTXEmissionError(op, "the PTX target emits single-index llvm.getelementptr only")
        size = value_bits(op.elem_type) // 8
        base = self._r(fn, op.ptr)
        dst = fn.define(op.result)
        if indices[0] != llvm.GEP_USE_SSA_VAL:
            fn.emit(f"add.s64 {dst}, {base}, {indices[0] * size};")
            return
        idx = op.ssa_indices[0]
        wide = self._r(fn, idx)
        if value_bits(idx.type) != 64:
            tmp = fn.new(B64)
            fn.emit(f"cvt.s64.s{value_bits(idx.type)} {tmp}, {wide};")
            wide = tmp
        if size != 1:
            tmp = fn.new(B64)
            fn.emit(f"mul.lo.s64 {tmp}, {wide}, {size};")
            wide = tmp
        fn.emit(f"add.s64 {dst}, {base}, {wide};")

    def _load(self, fn: PTXFunction, op: llvm.LoadOp) -> None:
        space = SPACES[addr_space(op.ptr.type)]
        t = op.dereferenced_value.type
        if _is_chunk(t):  # a 16-byte chunk: four .b32 registers
            regs = [fn.new(B32) for _ in range(4)]
            fn.names[op.dereferenced_value] = regs
            fn.emit(f"ld{space}.v4.b32 {{{', '.join(regs)}}}, [{self._r(fn, op.ptr)}];")
            return
        width = _mem_type(t)
        fn.emit(f"ld{space}{width} {fn.define(op.dereferenced_value)}, [{self._r(fn, op.ptr)}];")

    def _store(self, fn: PTXFunction, op: llvm.StoreOp) -> None:
        space = SPACES[addr_space(op.ptr.type)]
        if _is_chunk(op.value.type):
            fn.emit(f"st{space}.v4.b32 [{self._r(fn, op.ptr)}], {{{', '.join(self._r(fn, op.value))}}};")
            return
        fn.emit(f"st{space}{_mem_type(op.value.type)} [{self._r(fn, op.ptr)}], {self._r(fn, op.value)};")

    def _extract(self, fn: PTXFunction, op: llvm.ExtractValueOp) -> None:
        regs = fn.names.get(op.container)
        if not isinstance(regs, list):
            raise PTXEmissionError(op, "llvm.extractvalue reads only MMA result structs in the PTX target")
        fn.names[op.res] = regs[list(op.position.iter_values())[0]]

    def _bitcast(self, fn: PTXFunction, op: llvm.BitcastOp) -> None:
        src = self._r(fn, op.arg)
        if reg_class(op.arg.type) == reg_class(op.result.type):
            fn.names[op.result] = src
        else:
            fn.emit(f"mov.b{value_bits(op.result.type)} {fn.define(op.result)}, {src};")

    def _addressof(self, fn: PTXFunction, op: llvm.AddressOfOp) -> None:
        fn.emit(f"mov.u64 {fn.define(op.result)}, {op.global_name.root_reference.data};")

    def _ptrtoint(self, fn: PTXFunction, op: llvm.PtrToIntOp) -> None:
        src = self._r(fn, op.input)
        if reg_class(op.input.type).bits == value_bits(op.output.type):
            fn.names[op.output] = src
        else:
            fn.emit(f"cvt.u32.u64 {fn.define(op.output)}, {src};")

    def _undef(self, fn: PTXFunction, op: llvm.UndefOp) -> None:
        t = op.res.type
        if isinstance(t, VectorType) and len(t.get_shape()) == 1:  # a register per element, filled by insertelement
            fn.names[op.res] = [fn.new(reg_class(t.element_type)) for _ in range(t.get_shape()[0])]
            return
        if not isinstance(t, llvm.LLVMStructType):
            raise PTXEmissionError(op, "llvm.mlir.undef is emitted only for accumulator structs and vectors")
        fn.names[op.res] = [fn.new(reg_class(e)) for e in t.types.data]

    def _inttoptr(self, fn: PTXFunction, op: llvm.IntToPtrOp) -> None:
        src = self._r(fn, op.input)
        if reg_class(op.output.type).bits == value_bits(op.input.type):
            fn.names[op.output] = src
        else:
            fn.emit(f"cvt.u64.u32 {fn.define(op.output)}, {src};")

    def _insertelement(self, fn: PTXFunction, op: llvm.InsertElementOp) -> None:
        regs = list(self._r(fn, op.vector))
        regs[constant_int(op.index, op)] = self._r(fn, op.value)
        fn.names[op.res] = regs

    def _extractelement(self, fn: PTXFunction, op: nvvm.ExtractElementOp) -> None:
        fn.names[op.res] = self._r(fn, op.vector)[constant_int(op.position, op)]

    def _insertvalue(self, fn: PTXFunction, op: llvm.InsertValueOp) -> None:
        regs = list(self._r(fn, op.container))
        i = list(op.position.iter_values())[0]
        cls = reg_class(op.value.type)
        fn.emit(_mov(cls, regs[i], self._r(fn, op.value)))  # each slot owns its register
        fn.names[op.res] = regs

    def _wgmma(self, fn: PTXFunction, op: nvvm.WgmmaMmaAsyncOp) -> None:
        atom = self._use_atom(op, wgmma_atom(op))
        acc = list(self._r(fn, op.inouts))
        if len(list(op.inouts.uses)) != 1:  # D overwrites its registers: keep a C that is still used elsewhere
            fresh = [fn.new(reg_class(t)) for t in op.inouts.type.types.data]
            for dst, src, t in zip(fresh, acc, op.inouts.type.types.data):
                fn.emit(_mov(reg_class(t), dst, src))
            acc = fresh
        fn.names[op.res] = acc
        args = ["{" + ", ".join(acc) + "}", self._r(fn, op.descriptorA), self._r(fn, op.descriptorB),
                "0" if op.scaleD.value.data == "zero" else "1"]
        if atom["scale_a"] is not None:
            args += [str(atom["scale_a"]), str(atom["scale_b"])]
        if atom["trans_a"] is not None:
            args += [str(atom["trans_a"]), str(atom["trans_b"])]
        fn.emit(f"{family(atom.family).spell(atom)} {', '.join(args)};")

    def _fence_proxy(self, fn: PTXFunction, op: nvvm.FenceProxyOp) -> None:
        kind = op.kind.value.data
        space = f"::{op.space.value.data}" if op.space and kind == "async.shared" else ""
        fn.emit(f"fence.proxy.{kind}{space};")

    def _inline_ptx(self, fn: PTXFunction, op: nvvm.InlinePtxOp) -> None:
        """Upstream's numbering: $0.. the results, then the read-only operands. An MMA inside is checked
        against the chip like any atom (and sets .version)."""
        names = [fn.define(r) for r in op.res] + [self._r(fn, v) for v in op.readOnlyArgs]
        text = re.sub(r"\$(\d+)", lambda m: names[int(m.group(1))], op.ptxCode.data)
        for spelled in re.findall(r"((?:wgmma\.mma_async|mma\.sync|mma\.sp)[\w.:]*)", text):
            self._use_atom(op, _inline_atom(spelled, op))
        for statement in filter(None, (t.strip() for t in text.split(";"))):
            fn.emit(statement + ";")

    def _barrier(self, fn: PTXFunction, op: nvvm.BarrierOp) -> None:
        fn.emit("bar.sync 0;")

    def _return(self, fn: PTXFunction, op: llvm.ReturnOp) -> None:
        fn.emit("ret;")

    def _for(self, fn: PTXFunction, op: scf.ForOp) -> None:
        body = op.body.block
        iv = fn.define(body.args[0])
        fn.emit(f"mov.b{value_bits(op.lb.type)} {iv}, {self._r(fn, op.lb)};")
        carried = [fn.define(a) for a in body.args[1:]]
        for reg, init in zip(carried, op.iter_args):
            fn.emit(f"mov.b{reg_class(init.type).bits} {reg}, {self._r(fn, init)};".replace("mov.b1 ", "mov.pred "))
        head, end = fn.label("for"), fn.label("end")
        done = fn.new(PRED)
        bits = value_bits(op.lb.type)
        fn.lines.append(f"{head}:")
        fn.emit(f"setp.ge.s{bits} {done}, {iv}, {self._r(fn, op.ub)};")
        fn.emit(f"@{done} bra {end};")
        for inner in body.ops:
            if isinstance(inner, scf.YieldOp):
                self._parallel_copy(fn, carried, list(inner.arguments))
                continue
            self._op(fn, inner)
        fn.emit(f"add.s{bits} {iv}, {iv}, {self._r(fn, op.step)};")
        fn.emit(f"bra.uni {head};")
        fn.lines.append(f"{end}:")
        for res, reg in zip(op.results, carried):
            fn.names[res] = reg

    def _parallel_copy(self, fn: PTXFunction, targets: list[str], values: list[SSAValue]) -> None:
        """targets := values all at once: a yield may pass carried registers around (yield %b, %a)."""
        sources = [self._r(fn, v) for v in values]
        clobbered = {t for t, s in zip(targets, sources) if t != s}
        if any(s in clobbered for s in sources):
            staged = []
            for s, v in zip(sources, values):
                tmp = fn.new(reg_class(v.type))
                fn.emit(_mov(reg_class(v.type), tmp, s))
                staged.append(tmp)
            sources = staged
        for t, s, v in zip(targets, sources, values):
            if t != s:
                fn.emit(_mov(reg_class(v.type), t, s))

    def _if(self, fn: PTXFunction, op: scf.IfOp) -> None:
        outs = [fn.define(r) for r in op.results]
        other, end = fn.label("else"), fn.label("endif")
        fn.emit(f"@!{self._r(fn, op.cond)} bra {other};")
        for region, label in ((op.true_region, other), (op.false_region, end)):
            if region.blocks:
                for inner in region.block.ops:
                    if isinstance(inner, scf.YieldOp):
                        for reg, val in zip(outs, inner.arguments):
                            fn.emit(f"mov.b{reg_class(val.type).bits} {reg}, {self._r(fn, val)};")
                        continue
                    self._op(fn, inner)
            if label is other:
                fn.emit(f"bra.uni {end};")
            fn.lines.append(f"{label}:")

    def _use_atom(self, op: Operation, atom: Atom) -> Atom:
        """Check the atom against the module's chip and raise .version to what it needs."""
        try:
            resolved = resolve(atom, self.target)
        except Exception as err:
            raise PTXEmissionError(op, f"{op.name}: {err}") from None
        self.versions.append(resolved.min_version)
        self.atoms.append(atom)
        return atom

    def _mma(self, fn: PTXFunction, op: nvvm.MmaOp | nvvm.MmaSpOp) -> None:
        atom = self._use_atom(op, nvvm_atom(op))
        out = [fn.new(reg_class(t)) for t in op.res.type.types.data]
        fn.names[op.res] = out  # extractvalue picks registers from this list

        def group(values) -> str:
            return "{" + ", ".join(self._r(fn, v) for v in values) + "}"

        args = ["{" + ", ".join(out) + "}", group(op.operandA), group(op.operandB), group(op.operandC)]
        if isinstance(op, (nvvm.MmaSpOp, nvvm.MmaSpBlockScaleOp)):
            args += [self._r(fn, op.sparseMetadata), str(constant_int(op.sparsitySelector, op))]
        if isinstance(op, (nvvm.MmaBlockScaleOp, nvvm.MmaSpBlockScaleOp)):
            for data, byte_id, thread_id in ((op.scaleAData, op.byteIdA, op.threadIdA),
                                             (op.scaleBData, op.byteIdB, op.threadIdB)):
                args += [self._r(fn, data), f"{{{constant_int(byte_id, op)}, {constant_int(thread_id, op)}}}"]
        fn.emit(f"{family(atom.family).spell(atom)} {', '.join(args)};")


def wgmma_atom(op: nvvm.WgmmaMmaAsyncOp) -> Atom:
    """The catalogue atom an nvvm.wgmma.mma_async (SS) performs."""
    a, b = op.typeA.value.data, op.typeB.value.data
    transposable = a in ("f16", "bf16")
    integer = a in ("s8", "u8", "b1")
    scale = lambda attr: None if integer else (-1 if attr.value.data == "neg" else 1)  # noqa: E731
    _, n, k = op.shape.mnk
    values = dict(sparse=False, a=a, b=b, d=op.typeD.value.data, m=64, n=n, k=k,
                  satfinite=op.satfinite is not None, bitop="and" if a == "b1" else None, a_residency="smem_desc",
                  trans_a=(0 if op.layoutA.value.data == "row" else 1) if transposable else None,
                  trans_b=(0 if op.layoutB.value.data == "col" else 1) if transposable else None,
                  scale_a=scale(op.scaleA), scale_b=scale(op.scaleB), selector=None)
    fam = family("wgmma")
    return Atom(fam.name, tuple((d.key, values[d.key]) for d in fam.dims if d.key in values))


def _inline_atom(spelled: str, op: Operation) -> Atom:
    """A wgmma spelled in inline PTX (the RS form) as a catalogue atom; the dims the spelling leaves out
    take the values that do not change the row (and so the targets and .version)."""
    try:
        fam_name, values = spelling.parse(spelled)
    except Exception as err:
        raise PTXEmissionError(op, f"nvvm.inline_ptx: {err}") from None
    if fam_name != "wgmma":  # a warp-level mma spelling names every dimension
        fam = family(fam_name)
        return Atom(fam.name, tuple((d.key, values[d.key]) for d in fam.dims if d.key in values))
    transposable = values["a"] in ("f16", "bf16")
    floating = values["d"] != "s32"
    values.update(a_residency="register", trans_a=0 if transposable else None, trans_b=0 if transposable else None,
                  scale_a=1 if floating else None, scale_b=1 if floating else None,
                  selector=0 if values["sparse"] else None)
    fam = family(fam_name)
    return Atom(fam.name, tuple((d.key, values[d.key]) for d in fam.dims if d.key in values))


_ELEM_OF_REGISTER = {"f32": "f32", "f64": "f64", "i32": "s32", "vector<2xf16>": "f16"}


def nvvm_atom(op: nvvm.MmaOp | nvvm.MmaSpOp) -> Atom:
    """The catalogue atom an nvvm mma op performs."""
    c_acc = _ELEM_OF_REGISTER[str(op.operandC[0].type)]
    d_acc = _ELEM_OF_REGISTER[str(op.res.type.types.data[0])]
    acc = (d_acc, c_acc)
    a = op.multiplicandAPtxType.value.data if op.multiplicandAPtxType else _ELEM_OF_REGISTER[str(op.operandA[0].type)]
    b = op.multiplicandBPtxType.value.data if op.multiplicandBPtxType else a
    sat = op.intOverflowBehavior is not None and op.intOverflowBehavior.value.data == "satfinite"
    if isinstance(op, (nvvm.MmaBlockScaleOp, nvvm.MmaSpBlockScaleOp)):
        sparse = isinstance(op, nvvm.MmaSpBlockScaleOp)
        values = dict(sparse_mode="sp::ordered_metadata" if sparse else None, kind=op.kind.value.data,
                      scale_vec=op.scaleVecSize.value.data[1:] + "X", scale_type=op.blockScaleFormat.value.data,
                      shape=op.shape.mnk, a=a, b=b, acc=acc,
                      selector=constant_int(op.sparsitySelector, op) if sparse else 0,
                      byte_id=constant_int(op.byteIdA, op), thread_id_a=constant_int(op.threadIdA, op),
                      thread_id_b=constant_int(op.threadIdB, op))
        fam = family("mma.block_scale")
    elif isinstance(op, nvvm.MmaOp):
        b1 = op.b1Op.value.data if op.b1Op else None
        rounding = op.attributes.get("mma.rounding")
        values = dict(shape=op.shape.mnk, kind=None, a=a, b=b, acc=acc,
                      layout=(op.layoutA.value.data, op.layoutB.value.data), satfinite=sat,
                      bitop={"xor_popc": "xor", "and_popc": "and"}.get(b1), rounding=rounding.data if rounding else None)
        fam = family("mma")
    else:
        values = dict(sparse_mode="sp::ordered_metadata" if op.orderedMetadata else "sp", shape=op.shape.mnk,
                      kind=op.kind.value.data if op.kind else None, a=a, b=b, acc=acc, satfinite=sat,
                      selector=constant_int(op.sparsitySelector, op))
        fam = family("mma.sp")
    return Atom(fam.name, tuple((d.key, values[d.key]) for d in fam.dims if d.key in values))


def _mov(cls: RegClass, dst: str, src: str) -> str:
    return f"mov.pred {dst}, {src};" if cls is PRED else f"mov.b{cls.bits} {dst}, {src};"


def _float_name(t: Attribute) -> str:
    return "bf16" if isinstance(t, BFloat16Type) else f"f{value_bits(t)}"


def _is_chunk(t: Attribute) -> bool:
    return isinstance(t, VectorType) and isinstance(t.element_type, IntegerType) and \
        t.element_type.width.data == 32 and tuple(t.get_shape()) == (4,)


def _mem_type(t: Attribute) -> str:
    bits = value_bits(t)
    if isinstance(t, IntegerType) and bits == 8:
        return ".u8"
    if isinstance(t, AnyFloat) and not isinstance(t, (Float16Type, BFloat16Type)):
        return f".f{bits}"
    return f".b{bits}"


def module_target(module: ModuleOp) -> str:
    for op in module.walk():
        attr = op.attributes.get(TARGET_ATTR)
        if isinstance(attr, TargetAttr):
            return attr.chip_name.data
        if isinstance(attr, StringAttr):
            return attr.data
    raise PTXEmissionError(module, f"the module names no chip: add `{TARGET_ATTR} = #mma.target<sm_..>`")


_INT_BINARY = {
    "arith.addi": ("add", ".sN"), "arith.subi": ("sub", ".sN"), "arith.muli": ("mul.lo", ".sN"),
    "arith.divui": ("div", ".uN"), "arith.divsi": ("div", ".sN"), "arith.remui": ("rem", ".uN"),
    "arith.remsi": ("rem", ".sN"), "arith.andi": ("and", ".bN"), "arith.ori": ("or", ".bN"),
    "arith.xori": ("xor", ".bN"), "arith.shli": ("shl", ".bN"), "arith.shrui": ("shr", ".uN"),
    "arith.shrsi": ("shr", ".sN"), "arith.minsi": ("min", ".sN"), "arith.maxsi": ("max", ".sN"),
    "arith.minui": ("min", ".uN"), "arith.maxui": ("max", ".uN"),
}
_FLOAT_BINARY = {
    "arith.addf": ("add.rn", ".fN"), "arith.subf": ("sub.rn", ".fN"), "arith.mulf": ("mul.rn", ".fN"),
    "arith.divf": ("div.rn", ".fN"), "arith.maximumf": ("max", ".fN"), "arith.minimumf": ("min", ".fN"),
}
_CMPI = {0: ("eq", "s"), 1: ("ne", "s"), 2: ("lt", "s"), 3: ("le", "s"), 4: ("gt", "s"), 5: ("ge", "s"),
         6: ("lt", "u"), 7: ("le", "u"), 8: ("gt", "u"), 9: ("ge", "u")}

_HANDLERS = {
    arith.ConstantOp: PTXEmitter._constant,
    **{cls: PTXEmitter._binary for cls in (
        arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp,
        arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp, arith.MinSIOp,
        arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp, arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp,
        arith.MaximumfOp, arith.MinimumfOp)},
    arith.ExtUIOp: PTXEmitter._cast, arith.ExtSIOp: PTXEmitter._cast, arith.TruncIOp: PTXEmitter._cast,
    arith.TruncFOp: PTXEmitter._float_cast, arith.ExtFOp: PTXEmitter._float_cast,
    arith.SIToFPOp: PTXEmitter._float_cast, arith.FPToSIOp: PTXEmitter._float_cast,
    arith.BitcastOp: PTXEmitter._arith_bitcast,
    arith.CmpiOp: PTXEmitter._cmpi, arith.SelectOp: PTXEmitter._select,
    llvm.GEPOp: PTXEmitter._gep, llvm.LoadOp: PTXEmitter._load, llvm.StoreOp: PTXEmitter._store,
    llvm.ExtractValueOp: PTXEmitter._extract, llvm.BitcastOp: PTXEmitter._bitcast, llvm.ReturnOp: PTXEmitter._return,
    nvvm.BarrierOp: PTXEmitter._barrier, nvvm.MmaOp: PTXEmitter._mma, nvvm.MmaSpOp: PTXEmitter._mma,
    nvvm.MmaBlockScaleOp: PTXEmitter._mma, nvvm.MmaSpBlockScaleOp: PTXEmitter._mma,
    llvm.IntToPtrOp: PTXEmitter._inttoptr, llvm.InsertElementOp: PTXEmitter._insertelement,
    nvvm.ExtractElementOp: PTXEmitter._extractelement,
    nvvm.Tcgen05AllocOp: ptx_tcgen05.alloc, nvvm.Tcgen05DeallocOp: ptx_tcgen05.dealloc,
    nvvm.Tcgen05RelinquishOp: ptx_tcgen05.relinquish, nvvm.Tcgen05CommitOp: ptx_tcgen05.commit,
    nvvm.Tcgen05FenceOp: ptx_tcgen05.fence, nvvm.Tcgen05WaitOp: ptx_tcgen05.wait, nvvm.Tcgen05LdOp: ptx_tcgen05.load,
    nvvm.Tcgen05StOp: ptx_tcgen05.store, **{o: ptx_tcgen05.mma for o in nvvm.TCGEN05_MMA_OPS},
    nvvm.MBarrierInitOp: ptx_tcgen05.mbarrier_init, nvvm.MBarrierTryWaitParityOp: ptx_tcgen05.mbarrier_wait,
    scf.ForOp: PTXEmitter._for, scf.IfOp: PTXEmitter._if,
    llvm.AddressOfOp: PTXEmitter._addressof, llvm.PtrToIntOp: PTXEmitter._ptrtoint, llvm.UndefOp: PTXEmitter._undef,
    llvm.InsertValueOp: PTXEmitter._insertvalue, llvm.GlobalOp: lambda self, fn, op: None,
    nvvm.WgmmaMmaAsyncOp: PTXEmitter._wgmma,
    nvvm.WgmmaFenceAlignedOp: lambda self, fn, op: fn.emit("wgmma.fence.sync.aligned;"),
    nvvm.WgmmaGroupSyncAlignedOp: lambda self, fn, op: fn.emit("wgmma.commit_group.sync.aligned;"),
    nvvm.WgmmaWaitGroupSyncOp: lambda self, fn, op: fn.emit(f"wgmma.wait_group.sync.aligned {op.pending};"),
    nvvm.FenceProxyOp: PTXEmitter._fence_proxy, nvvm.InlinePtxOp: PTXEmitter._inline_ptx,
}


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
