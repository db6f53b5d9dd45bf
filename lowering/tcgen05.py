"""SM100-family tensor memory and tcgen05.mma -> nvvm (upstream spelling).

  mma.tmem_alloc     warp 0: nvvm.tcgen05.alloc into the SMEM slot; CTA barrier; every thread loads the
                     address (an !llvm.ptr<6>, lane << 16 | column)
  mma.tmem_dealloc   tcgen05.fence <before>; CTA barrier; warp 0: fence <after>, nvvm.tcgen05.dealloc
  mma.tmem_relinquish  warp 0: nvvm.tcgen05.relinquish_alloc_permit
  mma.tmem_view      the address plus the column offset
  mma.tmem_load/store  warp w adds lane offset 32(w % 4) << 16; .32x32b in chunks of at most 128 columns
  mma.tcgen05        thread 0: nvvm.tcgen05.mma[.sp][.block_scale] with the SM100 SMEM descriptors and the
                     32-bit instruction descriptor packed from the atom (targets/instr_desc.py)
  mma.tcgen05_commit thread 0: nvvm.tcgen05.commit to the mbarrier
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IntegerType, StringAttr, UnrealizedConversionCastOp, VectorType, f32, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.dialects import mma, nvvm
from mmatom.dialects.atom_rules import op_atom
from mmatom.atoms import instr_desc
from mmatom.atoms.catalogue import Atom

from .fragments import LoweringError, as_fragment, fragment_registers
from .ir_builder import OpList
from .wgmma import descriptor_value

TMEM_PTR = nvvm.TMEM_PTR
LDST_MAX_COLUMNS = 128  # .32x32b.x128


def tmem_address(value: SSAValue, user) -> SSAValue:
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
        return owner.inputs[0]
    raise LoweringError(user, f"{user.name}: TMEM operand is not allocated in this kernel (use mma.tmem_alloc)")


def _group(ctas: int) -> dict:
    return {"group": nvvm.CTAGroupAttr(f"cta_{ctas}")}


def _guarded(ops: OpList, threads: int, body: list) -> None:
    """`if (tid.x < threads) { body }`: warp 0 (threads = 32) or thread 0 (threads = 1)."""
    tid = ops.sreg("tid.x")
    cond = ops.add(arith.CmpiOp(tid, ops.const(threads), "ult"))
    ops.add(scf.IfOp(cond, [], Region(Block([*body, scf.YieldOp()])), Region(Block([scf.YieldOp()]))))


def _as_tmem(ops: OpList, addr: SSAValue, t) -> SSAValue:
    return ops.add(UnrealizedConversionCastOp.get([addr], [t]))


def _inttoptr(v: SSAValue) -> llvm.IntToPtrOp:
    return llvm.IntToPtrOp.build(operands=[v], result_types=[TMEM_PTR])


def _offset(ops: OpList, addr: SSAValue, delta: SSAValue | int) -> SSAValue:
    raw = ops.add(llvm.PtrToIntOp(addr, i32))
    return ops.add(_inttoptr(ops.addi(raw, delta)))


class LowerTmemAlloc(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemAllocOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        cols = arith.ConstantOp.from_int_and_width(op.cols.value.data, 32)
        _guarded(ops, 32, [cols, nvvm.Tcgen05AllocOp.build(operands=[op.slot, cols.result],
                                                            properties=_group(op.cta_group.value.data))])
        ops.add(nvvm.BarrierOp())
        raw = ops.load(op.slot, i32)
        addr = ops.add(_inttoptr(raw))
        rewriter.replace(op, ops.ops, [_as_tmem(ops, addr, op.res.type)])


class LowerTmemDealloc(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemDeallocOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        ops.add(nvvm.Tcgen05FenceOp.build(properties={"kind": nvvm.Tcgen05FenceAttr("before")}))
        ops.add(nvvm.BarrierOp())
        cols = arith.ConstantOp.from_int_and_width(op.tmem.type.cols.value.data, 32)
        _guarded(ops, 32, [nvvm.Tcgen05FenceOp.build(properties={"kind": nvvm.Tcgen05FenceAttr("after")}), cols,
                           nvvm.Tcgen05DeallocOp.build(operands=[tmem_address(op.tmem, op), cols.result],
                                                       properties=_group(op.cta_group.value.data))])
        rewriter.replace(op, ops.ops, [])


class LowerTmemRelinquish(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemRelinquishOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        _guarded(ops, 32, [nvvm.Tcgen05RelinquishOp.build(properties=_group(op.cta_group.value.data))])
        rewriter.replace(op, ops.ops, [])


class LowerTmemView(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemViewOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        addr = _offset(ops, tmem_address(op.tmem, op), op.col.value.data)
        rewriter.replace(op, ops.ops, [_as_tmem(ops, addr, op.res.type)])


def _warp_lanes(ops: OpList, addr: SSAValue) -> SSAValue:
    """The address of this warp's 32 lanes: warp w of the warpgroup reaches lanes 32(w % 4)..+31."""
    warp = ops.div_mod(ops.sreg("tid.x"), 32, 4)
    return _offset(ops, addr, ops.muli(warp, 32 << 16))


def _chunks(cols: int):
    for c0 in range(0, cols, LDST_MAX_COLUMNS):
        yield c0, min(LDST_MAX_COLUMNS, cols - c0)


