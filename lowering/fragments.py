"""Lower the kernel-level fragment ops (mma.load_fragment, mma.store_fragment, mma.fill) to registers.

A lowered fragment is a list of registers (see `registers.py`); until every user is lowered it stays
visible to them as `builtin.unrealized_conversion_cast(registers) -> !mma.frag<...>`, the MLIR way of
handing values across a partial conversion.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, UnrealizedConversionCastOp, i8, i16, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.dialects import mma
from mmatom.dialects.diagnostics import OpError
from mmatom.layout import parse_layout

from mmatom.atoms.fragment_access import AccessPlan, plan_access
from .ir_builder import OpList, address_width
from .registers import register_count, register_type


class LoweringError(OpError):
    """A lowering that cannot proceed; `op` locates the diagnostic."""


def fragment_registers(value: SSAValue, user: Operation) -> list[SSAValue]:
    """The registers of an already-lowered fragment value."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp):
        return list(owner.inputs)
    name = f"%{value.name_hint} " if value.name_hint else ""
    raise LoweringError(
        user, f"{user.name}: fragment operand {name}is not produced in this kernel (load it with mma.load_fragment "
        f"or create it with mma.fill), so it has no registers to lower to")


def as_fragment(ops: OpList, registers: list[SSAValue], frag_type) -> SSAValue:
    return ops.add(UnrealizedConversionCastOp.get(registers, [frag_type]))


def thread_index(ops: OpList, threads: int) -> SSAValue:
    """The thread's index in the TV layout's thread mode."""
    if threads == 32:
        return ops.sreg("laneid")
    if threads == 8:
        # SM70 quad pair: logical thread (lane % 4) + 4 * ((lane / 16) % 2) of lanes 4q..4q+3, 4q+16..4q+19
        lane = ops.sreg("laneid")
        low = ops.div_mod(lane, 1, 4)
        high = ops.muli(ops.div_mod(lane, 16, 2), 4)
        return ops.add(arith.OrIOp(low, high))
    if threads in (128, 256, 384):  # one to three warpgroups
        return ops.div_mod(ops.sreg("tid.x"), 1, threads)
    if threads == 1:
        return ops.const(0)
    raise ValueError(f"fragments over {threads} threads have no thread index")


def _element_base(ops: OpList, plan: AccessPlan, offset: SSAValue | None, width: int) -> SSAValue:
    """The thread's first element offset, in `width`-bit arithmetic (see ir_builder.address_width)."""
    t = ops.to_width(thread_index(ops, plan.threads), width)
    base = None
    for term in plan.thread_terms:
        part = ops.muli(ops.div_mod(t, term.divisor, term.extent), term.stride)
        base = part if base is None else ops.addi(base, part)
    if base is None:
        base = ops.const(0, width)
    if offset is not None:
        base = ops.addi(base, ops.to_width(offset, width))
    return base


def _bytes(ops: OpList, elements: SSAValue, bits: int) -> SSAValue:
    if bits >= 8:
        return ops.muli(elements, bits // 8)
    return ops.add(arith.ShRUIOp(ops.muli(elements, bits), ops.const(3, elements.type.width.data)))


def _narrow_type(bits: int) -> IntegerType:
    return {8: i8, 16: i16}[bits]


class LowerLoadFragment(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.LoadFragmentOp, rewriter: PatternRewriter) -> None:
        frag = op.res.type
        mem = parse_layout(op.layout.data)
        plan = plan_access(frag, mem)
        reg_t = register_type(frag.elem.data)
        ops = OpList()
        base = _element_base(ops, plan, op.offset, address_width(mem, plan.bits, op.offset))
        regs = []
        for reg in plan.registers:
            if reg.contiguous:
                ptr = ops.byte_pointer(op.ptr, _bytes(ops, ops.addi(base, reg.offsets[0]), plan.bits))
                regs.append(ops.load(ptr, reg_t))
                continue
            word = None  # 8- or 16-bit values gathered one by one into a 32-bit container
            for i, o in enumerate(reg.offsets):
                ptr = ops.byte_pointer(op.ptr, _bytes(ops, ops.addi(base, o), plan.bits))
                v = ops.add(arith.ExtUIOp(ops.load(ptr, _narrow_type(plan.bits)), i32))
                if i:
                    v = ops.add(arith.ShLIOp(v, ops.const(i * plan.bits)))
                word = v if word is None else ops.add(arith.OrIOp(word, v))
            regs.append(ops.bitcast(word, reg_t))
        assert len(regs) == register_count(frag)
        result = as_fragment(ops, regs, frag)
        rewriter.replace(op, ops.ops, [result])


class LowerStoreFragment(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.StoreFragmentOp, rewriter: PatternRewriter) -> None:
        frag = op.value.type
        regs = fragment_registers(op.value, op)
        mem = parse_layout(op.layout.data)
        plan = plan_access(frag, mem)
        ops = OpList()
        base = _element_base(ops, plan, op.offset, address_width(mem, plan.bits, op.offset))
        for reg in plan.registers:
            value = regs[reg.index]
            if reg.contiguous:
                ptr = ops.byte_pointer(op.ptr, _bytes(ops, ops.addi(base, reg.offsets[0]), plan.bits))
                ops.store(value, ptr)
                continue
            word = ops.bitcast(value, i32)
            for i, o in enumerate(reg.offsets):
                part = ops.add(arith.ShRUIOp(word, ops.const(i * plan.bits))) if i else word
                narrow = ops.add(arith.TruncIOp(part, _narrow_type(plan.bits)))
                ops.store(narrow, ops.byte_pointer(op.ptr, _bytes(ops, ops.addi(base, o), plan.bits)))
        rewriter.replace(op, ops.ops, [])


class LowerFill(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.FillOp, rewriter: PatternRewriter) -> None:
        frag = op.res.type
        regs = [op.value] * register_count(frag)
        rewriter.replace(op, [UnrealizedConversionCastOp.get(regs, [frag])])


FRAGMENT_PATTERNS = (LowerLoadFragment(), LowerStoreFragment(), LowerFill())
