"""PTX for the llvm ops: address arithmetic, loads and stores, pointer casts, and the aggregates (structs
of MMA registers, vectors of tcgen05 registers), which live in one register per member."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, Float32Type, IntegerType, VectorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from mmatom.dialects import nvvm
from mmatom.dialects.llvm_atomic import FENCE_ORDERINGS, RMW_OPS, RMW_ORDERINGS, SCOPES, AtomicRMWOp, FenceOp

from .ptx_function import B32, B64, SPACES, PTXEmissionError, PTXFunction, addr_space, emits, reg_class, value_bits


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


@emits(llvm.GEPOp)
def gep(fn: PTXFunction, op: llvm.GEPOp) -> None:
    indices = list(op.rawConstantIndices.iter_values())
    if len(indices) != 1:
        raise PTXEmissionError(op, "the PTX target emits single-index llvm.getelementptr only")
    size = value_bits(op.elem_type) // 8
    base = fn.reg(op.ptr)
    dst = fn.define(op.result)
    if indices[0] != llvm.GEP_USE_SSA_VAL:
        fn.emit(f"add.s64 {dst}, {base}, {indices[0] * size};")
        return
    idx = op.ssa_indices[0]
    wide = fn.reg(idx)
    if value_bits(idx.type) != 64:
        tmp = fn.new(B64)
        fn.emit(f"cvt.s64.s{value_bits(idx.type)} {tmp}, {wide};")
        wide = tmp
    if size != 1:
        tmp = fn.new(B64)
        fn.emit(f"mul.lo.s64 {tmp}, {wide}, {size};")
        wide = tmp
    fn.emit(f"add.s64 {dst}, {base}, {wide};")


@emits(llvm.LoadOp)
def load(fn: PTXFunction, op: llvm.LoadOp) -> None:
    space = SPACES[addr_space(op.ptr.type)]
    t = op.dereferenced_value.type
    if _is_chunk(t):  # a 16-byte chunk: four .b32 registers
        regs = [fn.new(B32) for _ in range(4)]
        fn.bind(op.dereferenced_value, regs)
        fn.emit(f"ld{space}.v4.b32 {{{', '.join(regs)}}}, [{fn.reg(op.ptr)}];")
        return
    width = _mem_type(t)
    fn.emit(f"ld{space}{width} {fn.define(op.dereferenced_value)}, [{fn.reg(op.ptr)}];")


@emits(llvm.StoreOp)
def store(fn: PTXFunction, op: llvm.StoreOp) -> None:
    space = SPACES[addr_space(op.ptr.type)]
    if _is_chunk(op.value.type):
        fn.emit(f"st{space}.v4.b32 [{fn.reg(op.ptr)}], {{{', '.join(fn.reg(op.value))}}};")
        return
    t = op.value.type
    if isinstance(t, VectorType) and tuple(t.get_shape()) == (2,) and isinstance(t.element_type, Float32Type):
        regs = fn.reg(op.value)  # a pair of 32-bit floats (e.g. an f32 accumulator's two columns)
        fn.emit(f"st{space}.v2{_mem_type(t.element_type)} [{fn.reg(op.ptr)}], {{{regs[0]}, {regs[1]}}};")
        return
    fn.emit(f"st{space}{_mem_type(op.value.type)} [{fn.reg(op.ptr)}], {fn.reg(op.value)};")


@emits(llvm.ExtractValueOp)
def extractvalue(fn: PTXFunction, op: llvm.ExtractValueOp) -> None:
    regs = fn.bound(op.container)
    if not isinstance(regs, list):
        raise PTXEmissionError(op, "llvm.extractvalue reads only MMA result structs in the PTX target")
    fn.bind(op.res, regs[list(op.position.iter_values())[0]])


@emits(llvm.InsertValueOp)
def insertvalue(fn: PTXFunction, op: llvm.InsertValueOp) -> None:
    regs = list(fn.reg(op.container))
    i = list(op.position.iter_values())[0]
    if isinstance(op.value, BlockArgument) or isinstance(op.value.owner, llvm.ExtractValueOp):
        taken_over = _dead_after(op.value, op)
    else:
        taken_over = False
    if taken_over:
        # a carried accumulator register (or one of an earlier wgmma's results) no one reads again: the slot
        # takes it over (no copy), so an in-place wgmma on the struct writes those registers and a loop's back
        # edge copies nothing -- a copy would read the registers of a wgmma still in flight (ptxas C7514
        # serializes the wgmma then); e.g. two wgmma tiles chained on one accumulator
        regs[i] = fn.reg(op.value)
    else:
        fn.move(reg_class(op.value.type), regs[i], fn.reg(op.value))  # each slot owns its register
    fn.bind(op.res, regs)


def _dead_after(arg: SSAValue, user: Operation) -> bool:
    """Whether no use of `arg` other than `user` can run after `user` before control re-enters the block that
    defines `arg` (which redefines it): then `user` may take over its register."""
    home = arg.block if isinstance(arg, BlockArgument) else arg.owner.parent_block()
    block = user.parent_block()
    others = [use.operation for use in arg.uses if use.operation is not user]
    mine = {id(o) for o in others if o.parent_block() is block}
    op = user.next_op
    while op is not None and mine:  # uses after `user` in its own block
        if id(op) in mine:
            return False
        op = op.next_op
    reached: set = set()
    stack = list(block.last_op.successors) if block.last_op is not None else []
    while stack:
        b = stack.pop()
        if b is home or b in reached:
            continue
        reached.add(b)
        stack.extend(b.last_op.successors if b.last_op is not None else ())
    return not any(o.parent_block() in reached for o in others)


@emits(llvm.UndefOp)
def undef(fn: PTXFunction, op: llvm.UndefOp) -> None:
    t = op.res.type
    if isinstance(t, VectorType) and len(t.get_shape()) == 1:  # a register per element, filled by insertelement
        fn.bind(op.res, [fn.new(reg_class(t.element_type)) for _ in range(t.get_shape()[0])])
        return
    if not isinstance(t, llvm.LLVMStructType):
        raise PTXEmissionError(op, "llvm.mlir.undef is emitted only for accumulator structs and vectors")
    fn.bind(op.res, [fn.new(reg_class(e)) for e in t.types.data])


@emits(llvm.InsertElementOp)
def insertelement(fn: PTXFunction, op: llvm.InsertElementOp) -> None:
    regs = list(fn.reg(op.vector))
    regs[fn.immediate(op.index, op, "the element index")] = fn.reg(op.value)
    fn.bind(op.res, regs)


@emits(nvvm.ExtractElementOp)
def extractelement(fn: PTXFunction, op: nvvm.ExtractElementOp) -> None:
    fn.bind(op.res, fn.reg(op.vector)[fn.immediate(op.position, op, "the element index")])


@emits(nvvm.FshrOp)
def fshr(fn: PTXFunction, op: nvvm.FshrOp) -> None:
    """LLVM's funnel shift right (the amount mod 32) is PTX's shf.r.wrap, its low word first."""
    fn.emit(f"shf.r.wrap.b32 {fn.define(op.res)}, {fn.reg(op.lo)}, {fn.reg(op.hi)}, {fn.reg(op.amount)};")


@emits(AtomicRMWOp)
def atomicrmw(fn: PTXFunction, op: AtomicRMWOp) -> None:
    kind = RMW_OPS[op.bin_op.data]
    width = value_bits(op.val.type)
    suffix = f".u{width}" if kind == "add" else f".b{width}"
    fn.emit(f"atom.{RMW_ORDERINGS[op.ordering.data]}.{SCOPES[op.scope]}.global.{kind}{suffix} {fn.define(op.res)}, "
            f"[{fn.reg(op.ptr)}], {fn.reg(op.val)};")


@emits(FenceOp)
def fence(fn: PTXFunction, op: FenceOp) -> None:
    fn.emit(f"fence.{FENCE_ORDERINGS[op.ordering.data]}.{SCOPES[op.scope]};")


@emits(llvm.BitcastOp)
def bitcast(fn: PTXFunction, op: llvm.BitcastOp) -> None:
    src = fn.reg(op.arg)
    if reg_class(op.arg.type) == reg_class(op.result.type):
        fn.bind(op.result, src)
    else:
        fn.emit(f"mov.b{value_bits(op.result.type)} {fn.define(op.result)}, {src};")


@emits(llvm.AddressOfOp)
def addressof(fn: PTXFunction, op: llvm.AddressOfOp) -> None:
    fn.emit(f"mov.u64 {fn.define(op.result)}, {op.global_name.root_reference.data};")


@emits(llvm.PtrToIntOp)
def ptrtoint(fn: PTXFunction, op: llvm.PtrToIntOp) -> None:
    src = fn.reg(op.input)
    if reg_class(op.input.type).bits == value_bits(op.output.type):
        fn.bind(op.output, src)
    else:
        fn.emit(f"cvt.u32.u64 {fn.define(op.output)}, {src};")


@emits(llvm.IntToPtrOp)
def inttoptr(fn: PTXFunction, op: llvm.IntToPtrOp) -> None:
    src = fn.reg(op.input)
    if reg_class(op.output.type).bits == value_bits(op.input.type):
        fn.bind(op.output, src)
    else:
        fn.emit(f"cvt.u64.u32 {fn.define(op.output)}, {src};")


@emits(llvm.GlobalOp)
def global_(fn: PTXFunction, op: llvm.GlobalOp) -> None:
    """Shared globals are declared at module level (ptx_emitter.shared_globals), not in a function."""