def _shape() -> dict:
    return {"shape": nvvm.Tcgen05LdStShapeAttr("shape_32x32b")}


class LowerTmemLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemLoadOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        base = _warp_lanes(ops, tmem_address(op.tmem, op))
        regs = []
        for c0, n in _chunks(op.tmem.type.cols.value.data):
            vec = ops.add(nvvm.Tcgen05LdOp.build(operands=[_offset(ops, base, c0) if c0 else base],
                                                 result_types=[VectorType(i32, [n])], properties=_shape()))
            for j in range(n):
                word = ops.add(nvvm.ExtractElementOp(vec, ops.const(j)))
                regs.append(ops.add(arith.BitcastOp(word, f32)) if op.res.type.elem.data == "f32" else word)
        rewriter.replace(op, ops.ops, [as_fragment(ops, regs, op.res.type)])


class LowerTmemStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmemStoreOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        base = _warp_lanes(ops, tmem_address(op.tmem, op))
        regs = fragment_registers(op.value, op)
        for c0, n in _chunks(op.tmem.type.cols.value.data):
            vec = ops.add(llvm.UndefOp(VectorType(i32, [n])))
            for j in range(n):
                r = regs[c0 + j]
                word = r if isinstance(r.type, IntegerType) else ops.add(arith.BitcastOp(r, i32))
                vec = ops.add(llvm.InsertElementOp.build(operands=[vec, word, ops.const(j)],
                                                         result_types=[VectorType(i32, [n])]))
            ops.add(nvvm.Tcgen05StOp.build(operands=[_offset(ops, base, c0) if c0 else base, vec],
                                           properties=_shape()))
        rewriter.replace(op, ops.ops, [])


BLOCK_SCALE_QUALIFIER = {None: "default", "block16": "block16", "block32": "block32",
                         "1X": "block32", "2X": "block32", "4X": "block16"}


def idesc_of(op: mma.Tcgen05MmaOp, atom: Atom) -> int:
    mn_major = lambda t: isinstance(t, mma.SmemDescType) and t.major.data == "mn"  # noqa: E731
    return instr_desc.pack(instr_desc.for_atom(atom, transpose_a=mn_major(op.a.type), transpose_b=mn_major(op.b.type)))


class LowerTcgen05Mma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.Tcgen05MmaOp, rewriter: PatternRewriter) -> None:
        atom = op_atom(op)
        body = OpList()
        a = tmem_address(op.a, op) if isinstance(op.a.type, mma.TmemType) else descriptor_value(op.a, op)
        b, d = descriptor_value(op.b, op), tmem_address(op.d, op)
        idesc = body.const(idesc_of(op, atom))
        enable = body.add(arith.ConstantOp.from_int_and_width(1 if op.accumulate is None else op.accumulate.value.data, 1))
        operands = [d, a, b, idesc, enable]
        block_scaled = op.sfa is not None
        if op.e is not None:
            operands.append(tmem_address(op.e, op))
        if block_scaled:
            operands += [tmem_address(op.sfa, op), tmem_address(op.sfb, op)]
        props = {"kind": nvvm.Tcgen05MmaKindAttr(op.kind.word),
                 "ctaGroup": nvvm.CTAGroupAttr(f"cta_{op.cta_group.value.data}")}
        attrs = {}
        groups = [[v] for v in operands]
        if block_scaled:
            vec = atom.scale_vec
            if BLOCK_SCALE_QUALIFIER[vec] != "default":
                props["blockScale"] = nvvm.Tcgen05BlockScaleAttr(BLOCK_SCALE_QUALIFIER[vec])
            if vec in ("1X", "2X", "4X"):
                attrs[nvvm.SCALE_VEC_ATTR] = StringAttr(vec)
            nvvm_op = nvvm.Tcgen05MmaSpBlockScaleOp if op.e is not None else nvvm.Tcgen05MmaBlockScaleOp
        else:
            nvvm_op = nvvm.Tcgen05MmaSpOp if op.e is not None else nvvm.Tcgen05MmaOp
            masks = op.disable_output_lane.get_values() if op.disable_output_lane is not None else ()
            mask = []
            if masks:
                vec_t = VectorType(i32, [len(masks)])
                mask_v = body.add(llvm.UndefOp(vec_t))
                for j, m in enumerate(masks):
                    mask_v = body.add(llvm.InsertElementOp.build(operands=[mask_v, body.const(m), body.const(j)],
                                                                 result_types=[vec_t]))
                mask = [mask_v]
            groups.append(mask)
        body.add_mma(nvvm_op.build(operands=groups, properties=props, attributes=attrs), atom)
        ops = OpList()
        _guarded(ops, 1, body.ops)
        rewriter.replace(op, ops.ops, [])


class LowerTcgen05Commit(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.Tcgen05CommitOp, rewriter: PatternRewriter) -> None:
        ops = OpList()
        _guarded(ops, 1, [nvvm.Tcgen05CommitOp.build(operands=[op.mbar], properties=_group(op.cta_group.value.data))])
        rewriter.replace(op, ops.ops, [])


TCGEN05_PATTERNS = (LowerTmemAlloc(), LowerTmemDealloc(), LowerTmemRelinquish(), LowerTmemView(), LowerTmemLoad(),
                    LowerTmemStore(), LowerTcgen05Mma(), LowerTcgen05Commit())
