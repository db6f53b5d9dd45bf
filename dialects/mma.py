"""The `mma` dialect: tensor-core MMA atoms for every tier, with operands typed by residency
(types and attributes in `mma_types.py`).

Ops, one per atom family: mma.sync, mma.sp, mma.block_scale, mma.wgmma, mma.tcgen05; the tile op
mma.wgmma_tile; kernel ops that feed atoms (load/store_fragment, fill, convert, copy_to_smem, make_desc)
and tensor-memory ops. Every atom verifier reads the catalogue (`mmatom.atoms.catalogue`) through
`atom_rules.py`.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    BaseAttr,
    VarConstraint,
    AttrSizedOperandSegments,
    ParsePropInAttrDict,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.catalogue.elements import BITS, storage_element
from mmatom.atoms.chips import chip
from mmatom.atoms.catalogue.fragments import tv_layouts
from mmatom.atoms.catalogue.tmem import LANES, TMEM_TARGETS, check_alloc_columns
from mmatom.atoms.descriptors import DescriptorError
from mmatom.atoms.fragment_access import FragmentAccessError, plan_access
from mmatom.atoms.limits import LimitError, check_fragment, check_global_tile, check_smem_tile
from mmatom.atoms.smem_copy_plan import SmemCopyError, plan_copy
from mmatom.layout import Layout, NotationError, parse_layout

from .mma_tma import STMATRIX_BOX, TMA_OPS, AsTensorMapOp, StoreTileToSmemOp, TmaLoadOp, TmaStoreOp  # noqa: F401 - re-exported with the dialect
from .atom_rules import sync_tile_plan, verify_atom_op, wgmma_tile_plan
from .mma_types import (
    WORD_ATTRS,
    AnyOperand,
    BareWord,
    BitOpAttr,
    FragmentType,
    KindAttr,
    OperandLayoutAttr,
    RoundingAttr,
    ScaleTypeAttr,
    ScaleVecAttr,
    ShapeAttr,
    SmemDescType,
    TargetAttr,
    TensorMapType,
    TmemType,
    descriptor_view,
    module_target,
    smem_operand,
)


# -- ops ------------------------------------------------------------------------------------------
#
# Effects (xDSL traits, so cse / dce / canonicalize can reason about mma ops): register atoms read and
# write nothing but their operands and result (NoMemoryEffect), yet they are warp-collective
# `.sync.aligned` instructions, so they are not speculatable (never hoisted into divergent code); wgmma
# reads SMEM through its descriptors; tcgen05 reads SMEM/TMEM and writes TMEM; the fragment, SMEM and
# TMEM data movers read or write memory; fill, convert, make_desc and tmem_view are Pure.

class AtomOp(IRDLOperation):
    """Common verification: the catalogue decides (see atom_rules)."""

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        verify_atom_op(self)


@irdl_op_definition
class SyncOp(AtomOp):
    """Dense warp-level mma.sync (SM70..SM120, incl. kind::f8f6f4): D = A x B + C."""

    name = "mma.sync"
    traits = traits_def(NoMemoryEffect())
    shape = prop_def(ShapeAttr)
    a = operand_def(AnyOperand)
    b = operand_def(AnyOperand)
    c = operand_def(AnyOperand)
    d = result_def(AnyOperand)
    layout_a = opt_prop_def(OperandLayoutAttr)
    layout_b = opt_prop_def(OperandLayoutAttr)
    kind = opt_prop_def(KindAttr)
    satfinite = opt_prop_def(UnitAttr)
    bitop = opt_prop_def(BitOpAttr)
    rounding = opt_prop_def(RoundingAttr)

    assembly_format = (
        "$shape $a `,` $b `,` $c (`satfinite` $satfinite^)? attr-dict"
        " `:` type($a) `,` type($b) `,` type($c) `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], a: SSAValue, b: SSAValue, c: SSAValue, d_type: Attribute, *,
                 layout: tuple[str, str] = ("row", "col"), kind: str | None = None, satfinite: bool = False,
                 bitop: str | None = None, rounding: str | None = None):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape)}
        if layout != ("row", "col"):
            props["layout_a"], props["layout_b"] = OperandLayoutAttr(layout[0]), OperandLayoutAttr(layout[1])
        for key, attr_class, val in (("kind", KindAttr, kind), ("bitop", BitOpAttr, bitop),
                                     ("rounding", RoundingAttr, rounding)):
            if val:
                props[key] = attr_class(val)
        if satfinite:
            props["satfinite"] = UnitAttr()
        super().__init__(operands=[a, b, c], result_types=[d_type], properties=props)


@irdl_op_definition
class SyncTileOp(IRDLOperation):
    """`mma.sync_tile <m32n32k16> atom <m16n8k16> %a, %b, %c`: one warp's M x N x K tile of a register atom
    (mma.sync, row.col), one op for what is (M/m) x (N/n) x (K/k) atoms. Each fragment is the tile's: the atom's
    TV layout placed in the tile, atom values first, then the repeats (TiledMma's partition of one warp). Lowered
    to the atoms, K steps chained through the accumulators."""

    name = "mma.sync_tile"
    traits = traits_def(Pure())
    shape = prop_def(ShapeAttr)
    atom_shape = prop_def(ShapeAttr)
    a = operand_def(FragmentType)
    b = operand_def(FragmentType)
    c = operand_def(FragmentType)
    d = result_def(FragmentType)
    satfinite = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$shape `atom` $atom_shape $a `,` $b `,` $c (`satfinite` $satfinite^)? attr-dict"
        " `:` type($a) `,` type($b) `,` type($c) `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], atom_shape: tuple[int, int, int], a: SSAValue, b: SSAValue,
                 c: SSAValue, d_type: Attribute, *, satfinite: bool = False):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape), "atom_shape": ShapeAttr(*atom_shape)}
        if satfinite:
            props["satfinite"] = UnitAttr()
        super().__init__(operands=[a, b, c], result_types=[d_type], properties=props)

    def verify_(self) -> None:
        sync_tile_plan(self)


@irdl_op_definition
class SparseOp(AtomOp):
    """Sparse mma.sp / mma.sp::ordered_metadata: A is 2:4 (1:2, 4:8) compressed, E its metadata."""

    name = "mma.sp"
    traits = traits_def(NoMemoryEffect())
    shape = prop_def(ShapeAttr)
    selector = prop_def(IntegerAttr)
    a = operand_def(AnyOperand)
    b = operand_def(AnyOperand)
    c = operand_def(AnyOperand)
    e = operand_def(AnyOperand)
    d = result_def(AnyOperand)
    kind = opt_prop_def(KindAttr)
    satfinite = opt_prop_def(UnitAttr)
    ordered_metadata = opt_prop_def(UnitAttr)

    assembly_format = (
        "$shape $a `,` $b `,` $c `,` $e `selector` `(` $selector `)` (`ordered_metadata` $ordered_metadata^)?"
        " (`satfinite` $satfinite^)? attr-dict"
        " `:` type($a) `,` type($b) `,` type($c) `,` type($e) `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], a: SSAValue, b: SSAValue, c: SSAValue, e: SSAValue,
                 d_type: Attribute, *, selector: int = 0, ordered_metadata: bool = True, kind: str | None = None,
                 satfinite: bool = False):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape), "selector": IntegerAttr(selector, i32)}
        if kind:
            props["kind"] = KindAttr(kind)
        if satfinite:
            props["satfinite"] = UnitAttr()
        if ordered_metadata:
            props["ordered_metadata"] = UnitAttr()
        super().__init__(operands=[a, b, c, e], result_types=[d_type], properties=props)


@irdl_op_definition
class BlockScaleOp(AtomOp):
    """SM120/121 block-scaled mma.sync: each K-block of A and B scaled by SFA/SFB."""

    name = "mma.block_scale"
    traits = traits_def(NoMemoryEffect())
    shape = prop_def(ShapeAttr)
    kind = prop_def(KindAttr)
    scale_vec = prop_def(ScaleVecAttr)
    a = operand_def(AnyOperand)
    b = operand_def(AnyOperand)
    c = operand_def(AnyOperand)
    sfa = operand_def(AnyOperand)
    sfb = operand_def(AnyOperand)
    e = opt_operand_def(AnyOperand)
    d = result_def(AnyOperand)
    byte_id = opt_prop_def(IntegerAttr)
    thread_id_a = opt_prop_def(IntegerAttr)
    thread_id_b = opt_prop_def(IntegerAttr)
    selector = opt_prop_def(IntegerAttr)

    custom_directives = (BareWord,)
    assembly_format = (
        "$shape custom<BareWord>($kind) custom<BareWord>($scale_vec) $a `,` $b `,` $c `,` `scales` `(` $sfa `,` $sfb `)`"
        " (`metadata` `(` $e^ `:` type($e) `)`)? attr-dict"
        " `:` type($a) `,` type($b) `,` type($c) `,` type($sfa) `,` type($sfb) `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], kind: str, scale_vec: str, a: SSAValue, b: SSAValue,
                 c: SSAValue, sfa: SSAValue, sfb: SSAValue, d_type: Attribute, *, e: SSAValue | None = None,
                 selector: int | None = None, byte_id: int | None = None, thread_id_a: int | None = None,
                 thread_id_b: int | None = None):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape), "kind": KindAttr(kind),
                                       "scale_vec": ScaleVecAttr(scale_vec)}
        for key, val in (("selector", selector), ("byte_id", byte_id), ("thread_id_a", thread_id_a),
                         ("thread_id_b", thread_id_b)):
            if val is not None:
                props[key] = IntegerAttr(val, i32)
        super().__init__(operands=[a, b, c, sfa, sfb, [e] if e is not None else []], result_types=[d_type],
                         properties=props)


@irdl_op_definition
class WgmmaOp(AtomOp):
    """SM90a warpgroup wgmma.mma_async: A from SMEM (descriptor) or registers, B from SMEM."""

    name = "mma.wgmma"
    traits = traits_def(MemoryReadEffect())
    shape = prop_def(ShapeAttr)
    a = operand_def(AnyOperand)
    b = operand_def(AnyOperand)
    c = operand_def(AnyOperand)
    e = opt_operand_def(AnyOperand)
    d = result_def(AnyOperand)
    scale_a = opt_prop_def(IntegerAttr)
    scale_b = opt_prop_def(IntegerAttr)
    scale_d = opt_prop_def(IntegerAttr)  # 1 (default): D = A*B + C; 0: D = A*B, C is not read
    satfinite = opt_prop_def(UnitAttr)
    bitop = opt_prop_def(BitOpAttr)
    selector = opt_prop_def(IntegerAttr)

    assembly_format = (
        "$shape $a `,` $b `,` $c (`metadata` `(` $e^ `:` type($e) `)`)? (`satfinite` $satfinite^)? attr-dict"
        " `:` type($a) `,` type($b) `,` type($c) `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], a: SSAValue, b: SSAValue, c: SSAValue, d_type: Attribute, *,
                 e: SSAValue | None = None, selector: int | None = None, scale_a: int | None = None,
                 scale_b: int | None = None, scale_d: int | None = None, satfinite: bool = False,
                 bitop: str | None = None):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape)}
        for key, val in (("selector", selector), ("scale_a", scale_a), ("scale_b", scale_b), ("scale_d", scale_d)):
            if val is not None:
                props[key] = IntegerAttr(val, i32)
        if satfinite:
            props["satfinite"] = UnitAttr()
        if bitop:
            props["bitop"] = BitOpAttr(bitop)
        super().__init__(operands=[a, b, c, [e] if e is not None else []], result_types=[d_type], properties=props)


@irdl_op_definition
class WgmmaTileOp(IRDLOperation):
    """An M x N x K warpgroup tile over the warpgroups its accumulator's TV layout spans (one to three),
    each issuing K/k steps of wgmma atoms and, per step, one atom per 64 of its rows (M = 64 x warpgroups x
    repeats, at most 256; warpgroup w's repeat i holds rows 64w + 64 * warpgroups * i, CuTe's order). B (N x K)
    is an SMEM tile, A (M x K) one too (SS) or a register fragment (RS: the tile's register-A TV layout, each
    warpgroup its accumulator's rows, K steps after the atom's values); every atom's SMEM operand is a window of
    its tile whose descriptor is the tile's with the start address advanced (as CuTe's descriptor iterator
    does), checked against the layout algebra at verification time. Issued between the kernel's own wgmma
    fence and commit/wait, like mma.wgmma."""

    name = "mma.wgmma_tile"
    traits = traits_def(MemoryReadEffect())
    shape = prop_def(ShapeAttr)
    a = operand_def(SmemDescType | FragmentType)
    b = operand_def(SmemDescType)
    c = operand_def(FragmentType)
    d = result_def(FragmentType)
    scale_a = opt_prop_def(IntegerAttr)
    scale_b = opt_prop_def(IntegerAttr)
    scale_d = opt_prop_def(IntegerAttr)
    satfinite = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$shape $a `,` $b `,` $c (`satfinite` $satfinite^)? attr-dict `:` type($a) `,` type($b) `,` type($c)"
        " `->` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], a: SSAValue, b: SSAValue, c: SSAValue, d_type: Attribute, *,
                 scale_a: int | None = None, scale_b: int | None = None, scale_d: int | None = None,
                 satfinite: bool = False):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape)}
        for key, val in (("scale_a", scale_a), ("scale_b", scale_b), ("scale_d", scale_d)):
            if val is not None:
                props[key] = IntegerAttr(val, i32)
        if satfinite:
            props["satfinite"] = UnitAttr()
        super().__init__(operands=[a, b, c], result_types=[d_type], properties=props)

    def verify_(self) -> None:
        wgmma_tile_plan(self)


@irdl_op_definition
class Tcgen05MmaOp(AtomOp):
    """SM100/103/110 tcgen05.mma: D in tensor memory, A from SMEM or TMEM, B from SMEM."""

    name = "mma.tcgen05"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    shape = prop_def(ShapeAttr)
    kind = prop_def(KindAttr)
    cta_group = prop_def(IntegerAttr)
    a = operand_def(AnyOperand)
    b = operand_def(AnyOperand)
    d = operand_def(AnyOperand)
    e = opt_operand_def(AnyOperand)
    sfa = opt_operand_def(AnyOperand)
    sfb = opt_operand_def(AnyOperand)
    scale_vec = opt_prop_def(ScaleVecAttr)
    scale_type = opt_prop_def(ScaleTypeAttr)
    accumulate = opt_prop_def(IntegerAttr)  # enable-input-d: 1 (default) D += A*B, 0 D = A*B
    disable_output_lane = opt_prop_def(DenseArrayBase)  # 4 (cta_group 1) or 8 (cta_group 2) i32 lane masks

    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    custom_directives = (BareWord,)

    assembly_format = (
        "$shape custom<BareWord>($kind) `cta_group` `(` $cta_group `)` $a `,` $b `,` $d"
        " (`metadata` `(` $e^ `:` type($e) `)`)? (`scales` `(` $sfa^ `,` $sfb `:` type($sfa) `,` type($sfb) `)`)?"
        " attr-dict `:` type($a) `,` type($b) `,` type($d)"
    )

    def __init__(self, shape: tuple[int, int, int], kind: str, cta_group: int, a: SSAValue, b: SSAValue,
                 d: SSAValue, *, e: SSAValue | None = None, sfa: SSAValue | None = None, sfb: SSAValue | None = None,
                 scale_vec: str | None = None, scale_type: str | None = None, accumulate: int | None = None,
                 disable_output_lane: Sequence[int] | None = None):
        props: dict[str, Attribute] = {"shape": ShapeAttr(*shape), "kind": KindAttr(kind),
                                       "cta_group": IntegerAttr(cta_group, i32)}
        for key, attr_class, val in (("scale_vec", ScaleVecAttr, scale_vec), ("scale_type", ScaleTypeAttr, scale_type)):
            if val:
                props[key] = attr_class(val)
        if accumulate is not None:
            props["accumulate"] = IntegerAttr(accumulate, i32)
        if disable_output_lane is not None:
            props["disable_output_lane"] = DenseArrayBase.from_list(i32, list(disable_output_lane))
        opt = lambda v: [v] if v is not None else []  # noqa: E731
        super().__init__(operands=[a, b, d, opt(e), opt(sfa), opt(sfb)], properties=props)


# -- kernel-level ops that feed atoms -------------------------------------------------------------
#
# A fragment moves between memory and registers by two layouts: its TV layout (thread, value) ->
# tile index, and a memory layout (row, col) -> element offset of the tile, both CuTe layouts. The
# tile is the operand as the catalogue sees it: A is M x K, B is N x K, C/D is M x N; its index is
# row + ROWS * col, so the memory layout's shape must be (ROWS, COLS) of that tile.


def _check_memory_layout(op_name: str, frag: FragmentType, layout: StringAttr) -> None:
    try:
        mem = parse_layout(layout.data)
        tv = frag.layout.data
    except NotationError as err:
        raise VerifyException(f"{op_name}: layout: {err}") from None
    if tv.rank() != 2:
        raise VerifyException(f"{op_name}: fragment layout {tv} must have rank 2, (threads, values)")
    if mem.rank() != 2:
        raise VerifyException(f"{op_name}: memory layout {mem} must have rank 2, (rows, cols) of the tile")
    elem = frag.elem.data
    try:  # bounds first: everything below may enumerate both layouts
        check_fragment(tv, elem, BITS[elem], "fragment layout")
        check_global_tile(mem, elem, BITS[elem], "memory layout")
    except LimitError as err:
        raise VerifyException(f"{op_name}: {err}") from None
    if mem.size() != tv.cosize():
        raise VerifyException(
            f"{op_name}: memory layout {mem} covers {mem.size()} elements; the fragment's TV layout {tv} "
            f"indexes a tile of {tv.cosize()}")
    try:
        plan_access(frag, mem)
    except FragmentAccessError as err:
        raise VerifyException(f"{op_name}: {err}") from None


@irdl_op_definition
class LoadFragmentOp(IRDLOperation):
    """Each thread loads its fragment values of a tile at `ptr + offset` (elements) placed by `layout`."""

    name = "mma.load_fragment"
    traits = traits_def(MemoryReadEffect())
    ptr = operand_def(LLVMPointerType)
    offset = opt_operand_def(IntegerType)
    layout = prop_def(StringAttr)
    res = result_def(FragmentType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$ptr (`[` $offset^ `]`)? `layout` `(` $layout `)` attr-dict `:` type($ptr) (`,` type($offset)^)?"
        " `->` type($res)"
    )

    def __init__(self, ptr: SSAValue, layout: str, frag_type: FragmentType, offset: SSAValue | None = None):
        super().__init__(operands=[ptr, [offset] if offset is not None else []], result_types=[frag_type],
                         properties={"layout": StringAttr(layout)})

    def verify_(self) -> None:
        _check_offset(self.name, self.offset)
        _check_memory_layout(self.name, self.res.type, self.layout)


@irdl_op_definition
class StoreFragmentOp(IRDLOperation):
    """Each thread stores its fragment values to a tile at `ptr + offset` (elements) placed by `layout`."""

    name = "mma.store_fragment"
    traits = traits_def(MemoryWriteEffect())
    value = operand_def(FragmentType)
    ptr = operand_def(LLVMPointerType)
    offset = opt_operand_def(IntegerType)
    layout = prop_def(StringAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$value `,` $ptr (`[` $offset^ `]`)? `layout` `(` $layout `)` attr-dict `:` type($value) `,` type($ptr)"
        " (`,` type($offset)^)?"
    )

    def __init__(self, value: SSAValue, ptr: SSAValue, layout: str, offset: SSAValue | None = None):
        super().__init__(operands=[value, ptr, [offset] if offset is not None else []],
                         properties={"layout": StringAttr(layout)})

    def verify_(self) -> None:
        _check_offset(self.name, self.offset)
        _check_memory_layout(self.name, self.value.type, self.layout)


FILLABLE = {"f32": "f32", "s32": "i32", "f64": "f64"}


@irdl_op_definition
class FillOp(IRDLOperation):
    """Every value of a fragment set to one scalar (e.g. a zero accumulator)."""

    name = "mma.fill"
    traits = traits_def(Pure())
    value = operand_def()
    res = result_def(FragmentType)
    assembly_format = "$value attr-dict `:` type($value) `->` type($res)"

    def __init__(self, value: SSAValue, frag_type: FragmentType):
        super().__init__(operands=[value], result_types=[frag_type])

    def verify_(self) -> None:
        elem = self.res.type.elem.data
        if elem not in FILLABLE:
            raise VerifyException(
                f"mma.fill: a {elem} fragment cannot be filled; fill takes {', '.join(FILLABLE)} fragments")
        if str(self.value.type) != FILLABLE[elem]:
            raise VerifyException(f"mma.fill: a {elem} fragment is filled from {FILLABLE[elem]}, not {self.value.type}")


# -- shared memory: staging tiles and building descriptors -----------------------------------------
#
# SMEM is an `llvm.mlir.global` in address space 3 (`!llvm.ptr<3>` via llvm.mlir.addressof). Swizzles
# act on byte addresses, so a swizzled tile must start on its pattern's repeat boundary (1024 B for
# 128B swizzle): the SMEM global is 1024-aligned and tile offsets are multiples of 1024.


def _check_offset(op_name: str, offset: SSAValue | None) -> None:
    if offset is not None and offset.type.width.data > 64:
        raise VerifyException(f"{op_name}: offset operand {offset.type} is wider than the 64 bits of an address")


def _check_smem_desc(op_name: str, operand: str, t: SmemDescType) -> None:
    op, layout = smem_operand(t)
    try:  # bounded by SMEM before the descriptor check enumerates the layout
        check_smem_tile(layout, op.rows, op.k, t.elem.data, op.elem_bits, operand)
    except LimitError as err:
        raise VerifyException(f"{op_name}: {err}") from None
    try:
        descriptor_view(t)
    except (DescriptorError, NotationError) as err:
        raise VerifyException(f"{op_name}: {err}") from None


@irdl_op_definition
class MakeDescOp(IRDLOperation):
    """The 64-bit SMEM matrix descriptor of the tile at `ptr`, packed from its layout (LBO, SBO and swizzle
    read off the layout algebra, the start address at run time)."""

    name = "mma.make_desc"
    traits = traits_def(Pure())
    ptr = operand_def(LLVMPointerType)
    res = result_def(SmemDescType)
    assembly_format = "$ptr attr-dict `:` type($ptr) `->` type($res)"

    def __init__(self, ptr: SSAValue, desc_type: SmemDescType):
        super().__init__(operands=[ptr], result_types=[desc_type])

    def verify_(self) -> None:
        if self.ptr.type.addr_space.data != 3:
            raise VerifyException(f"mma.make_desc: a descriptor addresses shared memory (!llvm.ptr<3>), "
                                  f"not {self.ptr.type}")
        _check_smem_desc(self.name, "result", self.res.type)


@irdl_op_definition
class CopyToSmemOp(IRDLOperation):
    """The CTA's first `threads` threads copy a tile from global memory (`src + offset` elements, placed by
    the memory `layout` over (rows, K) of the tile) into SMEM at `dst`, laid out (and swizzled) as the
    descriptor type `tile` says. 16-byte chunks: both sides must be contiguous along the SMEM layout's
    16-byte core-matrix rows, and the global tile 16-byte aligned."""

    name = "mma.copy_to_smem"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    src = operand_def(LLVMPointerType)
    offset = opt_operand_def(IntegerType)
    dst = operand_def(LLVMPointerType)
    layout = prop_def(StringAttr)
    tile = prop_def()  # a !mma.smem_desc type: the SMEM layout and swizzle the tile is written in
    threads = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    assembly_format = (
        "$src (`[` $offset^ `]`)? `layout` `(` $layout `)` `into` $dst `as` $tile `threads` `(` $threads `)`"
        " attr-dict `:` type($src) `,` type($dst) (`,` type($offset)^)?"
    )

    def __init__(self, src: SSAValue, layout: str, dst: SSAValue, tile: SmemDescType, threads: int = 128,
                 offset: SSAValue | None = None):
        super().__init__(operands=[src, [offset] if offset is not None else [], dst],
                         properties={"layout": StringAttr(layout), "tile": tile, "threads": IntegerAttr(threads, i32)})

    def verify_(self) -> None:
        if not isinstance(self.tile, SmemDescType):
            raise VerifyException(f"mma.copy_to_smem: `as` takes an !mma.smem_desc type, not {self.tile}")
        if self.dst.type.addr_space.data != 3:
            raise VerifyException(f"mma.copy_to_smem: the destination must be shared memory (!llvm.ptr<3>), "
                                  f"not {self.dst.type}")
        _check_smem_desc(self.name, "tile `as`", self.tile)
        try:  # the global side, before plan_copy walks it
            check_global_tile(parse_layout(self.layout.data), self.tile.elem.data, BITS[self.tile.elem.data],
                              "memory layout")
        except LimitError as err:
            raise VerifyException(f"mma.copy_to_smem: {err}") from None
        except NotationError as err:
            raise VerifyException(f"mma.copy_to_smem: layout: {err}") from None
        _check_offset(self.name, self.offset)
        try:
            plan_copy(smem_operand(self.tile)[0], self.tile.layout.data, self.layout.data, self.threads.value.data)
        except (SmemCopyError, NotationError) as err:
            raise VerifyException(f"mma.copy_to_smem: {err}") from None


# (source, result) element types mma.convert takes: IEEE float widening/narrowing (round to nearest
# even), s32 <-> f32, and relabelling without a type change (e.g. an f16 D fed back as an A).
CONVERTIBLE = frozenset([("f32", "f16"), ("f32", "bf16"), ("f16", "f32"), ("bf16", "f32"), ("f32", "f64"),
                         ("f64", "f32"), ("s32", "f32"), ("f32", "s32"), ("f16", "bf16"), ("bf16", "f16")])


BF16_CVT_ARCH = 80  # cvt to .bf16: sm_80 and later (bf16 -> f32 is a bit shift)


def _first_difference(src: Layout, dst: Layout) -> str:
    """Where two TV layouts of one thread count first disagree, as a clause of ConvertOp's diagnostic."""
    threads, values = src[0].size(), src[1].size()
    if threads != dst[0].size() or values != dst[1].size():
        return f" ({threads} threads x {values} values, the result {dst[0].size()} x {dst[1].size()})"
    for t in range(threads):
        held, wanted = [src((t, v)) for v in range(values)], [dst((t, v)) for v in range(values)]
        if held != wanted:
            v = next(v for v in range(values) if held[v] != wanted[v])
            how = "the same elements in another order" if sorted(held) == sorted(wanted) else "other elements"
            return (f" (thread {t} value {v} is element {held[v]} of the source, {wanted[v]} of the result: the "
                    f"thread holds {how})")
    return ""


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """Elementwise type conversion of a fragment: value (t, v) of the result is value (t, v) of the source,
    converted. The two TV layouts must be the same map, so a thread keeps its own elements (e.g. the f32 D
    of m16n8k16 becomes the f16 A of m16n8k8, or a wgmma f32 accumulator of N=16 the A of an RS wgmma)."""

    name = "mma.convert"
    traits = traits_def(Pure())
    source = operand_def(FragmentType)
    res = result_def(FragmentType)
    assembly_format = "$source attr-dict `:` type($source) `->` type($res)"

    def __init__(self, source: SSAValue, result_type: FragmentType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = self.source.type, self.res.type
        pair = (src.elem.data, dst.elem.data)
        if pair[0] != pair[1] and pair not in CONVERTIBLE:
            legal = ", ".join(f"{a}->{b}" for a, b in sorted(CONVERTIBLE))
            raise VerifyException(f"mma.convert: {pair[0]} -> {pair[1]} is not a supported conversion; "
                                  f"supported: {legal} (or the same type)")
        target = module_target(self)
        if pair[1] == "bf16" != pair[0] and target is not None and chip(target).arch < BF16_CVT_ARCH:
            raise VerifyException(f"mma.convert: {pair[0]} -> bf16 needs sm_{BF16_CVT_ARCH} or later (PTX cvt has no "
                                  f".bf16 result before); the module targets {target}")
        try:
            src_tv, dst_tv = src.layout.data, dst.layout.data
        except NotationError as err:
            raise VerifyException(f"mma.convert: {err}") from None
        if src_tv[0].size() != dst_tv[0].size() or not src_tv.equivalent(dst_tv):
            raise VerifyException(
                f"mma.convert: result layout {dst_tv} is not the source layout {src_tv}; a conversion keeps each "
                f"thread's elements in place, so the TV layouts must be the same map{_first_difference(src_tv, dst_tv)}")


# Element access for epilogues: value v of each thread's fragment (the TV layout's value index; a DSL learns
# which tile coordinate it is from the layout, e.g. TiledMma.partition_C) as a scalar, and back.
ELEMENT_SCALAR = {"f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type(), "f64": Float64Type(),
                  "s32": IntegerType(32)}
_F32 = ELEMENT_SCALAR["f32"]  # what mma.extract of an element without a scalar gives (its verifier then says why)


def _element_index(op_name: str, frag: FragmentType, index: IntegerAttr, scalar: Attribute) -> None:
    elem = frag.elem.data
    if elem not in ELEMENT_SCALAR:
        raise VerifyException(f"{op_name}: elements of a {elem} fragment are not addressable one by one; "
                              f"element access takes {', '.join(ELEMENT_SCALAR)} (mma.convert first)")
    try:
        values = frag.layout.data[1].size()
    except NotationError as err:
        raise VerifyException(f"{op_name}: {err}") from None
    i = index.value.data
    if not 0 <= i < values:
        raise VerifyException(f"{op_name}: value {i} is out of range; each thread holds values 0..{values - 1} "
                              f"of {frag}")
    if scalar != ELEMENT_SCALAR[elem]:
        raise VerifyException(f"{op_name}: a {elem} fragment's element is {ELEMENT_SCALAR[elem]}, not {scalar}")


@functools.lru_cache(maxsize=1024, typed=True)
def _value_index(index: int) -> IntegerAttr:
    """The `index` property of mma.extract / mma.insert, one attribute per index: attributes are immutable values,
    and a kernel makes ~1400 of these ops (kb.map) over a few dozen indices, each new IntegerAttr checking its range.
    An index that does not fit i32 raises here each time (a raised call is not remembered)."""
    return IntegerAttr(index, i32)


@irdl_op_definition
class ExtractOp(IRDLOperation):
    """`mma.extract %frag[v]`: this thread's value v of a fragment, as a scalar (an epilogue reads it)."""

    name = "mma.extract"
    traits = traits_def(Pure())
    source = operand_def(FragmentType)
    index = prop_def(IntegerAttr[I32])
    res = result_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$source `[` $index `]` attr-dict `:` type($source) `->` type($res)"

    def __init__(self, source: SSAValue, index: int):
        frag = source.type
        super().__init__(operands=[source], result_types=[ELEMENT_SCALAR.get(frag.elem.data, _F32)],
                         properties={"index": _value_index(index)})

    def verify_(self) -> None:
        _element_index(self.name, self.source.type, self.index, self.res.type)


@irdl_op_definition
class InsertOp(IRDLOperation):
    """`mma.insert %x, %frag[v]`: the fragment with this thread's value v replaced by %x."""

    name = "mma.insert"
    traits = traits_def(Pure())
    T: ClassVar = VarConstraint("T", BaseAttr(FragmentType))
    value = operand_def()
    dest = operand_def(T)
    index = prop_def(IntegerAttr[I32])
    res = result_def(T)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$value `,` $dest `[` $index `]` attr-dict `:` type($value) `,` type($dest)"

    def __init__(self, value: SSAValue, dest: SSAValue, index: int):
        super().__init__(operands=[value, dest], result_types=[dest.type],
                         properties={"index": _value_index(index)})

    def verify_(self) -> None:
        _element_index(self.name, self.dest.type, self.index, self.value.type)


# -- tensor memory (SM100 family) --------------------------------------------------------------------
#
# A TMEM allocation is CTA-collective: warp 0 allocates (and later frees) the columns, the address goes
# through a shared-memory slot, and every thread reads it after a CTA barrier. tcgen05.mma and its
# commit are single-thread instructions: thread 0 issues them. Every op carries its cta_group; one
# kernel uses one (ptxas rejects mixing, and verify-tmem-lifecycle says so first).


def _cta_group(op_name: str, prop: IntegerAttr) -> int:
    g = prop.value.data
    if g not in (1, 2):
        raise VerifyException(f"{op_name}: cta_group({g}) is not legal; cta_group is 1 or 2")
    return g


def _tmem_target(op: IRDLOperation) -> None:
    target = module_target(op)
    if target is not None and target not in TMEM_TARGETS:
        raise VerifyException(f"{op.name}: target {target} has no tensor memory; it needs one of "
                              f"{', '.join(sorted(TMEM_TARGETS))}")


@irdl_op_definition
class TmemAllocOp(IRDLOperation):
    """`%t = mma.tmem_alloc %slot cols(128) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x128>`."""

    name = "mma.tmem_alloc"
    traits = traits_def(MemoryAllocEffect(), MemoryWriteEffect())
    slot = operand_def(LLVMPointerType)
    cols = prop_def(IntegerAttr)
    cta_group = prop_def(IntegerAttr)
    res = result_def(TmemType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = ("$slot `cols` `(` $cols `)` `cta_group` `(` $cta_group `)` attr-dict `:` type($slot)"
                       " `->` type($res)")

    def __init__(self, slot: SSAValue, cols: int, cta_group: int, elem: str = "f32"):
        super().__init__(operands=[slot], result_types=[TmemType(elem, 128, cols)],
                         properties={"cols": IntegerAttr(cols, i32), "cta_group": IntegerAttr(cta_group, i32)})

    def verify_(self) -> None:
        _cta_group(self.name, self.cta_group)
        _tmem_target(self)
        try:
            check_alloc_columns(self.cols.value.data)
        except ValueError as err:
            raise VerifyException(f"{self.name}: {err}") from None
        t = self.res.type
        if (t.rows.value.data, t.cols.value.data) != (LANES, self.cols.value.data):
            raise VerifyException(f"{self.name}: the result type {t} must be {LANES}x{self.cols.value.data}: "
                                  f"an allocation spans all {LANES} lanes of its columns")
        if self.slot.type.addr_space.data != 3:
            raise VerifyException(f"{self.name}: the address slot must be shared memory (!llvm.ptr<3>)")


@irdl_op_definition
class TmemDeallocOp(IRDLOperation):
    """`mma.tmem_dealloc %t cta_group(1) : !mma.tmem<...>`: frees an allocation (after a CTA barrier)."""

    name = "mma.tmem_dealloc"
    traits = traits_def(MemoryFreeEffect())
    tmem = operand_def(TmemType)
    cta_group = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$tmem `cta_group` `(` $cta_group `)` attr-dict `:` type($tmem)"

    def __init__(self, tmem: SSAValue, cta_group: int):
        super().__init__(operands=[tmem], properties={"cta_group": IntegerAttr(cta_group, i32)})

    def verify_(self) -> None:
        _cta_group(self.name, self.cta_group)
        if not isinstance(self.tmem.owner, TmemAllocOp):
            raise VerifyException(f"{self.name}: frees an allocation (the result of mma.tmem_alloc), not a view")


@irdl_op_definition
class TmemRelinquishOp(IRDLOperation):
    """`mma.tmem_relinquish cta_group(1)`: this CTA allocates no more tensor memory."""

    name = "mma.tmem_relinquish"
    traits = traits_def(MemoryWriteEffect())
    cta_group = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`cta_group` `(` $cta_group `)` attr-dict"

    def __init__(self, cta_group: int):
        super().__init__(properties={"cta_group": IntegerAttr(cta_group, i32)})

    def verify_(self) -> None:
        _cta_group(self.name, self.cta_group)
        _tmem_target(self)


@irdl_op_definition
class TmemViewOp(IRDLOperation):
    """`%v = mma.tmem_view %t col(64) : !mma.tmem<f32, 128x256> -> !mma.tmem<f32, 128x64>`: columns
    [col, col + width) of a TMEM tile (the address advanced by col)."""

    name = "mma.tmem_view"
    traits = traits_def(Pure())
    tmem = operand_def(TmemType)
    col = prop_def(IntegerAttr)
    res = result_def(TmemType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$tmem `col` `(` $col `)` attr-dict `:` type($tmem) `->` type($res)"

    def __init__(self, tmem: SSAValue, col: int, view: TmemType):
        super().__init__(operands=[tmem], result_types=[view], properties={"col": IntegerAttr(col, i32)})

    def verify_(self) -> None:
        src, dst, col = self.tmem.type, self.res.type, self.col.value.data
        if dst.rows.value.data != src.rows.value.data or col < 0 or col + dst.cols.value.data > src.cols.value.data:
            raise VerifyException(f"{self.name}: columns [{col}, {col + dst.cols.value.data}) x "
                                  f"{dst.rows.value.data} lanes do not lie inside {src}")


def tmem_fragment_layout(t: TmemType) -> str:
    """The TV layout a .32x32b tcgen05.ld/st gives a 128-thread warpgroup over a 128-lane TMEM tile of 32-bit
    cells: thread t (warp t/32 reaches lanes 32(t/32)..+31) holds lane t, its register j column j."""
    rows, cols = t.rows.value.data, t.cols.value.data
    return str(Layout((rows, cols), (1, rows)))


def _check_tmem_fragment(op_name: str, t: TmemType, frag: FragmentType) -> None:
    if t.rows.value.data != 128:
        raise VerifyException(f"{op_name}: .32x32b reaches 128 lanes with 4 warps; the tile has {t.rows.value.data}")
    if BITS.get(frag.elem.data) != 32:
        raise VerifyException(f"{op_name}: only 32-bit elements move as .32x32b (one column per register); "
                              f"{frag.elem.data} is {BITS.get(frag.elem.data)}-bit")
    want = parse_layout(tmem_fragment_layout(t))
    got = frag.layout.data
    if not got.equivalent(want):
        raise VerifyException(f"{op_name}: fragment layout {got} is not the .32x32b layout {want} of {t}")


@irdl_op_definition
class TmemLoadOp(IRDLOperation):
    """`%f = mma.tmem_load %t : !mma.tmem<f32, 128xN> -> !mma.frag<D, f32, "(128,N):(1,128)">`: the
    warpgroup reads a TMEM tile with tcgen05.ld .32x32b (128 columns per instruction at most). The
    registers are valid after nvvm.tcgen05.wait <load>."""

    name = "mma.tmem_load"
    traits = traits_def(MemoryReadEffect())
    tmem = operand_def(TmemType)
    res = result_def(FragmentType)
    assembly_format = "$tmem attr-dict `:` type($tmem) `->` type($res)"

    def __init__(self, tmem: SSAValue, frag_type: FragmentType):
        super().__init__(operands=[tmem], result_types=[frag_type])

    def verify_(self) -> None:
        _check_tmem_fragment(self.name, self.tmem.type, self.res.type)


@irdl_op_definition
class TmemStoreOp(IRDLOperation):
    """`mma.tmem_store %f, %t : !mma.frag<...>, !mma.tmem<...>`: the warpgroup writes a TMEM tile with
    tcgen05.st .32x32b; it is visible to tcgen05.mma after nvvm.tcgen05.wait <store> and a fence."""

    name = "mma.tmem_store"
    traits = traits_def(MemoryWriteEffect())
    value = operand_def(FragmentType)
    tmem = operand_def(TmemType)
    assembly_format = "$value `,` $tmem attr-dict `:` type($value) `,` type($tmem)"

    def __init__(self, value: SSAValue, tmem: SSAValue):
        super().__init__(operands=[value, tmem])

    def verify_(self) -> None:
        _check_tmem_fragment(self.name, self.tmem.type, self.value.type)


@irdl_op_definition
class Tcgen05CommitOp(IRDLOperation):
    """`mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>`: thread 0 makes the mbarrier track the
    completion of every tcgen05.mma it issued before."""

    name = "mma.tcgen05_commit"
    traits = traits_def(MemoryWriteEffect())
    mbar = operand_def(LLVMPointerType)
    cta_group = prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$mbar `cta_group` `(` $cta_group `)` attr-dict `:` type($mbar)"

    def __init__(self, mbar: SSAValue, cta_group: int):
        super().__init__(operands=[mbar], properties={"cta_group": IntegerAttr(cta_group, i32)})

    def verify_(self) -> None:
        _cta_group(self.name, self.cta_group)
        _tmem_target(self)


TMEM_OPS = (TmemAllocOp, TmemDeallocOp, TmemRelinquishOp, TmemViewOp, TmemLoadOp, TmemStoreOp, Tcgen05CommitOp)


def fragment_type(atom, role: str) -> FragmentType:
    """The fragment type of `role` (A, B, C, D, E, SFA, SFB) of a catalogue atom, canonical layout included."""
    layouts = tv_layouts(atom)
    layout = layouts.get(role) or layouts["C" if role == "D" else role]
    if role in ("A", "B"):
        elem = storage_element(atom.multiplicand_type(role), atom.kind)
    elif role in ("C", "D"):
        elem = atom.d_type if role == "D" else atom.c_type
    elif role == "E":
        elem = "u32"
    else:
        elem = atom.scale_type
    return FragmentType(role, elem, str(layout))


MMA = Dialect(
    "mma",
    [SyncOp, SyncTileOp, SparseOp, BlockScaleOp, WgmmaOp, WgmmaTileOp, Tcgen05MmaOp, LoadFragmentOp, StoreFragmentOp, FillOp,
     ConvertOp, ExtractOp, InsertOp, MakeDescOp, CopyToSmemOp, *TMEM_OPS, *TMA_OPS],
    [TargetAttr, ShapeAttr, FragmentType, SmemDescType, TmemType, TensorMapType, *WORD_ATTRS],
)
