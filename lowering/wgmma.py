"""SM90a wgmma -> nvvm: descriptors packed at run time, the SS form as upstream's nvvm.wgmma.mma_async.

`mma.make_desc` becomes integer ops on the tile's shared address: the start-address field
((addr & 0x3FFFF) >> 4) OR-ed with the constant fields (LBO, SBO, swizzle) that the layout algebra
derived at compile time (targets/descriptors.py, reference C6). The base offset is 0 because a swizzled
tile starts on its pattern's repeat boundary (see dialects/mma.py).

`mma.wgmma` with A and B in SMEM becomes one `nvvm.wgmma.mma_async`; the accumulator travels as a struct
of C's registers and D's registers come back out of the result. The async protocol (wgmma.fence before,
commit_group and wait_group after, fence.proxy.async after generic SMEM writes) is spelled in the kernel
with the nvvm ops themselves.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, UnrealizedConversionCastOp, i64
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.dialects import mma, nvvm
from mmatom.dialects.atom_rules import op_atom, wgmma_tile_plan
from mmatom.dialects.mma_types import module_target
from mmatom.atoms.catalogue import WgmmaAtom
from mmatom.atoms.catalogue.operand_order import instruction
from mmatom.atoms.catalogue.tmem import TMEM_TARGETS
from mmatom.atoms.descriptors import DescriptorFields, check_layout, encode_sm90, encode_sm100

from .fragments import LoweringError, as_fragment, fragment_registers
from .ir_builder import OpList
from .mma_sync import _result_struct, _unpack_result


def descriptor_constant(t: mma.SmemDescType, arch: str = "sm90") -> int:
    """Every descriptor field but the start address, from the type's layout; SM100 descriptors (for
    tcgen05, on the targets with tensor memory) add bits 46-48 = 0b001 and the 3-bit swizzle code."""
    op, layout = mma.descriptor_view(t)
    lbo, sbo = check_layout(layout, op)
    fields = DescriptorFields(0, lbo, sbo, 0, op.swizzle)
    return encode_sm100(fields) if arch == "sm100" else encode_sm90(fields)


def descriptor_arch(op) -> str:
    return "sm100" if module_target(op) in TMEM_TARGETS else "sm90"


class LowerMakeDesc(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.MakeDescOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        addr = ops.add(llvm.PtrToIntOp(op.ptr, i64))
        start = ops.add(arith.ShRUIOp(ops.add(arith.AndIOp(addr, ops.const(0x3FFFF, 64))), ops.const(4, 64)))
        desc = ops.add(arith.OrIOp(start, ops.const(descriptor_constant(op.res.type, descriptor_arch(op)), 64)))
        rewriter.replace(op, [*ops.ops, cast := UnrealizedConversionCastOp.get([desc], [op.res.type])],
                         [cast.results[0]])


def _accumulator(ops: OpList, registers: list[SSAValue], struct_t) -> SSAValue:
    """C's registers as the accumulator struct upstream's wgmma takes (undef + insertvalue)."""
    acc = ops.add(llvm.UndefOp(struct_t))
    for i, reg in enumerate(registers):
        acc = ops.add(llvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, reg))
    return acc


def descriptor_value(value: SSAValue, user) -> SSAValue:
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
        return owner.inputs[0]
    raise LoweringError(user, f"{user.name}: descriptor operand is not built in this kernel (use mma.make_desc)")


class LowerWgmma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.WgmmaOp, rewriter: PatternRewriter) -> None:
        atom = op_atom(op)
        if atom.sparse or atom.a_residency == "register":
            rewriter.replace(op, *_inline_wgmma(op, atom))
            return
        desc_a, desc_b = descriptor_value(op.a, op), descriptor_value(op.b, op)
        ops = OpList()
        struct_t = _result_struct(op.d.type)
        acc = _accumulator(ops, fragment_registers(op.c, op), struct_t)
        k_major = lambda t: isinstance(t, mma.SmemDescType) and t.major.data == "k"  # noqa: E731
        props = _wgmma_props(atom, op.scale_d is not None and not op.scale_d.value.data, k_major(op.a.type),
                             k_major(op.b.type))
        struct = ops.add_mma(nvvm.WgmmaMmaAsyncOp.build(operands=[desc_a, desc_b, acc], result_types=[struct_t],
                                                        properties=props), atom)
        d = as_fragment(ops, _unpack_result(ops, struct), op.d.type)
        rewriter.replace(op, ops.ops, [d])


def _wgmma_props(atom: WgmmaAtom, scale_d_zero: bool, a_k_major: bool, b_k_major: bool) -> dict:
    props = {
        "shape": nvvm.MMAShapeAttr(64, atom.n, atom.k),
        "typeD": nvvm.WgmmaTypeAttr(atom.d),
        "scaleD": nvvm.WgmmaScaleOutAttr("zero" if scale_d_zero else "one"),
        "typeA": nvvm.WgmmaTypeAttr(atom.a),
        "scaleA": nvvm.WgmmaScaleInAttr("neg" if atom.scale_a == -1 else "one"),
        "layoutA": nvvm.MMALayoutAttr("row" if a_k_major else "col"),
        "typeB": nvvm.WgmmaTypeAttr(atom.b),
        "scaleB": nvvm.WgmmaScaleInAttr("neg" if atom.scale_b == -1 else "one"),
        "layoutB": nvvm.MMALayoutAttr("col" if b_k_major else "row"),
    }
    if atom.satfinite:
        props["satfinite"] = nvvm.MMAIntOverflowAttr("satfinite")
    return props


def _inline_wgmma(op: mma.WgmmaOp, atom: WgmmaAtom):
    """The forms upstream's nvvm.wgmma.mma_async lacks (RS: A in registers; sparse) as upstream's
    nvvm.inline_ptx, with the atom attached (`mma.atom`). Its results are write-only (it returns no
    read-write values), so the PTX text first copies C into D's registers, fences them (the copies touched
    the accumulator), then issues the wgmma on D in place. With scale_d = 0, C is not read and nothing is
    copied. The operands follow the family's PTX order (atoms/catalogue/operand_order.py)."""
    c_regs = fragment_registers(op.c, op)
    n_d = len(c_regs)
    accumulate = op.scale_d is None or bool(op.scale_d.value.data)
    inputs: list[SSAValue] = list(c_regs) if accumulate else []

    def slot(value: SSAValue) -> str:
        """Pass `value` as the next read-only operand; its $N in the PTX text."""
        inputs.append(value)
        return f"${n_d + len(inputs) - 1}"

    if atom.a_residency == "register":
        a_text: str | list[str] = [slot(r) for r in fragment_registers(op.a, op)]
    else:
        a_text = slot(descriptor_value(op.a, op))
    b_text = slot(descriptor_value(op.b, op))
    e_text = slot(fragment_registers(op.e, op)[0]) if atom.sparse else None
    lines = [f"mov.b32 ${i}, ${n_d + i};" for i in range(n_d)] if accumulate else []
    lines.append("wgmma.fence.sync.aligned;")
    lines.append(instruction(atom, d=[f"${i}" for i in range(n_d)], a=a_text, b=b_text, e=e_text,
                             scale_d="1" if accumulate else "0"))
    ops = OpList()
    asm = ops.add(nvvm.InlinePtxOp(" ".join(lines), inputs, [r.type for r in c_regs], atom=atom))
    d = as_fragment(ops, list(asm.owner.results), op.d.type)
    return ops.ops, [d]


