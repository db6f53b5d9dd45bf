"""The `mma` dialect's TMA ops (sm_90+): a box of a tensor map into SMEM, checked against the SMEM layout an
MMA descriptor will read, and a box from SMEM back to global memory.

  %map = mma.as_tensor_map %param : !mma.tensor_map<bf16, 128x64, sw128>
  mma.tma_load %map[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "...">
      : !mma.tensor_map<bf16, 128x64, sw128>
  mma.tma_store %src into %map[%row, %col] : !mma.tensor_map<bf16, 64x64, sw128>

Coordinates are (row, column) of the box's first element in the global tensor, in elements (upstream's
nvvm op takes them innermost first; the lowering swaps them). The load's `as` type is the SMEM tile the box
lands in: its element type, swizzle and layout must place every element where TMA writes it -- a mismatch is
silent on hardware, so it is a verifier error here, naming the first element that differs.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, IntegerAttr, i16, i32
from xdsl.dialects import llvm
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import BlockArgument, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.chips import UnknownChip, chip
from mmatom.atoms.tma import MAP_BYTES, TmaError, check_smem_layout

from mmatom.atoms.catalogue.fragments import wgmma_accumulator_layout

from .mma_types import FragmentType, SmemDescType, TensorMapType, module_target, smem_operand

TMA_MIN_SM = 90
SHARED = LLVMPointerType(IntAttr(3))
GENERIC = LLVMPointerType()


def _check_target(op: IRDLOperation) -> None:
    target = module_target(op)
    if target is None:
        return
    try:
        sm = chip(target).arch
    except UnknownChip as err:
        raise VerifyException(f"{op.name}: {err}") from None
    if sm < TMA_MIN_SM:
        raise VerifyException(f"{op.name}: the tensor memory accelerator needs sm_90 or later; the module targets "
                              f"{target}")


def _shared(op: IRDLOperation, value: SSAValue, what: str) -> None:
    if value.type != SHARED:
        raise VerifyException(f"{op.name}: {what} must be a shared-memory pointer (!llvm.ptr<3>), not {value.type}")


GRID_CONSTANT = "nvvm.grid_constant"
BYVAL = "llvm.byval"


def tensor_map_param(value: SSAValue) -> str | None:
    """Why `value` is not a kernel parameter passed by value as a tensor map (None if it is)."""
    if not isinstance(value, BlockArgument) or not isinstance(value.owner.parent_op(), llvm.FuncOp):
        return "it is not a kernel parameter"
    func = value.owner.parent_op()
    attrs = func.arg_attrs.data[value.index].data if func.arg_attrs is not None else {}
    byval = attrs.get(BYVAL)
    if GRID_CONSTANT not in attrs or not (isinstance(byval, llvm.LLVMArrayType) and byval.size.data == MAP_BYTES):
        return (f"parameter {value.index} of @{func.sym_name.data} is not passed by value as a tensor map (its "
                f"attributes need {{{BYVAL} = !llvm.array<{MAP_BYTES} x i8>, {GRID_CONSTANT}}})")
    return None


@irdl_op_definition
class AsTensorMapOp(IRDLOperation):
    """`%m = mma.as_tensor_map %param : !mma.tensor_map<...>`: the kernel parameter `%param` (a CUtensorMap
    by value: `!llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}`, upstream's form) viewed
    as the tensor map of this element type, box and swizzle; lowered to the parameter's address."""

    name = "mma.as_tensor_map"
    traits = traits_def(Pure())
    param = operand_def(GENERIC)
    res = result_def(TensorMapType)
    assembly_format = "$param attr-dict `:` type($res)"

    def __init__(self, param: SSAValue, map_type: TensorMapType):
        super().__init__(operands=[param], result_types=[map_type])

    def verify_(self) -> None:
        why = tensor_map_param(self.param)
        if why is not None:
            raise VerifyException(f"{self.name}: %{self.param.name_hint or 'operand'}: {why}")


@irdl_op_definition
class TmaLoadOp(IRDLOperation):
    """One box of `map` at (row, col) into SMEM at `dst` (aligned as the box's swizzle needs), completing
    `box bytes` of `bar`'s transaction count; `multicast` (i16 CTA mask) writes it to those CTAs of the cluster."""

    name = "mma.tma_load"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    map = operand_def(TensorMapType)
    row = operand_def(i32)
    col = operand_def(i32)
    dst = operand_def(SHARED)
    bar = operand_def(SHARED)
    multicast = opt_operand_def(i16)
    tile = prop_def(SmemDescType)
    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    assembly_format = ("$map `[` $row `,` $col `]` `into` $dst `barrier` $bar (`multicast` $multicast^)? `as` qualified($tile) "
                       "attr-dict `:` type($map)")

    def __init__(self, map_: SSAValue, row: SSAValue, col: SSAValue, dst: SSAValue, bar: SSAValue,
                 tile: SmemDescType, multicast: SSAValue | None = None):
        super().__init__(operands=[map_, row, col, dst, bar, [multicast] if multicast else []],
                         properties={"tile": tile})

    @property
    def bytes(self) -> int:
        return self.map.type.box.bytes

    def verify_(self) -> None:
        _check_target(self)
        _shared(self, self.dst, "the destination")
        _shared(self, self.bar, "the barrier")
        box, tile = self.map.type.box, self.tile
        if tile.elem.data != self.map.type.elem.data:
            raise VerifyException(f"{self.name}: the tensor map holds {self.map.type.elem.data}, the SMEM tile "
                                  f"{tile.elem.data}")
        if tile.major.data != "k":
            raise VerifyException(f"{self.name}: the SMEM tile is {tile.major.data}-major; a box lands with its "
                                  f"contiguous columns along the tile's K (a k-major tile)")
        operand, layout = smem_operand(tile)
        try:
            check_smem_layout(box, tile.swizzle.data, layout, operand.rows, operand.k)
        except TmaError as err:
            raise VerifyException(f"{self.name}: the box {box.rows}x{box.cols} of {self.map.type} does not land "
                                  f"as {tile}: {err}") from None


@irdl_op_definition
class TmaStoreOp(IRDLOperation):
    """One box from SMEM at `src` (laid out as the map's swizzle says) to `map` at (row, col), in the
    current bulk group; out-of-bounds elements of the box are not written."""

    name = "mma.tma_store"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    src = operand_def(SHARED)
    map = operand_def(TensorMapType)
    row = operand_def(i32)
    col = operand_def(i32)
    assembly_format = "$src `into` $map `[` $row `,` $col `]` attr-dict `:` type($map)"

    def __init__(self, src: SSAValue, map_: SSAValue, row: SSAValue, col: SSAValue):
        super().__init__(operands=[src, map_, row, col])

    def verify_(self) -> None:
        _check_target(self)
        _shared(self, self.src, "the source")


STMATRIX_BOX = 64  # rows and columns of one staged box: 64 x 64 16-bit elements = 128-byte rows, swizzled 128B


@irdl_op_definition
class StoreTileToSmemOp(IRDLOperation):
    """`mma.stmatrix_tile %acc[BLOCK] into %dst : !mma.frag<D, bf16, ...>`: each warpgroup stores its 64 rows
    of columns [64*BLOCK, 64*BLOCK + 64) of a wgmma accumulator tile (16-bit elements) into SMEM at `dst` (its
    own 64x64 box, 1024-byte aligned) with stmatrix, laid out as a 64x64 TMA box swizzled 128B -- ready for
    mma.tma_store after a proxy fence and a warpgroup barrier."""

    name = "mma.stmatrix_tile"
    traits = traits_def(MemoryWriteEffect())
    source = operand_def(FragmentType)
    dst = operand_def(SHARED)
    block = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$source `[` $block `]` `into` $dst attr-dict `:` type($source)"

    def __init__(self, source: SSAValue, block: int, dst: SSAValue):
        super().__init__(operands=[source, dst], properties={"block": IntegerAttr(block, i32)})

    def tile_mn(self) -> tuple[int, int]:
        """(M, N) of the accumulator tile: 128 threads per 64 rows, each thread N/2 values of its rows."""
        layout = self.source.type.layout.data
        threads, values = layout[0].size(), layout[1].size()
        return threads // 2, values * 2

    def verify_(self) -> None:
        frag = self.source.type
        if frag.elem.data not in ("bf16", "f16") or frag.role.data not in ("C", "D"):
            raise VerifyException(f"{self.name}: stores an accumulator of 16-bit elements (convert it to bf16 or "
                                  f"f16 first); got {frag.role.data} of {frag.elem.data}")
        layout = frag.layout.data
        m, n = self.tile_mn()
        if m not in (64, 128) or str(layout) != str(wgmma_accumulator_layout(m, n)):
            raise VerifyException(f"{self.name}: {frag} is not a wgmma accumulator tile (64 or 128 rows over 128 "
                                  f"or 256 threads)")
        blocks = n // STMATRIX_BOX
        if n % STMATRIX_BOX or not 0 <= self.block.value.data < blocks:
            raise VerifyException(f"{self.name}: column block {self.block.value.data} of a {m}x{n} tile; the tile "
                                  f"has {max(blocks, 0)} blocks of {STMATRIX_BOX} columns")


TMA_OPS = (AsTensorMapOp, TmaLoadOp, TmaStoreOp, StoreTileToSmemOp)

__all__ = ["STMATRIX_BOX", "StoreTileToSmemOp", "BYVAL", "GRID_CONSTANT", "TMA_OPS", "AsTensorMapOp", "TmaLoadOp", "TmaStoreOp", "tensor_map_param"]
