"""The `mma` dialect's TMA ops (sm_90+): a box of a tensor map into SMEM, checked against the SMEM layout an
MMA descriptor will read, and a box from SMEM back to global memory.

  %map = mma.as_tensor_map %param : !mma.tensor_map<bf16, 128x64, sw128>
  mma.tma_load %map[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "...">
      : !mma.tensor_map<bf16, 128x64, sw128>
  mma.tma_store %src into %map[%row, %col] : !mma.tensor_map<bf16, 64x64, sw128>
  mma.tma_store %src into %map[%row, %col] reduce add : !mma.tensor_map<f32, 64x32, sw128>
  mma.tma_store %src into %map[%row, %col, layer %l] : !mma.tensor_map<bf16, 64x64, sw128, batched>

Coordinates are (row, column) of the box's first element in the global tensor, in elements, and for a
batched map (a 3-d tensor, L x rows x cols) the layer, `%map[%row, %col, layer %l]` (upstream's nvvm op takes
them innermost first: column, row, layer). The load's `as` type is the SMEM tile the box
lands in: its element type, swizzle and layout must place every element where TMA writes it -- a mismatch is
silent on hardware, so it is a verifier error here, naming the first element that differs.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, IntegerAttr, UnitAttr, i8, i16, i32
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
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.limits import LimitError, check_smem_tile
from mmatom.atoms.tma import MAP_BYTES, TmaError, check_smem_layout, reduce_type_error

from mmatom.atoms.catalogue.fragments import wgmma_accumulator_layout, wgmma_accumulator_tile

from .launch_bounds import KERNEL
from .mma_types import (FragmentType, OptionalBareWord, SmemDescType, TensorMapType, TmaReduceAttr, require_chip,
                         smem_operand)
from .nvvm_hopper import ImpliedType, expect_type

TMA_MIN_SM = 90
SHARED = LLVMPointerType(IntAttr(3))
GENERIC = LLVMPointerType()


def _check_target(op: IRDLOperation, needs: str = "the tensor memory accelerator") -> None:
    require_chip(op, TMA_MIN_SM, needs)


def _shared(op: IRDLOperation, value: SSAValue, what: str) -> None:
    expect_type(op, value, SHARED, what, " (a shared-memory pointer)")


def _coordinates(op: IRDLOperation, map_type: TensorMapType) -> None:
    """The box's coordinates are i32, with a layer exactly when the map is batched."""
    expect_type(op, op.row, i32, "the row coordinate")
    expect_type(op, op.col, i32, "the column coordinate")
    if op.layer is not None:
        expect_type(op, op.layer, i32, "the layer coordinate")
    if map_type.batched and op.layer is None:
        raise VerifyException(f"{op.name}: {map_type} is batched (a 3-d tensor, L x rows x cols): the box needs its "
                              f"layer, `[%row, %col, layer %l]`")
    if not map_type.batched and op.layer is not None:
        raise VerifyException(f"{op.name}: a layer coordinate on {map_type}, a 2-d map; only a batched map "
                              f"(`!mma.tensor_map<..., batched>`, of a 3-d tensor) has layers")


def box_coordinates(op: IRDLOperation) -> list[SSAValue]:
    """The box's coordinates innermost first, as the bulk tensor copies take them: column, row (, layer)."""
    return [op.col, op.row] + ([op.layer] if op.layer is not None else [])


def _tensor_map_operand(op: IRDLOperation) -> TensorMapType:
    if not isinstance(op.map.type, TensorMapType):
        raise VerifyException(f"{op.name}: the tensor map must be a !mma.tensor_map (an mma.as_tensor_map's result), "
                              f"not {op.map.type}")
    return op.map.type


GRID_CONSTANT = "nvvm.grid_constant"
BYVAL = "llvm.byval"


MAP_ATTRS = f"{{{BYVAL} = !llvm.array<{MAP_BYTES} x i8>, {GRID_CONSTANT}}}"


