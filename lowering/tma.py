"""The TMA ops of the mma dialect -> upstream nvvm: a tensor map view becomes the parameter's address, a box
load the bulk tensor copy with mbarrier completion (coordinates innermost first, a batched map's layer last), a
box store the bulk tensor copy of the current bulk group (a reduce-store its bulk tensor reduction); an
accumulator tile staged for a TMA store becomes stmatrix (16-bit) or st.shared.v2.f32 (f32)."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import VectorType, f32, i32

from mmatom.dialects import mma, nvvm_hopper
from mmatom.dialects.mma_tma import box_coordinates
from mmatom.dialects.nvvm import MMALayoutAttr

from .fragments import fragment_registers
from .ir_builder import OpList


def _map_address(value: SSAValue) -> SSAValue:
    """The tensor map's generic address: the parameter its mma.as_tensor_map views (or the address already,
    when that view was lowered first)."""
    owner = value.owner
    return owner.param if isinstance(owner, mma.AsTensorMapOp) else value


class LowerAsTensorMap(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.AsTensorMapOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, [], [op.param])


class LowerTmaLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmaLoadOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, [nvvm_hopper.CpAsyncBulkTensorSharedClusterGlobalOp(
            op.dst, _map_address(op.map), box_coordinates(op), op.bar, op.multicast)], [])


class LowerTmaStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.TmaStoreOp, rewriter: PatternRewriter) -> None:
        address, coordinates = _map_address(op.map), box_coordinates(op)
        if op.reduction is None:
            store = nvvm_hopper.CpAsyncBulkTensorGlobalSharedCtaOp(address, op.src, coordinates)
        else:
            store = nvvm_hopper.CpAsyncBulkTensorReduceOp(address, op.src, coordinates, op.reduction)
        rewriter.replace(op, [store], [])




def _repeat_registers(op: mma.StoreTileToSmemOp) -> list[SSAValue]:
    """The registers of the op's M repeat: the fragment holds repeat 0's, then repeat 1's, ..."""
    registers = fragment_registers(op.source, op)
    m, _, warpgroups = op.tile()
    per_repeat = len(registers) // (m // (64 * warpgroups))
    return registers[op.repeat_index() * per_repeat:(op.repeat_index() + 1) * per_repeat]


def swizzle_phase(row_bytes: int) -> tuple[int, int]:
    """TMA's swizzle of a box of `row_bytes`-byte rows (its mode's span: Sw<B,4,3> on bytes, 2^B = row_bytes / 16):
    16-byte chunk c of row r lies at r x row_bytes + (c ^ ((r / rows_per_line) % 2^B)) x 16, a line being 128 bytes
    -- (rows_per_line, 2^B), the row's divisor and the phase's modulus."""
    return 128 // row_bytes, row_bytes // 16


