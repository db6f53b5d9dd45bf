"""Register-tier atoms (SM70/75 mma.sync, SM80 dense and sparse, SM89 fp8, SM90 f64, SM120/121
kind::f8f6f4 and block-scaled) -> nvvm.

`mma.sync` becomes `nvvm.mma.sync`, `mma.sp` becomes `nvvm.mma.sp.sync` and `mma.block_scale` becomes
`nvvm.mma.block_scale` / `nvvm.mma.sp.block_scale`, with upstream's attribute names; the D registers
come back out of the result struct with llvm.extractvalue. Upstream has no attribute for the f64
rounding qualifier (.rn/.rz/.rm/.rp): we carry it as the discardable attribute `mma.rounding`, which
upstream MLIR parses and ignores. Upstream's nvvm.mma.sync has no `kind` (and rejects fp6/fp4 types),
so dense `kind::f8f6f4` is spelled as upstream's nvvm.inline_ptx.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, UnitAttr, i64
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.dialects import mma, nvvm
from mmatom.dialects.atom_rules import op_atom, sync_tile_plan
from mmatom.dialects.mma import fragment_type
from mmatom.atoms.catalogue import MmaSyncAtom, WarpMmaAtom
from mmatom.atoms.catalogue.operand_order import instruction

from .fragments import as_fragment, fragment_registers
from .ir_builder import OpList
from .registers import register_count, register_type

INTEGER_MULTIPLICANDS = ("s8", "u8", "s4", "u4")
B1_OPS = {"xor": "xor_popc", "and": "and_popc"}
ROUNDING_ATTR = "mma.rounding"


def _common_props(atom: WarpMmaAtom) -> dict:
    m, n, k = atom.shape
    props = {
        "shape": nvvm.MMAShapeAttr(m, n, k),
        "multiplicandAPtxType": nvvm.MMATypeAttr(atom.a),
        "multiplicandBPtxType": nvvm.MMATypeAttr(atom.b),
    }
    if atom.a in INTEGER_MULTIPLICANDS:  # upstream requires the attribute on every integer form
        props["intOverflowBehavior"] = nvvm.MMAIntOverflowAttr("satfinite" if atom.satfinite else "wrapped")
    return props


def _unpack_result(ops: OpList, struct) -> list:
    return [ops.add(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), struct, t))
            for i, t in enumerate(struct.type.types.data)]


def _inline_sync(ops: OpList, atom: MmaSyncAtom, a: list, b: list, c: list, d_type) -> list:
    """Dense kind::f8f6f4 as upstream's nvvm.inline_ptx, with the atom attached (`mma.atom`): $0.. D's
    registers, then A, B, C, in the family's PTX order (atoms/catalogue/operand_order.py)."""
    n_d = register_count(d_type)
    slots, at = [], n_d
    for group in (a, b, c):
        slots.append([f"${at + i}" for i in range(len(group))])
        at += len(group)
    asm = ops.add(nvvm.InlinePtxOp(instruction(atom, d=[f"${i}" for i in range(n_d)], a=slots[0], b=slots[1],
                                               c=slots[2]),
                                   [*a, *b, *c], [register_type(d_type.elem.data)] * n_d, atom=atom))
    return list(asm.owner.results)


def emit_sync(ops: OpList, atom: MmaSyncAtom, a: list, b: list, c: list, d_type) -> list:
    """One mma.sync atom on registers: nvvm.mma.sync (or inline PTX for kind::f8f6f4); D's registers."""
    if atom.kind:
        return _inline_sync(ops, atom, a, b, c, d_type)
    props = _common_props(atom)
    la, lb = atom.layout
    props["layoutA"], props["layoutB"] = nvvm.MMALayoutAttr(la), nvvm.MMALayoutAttr(lb)
    if atom.bitop:
        props["b1Op"] = nvvm.MMAB1OpAttr(B1_OPS[atom.bitop])
    attrs = {ROUNDING_ATTR: StringAttr(atom.rounding)} if atom.rounding else {}
    struct = ops.add_mma(nvvm.MmaOp.build(operands=[a, b, c], result_types=[_result_struct(d_type)], properties=props,
                                          attributes=attrs), atom)
    return _unpack_result(ops, struct)


class LowerSync(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.SyncOp, rewriter: PatternRewriter) -> None:
        a, b, c = (fragment_registers(v, op) for v in (op.a, op.b, op.c))
        ops = OpList()
        d = as_fragment(ops, emit_sync(ops, op_atom(op), a, b, c, op.d.type), op.d.type)
        rewriter.replace(op, ops.ops, [d])