def tensor_map_param(value: SSAValue) -> str | None:
    """Why `value` is not a kernel parameter passed by value as a tensor map (None if it is)."""
    if not isinstance(value, BlockArgument):
        return (f"it is not a kernel parameter (it is the result of {value.owner.name}); a tensor map is a kernel "
                f"parameter with {MAP_ATTRS}")
    func = value.owner.parent_op()
    if not isinstance(func, llvm.FuncOp) or value.owner is not func.body.blocks.first:
        where = (f"a later block of @{func.sym_name.data}" if isinstance(func, llvm.FuncOp) else
                 f"a block of {func.name}" if func is not None else "a detached block")
        return (f"it is not a kernel parameter (it is an argument of {where}); a tensor map is a kernel parameter "
                f"with {MAP_ATTRS}")
    param = f"parameter {value.index} of @{func.sym_name.data}"
    if KERNEL not in func.attributes:
        return (f"{param}: @{func.sym_name.data} is not a kernel (no {KERNEL}); a tensor map is a kernel parameter "
                f"({GRID_CONSTANT} belongs on kernel parameters only)")
    entries = func.arg_attrs.data if func.arg_attrs is not None else ()
    attrs = entries[value.index].data if value.index < len(entries) else {}
    byval = attrs.get(BYVAL)
    if byval is None:
        return f"{param} has no {BYVAL}; a tensor map is passed by value: {MAP_ATTRS}"
    if not (isinstance(byval, llvm.LLVMArrayType) and byval.size.data == MAP_BYTES and byval.type == i8):
        return (f"{param} has {BYVAL} = {byval}; a tensor map (a CUtensorMap) is {BYVAL} = "
                f"!llvm.array<{MAP_BYTES} x i8>")
    if GRID_CONSTANT not in attrs:
        return f"{param} lacks {GRID_CONSTANT} (the kernel reads the launch's copy in place); it needs {MAP_ATTRS}"
    return None


@irdl_op_definition
class AsTensorMapOp(IRDLOperation):
    """`%m = mma.as_tensor_map %param : !mma.tensor_map<...>`: the kernel parameter `%param` (a CUtensorMap
    by value: `!llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}`, upstream's form) viewed
    as the tensor map of this element type, box and swizzle; lowered to the parameter's address."""

    name = "mma.as_tensor_map"
    traits = traits_def(Pure())
    param = operand_def(ImpliedType(GENERIC))
    res = result_def(TensorMapType)
    assembly_format = "$param attr-dict `:` type($res)"

    def __init__(self, param: SSAValue, map_type: TensorMapType):
        super().__init__(operands=[param], result_types=[map_type])

    def verify_(self) -> None:
        _check_target(self)
        expect_type(self, self.param, GENERIC, "the parameter", " (a CUtensorMap's address)")
        why = tensor_map_param(self.param)
        if why is not None:
            raise VerifyException(f"{self.name}: %{self.param.name_hint or 'operand'}: {why}")


@irdl_op_definition
class TmaLoadOp(IRDLOperation):
    """One box of `map` at (row, col) -- of layer `layer` for a batched map -- into SMEM at `dst` (aligned as the
    box's swizzle needs), completing `box bytes` of `bar`'s transaction count; `multicast` (i16 CTA mask) writes it
    to those CTAs of the cluster."""

    name = "mma.tma_load"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    map = operand_def()
    row = operand_def(ImpliedType(i32))
    col = operand_def(ImpliedType(i32))
    layer = opt_operand_def(ImpliedType(i32))
    dst = operand_def(ImpliedType(SHARED))
    bar = operand_def(ImpliedType(SHARED))
    multicast = opt_operand_def(ImpliedType(i16))
    tile = prop_def(SmemDescType)
    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    assembly_format = ("$map `[` $row `,` $col (`,` `layer` $layer^)? `]` `into` $dst `barrier` $bar "
                       "(`multicast` $multicast^)? `as` qualified($tile) attr-dict `:` type($map)")

    def __init__(self, map_: SSAValue, row: SSAValue, col: SSAValue, dst: SSAValue, bar: SSAValue,
                 tile: SmemDescType, multicast: SSAValue | None = None, layer: SSAValue | None = None):
        optional = lambda v: [v] if v else []  # noqa: E731
        super().__init__(operands=[map_, row, col, optional(layer), dst, bar, optional(multicast)],
                         properties={"tile": tile})

    @property
    def bytes(self) -> int:
        return self.map.type.box.bytes

    def verify_(self) -> None:
        _check_target(self)
        map_type = _tensor_map_operand(self)
        _coordinates(self, map_type)
        _shared(self, self.dst, "the destination")
        _shared(self, self.bar, "the barrier")
        if self.multicast is not None:
            expect_type(self, self.multicast, i16, "the multicast mask", " (a bit per CTA of the cluster)")
        box, tile = map_type.box, self.tile
        if tile.elem.data != map_type.elem.data:
            raise VerifyException(f"{self.name}: the tensor map holds {map_type.elem.data} but the SMEM tile it lands "
                                  f"as holds {tile.elem.data}; the element types must be the same")
        try:
            operand, layout = smem_operand(tile)
            check_smem_tile(layout, operand.rows, operand.k, tile.elem.data, operand.elem_bits, "layout")
        except (VerifyException, LimitError) as err:
            raise VerifyException(f"{self.name}: the SMEM tile: {err}") from None
        # a K-major tile's rows are the box's rows; an MN-major tile's K runs down the box (its rows are the box's
        # columns: the tensor is K x M or K x N, as `a @ b` hands B over)
        mn_major = tile.major.data == "mn"
        rows, cols = (operand.k, operand.rows) if mn_major else (operand.rows, operand.k)
        try:
            check_smem_layout(box, tile.swizzle.data, layout, rows, cols, transposed=mn_major)
        except TmaError as err:
            view = " (an MN-major tile: its K runs down the box, its rows across)" if mn_major else ""
            raise VerifyException(f"{self.name}: the box {box.rows}x{box.cols} of {map_type} does not land "
                                  f"as {tile}{view}: {err}") from None


