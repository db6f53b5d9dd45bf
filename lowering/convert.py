"""Lower mma.convert: unpack the source registers into scalars, convert each, pack the result registers; and
mma.extract / mma.insert (one element of the thread's fragment) with the same unpacking.

Registers follow `registers.py`: f16 pairs travel as vector<2xf16>, bf16 pairs in an i32, f32/f64/s32 one
per register. Packing goes through i32 words and 16-bit bitcasts, so the IR stays in arith/llvm ops
that upstream MLIR and the PTX target both take. bf16 -> f32 is exact as a 16-bit shift of the bits; f32 (or a
16-bit float, through f32 exactly) -> f16/bf16 rounds a pair at a time on sm_80+
(nvvm.convert.f32x2.to.<f16x2|bf16x2>), one value at a time before.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import bf16, f16, f32, f64, i16, i32
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.atoms.chips import chip
from mmatom.dialects import mma, nvvm
from mmatom.dialects.mma_types import module_target

from .fragments import as_fragment, fragment_registers
from .ir_builder import OpList
from .registers import register_type

SCALAR = {"f16": f16, "bf16": bf16, "f32": f32, "f64": f64, "s32": i32}
PAIRED = ("f16", "bf16")  # two values per 32-bit register


def _unpack(ops: OpList, regs: list[SSAValue], elem: str) -> list[SSAValue]:
    """Scalars of a fragment, in value order (low half of a register first)."""
    if elem not in PAIRED:
        return regs
    out = []
    for reg in regs:
        word = ops.bitcast(reg, i32)
        for half in range(2):
            bits = ops.add(arith.ShRUIOp(word, ops.const(16))) if half else word
            out.append(ops.add(arith.BitcastOp(ops.add(arith.TruncIOp(bits, i16)), SCALAR[elem])))
    return out


def _pack(ops: OpList, values: list[SSAValue], elem: str) -> list[SSAValue]:
    if elem not in PAIRED:
        return values
    regs = []
    for lo, hi in zip(values[::2], values[1::2]):
        words = [ops.add(arith.ExtUIOp(ops.add(arith.BitcastOp(v, i16)), i32)) for v in (lo, hi)]
        word = ops.add(arith.OrIOp(words[0], ops.add(arith.ShLIOp(words[1], ops.const(16)))))
        regs.append(ops.bitcast(word, register_type(elem)))
    return regs


def _convert(ops: OpList, v: SSAValue, src: str, dst: str) -> SSAValue:
    if src == dst:
        return v
    if src == "bf16" and dst == "f32":
        # the bf16 bits are the high half of the f32 bits
        word = ops.add(arith.ExtUIOp(ops.add(arith.BitcastOp(v, i16)), i32))
        return ops.add(arith.BitcastOp(ops.add(arith.ShLIOp(word, ops.const(16))), f32))
    if src in PAIRED and dst in PAIRED:
        return _convert(ops, _convert(ops, v, src, "f32"), "f32", dst)
    if src == "s32":
        return ops.add(arith.SIToFPOp(v, f32))
    if dst == "s32":
        return ops.add(arith.FPToSIOp(v, i32))
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
    if width[dst] > width[src]:
        return ops.add(arith.ExtFOp(v, SCALAR[dst]))
    return ops.add(arith.TruncFOp(v, SCALAR[dst]))


def _convert_pairs(ops: OpList, values: list[SSAValue], dst: str) -> list[SSAValue]:
    """f32 values rounded to f16/bf16 pairs, one `cvt.rn.<f16x2|bf16x2>.f32` per register (the value of the
    upper half first) -- half the conversions of one cvt each, and no repacking."""
    pair = nvvm.ConvertF32x2ToBF16x2Op if dst == "bf16" else nvvm.ConvertF32x2ToF16x2Op
    return [ops.bitcast(ops.add(pair(hi, lo)), register_type(dst)) for lo, hi in zip(values[::2], values[1::2])]


class LowerConvert(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.ConvertOp, rewriter: PatternRewriter) -> None:
        src, dst = op.source.type.elem.data, op.res.type.elem.data
        ops = OpList()
        scalars = _unpack(ops, fragment_registers(op.source, op), src)
        target = module_target(op)
        packed = target is not None and chip(target).arch >= nvvm.PACKED_CVT_ARCH
        if packed and dst in PAIRED and src != dst and src in ("f32", *PAIRED):  # to f32 exactly, one rounding per pair
            regs = _convert_pairs(ops, [_convert(ops, v, src, "f32") for v in scalars], dst)
        else:
            regs = _pack(ops, [_convert(ops, v, src, dst) for v in scalars], dst)
        rewriter.replace(op, ops.ops, [as_fragment(ops, regs, op.res.type)])


class LowerExtract(RewritePattern):
    """Value v of the thread's fragment: its register, or its half of a packed f16/bf16 register."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.ExtractOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        scalars = _unpack(ops, fragment_registers(op.source, op), op.source.type.elem.data)
        rewriter.replace(op, ops.ops, [scalars[op.index.value.data]])


class LowerInsert(RewritePattern):
    """The fragment's registers with value v's replaced (a packed register rebuilt from its two halves). A fragment
    this insert alone uses -- a chain of inserts, as kb.map builds -- is updated in place: its cast moved here with
    one operand changed, not a new cast of every register (inserts into a 64-register fragment were quadratic)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.InsertOp, rewriter: PatternRewriter) -> None:
        elem = op.dest.type.elem.data
        registers = fragment_registers(op.dest, op)
        per_register = 2 if elem in PAIRED else 1
        r, half = divmod(op.index.value.data, per_register)
        ops = OpList()
        scalars = list(_unpack(ops, [registers[r]], elem))
        scalars[half] = op.value
        register = _pack(ops, scalars, elem)[0]
        cast = op.dest.owner
        if op.dest.has_one_use() and op.res.type == op.dest.type:
            cast.detach()
            cast.operands[r] = register
            rewriter.replace(op, [*ops.ops, cast], [cast.results[0]])
            return
        registers[r] = register
        rewriter.replace(op, ops.ops, [as_fragment(ops, registers, op.res.type)])


CONVERT_PATTERNS = (LowerConvert(), LowerExtract(), LowerInsert())