class LowerSyncTile(RewritePattern):
    """A warp's tile: each operand's registers split into its atoms' (atom values first, then the repeats), one
    atom per (i, j, k step), the K steps chained through the accumulator registers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.SyncTileOp, rewriter: PatternRewriter) -> None:
        plan = sync_tile_plan(op)
        rm, rn, rk = plan.repeats
        atom_d = fragment_type(plan.atom, "D")
        per = {role: register_count(fragment_type(plan.atom, role)) for role in ("A", "B", "C")}
        regs = {role: fragment_registers(v, op) for role, v in (("A", op.a), ("B", op.b), ("C", op.c))}

        def atom_regs(role: str, i: int, j: int, rows: int) -> list:
            start = (i + rows * j) * per[role]
            return regs[role][start:start + per[role]]

        ops = OpList()
        d_regs = []
        for j in range(rn):
            for i in range(rm):
                acc = atom_regs("C", i, j, rm)
                for kk in range(rk):
                    acc = emit_sync(ops, plan.atom, atom_regs("A", i, kk, rm), atom_regs("B", j, kk, rn), acc, atom_d)
                d_regs += acc
        rewriter.replace(op, ops.ops, [as_fragment(ops, d_regs, op.d.type)])


class LowerSparse(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.SparseOp, rewriter: PatternRewriter) -> None:
        atom = op_atom(op)
        a, b, c, e = (fragment_registers(v, op) for v in (op.a, op.b, op.c, op.e))
        props = _common_props(atom)
        if atom.ordered_metadata:
            props["orderedMetadata"] = UnitAttr()
        if atom.kind:
            props["kind"] = nvvm.MMAKindAttr(atom.kind)
        ops = OpList()
        selector = ops.add(arith.ConstantOp.from_int_and_width(atom.selector or 0, 32))
        struct_t = _result_struct(op.d.type)
        struct = ops.add_mma(nvvm.MmaSpOp.build(operands=[a, b, c, e[0], selector], result_types=[struct_t],
                                                properties=props), atom)
        d = as_fragment(ops, _unpack_result(ops, struct), op.d.type)
        rewriter.replace(op, ops.ops, [d])


def _result_struct(d) -> llvm.LLVMStructType:
    """D's registers as upstream's result struct (D may differ from C: m8n8k4 f32.f16.f16.f16)."""
    return llvm.LLVMStructType.from_type_list([register_type(d.elem.data)] * register_count(d))


class LowerBlockScale(RewritePattern):
    """Scale data is one .b32 register per lane; byte-id and thread-id are i16 immediates (reference E2)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.BlockScaleOp, rewriter: PatternRewriter) -> None:
        atom = op_atom(op)
        a, b, c = (fragment_registers(v, op) for v in (op.a, op.b, op.c))
        props = _common_props(atom)
        props.update(kind=nvvm.BlockScaleKindAttr(atom.kind),
                     scaleVecSize=nvvm.ScaleVecSizeAttr("x" + atom.scale_vec[0]),
                     blockScaleFormat=nvvm.BlockScaleFormatAttr(atom.scale_type))
        ops = OpList()
        i16 = lambda x: ops.add(arith.ConstantOp.from_int_and_width(x, 16))  # noqa: E731
        byte_id = atom.byte_id
        scales = [fragment_registers(op.sfa, op)[0], i16(byte_id), i16(atom.thread_id_a),
                  fragment_registers(op.sfb, op)[0], i16(byte_id), i16(atom.thread_id_b)]
        operands: list = [a, b, c]
        if op.e is not None:
            operands += [fragment_registers(op.e, op)[0], ops.add(arith.ConstantOp.from_int_and_width(atom.selector, 32))]
            props["orderedMetadata"] = UnitAttr()
        nvvm_op = nvvm.MmaSpBlockScaleOp if op.e is not None else nvvm.MmaBlockScaleOp
        struct = ops.add_mma(nvvm_op.build(operands=operands + scales, result_types=[_result_struct(op.d.type)],
                                           properties=props), atom)
        d = as_fragment(ops, _unpack_result(ops, struct), op.d.type)
        rewriter.replace(op, ops.ops, [d])


MMA_SYNC_PATTERNS = (LowerSync(), LowerSyncTile(), LowerSparse(), LowerBlockScale())