@irdl_op_definition
class TmaStoreOp(IRDLOperation):
    """One box from SMEM at `src` (laid out as the map's swizzle says) to `map` at (row, col) -- of layer `layer`
    for a batched map -- in the current bulk group; out-of-bounds elements of the box are not written. `reduce add`
    (min, max, inc, dec, and, or, xor) combines the box with what global memory holds instead of overwriting it
    (cp.reduce.async.bulk.tensor), for the element types PTX admits."""

    name = "mma.tma_store"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    src = operand_def(ImpliedType(SHARED))
    map = operand_def()
    row = operand_def(ImpliedType(i32))
    col = operand_def(ImpliedType(i32))
    layer = opt_operand_def(ImpliedType(i32))
    reduce = opt_prop_def(TmaReduceAttr)
    custom_directives = (OptionalBareWord,)
    assembly_format = ("$src `into` $map `[` $row `,` $col (`,` `layer` $layer^)? `]` "
                       "(`reduce` custom<OptionalBareWord>($reduce)^)? attr-dict `:` type($map)")

    def __init__(self, src: SSAValue, map_: SSAValue, row: SSAValue, col: SSAValue, reduce: str | None = None,
                 layer: SSAValue | None = None):
        super().__init__(operands=[src, map_, row, col, [layer] if layer else []],
                         properties={"reduce": TmaReduceAttr(reduce)} if reduce is not None else {})

    @property
    def reduction(self) -> str | None:
        return self.reduce.word if self.reduce is not None else None

    def verify_(self) -> None:
        _check_target(self)
        _shared(self, self.src, "the source")
        map_type = _tensor_map_operand(self)
        _coordinates(self, map_type)
        if self.reduce is not None:
            why = reduce_type_error(self.reduction, map_type.elem.data)
            if why is not None:
                raise VerifyException(f"{self.name}: reduce {self.reduction} into {map_type}: {why}")


STMATRIX_BOX = 64  # rows and columns of one staged box: 64 x 64 16-bit elements = 128-byte rows, swizzled 128B
STAGED_ELEMENTS = ("bf16", "f16", "f32")  # 16-bit boxes are stored with stmatrix, f32 ones (64 x 32) with st.shared.v2
STAGED_ROW_BYTES = (128, 64)  # a staged box's row: its swizzle span (TMA's 128B or 64B mode)
WGMMA_MAX_N = 256  # a wgmma accumulator tile's N (the largest wgmma atom's)
TRANSPOSED_N = (16, 32, 64)  # a transposed box's rows: stmatrix.trans x4 stores 16 of them at a time, 64 at most


