"""mma.copy_to_smem: a CTA cooperatively copies a tile from global memory into its SMEM layout.

The tile moves in 16-byte chunks (one ld.global.v4 / st.shared.v4 per chunk): a chunk is 128 bits along
the SMEM layout's contiguous dimension (K for K-major, M/N for MN-major), where every canonical layout
keeps 16-byte core-matrix rows whole and every tensor-core swizzle (Swizzle<B,4,S>, <2,5,2>) permutes
whole 16-byte units. Chunk c is copied by thread c % threads; consecutive chunks run along the
contiguous dimension so consecutive threads read consecutive global addresses. Offsets are evaluated at
run time from the two layouts (shifts and masks for power-of-two extents); the swizzle is applied to
the byte offset, which is why a swizzled tile must start on its pattern's repeat boundary.
"""

from __future__ import annotations


from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import VectorType, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from mmatom.atoms.smem_copy_plan import CopyPlan, plan_copy
from mmatom.dialects import mma
from mmatom.layout import Layout, Swizzle
from mmatom.layout.int_tuple import flatten, prefix_product

from .ir_builder import OpList, address_width

CHUNK = VectorType(i32, [4])


def _mode_offset(ops: OpList, mode: Layout, index: SSAValue) -> SSAValue | None:
    """mode(index) at run time: the sum over the flattened mode of (index / prefix % extent) * stride."""
    total = None
    shapes, strides = flatten(mode.shape), flatten(mode.stride)
    for extent, divisor, stride in zip(shapes, flatten(prefix_product(mode.shape)), strides):
        if extent == 1 or stride == 0:
            continue
        term = ops.muli(ops.div_mod(index, divisor, extent) if divisor * extent < (1 << 31) else index, stride)
        total = term if total is None else ops.addi(total, term)
    return total


def _offset(ops: OpList, layout: Layout, row: SSAValue, col: SSAValue) -> SSAValue:
    parts = [p for p in (_mode_offset(ops, layout[0], row), _mode_offset(ops, layout[1], col)) if p is not None]
    if not parts:
        return ops.const(0, row.type.width.data)
    return parts[0] if len(parts) == 1 else ops.addi(parts[0], parts[1])


def _swizzle(ops: OpList, sw: Swizzle, addr: SSAValue) -> SSAValue:
    if sw.bits == 0:
        return addr
    moved = ops.add(arith.AndIOp(addr, ops.const(sw.yyy_mask)))
    return ops.add(arith.XOrIOp(addr, ops.add(arith.ShRUIOp(moved, ops.const(sw.shift)))))


def _copy_chunk(ops: OpList, plan: CopyPlan, c: SSAValue, src: SSAValue, offset: SSAValue | None,
                dst: SSAValue, width: int) -> None:
    """Chunk c: the global offset in `width`-bit arithmetic (ir_builder.address_width), the SMEM one in 32."""
    along = (plan.k if plan.contiguous_dim else plan.rows) // plan.per_chunk
    first = ops.muli(ops.div_mod(c, 1, along), plan.per_chunk)
    other = ops.add(arith.DivUIOp(c, ops.const(along))) if along & (along - 1) else \
        ops.add(arith.ShRUIOp(c, ops.const(along.bit_length() - 1)))
    row, col = (other, first) if plan.contiguous_dim else (first, other)
    g = _offset(ops, plan.gmem, ops.to_width(row, width), ops.to_width(col, width))
    if offset is not None:
        g = ops.addi(g, ops.to_width(offset, width))
    s = _offset(ops, plan.smem, row, col)
    to_bytes = lambda e: ops.muli(e, plan.bits // 8) if plan.bits >= 8 else \
        ops.add(arith.ShRUIOp(ops.muli(e, plan.bits), ops.const(3, e.type.width.data)))  # noqa: E731
    value = ops.load(ops.byte_pointer(src, to_bytes(g)), CHUNK)
    ops.store(value, ops.byte_pointer(dst, _swizzle(ops, plan.swizzle, to_bytes(s))))


class LowerCopyToSmem(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.CopyToSmemOp, rewriter: PatternRewriter) -> None:
        plan = plan_copy(mma.smem_operand(op.tile)[0], op.tile.layout.data, op.layout.data, op.threads.value.data)
        width = address_width(plan.gmem, plan.bits, op.offset)
        ops = OpList()
        t = ops.sreg("tid.x")
        for j in range(-(-plan.chunks // plan.threads)):
            c = ops.addi(t, j * plan.threads)
            if (j + 1) * plan.threads <= plan.chunks:
                _copy_chunk(ops, plan, c, op.src, op.offset, op.dst, width)
                continue
            # the last round: only chunks that exist
            inside = ops.add(arith.CmpiOp(c, ops.const(plan.chunks), "ult"))
            body = OpList()
            body._consts = dict(ops._consts)
            _copy_chunk(body, plan, c, op.src, op.offset, op.dst, width)
            body.add(scf.YieldOp())
            ops.add(scf.IfOp(inside, [], Region(Block(body.ops)), Region(Block([scf.YieldOp()]))))
        rewriter.replace(op, ops.ops, [])


__all__ = ["LowerCopyToSmem"]