class LowerStoreTileToSmem(RewritePattern):
    """stmatrix x4 per 16 columns: warp q of the warpgroup stores rows 16q..16q+15; lane l gives the address of
    row 16q + l%8 + 8((l/8)%2), 16-byte chunk 2t + l/16 of the box row (128 or 64 bytes: op.box_row_bytes),
    swizzled as TMA's mode of that span (swizzle_phase: chunk ^ row%8 for 128B, chunk ^ (row/2)%4 for 64B); matrix
    j of 16-column chunk g is register 4g + j (the accumulator's value pairs (8g+2j, 8g+2j+1), packed)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.StoreTileToSmemOp, rewriter: PatternRewriter) -> None:
        if op.source.type.elem.data == "f32" or op.transposed is not None:
            return
        registers = _repeat_registers(op)
        ops = OpList()
        lane = ops.sreg("laneid")
        warp = ops.div_mod(ops.sreg("tid.x"), 32, 4)  # the warp's index in its warpgroup
        row = ops.addi(ops.addi(ops.muli(warp, 16), ops.div_mod(lane, 1, 8)), ops.muli(ops.div_mod(lane, 8, 2), 8))
        row_bytes = op.box_row_bytes()
        row_phase = ops.div_mod(row, *swizzle_phase(row_bytes))
        half = ops.div_mod(lane, 16, 2)  # which 16-byte chunk of the 32-byte pair this lane addresses
        row_start = ops.byte_pointer(op.dst, ops.muli(row, row_bytes))
        groups = op.box_columns() // 16  # 16-column groups per box: one stmatrix x4 each
        first = op.block.value.data * groups
        for t in range(groups):
            chunk = ops.addi(half, 2 * t)
            swizzled = ops.add(arith.XOrIOp(chunk, row_phase))
            ptr = ops.byte_pointer(row_start, ops.muli(swizzled, 16))
            g = first + t
            words = [ops.bitcast(r, i32) for r in registers[4 * g: 4 * g + 4]]  # f16 pairs travel as vector<2xf16>
            ops.add(nvvm_hopper.StMatrixOp(ptr, words, MMALayoutAttr("row")))
        rewriter.replace(op, ops.ops, [])


class LowerStoreTransposedTileToSmem(RewritePattern):
    """A transposed box (the tile's N columns as its rows): stmatrix.trans x4 per 16 columns. Register 4t + i holds
    the 8x8 block of column group 2t + i/2 and row half i%2 of warp q's 16 rows; .trans stores its column j as box
    row 16t + 8(i/2) + j, at 16-byte chunk 2q + i%2 of the 128-byte row (the block's 8 rows), swizzled 128B
    (chunk ^ row%8, row%8 = j). Lane l = 8i + j gives that row's address."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.StoreTileToSmemOp, rewriter: PatternRewriter) -> None:
        if op.transposed is None:
            return
        registers = _repeat_registers(op)
        ops = OpList()
        lane = ops.sreg("laneid")
        warp = ops.div_mod(ops.sreg("tid.x"), 32, 4)  # the warp's index in its warpgroup
        j = ops.div_mod(lane, 1, 8)  # the stored row of its matrix this lane addresses
        chunk = ops.addi(ops.muli(warp, 2), ops.div_mod(lane, 8, 2))
        swizzled = ops.add(arith.XOrIOp(chunk, j))
        row = ops.addi(ops.muli(ops.div_mod(lane, 16, 2), 8), j)
        first = ops.byte_pointer(op.dst, ops.addi(ops.muli(row, 128), ops.muli(swizzled, 16)))
        for t in range(op.tile()[1] // 16):
            ptr = first if t == 0 else ops.byte_pointer(first, ops.const(t * 16 * 128))
            words = [ops.bitcast(r, i32) for r in registers[4 * t: 4 * t + 4]]
            ops.add(nvvm_hopper.StMatrixOp(ptr, words, MMALayoutAttr("col")))
        rewriter.replace(op, ops.ops, [])


class LowerStoreF32TileToSmem(RewritePattern):
    """A 64x32 f32 box: lane l of warp q holds rows r = 16q + l/4 and r + 8, columns 8j + 2(l%4) + {0, 1} as
    values 4j + {0, 1} (row r) and 4j + {2, 3} (row r + 8); each pair is one st.shared.v2.f32 at byte
    r * 128 + (chunk ^ r%8) * 16 + 8 (l%2), chunk = 2j' + (l%4)/2 its 16-byte chunk of the box row (the 128B
    swizzle; a warp's 32 stores fill the 32 banks twice, no conflict beyond the two wavefronts 256 B need)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mma.StoreTileToSmemOp, rewriter: PatternRewriter) -> None:
        if op.source.type.elem.data != "f32":
            return
        values = _repeat_registers(op)
        ops = OpList()
        lane = ops.sreg("laneid")
        warp = ops.div_mod(ops.sreg("tid.x"), 32, 4)
        quad = ops.div_mod(lane, 1, 4)
        half = ops.div_mod(lane, 1, 2)
        groups = op.box_columns() // 8  # 8-column groups per box
        first = op.block.value.data * groups
        pair = VectorType(f32, [2])
        for dr in (0, 8):
            row = ops.addi(ops.addi(ops.muli(warp, 16), ops.div_mod(lane, 4, 8)), dr)
            row_phase = ops.div_mod(row, 1, 8)
            row_start = ops.byte_pointer(op.dst, ops.addi(ops.muli(row, 128), ops.muli(half, 8)))
            for j in range(groups):
                chunk = ops.addi(ops.div_mod(quad, 2, 2), 2 * j)
                swizzled = ops.add(arith.XOrIOp(chunk, row_phase))
                ptr = ops.byte_pointer(row_start, ops.muli(swizzled, 16))
                base = 4 * (first + j) + (2 if dr else 0)
                vec = ops.add(llvm.UndefOp(pair))
                for i in range(2):
                    vec = ops.add(llvm.InsertElementOp.build(operands=[vec, values[base + i], ops.const(i)],
                                                             result_types=[pair]))
                ops.store(vec, ptr)
        rewriter.replace(op, ops.ops, [])


TMA_PATTERNS = (LowerTmaLoad(), LowerTmaStore(), LowerAsTensorMap(), LowerStoreTileToSmem(),
                LowerStoreTransposedTileToSmem(), LowerStoreF32TileToSmem())

__all__ = ["TMA_PATTERNS"]