@irdl_op_definition
class StoreTileToSmemOp(IRDLOperation):
    """`mma.stmatrix_tile %acc[BLOCK] (repeat R)? into %dst : !mma.frag<D, bf16, ...>`: each warpgroup stores 64
    of its rows (those of M repeat R, default 0, when it repeats its atom down M) of one box of columns of a
    wgmma accumulator tile into SMEM at `dst` (its own box, 1024-byte aligned), laid out as a TMA box of
    128-byte rows swizzled 128B -- ready for mma.tma_store after a proxy fence and a warpgroup barrier.
    16-bit accumulators: 64x64 boxes (columns [64*BLOCK, 64*BLOCK + 64)), stored with stmatrix; f32
    accumulators: 64x32 boxes (columns [32*BLOCK, 32*BLOCK + 32)), stored with st.shared.v2.f32.
    `row_bytes 64` (16-bit): 64x32 boxes of 64-byte rows swizzled 64B (a TMA map's "64b" box of 32 columns) --
    for a tile whose N is an odd multiple of 32 (96, 160, 224), which 64-column boxes do not divide.
    `transposed` (16-bit, N of 16, 32 or 64, block 0): the warpgroup's 64 rows x N columns land as an N-row x
    64-column box (row i of the box is column i of the tile), stored with stmatrix.trans -- the epilogue of a
    swapped-operand GEMM (D^T = B . A^T) writing D row-major."""

    name = "mma.stmatrix_tile"
    traits = traits_def(MemoryWriteEffect())
    source = operand_def()
    dst = operand_def(ImpliedType(SHARED))
    block = prop_def(IntegerAttr)
    repeat = opt_prop_def(IntegerAttr)
    transposed = opt_prop_def(UnitAttr)
    row_bytes = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$source `[` $block `]` (`repeat` $repeat^)? (`transposed` $transposed^)? "
                       "(`row_bytes` $row_bytes^)? `into` $dst attr-dict `:` type($source)")

    def __init__(self, source: SSAValue, block: int, dst: SSAValue, repeat: int = 0, transposed: bool = False,
                 row_bytes: int = 128):
        props = {"block": IntegerAttr(block, i32)}
        if repeat:
            props["repeat"] = IntegerAttr(repeat, i32)
        if transposed:
            props["transposed"] = UnitAttr()
        if row_bytes != 128:
            props["row_bytes"] = IntegerAttr(row_bytes, i32)
        super().__init__(operands=[source, dst], properties=props)

    def box_row_bytes(self) -> int:
        """Bytes of one row of the staged box, its swizzle span: 128 (default) or 64."""
        return self.row_bytes.value.data if self.row_bytes is not None else 128

    def tile(self) -> tuple[int, int, int]:
        """(M, N, warpgroups) of the accumulator tile (verified: a wgmma accumulator layout)."""
        found = wgmma_accumulator_tile(self.source.type.layout.data)
        assert found is not None, "verify_ refuses other layouts"
        return found

    def repeat_index(self) -> int:
        return self.repeat.value.data if self.repeat is not None else 0

    def verify_(self) -> None:
        _check_target(self, "stmatrix")
        frag = self.source.type
        if not isinstance(frag, FragmentType):
            raise VerifyException(f"{self.name}: the source must be a !mma.frag (a wgmma accumulator tile), not {frag}")
        _shared(self, self.dst, "the destination")
        threads = self._verify_source(frag)
        layout = frag.layout.data
        found = wgmma_accumulator_tile(layout)
        m, n = found[:2] if found else (threads // 2, layout[1].size() * 2)  # else: as if it did not repeat
        self._verify_row_bytes(frag)
        cols = self.box_columns()
        if self.transposed is not None:
            self._verify_transposed(frag, n)
        elif not 0 < n <= WGMMA_MAX_N or n % cols:
            legal = ", ".join(str(b) for b in range(cols, WGMMA_MAX_N + 1, cols))
            raise VerifyException(f"{self.name}: the tile is {m}x{n}; stmatrix_tile stores blocks of {cols} "
                                  f"columns of a wgmma accumulator (N at most {WGMMA_MAX_N}), so N is one of {legal}")
        if found is None:
            raise VerifyException(f"{self.name}: the source's layout {layout} is not the wgmma accumulator layout of "
                                  f"a {m}x{n} tile, {wgmma_accumulator_layout(m, n)}")
        self._verify_box(frag, m, n, found[2])

    def _verify_source(self, frag: FragmentType) -> int:
        """The source is a 16-bit (or staged) accumulator over one to three warpgroups: their threads."""
        if frag.role.data not in ("C", "D"):
            raise VerifyException(f"{self.name}: the source must be an accumulator (role C or D), not role "
                                  f"{frag.role.data}")
        if frag.elem.data not in STAGED_ELEMENTS:
            raise VerifyException(f"{self.name}: the accumulator holds {frag.elem.data}; a staged box holds "
                                  f"{', '.join(STAGED_ELEMENTS)} (convert it first)")
        layout = frag.layout.data
        if layout.rank() != 2:
            raise VerifyException(f"{self.name}: the source's layout {layout} has rank {layout.rank()}; a TV layout "
                                  f"is (threads, values)")
        threads = layout[0].size()
        if threads not in (128, 256, 384):
            raise VerifyException(f"{self.name}: the source's layout {layout} spans {threads} threads; a wgmma "
                                  f"accumulator tile spans 128, 256 or 384 (one to three warpgroups)")
        return threads

    def _verify_box(self, frag: FragmentType, m: int, n: int, warpgroups: int) -> None:
        """The repeat and the column block name a box of the m x n tile."""
        repeats = m // (64 * warpgroups)
        if not 0 <= self.repeat_index() < repeats:
            raise VerifyException(f"{self.name}: repeat {self.repeat_index()} of a {m}x{n} tile over {warpgroups} "
                                  f"warpgroup(s) is out of range; each warpgroup holds {repeats} repeat(s) of 64 "
                                  f"rows, [0, {repeats - 1}]")
        cols = self.box_columns()
        blocks = 1 if self.transposed is not None else n // cols  # a transposed box holds all N columns
        if not 0 <= self.block.value.data < blocks:
            raise VerifyException(f"{self.name}: column block {self.block.value.data} of a {m}x{n} tile is out of "
                                  f"range; the block is in [0, {blocks - 1}] ({blocks} blocks of {cols} "
                                  f"{frag.elem.data} columns)")

    def _verify_row_bytes(self, frag: FragmentType) -> None:
        """Boxes of 64-byte rows (swizzled 64B) hold a 16-bit accumulator's 32 columns, not transposed."""
        row_bytes = self.box_row_bytes()
        if row_bytes not in STAGED_ROW_BYTES:
            raise VerifyException(f"{self.name}: row_bytes {row_bytes}; a staged box's rows are one of "
                                  f"{', '.join(map(str, STAGED_ROW_BYTES))} bytes (its swizzle span)")
        if row_bytes != 128 and (frag.elem.data not in ("bf16", "f16") or self.transposed is not None):
            kind = "transposed " * (self.transposed is not None) + frag.elem.data
            raise VerifyException(f"{self.name}: row_bytes {row_bytes} with a {kind} box; 64-byte rows stage a "
                                  f"16-bit accumulator, not transposed")

    def _verify_transposed(self, frag: FragmentType, n: int) -> None:
        """A transposed box: N rows (the tile's columns) of the warpgroup's 64 rows, stmatrix.trans x4 per 16."""
        if frag.elem.data not in ("bf16", "f16"):
            raise VerifyException(f"{self.name}: a transposed box is stored with stmatrix.trans, of 16-bit elements; "
                                  f"the accumulator holds {frag.elem.data}")
        if n not in TRANSPOSED_N:
            raise VerifyException(f"{self.name}: a transposed box of a tile of N = {n}; its rows are the tile's "
                                  f"columns, N one of {', '.join(map(str, TRANSPOSED_N))}")

    def box_columns(self) -> int:
        """Columns of one staged box: one swizzle row of box_row_bytes (128: 64 16-bit or 32 f32 elements)."""
        wide = STMATRIX_BOX if self.source.type.elem.data in ("bf16", "f16") else STMATRIX_BOX // 2
        return wide * self.box_row_bytes() // 128


TMA_OPS = (AsTensorMapOp, TmaLoadOp, TmaStoreOp, StoreTileToSmemOp)

__all__ = ["box_coordinates", "STMATRIX_BOX", "StoreTileToSmemOp", "BYVAL", "GRID_CONSTANT", "TMA_OPS", "AsTensorMapOp", "TmaLoadOp", "TmaStoreOp", "tensor_map_param"]