class LowerWgmmaTile(RewritePattern):
    """K/k steps per warpgroup, each issuing its M repeats (one atom each, CuTe's K-outer order), every repeat's
    accumulator chained through its own struct; descriptors advance per step and per repeat."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.WgmmaTileOp, rewriter: PatternRewriter) -> None:
        plan = wgmma_tile_plan(op)
        if plan.a_in_registers:
            rewriter.replace(op, *_lower_rs_tile(op, plan))
            return
        atom = plan.atom
        ops = OpList()
        const_a, const_b = descriptor_constant(plan.a_desc), descriptor_constant(plan.b_desc)
        # each atom's descriptor is the tile's with the start address advanced: when the atom's constant fields
        # (LBO, SBO, swizzle) are the tile's, that is one add to the tile's descriptor (the 14-bit start field
        # of a shared address cannot carry out); else the start field is cut out and the atom's fields OR-ed in
        start_a, or_a = self._start(ops, op.a, op, const_a)
        start_b, or_b = self._start(ops, op.b, op, const_b)
        if plan.warpgroups > 1:  # warpgroup w's rows of A start w * a_warpgroup_bytes further
            wg = ops.add(arith.ExtUIOp(ops.div_mod(ops.sreg("tid.x"), 128, plan.warpgroups), i64))
            start_a = ops.add(arith.AddiOp(start_a, ops.add(arith.MuliOp(wg, ops.const(plan.a_warpgroup_bytes >> 4, 64)))))
        registers = fragment_registers(op.c, op)
        per_atom = len(registers) // plan.repeats  # the fragment holds repeat 0's values, then repeat 1's, ...
        struct_t = llvm.LLVMStructType.from_type_list([registers[0].type] * per_atom)
        accs = [_accumulator(ops, registers[i * per_atom:(i + 1) * per_atom], struct_t) for i in range(plan.repeats)]
        scale_d_zero = op.scale_d is not None and not op.scale_d.value.data
        for j, (off_a, off_b) in enumerate(plan.steps):
            desc_b = self._advance(ops, start_b, off_b, or_b)
            props = _wgmma_props(atom, scale_d_zero and j == 0, plan.a_desc.major.data == "k", plan.b_desc.major.data == "k")
            for i in range(plan.repeats):
                desc_a = self._advance(ops, start_a, off_a + i * plan.a_repeat_bytes, or_a)
                accs[i] = ops.add_mma(nvvm.WgmmaMmaAsyncOp.build(operands=[desc_a, desc_b, accs[i]],
                                                                 result_types=[struct_t], properties=props), atom)
        d = as_fragment(ops, [r for acc in accs for r in _unpack_result(ops, acc)], op.d.type)
        rewriter.replace(op, ops.ops, [d])

    @staticmethod
    def _start(ops: OpList, desc: SSAValue, op, atom_constant: int) -> tuple[SSAValue, int | None]:
        """(the value each atom's descriptor advances from, the constant fields to OR in after, or None)."""
        base = descriptor_value(desc, op)
        if descriptor_constant(desc.type) == atom_constant:
            return base, None
        return ops.add(arith.AndIOp(base, ops.const(0x3FFF, 64))), atom_constant

    @staticmethod
    def _advance(ops: OpList, start: SSAValue, offset_bytes: int, fields: int | None) -> SSAValue:
        desc = ops.addi(start, offset_bytes >> 4)
        return desc if fields is None else ops.add(arith.OrIOp(desc, ops.const(fields, 64)))


def _lower_rs_tile(op: mma.WgmmaTileOp, plan) -> tuple[list, list[SSAValue]]:
    """An RS tile: per M repeat of each warpgroup, ONE nvvm.inline_ptx holding its whole K chain -- C copied into
    D's registers, one wgmma.fence (the copies touched the accumulator), then K/k wgmma.mma_async on D in place,
    step j with its A registers and the B descriptor advanced to its window (a fence per atom would serialize
    them). scale_d = 0: nothing copied, the first step's scale-d is 0."""
    ops = OpList()
    start_b, or_b = LowerWgmmaTile._start(ops, op.b, op, descriptor_constant(plan.b_desc))
    descs_b = [LowerWgmmaTile._advance(ops, start_b, off_b, or_b) for _, off_b in plan.steps]
    c_regs, a_regs = fragment_registers(op.c, op), fragment_registers(op.a, op)
    per_c, per_a = len(c_regs) // plan.repeats, len(a_regs) // (plan.repeats * len(plan.steps))
    accumulate = op.scale_d is None or bool(op.scale_d.value.data)
    d_regs: list[SSAValue] = []
    for i in range(plan.repeats):  # A's registers: the atom's, then the K step, then the M repeat
        a_steps = [a_regs[(i * len(plan.steps) + j) * per_a:][:per_a] for j in range(len(plan.steps))]
        d_regs += _rs_chain(ops, plan.atom, c_regs[i * per_c:(i + 1) * per_c], a_steps, descs_b, accumulate)
    return ops.ops, [as_fragment(ops, d_regs, op.d.type)]


def _rs_chain(ops: OpList, atom: WgmmaAtom, c_regs: list[SSAValue], a_steps: list[list[SSAValue]],
              descs_b: list[SSAValue], accumulate: bool) -> list[SSAValue]:
    """One nvvm.inline_ptx: D = C (unless not accumulating), wgmma.fence, then one wgmma per K step on D."""
    n_d = len(c_regs)
    inputs: list[SSAValue] = list(c_regs) if accumulate else []

    def slot(value: SSAValue) -> str:
        inputs.append(value)
        return f"${n_d + len(inputs) - 1}"

    d_text = [f"${i}" for i in range(n_d)]
    lines = [f"mov.b32 ${i}, ${n_d + i};" for i in range(n_d)] if accumulate else []
    lines.append("wgmma.fence.sync.aligned;")
    for j, (a_regs, desc_b) in enumerate(zip(a_steps, descs_b)):
        lines.append(instruction(atom, d=d_text, a=[slot(r) for r in a_regs], b=slot(desc_b), e=None,
                                 scale_d="1" if accumulate or j else "0"))
    asm = ops.add(nvvm.InlinePtxOp(" ".join(lines), inputs, [r.type for r in c_regs], atom=atom))
    return list(asm.owner.results)


WGMMA_PATTERNS = (LowerMakeDesc(), LowerWgmma(), LowerWgmmaTile())
