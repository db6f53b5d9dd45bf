"""The subset of upstream MLIR's NVVM dialect that mmatom emits, with upstream's op names and syntax.

What we print here must parse in upstream MLIR (checked by tests/oracle against the torch-mlir wheel,
LLVM 24.0.0git). Upstream spells these ops with an attribute dictionary:

  %d = nvvm.mma.sync A[%a0, %a1] B[%b0] C[%c0, %c1, %c2, %c3]
         {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
          multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>,
          shape = #nvvm.shape<m = 16, n = 8, k = 8>}
         : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %d = nvvm.mma.sp.sync A[...] B[...] C[...] sparseMetadata[%e] selector[%sel] {orderedMetadata, ...} : ...
  %t = nvvm.read.ptx.sreg.tid.x : i32
  nvvm.barrier

Register operand types follow upstream: f16 pairs as vector<2xf16>; bf16, tf32, integer, fp8 and b1
fragments as i32; f32, s32 (i32) and f64 scalars.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.traits import Pure
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mmatom.atoms import instr_desc
from mmatom.atoms.catalogue import Atom, AtomError, family, resolve
from mmatom.atoms.catalogue.tcgen05 import BLOCK_SCALED, DENSE_K
from mmatom.atoms.catalogue.tmem import ldst_num
from mmatom.atoms.catalogue.wgmma import imm_scale, imm_trans
from mmatom.atoms.chips import chip
from mmatom.atoms.limits import THREADS_PER_CTA

from .carried import carried_method, carry
from .mma_types import MnkShape, module_target
from .llvm_atomic import ATOMIC_OPS
from .nvvm_cp_async import CP_ASYNC_OPS
from .nvvm_hopper import HOPPER_ATTRS, HOPPER_OPS, ImpliedType, MemScopeAttr, expect_type
from .nvvm_warp import WARP_ATTRS, WARP_OPS
from .words import WordAttr, word_enum


# -- atoms: what an MMA op performs, as a catalogue atom, and its legality ---------------------------


def constant_value(v: SSAValue) -> int | None:
    """The integer an `arith.constant` operand holds, else None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _constant(op: Operation, v: SSAValue, what: str) -> int:
    value = constant_value(v)
    if value is None:
        raise VerifyException(f"{op.name}: {what} must be an arith.constant (PTX takes it as an immediate, "
                              f"and the atom is checked against it)")
    return value


def _atom(op: Operation, family_name: str, values: dict) -> Atom:
    """The typed atom `op` performs, read from its words (an op's `atom()`, `@carried_method`: read only when the
    op does not carry it from the lowering); values that are not even words of their dimensions are its
    diagnostic."""
    try:
        return family(family_name).make(values)
    except AtomError as err:
        raise VerifyException(f"{op.name}: {err}") from None


def verify_atom(op: Operation, atom: Atom) -> None:
    """`atom` is a legal form on the enclosing module's chip (no chip named: any chip)."""
    try:
        resolve(atom, module_target(op))
    except AtomError as err:
        raise VerifyException(f"{op.name}: {err}") from None


def _check_registers(op: Operation, atom: Atom, role: str, what: str, got: int) -> None:
    """A register group holds as many registers as the atom's operand takes (upstream checks counts too)."""
    spec = next(s for s in family(atom.family).operands(atom) if s.role == role)
    if got != spec.regs:
        raise VerifyException(f"{op.name}: {what} has {got} registers; {family(atom.family).spell(atom)} takes "
                              f"{spec.regs}")


# The atom of an nvvm.inline_ptx rides along as a discardable attribute of builtin attributes only, so that
# upstream MLIR parses it: {family = "wgmma", sparse = false, m = 64 : i64, acc = ["f32", "f32"], ...};
# a dimension whose value is None is left out.
ATOM_ATTR = "mma.atom"


def _builtin(value) -> Attribute:
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, tuple):
        return ArrayAttr([_builtin(v) for v in value])
    raise TypeError(f"an atom dimension value {value!r} has no builtin attribute")


def _python(attr: Attribute, key: str):
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        return bool(value) if attr.type == i1 else value
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, ArrayAttr):
        return tuple(_python(a, key) for a in attr.data)
    raise VerifyException(f"{ATOM_ATTR}: {key} = {attr} is not an integer, boolean, string or array")


def atom_attr(atom: Atom) -> DictionaryAttr:
    """`atom` as the `mma.atom` attribute (see atom_from_attr for the way back)."""
    entries: dict[str, Attribute] = {"family": StringAttr(atom.family)}
    # the named view: the attribute spells each dimension by its catalogue name
    entries.update((k, _builtin(v)) for k, v in atom.values if v is not None)
    return DictionaryAttr(entries)


def atom_from_attr(attr: Attribute) -> Atom:
    """The atom an `mma.atom` attribute describes; dimensions it leaves out are None."""
    if not isinstance(attr, DictionaryAttr) or not isinstance(attr.data.get("family"), StringAttr):
        raise VerifyException(f"{ATOM_ATTR} must be a dictionary with a string 'family', not {attr}")
    try:
        fam = family(attr.data["family"].data)
    except AtomError as err:
        raise VerifyException(f"{ATOM_ATTR}: {err}") from None
    keys = {d.key for d in fam.dims}
    unknown = sorted(k for k in attr.data if k != "family" and k not in keys)
    if unknown:
        raise VerifyException(f"{ATOM_ATTR}: {', '.join(unknown)} is not a dimension of {fam.name}; its dimensions: "
                              f"{', '.join(d.key for d in fam.dims)}")
    try:
        return fam.make({d.key: _python(attr.data[d.key], d.key) for d in fam.dims if d.key in attr.data})
    except AtomError as err:  # diagnosed as verify_atom words it, the op's name put in front by the caller
        raise VerifyException(str(err)) from None


# -- attributes -----------------------------------------------------------------------------------


MMALayout = word_enum("MMALayout", ("row", "col"))


@irdl_attr_definition
class MMALayoutAttr(WordAttr, EnumAttribute[MMALayout]):
    name = "nvvm.mma_layout"


MMAType = word_enum("MMAType", ("f16", "f32", "tf32", "bf16", "s8", "u8", "s32", "s4", "u4", "b1", "f64",
             "e4m3", "e5m2", "e3m2", "e2m3", "e2m1"))


@irdl_attr_definition
class MMATypeAttr(WordAttr, EnumAttribute[MMAType]):
    name = "nvvm.mma_type"


MMAIntOverflow = word_enum("MMAIntOverflow", ("wrapped", "satfinite"))


@irdl_attr_definition
class MMAIntOverflowAttr(WordAttr, EnumAttribute[MMAIntOverflow]):
    name = "nvvm.mma_int_overflow"


MMAB1Op = word_enum("MMAB1Op", ("none", "xor_popc", "and_popc"))


@irdl_attr_definition
class MMAB1OpAttr(WordAttr, EnumAttribute[MMAB1Op]):
    name = "nvvm.mma_b1op"


MMAKind = word_enum("MMAKind", ("f8f6f4",))


@irdl_attr_definition
class MMAKindAttr(WordAttr, EnumAttribute[MMAKind]):
    name = "nvvm.mma_kind"


@irdl_attr_definition
class MMAShapeAttr(MnkShape, ParametrizedAttribute):
    """`#nvvm.shape<m = 16, n = 8, k = 16>`."""

    name = "nvvm.shape"
    m: IntegerAttr
    n: IntegerAttr
    k: IntegerAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = {}
        with parser.in_angle_brackets():
            for i, key in enumerate("mnk"):
                if i:
                    parser.parse_punctuation(",")
                pos = parser.pos
                got = parser.parse_identifier()
                if got != key:
                    parser.raise_error(f"expected '{key} = ...' in #nvvm.shape", pos, parser.pos)
                parser.parse_punctuation("=")
                values[key] = parser.parse_integer()
        return tuple(IntegerAttr(values[k], i32) for k in "mnk")

    def print_parameters(self, printer: Printer) -> None:
        m, n, k = self.mnk
        printer.print_string(f"<m = {m}, n = {n}, k = {k}>")


# -- mma.sync / mma.sp.sync -------------------------------------------------------------------------


def _parse_group(parser: Parser, label: str) -> list[SSAValue]:
    parser.parse_characters(label)
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


def _print_group(printer: Printer, label: str, values: Sequence[SSAValue]) -> None:
    printer.print_string(f" {label}[")
    printer.print_list(values, printer.print_operand)
    printer.print_string("]")


class _MmaBase(IRDLOperation):
    # Each subclass declares operandA/B/C itself: xDSL orders a subclass's own operands before
    # inherited ones, and the operand order must be upstream's (A, B, C, then metadata, selector).
    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))

    shape = prop_def(MMAShapeAttr)
    multiplicandAPtxType = opt_prop_def(MMATypeAttr)
    multiplicandBPtxType = opt_prop_def(MMATypeAttr)
    intOverflowBehavior = opt_prop_def(MMAIntOverflowAttr)
    res = result_def(LLVMStructType)

    GROUPS: ClassVar[tuple[tuple[str, str], ...]] = (("A", "operandA"), ("B", "operandB"), ("C", "operandC"))
    # groups after A/B/C: (label, operand fields, their types)
    EXTRA: ClassVar[tuple[tuple[str, tuple[str, ...], tuple[Attribute, ...]], ...]] = ()

    @classmethod
    def parse(cls, parser: Parser):
        groups = [_parse_group(parser, label) for label, _ in cls.GROUPS[:3]]
        extra = [_parse_group(parser, label) for label, _, _ in cls.EXTRA]
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if len(in_types) != 3:
            parser.raise_error(f"expected one type per A, B, C group, got {len(in_types)}", pos, parser.pos)
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        # the type list names one type per A/B/C group; the other groups have fixed types
        operands: list = [parser.resolve_operands(g, [t] * len(g), parser.pos) for g, t in zip(groups, in_types)]
        for g, (label, _, types) in zip(extra, cls.EXTRA):
            if len(g) != len(types):
                parser.raise_error(f"{label}[...] takes {len(types)} operands, got {len(g)}")
            operands += parser.resolve_operands(g, list(types), parser.pos)
        prop_names = set(cls.get_irdl_definition().properties)
        props = {k: v for k, v in attrs.items() if k in prop_names}
        others = {k: v for k, v in attrs.items() if k not in prop_names}
        return cls.build(operands=operands, result_types=[res_type], properties=props, attributes=others)

    def print(self, printer: Printer) -> None:
        for label, field in self.GROUPS[:3]:
            _print_group(printer, label, getattr(self, field))
        for label, fields, _ in self.EXTRA:
            _print_group(printer, label, [getattr(self, f) for f in fields])
        attrs = dict(self.properties)
        attrs.pop("operandSegmentSizes", None)
        attrs.update(self.attributes)
        printer.print_op_attributes(dict(sorted(attrs.items())))
        printer.print_string(" : (")
        printer.print_list([getattr(self, f)[0].type for _, f in self.GROUPS[:3]], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        for label, field in self.GROUPS[:3]:
            vals = getattr(self, field)
            if not vals:
                raise VerifyException(f"{self.name}: the {label} group is empty")
            if len({v.type for v in vals}) != 1:
                raise VerifyException(f"{self.name}: the {label} group mixes types")
        if len(set(self.res.type.types.data)) != 1:
            raise VerifyException(f"{self.name}: result struct elements must share one type")
        atom = self.atom()
        verify_atom(self, atom)
        roles = [("A", "A[...]", len(self.operandA)), ("B", "B[...]", len(self.operandB)),
                 ("C", "C[...]", len(self.operandC)), ("D", "the result struct", len(self.res.type.types.data))]
        for role, what, got in roles:
            _check_registers(self, atom, role, what, got)

    def _elements(self) -> dict:
        """The A, B types (the PTX-type attributes, else what the registers say) and D/C accumulators."""
        def multiplicand(label: str, attr, t: Attribute) -> str:
            if attr is not None:
                return attr.data
            elem = _register_element(t, accumulator=False)
            if elem is None:
                raise VerifyException(f"{self.name}: multiplicand{label}PtxType is required: {label}'s registers of "
                                      f"type {t} do not say the element type")
            return elem

        def accumulator(label: str, t: Attribute) -> str:
            elem = _register_element(t, accumulator=True)
            if elem is None:
                raise VerifyException(f"{self.name}: {label} registers of type {t} are not an accumulator; "
                                      f"legal: f32, f64, i32 (s32), vector<2xf16>")
            return elem

        return dict(a=multiplicand("A", self.multiplicandAPtxType, self.operandA[0].type),
                    b=multiplicand("B", self.multiplicandBPtxType, self.operandB[0].type),
                    acc=(accumulator("D", self.res.type.types.data[0]), accumulator("C", self.operandC[0].type)))

    def _satfinite(self) -> bool:
        return self.intOverflowBehavior is not None and self.intOverflowBehavior.data == "satfinite"


def _register_element(t: Attribute, accumulator: bool) -> str | None:
    """The element a register of type `t` carries where the type alone says it (as upstream infers it):
    f16 pairs, f64, f32 (an accumulator; tf32 as a multiplicand) and i32 accumulators (s32)."""
    if isinstance(t, VectorType) and isinstance(t.element_type, Float16Type) and tuple(t.get_shape()) == (2,):
        return "f16"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, Float32Type):
        return "f32" if accumulator else "tf32"
    if accumulator and t == i32:
        return "s32"
    return None


@irdl_op_definition
class MmaOp(_MmaBase):
    """`nvvm.mma.sync`: a warp-level dense MMA on register fragments."""

    name = "nvvm.mma.sync"
    operandA = var_operand_def()
    operandB = var_operand_def()
    operandC = var_operand_def()
    layoutA = prop_def(MMALayoutAttr)
    layoutB = prop_def(MMALayoutAttr)
    b1Op = opt_prop_def(MMAB1OpAttr)

    @carried_method
    def atom(self) -> Atom:
        """The mma.sync atom; the f64 rounding qualifier, which upstream has no attribute for, is read from
        the discardable `mma.rounding`."""
        rounding = self.attributes.get("mma.rounding")
        b1 = self.b1Op.data if self.b1Op else None
        return _atom(self, "mma", dict(
            shape=self.shape.mnk, kind=None, **self._elements(), layout=(self.layoutA.data, self.layoutB.data),
            satfinite=self._satfinite(), bitop={"xor_popc": "xor", "and_popc": "and"}.get(b1),
            rounding=rounding.data if isinstance(rounding, StringAttr) else None))


_SPARSE_GROUPS = (("sparseMetadata", ("sparseMetadata",), (i32,)), ("selector", ("sparsitySelector",), (i32,)))


@irdl_op_definition
class MmaSpOp(_MmaBase):
    """`nvvm.mma.sp.sync`: sparse A (compressed) with 32-bit metadata and a sparsity selector."""

    name = "nvvm.mma.sp.sync"
    operandA = var_operand_def()
    operandB = var_operand_def()
    operandC = var_operand_def()
    sparseMetadata = operand_def(IntegerType)
    sparsitySelector = operand_def(IntegerType)
    orderedMetadata = opt_prop_def(UnitAttr)
    kind = opt_prop_def(MMAKindAttr)

    EXTRA: ClassVar[tuple] = _SPARSE_GROUPS

    @carried_method
    def atom(self) -> Atom:
        return _atom(self, "mma.sp", dict(
            sparse_mode="sp::ordered_metadata" if self.orderedMetadata else "sp", shape=self.shape.mnk,
            kind=self.kind.data if self.kind else None, **self._elements(), satfinite=self._satfinite(),
            selector=_constant(self, self.sparsitySelector, "the sparsity selector")))


BlockScaleFormat = word_enum("BlockScaleFormat", ("ue8m0", "ue4m3"))


@irdl_attr_definition
class BlockScaleFormatAttr(WordAttr, EnumAttribute[BlockScaleFormat]):
    name = "nvvm.block_scale_format"


BlockScaleKind = word_enum("BlockScaleKind", ("mxf8f6f4", "mxf4", "mxf4nvf4"))


@irdl_attr_definition
class BlockScaleKindAttr(WordAttr, EnumAttribute[BlockScaleKind]):
    name = "nvvm.block_scale_kind"


ScaleVecSize = word_enum("ScaleVecSize", ("x1", "x2", "x4"))


@irdl_attr_definition
class ScaleVecSizeAttr(WordAttr, EnumAttribute[ScaleVecSize]):
    name = "nvvm.scale_vec_size"


_SCALE_GROUPS = (("scaleA", ("scaleAData", "byteIdA", "threadIdA"), (i32, i16, i16)),
                 ("scaleB", ("scaleBData", "byteIdB", "threadIdB"), (i32, i16, i16)))


class _BlockScaleBase(_MmaBase):
    """Block-scaled mma.sync (SM120/121): scale-factor data (a .b32 per lane) with its byte and thread
    selectors (i16) for A and for B."""

    shape = prop_def(MMAShapeAttr)
    kind = prop_def(BlockScaleKindAttr)
    scaleVecSize = prop_def(ScaleVecSizeAttr)
    blockScaleFormat = prop_def(BlockScaleFormatAttr)

    @carried_method
    def atom(self) -> Atom:
        """The block-scaled atom; the catalogue has one byte-id, read from A's (B's is checked in verify_)."""
        sparse = isinstance(self, MmaSpBlockScaleOp)
        return _atom(self, "mma.block_scale", dict(
            sparse_mode="sp::ordered_metadata" if sparse else None, kind=self.kind.data,
            scale_vec=self.scaleVecSize.data[1:] + "X", scale_type=self.blockScaleFormat.data,
            shape=self.shape.mnk, **self._elements(),
            selector=_constant(self, self.sparsitySelector, "the sparsity selector") if sparse else 0,
            byte_id=_constant(self, self.byteIdA, "byte-id-a"),
            thread_id_a=_constant(self, self.threadIdA, "thread-id-a"),
            thread_id_b=_constant(self, self.threadIdB, "thread-id-b")))

    def byte_id_b(self) -> int:
        return _constant(self, self.byteIdB, "byte-id-b")

    def verify_(self) -> None:
        super().verify_()
        atom = self.atom()
        verify_atom(self, atom.replace(byte_id=self.byte_id_b()))


@irdl_op_definition
class MmaBlockScaleOp(_BlockScaleBase):
    """`nvvm.mma.block_scale`: D = (A * SFA) x (B * SFB) + C, each K-block of A and B scaled."""

    name = "nvvm.mma.block_scale"
    operandA = var_operand_def()
    operandB = var_operand_def()
    operandC = var_operand_def()
    scaleAData = operand_def(IntegerType)
    byteIdA = operand_def(IntegerType)
    threadIdA = operand_def(IntegerType)
    scaleBData = operand_def(IntegerType)
    byteIdB = operand_def(IntegerType)
    threadIdB = operand_def(IntegerType)

    EXTRA: ClassVar[tuple] = _SCALE_GROUPS


@irdl_op_definition
class MmaSpBlockScaleOp(_BlockScaleBase):
    """`nvvm.mma.sp.block_scale`: the sparse (ordered-metadata) block-scaled form."""

    name = "nvvm.mma.sp.block_scale"
    operandA = var_operand_def()
    operandB = var_operand_def()
    operandC = var_operand_def()
    sparseMetadata = operand_def(IntegerType)
    sparsitySelector = operand_def(IntegerType)
    scaleAData = operand_def(IntegerType)
    byteIdA = operand_def(IntegerType)
    threadIdA = operand_def(IntegerType)
    scaleBData = operand_def(IntegerType)
    byteIdB = operand_def(IntegerType)
    threadIdB = operand_def(IntegerType)
    orderedMetadata = opt_prop_def(UnitAttr)

    EXTRA: ClassVar[tuple] = _SPARSE_GROUPS + _SCALE_GROUPS



# -- special registers and barriers ---------------------------------------------------------------

SPECIAL_REGISTERS = tuple(
    [f"{r}.{a}" for r in ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid") for a in "xyz"]
    + ["laneid", "warpid", "cluster.ctarank", "cluster.nctarank"]
)


class SpecialRegisterOp(IRDLOperation):
    """`nvvm.read.ptx.sreg.<reg> : i32`."""

    res = result_def(IntegerType)
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])

    @property
    def register(self) -> str:
        """The PTX special register read, without the `%` (upstream's `cluster.ctarank` is %cluster_ctarank)."""
        return self.name.removeprefix("nvvm.read.ptx.sreg.").replace("cluster.", "cluster_")


def _sreg_class(reg: str) -> type[SpecialRegisterOp]:
    cls_name = "Read" + "".join(p.capitalize() for p in re.split(r"[._]", reg)) + "Op"
    cls = type(cls_name, (SpecialRegisterOp,), {"name": f"nvvm.read.ptx.sreg.{reg}", "__doc__": f"Reads %{reg}."})
    return irdl_op_definition(cls)


SREG_OPS: dict[str, type[SpecialRegisterOp]] = {reg: _sreg_class(reg) for reg in SPECIAL_REGISTERS}


BarrierReduction = word_enum("BarrierReduction", ("and", "or", "popc"))


@irdl_attr_definition
class BarrierReductionAttr(WordAttr, EnumAttribute[BarrierReduction]):
    """`#nvvm.reduction<and|or|popc>`: what a reducing nvvm.barrier computes over its threads' predicates."""

    name = "nvvm.reduction"


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`nvvm.barrier`: the CTA-wide barrier (bar.sync 0); `nvvm.barrier id = %id number_of_threads = %n`: named
    barrier `id` (0..15) among `n` threads (a multiple of 32), e.g. one warpgroup's. With
    a reduction first -- `%r = nvvm.barrier #nvvm.reduction<or> %pred id = %id number_of_threads = %n -> i32`
    (upstream's form, which upstream lowers for barrier 0) -- it also reduces the threads' predicates (%pred != 0):
    and / or give every thread 1 or 0, popc how many held (PTX bar.red) -- one thread's finding handed to all."""

    name = "nvvm.barrier"
    barrierId = opt_operand_def(ImpliedType(i32))
    numberOfThreads = opt_operand_def(ImpliedType(i32))
    reductionPredicate = opt_operand_def(ImpliedType(i32))
    reductionOp = opt_prop_def(BarrierReductionAttr)
    res = opt_result_def(ImpliedType(i32))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, barrier_id: SSAValue | None = None, threads: SSAValue | None = None,
                 reduction: str | None = None, predicate: SSAValue | None = None):
        reduced = reduction is not None
        super().__init__(operands=[[barrier_id] if barrier_id else [], [threads] if threads else [],
                                   [predicate] if reduced else []],
                         properties={"reductionOp": BarrierReductionAttr(BarrierReduction(reduction))} if reduced
                         else {}, result_types=[[i32] if reduced else []])

    @classmethod
    def parse(cls, parser: Parser):
        reduction = predicate = None
        if parser._current_token.text.startswith("#"):  # first: `%n #...` would read as a result index of %n
            pos = parser.pos
            attr = parser.parse_attribute()
            if not isinstance(attr, BarrierReductionAttr):
                parser.raise_error(f"{cls.name}: {attr} is not a reduction; #nvvm.reduction<and|or|popc>", pos,
                                   parser.pos)
            reduction = attr.data.value
            predicate = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        found = {}
        for word, key in (("id", "id"), ("number_of_threads", "threads")):
            if parser.parse_optional_keyword(word):
                parser.parse_punctuation("=")
                found[key] = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        if reduction is not None:
            parser.parse_punctuation("->")
            pos = parser.pos
            if parser.parse_type() != i32:
                parser.raise_error(f"{cls.name}: a reduction's result is i32", pos, parser.pos)
        op = cls(found.get("id"), found.get("threads"), reduction, predicate)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        if self.reductionOp is not None:
            printer.print_string(" ")
            printer.print_attribute(self.reductionOp)
            printer.print_string(" ")
            printer.print_operand(self.reductionPredicate)
        for word, value in (("id", self.barrierId), ("number_of_threads", self.numberOfThreads)):
            if value is not None:
                printer.print_string(f" {word} = ")
                printer.print_operand(value)
        if self.reductionOp is not None:
            printer.print_string(" -> i32")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.barrierId is None and self.numberOfThreads is not None:
            raise VerifyException("nvvm.barrier: number_of_threads without an id; a named barrier is "
                                  "`nvvm.barrier id = %id number_of_threads = %n`")
        if (self.reductionOp is None) != (self.reductionPredicate is None) or \
                (self.reductionOp is None) != (self.res is None):
            raise VerifyException("nvvm.barrier: a reduction takes its kind, a predicate and an i32 result "
                                  "together (`#nvvm.reduction<or> %pred -> i32`)")
        _verify_named_barrier(self)


def _verify_named_barrier(op: IRDLOperation) -> None:
    """The id (0..15, default 0) and thread count (whole warps of one CTA) of nvvm.barrier / barrier.arrive."""
    for value, what in ((op.barrierId, "the id"), (op.numberOfThreads, "number_of_threads")):
        if value is not None:
            expect_type(op, value, i32, what)
    bid = constant_value(op.barrierId) if op.barrierId is not None else 0
    if bid is not None and not 0 <= bid <= 15:
        raise VerifyException(f"{op.name}: id {bid} is not legal; a CTA has barriers 0 to 15")
    n = constant_value(op.numberOfThreads) if op.numberOfThreads is not None else None
    if n is not None and (not 0 < n <= THREADS_PER_CTA or n % 32):
        raise VerifyException(f"{op.name}: number_of_threads {n} is not legal; it is a multiple of 32 (whole "
                              f"warps) in [32, {THREADS_PER_CTA}]")


@irdl_op_definition
class BarrierArriveOp(IRDLOperation):
    """`nvvm.barrier.arrive id = %id number_of_threads = %n` (bar.arrive id, n): this thread's arrival at named
    barrier `id` among `n` threads, without waiting -- the producer's half of a barrier other threads `bar.sync`
    on (e.g. one warpgroup telling another it may go on). Upstream's spelling; the id defaults to 0."""

    name = "nvvm.barrier.arrive"
    barrierId = opt_operand_def(ImpliedType(i32))
    numberOfThreads = operand_def(ImpliedType(i32))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"

    def __init__(self, barrier_id: SSAValue | None, threads: SSAValue):
        super().__init__(operands=[[barrier_id] if barrier_id else [], threads])

    def verify_(self) -> None:
        _verify_named_barrier(self)


# -- wgmma (sm_90a) and the async proxy fence ------------------------------------------------------


WgmmaType = word_enum("WgmmaType", ("f16", "tf32", "u8", "s8", "b1", "bf16", "e4m3", "e5m2", "f32", "s32"))


@irdl_attr_definition
class WgmmaTypeAttr(WordAttr, EnumAttribute[WgmmaType]):
    name = "nvvm.wgmma_type"


WgmmaScaleOut = word_enum("WgmmaScaleOut", ("zero", "one"))


@irdl_attr_definition
class WgmmaScaleOutAttr(WordAttr, EnumAttribute[WgmmaScaleOut]):
    name = "nvvm.wgmma_scale_out"


WgmmaScaleIn = word_enum("WgmmaScaleIn", ("one", "neg"))


@irdl_attr_definition
class WgmmaScaleInAttr(WordAttr, EnumAttribute[WgmmaScaleIn]):
    name = "nvvm.wgmma_scale_in"


ProxyKind = word_enum("ProxyKind", ("alias", "async", "async.global", "async.shared"))


@irdl_attr_definition
class ProxyKindAttr(WordAttr, EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"


SharedSpace = word_enum("SharedSpace", ("cta", "cluster"))


@irdl_attr_definition
class SharedSpaceAttr(WordAttr, EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"


def _parse_short(parser: Parser, attr_cls: type[WordAttr]) -> WordAttr:
    """`<word>` (upstream's short form inside the D/A/B groups) or the full `#nvvm.x<word>`."""
    parser.parse_optional_characters("#" + attr_cls.name)
    return attr_cls(attr_cls.parse_parameter(parser))


@irdl_op_definition
class WgmmaMmaAsyncOp(IRDLOperation):
    """`nvvm.wgmma.mma_async`: the SS form (A and B by 64-bit SMEM descriptors), upstream spelling:

      %d = nvvm.wgmma.mma_async %descA, %descB, %acc, <m = 64, n = 64, k = 16>, D[<f32>, <one>],
             A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(...)> -> !llvm.struct<(...)>

    layoutA row / layoutB col are K-major (imm-trans 0); col / row are MN-major (imm-trans 1).
    D's optional third entry is `<satfinite>` for integer types."""

    name = "nvvm.wgmma.mma_async"
    descriptorA = operand_def(IntegerType)
    descriptorB = operand_def(IntegerType)
    inouts = operand_def(LLVMStructType)
    res = result_def(LLVMStructType)
    shape = prop_def(MMAShapeAttr)
    typeD = prop_def(WgmmaTypeAttr)
    scaleD = prop_def(WgmmaScaleOutAttr)
    satfinite = opt_prop_def(MMAIntOverflowAttr)
    typeA = prop_def(WgmmaTypeAttr)
    scaleA = prop_def(WgmmaScaleInAttr)
    layoutA = prop_def(MMALayoutAttr)
    typeB = prop_def(WgmmaTypeAttr)
    scaleB = prop_def(WgmmaScaleInAttr)
    layoutB = prop_def(MMALayoutAttr)

    @classmethod
    def parse(cls, parser: Parser):
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        parser.parse_optional_characters("#nvvm.shape")
        props: dict[str, Attribute] = {"shape": MMAShapeAttr(*(a.value.data for a in MMAShapeAttr.parse_parameters(parser)))}
        for group, fields in (("D", (("typeD", WgmmaTypeAttr), ("scaleD", WgmmaScaleOutAttr), ("satfinite", MMAIntOverflowAttr))),
                              ("A", (("typeA", WgmmaTypeAttr), ("scaleA", WgmmaScaleInAttr), ("layoutA", MMALayoutAttr))),
                              ("B", (("typeB", WgmmaTypeAttr), ("scaleB", WgmmaScaleInAttr), ("layoutB", MMALayoutAttr)))):
            parser.parse_punctuation(",")
            parser.parse_characters(group)
            parser.parse_punctuation("[")
            for i, (key, attr_cls) in enumerate(fields):
                if i and parser.parse_optional_punctuation(",") is None:
                    break
                props[key] = _parse_short(parser, attr_cls)
            parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        acc_type = parser.parse_type()
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        i64 = IntegerType(64)
        resolved = parser.resolve_operands(operands, [i64, i64, acc_type], parser.pos)
        return cls.build(operands=resolved, result_types=[res_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.descriptorA, self.descriptorB, self.inouts], printer.print_operand)
        short = lambda a: f"<{a.data}>"  # noqa: E731
        m, n, k = self.shape.mnk
        d = [short(self.typeD), short(self.scaleD)] + ([short(self.satfinite)] if self.satfinite else [])
        printer.print_string(
            f", <m = {m}, n = {n}, k = {k}>, D[{', '.join(d)}], "
            f"A[{short(self.typeA)}, {short(self.scaleA)}, {short(self.layoutA)}], "
            f"B[{short(self.typeB)}, {short(self.scaleB)}, {short(self.layoutB)}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.inouts.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.inouts.type != self.res.type:
            raise VerifyException(f"{self.name}: the accumulator struct {self.inouts.type} and the result "
                                  f"{self.res.type} must be the same type")
        for name in ("descriptorA", "descriptorB"):
            if getattr(self, name).type != IntegerType(64):
                raise VerifyException(f"{self.name}: {name} must be an i64 SMEM descriptor")
        atom = self.atom()
        verify_atom(self, atom)
        _check_registers(self, atom, "D", "the accumulator struct", len(self.inouts.type.types.data))

    @carried_method
    def atom(self) -> Atom:
        """The SS wgmma atom. layoutA row / layoutB col are K-major (imm-trans 0), the others MN-major (1),
        which only f16/bf16 can transpose; imm-scale is 1 or -1, absent on integer types unless negated
        (which the catalogue then rejects, as upstream does)."""
        a = self.typeA.data

        def trans(layout: MMALayoutAttr, k_major: str) -> int | None:
            return imm_trans(a, layout.data != k_major)

        def scale(attr: WgmmaScaleInAttr) -> int | None:
            return imm_scale(a, -1 if attr.data == "neg" else None)

        m, n, k = self.shape.mnk
        return _atom(self, "wgmma", dict(
            sparse=False, a=a, b=self.typeB.data, d=self.typeD.data, m=m, n=n, k=k,
            satfinite=self.satfinite is not None and self.satfinite.data == "satfinite",
            bitop="and" if a == "b1" else None, a_residency="smem_desc", trans_a=trans(self.layoutA, "row"),
            trans_b=trans(self.layoutB, "col"), scale_a=scale(self.scaleA), scale_b=scale(self.scaleB), selector=None))


@irdl_op_definition
class WgmmaFenceAlignedOp(IRDLOperation):
    """`nvvm.wgmma.fence.aligned`: orders register accesses before the wgmma that reads them."""

    name = "nvvm.wgmma.fence.aligned"
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaGroupSyncAlignedOp(IRDLOperation):
    """`nvvm.wgmma.commit.group.sync.aligned`: closes the group of wgmma issued since the last commit."""

    name = "nvvm.wgmma.commit.group.sync.aligned"
    assembly_format = "attr-dict"


MAX_PENDING_GROUPS = 2**63 - 1


@irdl_op_definition
class WgmmaWaitGroupSyncOp(IRDLOperation):
    """`nvvm.wgmma.wait.group.sync.aligned N`: waits until at most N committed groups are in flight."""

    name = "nvvm.wgmma.wait.group.sync.aligned"
    group = prop_def(IntegerAttr)

    def __init__(self, group: int):
        super().__init__(properties={"group": IntegerAttr(group, IntegerType(64))})

    @property
    def pending(self) -> int:
        return self.group.value.data

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        group = parser.parse_integer(allow_negative=False, allow_boolean=False)
        if group > MAX_PENDING_GROUPS:  # the i64 attribute would wrap it to a negative count
            parser.raise_error(f"wgmma.wait_group {group}: the pending-group count is an i64, at most "
                               f"{MAX_PENDING_GROUPS}", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        op = cls(group)
        op.attributes.update(attrs)
        return op

    def verify_(self) -> None:
        if not 0 <= self.pending <= MAX_PENDING_GROUPS:
            raise VerifyException(f"{self.name}: {self.pending} pending groups is not legal; N is in "
                                  f"[0, {MAX_PENDING_GROUPS}]")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pending}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class FenceProxyOp(IRDLOperation):
    """`nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}`:
    makes generic-proxy SMEM writes visible to the async proxy (wgmma, TMA)."""

    name = "nvvm.fence.proxy"
    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, kind: str = "async.shared", space: str | None = "cta"):
        props: dict[str, Attribute] = {"kind": ProxyKindAttr(kind)}
        if space:
            props["space"] = SharedSpaceAttr(space)
        super().__init__(properties=props)


@irdl_op_definition
class InlinePtxOp(IRDLOperation):
    """`%r:N = nvvm.inline_ptx "ptx" ro(%a, %b : ta, tb) -> t, t`: upstream's way to spell an instruction
    that has no NVVM op of its own. In the PTX text, $0.. are the results, then the read-only operands."""

    name = "nvvm.inline_ptx"
    readOnlyArgs = var_operand_def()
    ptxCode = prop_def(StringAttr)
    res = var_result_def()

    def __init__(self, ptx: str, read_only: Sequence[SSAValue], result_types: Sequence[Attribute],
                 atom: Atom | None = None):
        super().__init__(operands=[list(read_only)], result_types=[list(result_types)],
                         properties={"ptxCode": StringAttr(ptx)},
                         attributes={ATOM_ATTR: atom_attr(atom)} if atom is not None else {})
        if atom is not None:
            carry(self, atom)  # the atom given, not read back from the attribute that spells it for upstream

    @carried_method
    def atom(self) -> Atom | None:
        """The MMA atom the PTX text performs, as its `mma.atom` attribute says; None without one (the
        text itself is not read)."""
        attr = self.attributes.get(ATOM_ATTR)
        if attr is None:
            return None
        try:
            return atom_from_attr(attr)
        except VerifyException as err:
            raise VerifyException(f"{self.name}: {err}") from None

    def verify_(self) -> None:
        atom = self.atom()
        if atom is None:
            return
        verify_atom(self, atom)
        spelled = family(atom.family).spell(atom)
        if spelled + " " not in self.ptxCode.data:
            raise VerifyException(f"{self.name}: {ATOM_ATTR} is {spelled}, which the PTX text does not issue")

    @classmethod
    def parse(cls, parser: Parser):
        code = parser.parse_str_literal(" (the PTX text)")
        operands, types = [], []
        if parser.parse_optional_characters("ro") is not None:
            parser.parse_punctuation("(")
            operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        results = []
        if parser.parse_optional_punctuation("->") is not None:
            results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(code, parser.resolve_operands(operands, types, parser.pos), results)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.ptxCode.data)
        if self.readOnlyArgs:
            printer.print_string(" ro(")
            printer.print_list(self.readOnlyArgs, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.readOnlyArgs], printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)


# -- tcgen05 (sm_100 family): tensor memory, the single-thread MMA, commit, fences; mbarriers ---------
#
# Upstream's spelling (torch-mlir's MLIR): a TMEM address is an !llvm.ptr<6> (a 32-bit lane<<16 | column
# value), SMEM descriptors are i64, the instruction descriptor is i32, enable-input-d is i1.


TMEM_PTR = LLVMPointerType(IntAttr(6))


CTAGroup = word_enum("CTAGroup", ("cta_1", "cta_2"))


@irdl_attr_definition
class CTAGroupAttr(WordAttr, EnumAttribute[CTAGroup]):
    name = "nvvm.cta_group"

    @property
    def ctas(self) -> int:
        return int(self.data[-1])


Tcgen05MmaKind = word_enum("Tcgen05MmaKind", ("f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"))


@irdl_attr_definition
class Tcgen05MmaKindAttr(WordAttr, EnumAttribute[Tcgen05MmaKind]):
    name = "nvvm.tcgen05_mma_kind"


# upstream's block-scale attribute knows default/block16/block32 only; the equivalent scale_vec::1X/2X/4X
# spelling (arch-specific targets only) rides along as this discardable attribute
SCALE_VEC_ATTR = "mma.scale_vec"


Tcgen05BlockScale = word_enum("Tcgen05BlockScale", ("default", "block16", "block32"))


@irdl_attr_definition
class Tcgen05BlockScaleAttr(WordAttr, EnumAttribute[Tcgen05BlockScale]):
    name = "nvvm.tcgen05_mma_block_scale"


Tcgen05LdStShape = word_enum("Tcgen05LdStShape", ("shape_16x64b", "shape_16x128b", "shape_16x256b", "shape_32x32b",
                                        "shape_16x32bx2"))


@irdl_attr_definition
class Tcgen05LdStShapeAttr(WordAttr, EnumAttribute[Tcgen05LdStShape]):
    name = "nvvm.tcgen05_ldst_shape"


Tcgen05Fence = word_enum("Tcgen05Fence", ("before", "after"))


@irdl_attr_definition
class Tcgen05FenceAttr(WordAttr, EnumAttribute[Tcgen05Fence]):
    name = "nvvm.tcgen05_fence"


Tcgen05Wait = word_enum("Tcgen05Wait", ("load", "store"))


@irdl_attr_definition
class Tcgen05WaitAttr(WordAttr, EnumAttribute[Tcgen05Wait]):
    name = "nvvm.tcgen05_wait"


class _CtaGroupOp(IRDLOperation):
    irdl_options = (ParsePropInAttrDict(),)
    group = opt_prop_def(CTAGroupAttr)

    @property
    def ctas(self) -> int:
        return self.group.ctas if self.group is not None else 1


@irdl_op_definition
class Tcgen05AllocOp(_CtaGroupOp):
    """`nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32`: the warp allocates ncols TMEM columns and
    writes their address to the shared-memory slot."""

    name = "nvvm.tcgen05.alloc"
    addr = operand_def()
    nCols = operand_def(IntegerType)
    assembly_format = "$addr `,` $nCols attr-dict `:` type($addr) `,` type($nCols)"


@irdl_op_definition
class Tcgen05DeallocOp(_CtaGroupOp):
    """`nvvm.tcgen05.dealloc %taddr, %ncols : !llvm.ptr<6>, i32`."""

    name = "nvvm.tcgen05.dealloc"
    taddr = operand_def()
    nCols = operand_def(IntegerType)
    assembly_format = "$taddr `,` $nCols attr-dict `:` type($taddr) `,` type($nCols)"


@irdl_op_definition
class Tcgen05RelinquishOp(_CtaGroupOp):
    """`nvvm.tcgen05.relinquish_alloc_permit`: this CTA allocates no more TMEM."""

    name = "nvvm.tcgen05.relinquish_alloc_permit"
    assembly_format = "attr-dict"


@irdl_op_definition
class Tcgen05CommitOp(_CtaGroupOp):
    """`nvvm.tcgen05.commit %mbar : !llvm.ptr<3>`: the mbarrier gets one arrive once every tcgen05.mma
    this thread issued before has completed."""

    name = "nvvm.tcgen05.commit"
    addr = operand_def()
    assembly_format = "$addr attr-dict `:` type($addr)"


class _KindWordOp(IRDLOperation):
    """An op whose only operand-free content is `<word>` (upstream prints the enum without its prefix)."""

    ATTR: ClassVar[type]

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        with parser.in_angle_brackets():
            word = parser.parse_identifier()
        if word not in cls.ATTR.words():
            parser.raise_error(f"'{word}' is not one of {', '.join(cls.ATTR.words())}", pos, parser.pos)
        op = cls.build(properties={"kind": cls.ATTR(word)})
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.kind.data}>")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class Tcgen05FenceOp(_KindWordOp):
    """`nvvm.tcgen05.fence <before>` / `<after>`: orders tcgen05 work around a thread synchronisation."""

    name = "nvvm.tcgen05.fence"
    ATTR: ClassVar[type] = Tcgen05FenceAttr
    kind = prop_def(Tcgen05FenceAttr)


@irdl_op_definition
class Tcgen05WaitOp(_KindWordOp):
    """`nvvm.tcgen05.wait <load>` / `<store>`: waits for this thread's tcgen05.ld / tcgen05.st."""

    name = "nvvm.tcgen05.wait"
    ATTR: ClassVar[type] = Tcgen05WaitAttr
    kind = prop_def(Tcgen05WaitAttr)


def ldst_shape(op: Tcgen05LdOp | Tcgen05StOp) -> str:
    """The PTX shape qualifier of a tcgen05.ld/st, e.g. 32x32b."""
    return op.shape.data.removeprefix("shape_")


@irdl_op_definition
class Tcgen05LdOp(IRDLOperation):
    """`%v = nvvm.tcgen05.ld %taddr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<Nxi32>`."""

    name = "nvvm.tcgen05.ld"
    irdl_options = (ParsePropInAttrDict(),)
    tmemAddr = operand_def()
    shape = prop_def(Tcgen05LdStShapeAttr)
    pack = opt_prop_def(UnitAttr)
    res = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser):
        addr = parser.parse_unresolved_operand()
        pack = parser.parse_optional_characters("pack") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        res = parser.parse_type()
        props = {k: v for k, v in attrs.items() if k == "shape"} | ({"pack": UnitAttr()} if pack else {})
        op = cls.build(operands=[parser.resolve_operand(addr, TMEM_PTR)], result_types=[res], properties=props)
        op.attributes.update({k: v for k, v in attrs.items() if k != "shape"})
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tmemAddr)
        if self.pack is not None:
            printer.print_string(" pack")
        printer.print_op_attributes({"shape": self.shape} | dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        check_ldst_registers(self.name, ldst_shape(self), self.res.type.get_shape()[0])


@irdl_op_definition
class Tcgen05StOp(IRDLOperation):
    """`nvvm.tcgen05.st %taddr, %v {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<Nxi32>`."""

    name = "nvvm.tcgen05.st"
    irdl_options = (ParsePropInAttrDict(),)
    tmemAddr = operand_def()
    val = operand_def(VectorType)
    shape = prop_def(Tcgen05LdStShapeAttr)
    unpack = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser):
        addr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        unpack = parser.parse_optional_characters("unpack") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        props = {k: v for k, v in attrs.items() if k == "shape"} | ({"unpack": UnitAttr()} if unpack else {})
        op = cls.build(operands=[parser.resolve_operand(addr, TMEM_PTR), parser.resolve_operand(val, t)],
                       properties=props)
        op.attributes.update({k: v for k, v in attrs.items() if k != "shape"})
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tmemAddr)
        printer.print_string(", ")
        printer.print_operand(self.val)
        if self.unpack is not None:
            printer.print_string(" unpack")
        printer.print_op_attributes({"shape": self.shape} | dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.val.type)

    def verify_(self) -> None:
        check_ldst_registers(self.name, ldst_shape(self), self.val.type.get_shape()[0])


def check_ldst_registers(op_name: str, shape: str, registers: int) -> None:
    """ISA Tables 49/50 (reference D8): registers = .num x the shape's factor, .num in x1..x128."""
    try:
        ldst_num(shape, registers)
    except ValueError as err:
        raise VerifyException(f"{op_name}: {err}") from None


class _Tcgen05MmaBase(IRDLOperation):
    """`nvvm.tcgen05.mma[.sp][.block_scale] %d, %a, %b, [%e,] %idesc, %enable [, %sfa, %sfb] [mask = %m]
    {kind, ctaGroup[, blockScale]} : (types)`; upstream's operand order (the PTX order differs)."""

    irdl_options = (ParsePropInAttrDict(), AttrSizedOperandSegments(as_property=True))
    kind = prop_def(Tcgen05MmaKindAttr)
    ctaGroup = prop_def(CTAGroupAttr)
    ORDER: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse(cls, parser: Parser):
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        mask = []
        if parser.parse_optional_characters("mask") is not None:
            parser.parse_punctuation("=")
            mask = [parser.parse_unresolved_operand()]
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        values = parser.resolve_operands(operands + mask, types, parser.pos)
        fixed = values[:len(cls.ORDER)]
        groups = [[v] for v in fixed] + ([values[len(cls.ORDER):]] if "disableOutputLane" in cls._fields() else [])
        prop_names = set(cls.get_irdl_definition().properties)
        props = {k: v for k, v in attrs.items() if k in prop_names}
        op = cls.build(operands=groups, properties=props)
        op.attributes.update({k: v for k, v in attrs.items() if k not in prop_names})
        return op

    @classmethod
    def _fields(cls) -> tuple[str, ...]:
        return tuple(name for name, _ in cls.get_irdl_definition().operands)

    def verify_(self) -> None:
        scaled = isinstance(self, (Tcgen05MmaBlockScaleOp, Tcgen05MmaSpBlockScaleOp))
        if (self.kind.data in BLOCK_SCALED) != scaled:
            legal = BLOCK_SCALED if scaled else tuple(k for k in Tcgen05MmaKindAttr.words() if k not in BLOCK_SCALED)
            raise VerifyException(f"{self.name}: kind {self.kind.data} is not legal here; legal kinds: "
                                  f"{', '.join(legal)}")
        verify_atom(self, self.atom())

    @carried_method
    def atom(self) -> Atom:
        """The tcgen05.mma atom: kind, cta_group and sparsity from the op, A's residency from its type, the
        rest decoded from the instruction descriptor (a constant)."""
        kind = self.kind.data
        word = _constant(self, self.idesc, "the instruction descriptor")
        try:
            f = instr_desc.unpack(word, kind)
        except (KeyError, ValueError) as err:
            raise VerifyException(f"{self.name}: the instruction descriptor {word:#x} does not decode for "
                                  f"kind::{kind}: {err}") from None
        sparse = isinstance(self, (Tcgen05MmaSpOp, Tcgen05MmaSpBlockScaleOp))
        scale_vec = None
        if kind in BLOCK_SCALED:
            spelled = self.attributes.get(SCALE_VEC_ATTR)
            block = self.blockScale.data if getattr(self, "blockScale", None) is not None else "default"
            scale_vec = spelled.data if isinstance(spelled, StringAttr) else (None if block == "default" else block)
        return _atom(self, "tcgen05.mma", dict(
            sparse=sparse, cta_group=self.ctaGroup.ctas, kind=kind, scale_vec=scale_vec, a=f.a, b=f.b,
            d=f.d if kind not in BLOCK_SCALED else "f32", scale_type=f.scale_type, m=f.m, n=f.n,
            k=96 if f.k96 else DENSE_K[kind] * (2 if sparse else 1),
            a_residency="tmem" if isinstance(self.matrixA.type, LLVMPointerType) and self.matrixA.type == TMEM_PTR
            else "smem_desc"))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([getattr(self, f) for f in self.ORDER], printer.print_operand)
        mask = getattr(self, "disableOutputLane", None)
        if mask is not None:
            printer.print_string(" mask = ")
            printer.print_operand(mask)
        attrs = {k: v for k, v in self.properties.items() if k != "operandSegmentSizes"}
        attrs.update(self.attributes)
        printer.print_op_attributes(dict(sorted(attrs.items())))
        printer.print_string(" : (")
        printer.print_list([getattr(self, f).type for f in self.ORDER] + ([mask.type] if mask is not None else []),
                           printer.print_attribute)
        printer.print_string(")")


@irdl_op_definition
class Tcgen05MmaOp(_Tcgen05MmaBase):
    name = "nvvm.tcgen05.mma"
    matrixD = operand_def()
    matrixA = operand_def()
    matrixB = operand_def(IntegerType)
    idesc = operand_def(IntegerType)
    enableInputD = operand_def(IntegerType)
    disableOutputLane = opt_operand_def(VectorType)
    ORDER: ClassVar[tuple[str, ...]] = ("matrixD", "matrixA", "matrixB", "idesc", "enableInputD")


@irdl_op_definition
class Tcgen05MmaSpOp(_Tcgen05MmaBase):
    name = "nvvm.tcgen05.mma.sp"
    matrixD = operand_def()
    matrixA = operand_def()
    matrixB = operand_def(IntegerType)
    idesc = operand_def(IntegerType)
    enableInputD = operand_def(IntegerType)
    sparseMetadata = operand_def()
    disableOutputLane = opt_operand_def(VectorType)
    ORDER: ClassVar[tuple[str, ...]] = ("matrixD", "matrixA", "matrixB", "idesc", "enableInputD", "sparseMetadata")


@irdl_op_definition
class Tcgen05MmaBlockScaleOp(_Tcgen05MmaBase):
    name = "nvvm.tcgen05.mma.block_scale"
    matrixD = operand_def()
    matrixA = operand_def()
    matrixB = operand_def(IntegerType)
    idesc = operand_def(IntegerType)
    enableInputD = operand_def(IntegerType)
    scaleA = operand_def()
    scaleB = operand_def()
    blockScale = opt_prop_def(Tcgen05BlockScaleAttr)
    ORDER: ClassVar[tuple[str, ...]] = ("matrixD", "matrixA", "matrixB", "idesc", "enableInputD", "scaleA", "scaleB")


@irdl_op_definition
class Tcgen05MmaSpBlockScaleOp(_Tcgen05MmaBase):
    name = "nvvm.tcgen05.mma.sp.block_scale"
    matrixD = operand_def()
    matrixA = operand_def()
    matrixB = operand_def(IntegerType)
    idesc = operand_def(IntegerType)
    enableInputD = operand_def(IntegerType)
    sparseMetadata = operand_def()
    scaleA = operand_def()
    scaleB = operand_def()
    blockScale = opt_prop_def(Tcgen05BlockScaleAttr)
    ORDER: ClassVar[tuple[str, ...]] = ("matrixD", "matrixA", "matrixB", "idesc", "enableInputD", "sparseMetadata",
                                        "scaleA", "scaleB")


TCGEN05_MMA_OPS = (Tcgen05MmaOp, Tcgen05MmaSpOp, Tcgen05MmaBlockScaleOp, Tcgen05MmaSpBlockScaleOp)


@irdl_op_definition
class MBarrierInitOp(IRDLOperation):
    """`nvvm.mbarrier.init %mbar, %count : !llvm.ptr<3>, i32`."""

    name = "nvvm.mbarrier.init"
    addr = operand_def()
    count = operand_def(IntegerType)
    assembly_format = "$addr `,` $count attr-dict `:` type($addr) `,` type($count)"


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """`nvvm.mbarrier.try_wait.parity %mbar, %phase, %ticks : !llvm.ptr<3>, i32, i32`: returns once the
    barrier's phase with this parity has completed (PTX: a try_wait loop), acquiring at CTA scope --
    `{scope = #nvvm.mem_scope<cluster>}` at cluster scope: the waiter then sees what another CTA of the cluster
    released to the barrier (its st.async words, its writes before a remote arrival)."""

    name = "nvvm.mbarrier.try_wait.parity"
    addr = operand_def()
    phase = operand_def(IntegerType)
    ticks = operand_def(IntegerType)
    scope = opt_prop_def(MemScopeAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr `,` $phase `,` $ticks attr-dict `:` type($addr) `,` type($phase) `,` type($ticks)"

    def verify_(self) -> None:
        if self.scope is not None and self.scope.data not in ("cta", "cluster"):
            raise VerifyException(f"{self.name}: scope {self.scope.data}; a barrier wait acquires at cta or cluster "
                                  f"scope")


@irdl_op_definition
class FshrOp(IRDLOperation):
    """`%r = llvm.intr.fshr %hi, %lo, %n : (i32, i32, i32) -> i32` (upstream LLVM dialect; xDSL's lacks it): the
    low half of the 64-bit hi:lo shifted right by n mod 32 -- a funnel shift (PTX shf.r.wrap): bytes joined across
    two words, e.g. a 16-byte window at any 2-byte offset of a row."""

    name = "llvm.intr.fshr"
    hi = operand_def(IntegerType)
    lo = operand_def(IntegerType)
    amount = operand_def(IntegerType)
    res = result_def(IntegerType)
    assembly_format = "$hi `,` $lo `,` $amount attr-dict `:` `(` type($hi) `,` type($lo) `,` type($amount) `)` " \
        "`->` type($res)"
    traits = traits_def(Pure())

    def __init__(self, hi: SSAValue, lo: SSAValue, amount: SSAValue):
        super().__init__(operands=[hi, lo, amount], result_types=[hi.type])

    def verify_(self) -> None:
        if not all(x.type == IntegerType(32) for x in (self.hi, self.lo, self.amount, self.res)):
            raise VerifyException(f"{self.name}: operands and result are i32 (PTX shf.r.wrap.b32); got "
                                  f"{self.hi.type}, {self.lo.type}, {self.amount.type} -> {self.res.type}")


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i32] : vector<4xi32>` (upstream LLVM dialect; xDSL 0.74's llvm
    dialect lacks it, so it is declared here to read tcgen05.ld results)."""

    name = "llvm.extractelement"
    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()

    def __init__(self, vector: SSAValue, position: SSAValue):
        super().__init__(operands=[vector, position], result_types=[vector.type.element_type])

    @classmethod
    def parse(cls, parser: Parser):
        vec = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        pos = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos_t = parser.parse_type()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vec_t = parser.parse_type()
        op = cls(parser.resolve_operand(vec, vec_t), parser.resolve_operand(pos, pos_t))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.vector)
        printer.print_string("[")
        printer.print_operand(self.position)
        printer.print_string(" : ")
        printer.print_attribute(self.position.type)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)


# -- packed conversions (sm_80+) ----------------------------------------------------------------------


FPRoundingMode = word_enum("FPRoundingMode", ("none", "rn", "rm", "rp", "rz", "rna"))


@irdl_attr_definition
class FPRoundingModeAttr(WordAttr, EnumAttribute[FPRoundingMode]):
    name = "nvvm.fp_rnd_mode"


SaturationMode = word_enum("SaturationMode", ("none", "satfinite"))


@irdl_attr_definition
class SaturationModeAttr(WordAttr, EnumAttribute[SaturationMode]):
    name = "nvvm.sat_mode"


PACKED_CVT_ARCH = 80  # cvt.<f16x2|bf16x2>.f32: sm_80 and later


class _ConvertF32x2Op(IRDLOperation):
    """Two f32 values rounded to a 16-bit float pair in one register: `srcA` to the upper half, `srcB` to the
    lower (PTX `cvt.frnd2{.relu}{.satfinite}.<f16x2|bf16x2>.f32 d, a, b`; rounding rn or rz)."""

    ELEMENT: ClassVar[type]  # the pair's element type
    srcA = operand_def(Float32Type)
    srcB = operand_def(Float32Type)
    dst = result_def(VectorType)
    rnd = prop_def(FPRoundingModeAttr)
    sat = opt_prop_def(SaturationModeAttr)
    relu = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$srcA `,` $srcB attr-dict `:` type($dst)"

    ROUNDINGS: ClassVar[tuple[str, ...]] = ("rn", "rz")

    def __init__(self, src_a: SSAValue, src_b: SSAValue, rnd: str = "rn", relu: bool = False,
                 satfinite: bool = False):
        props: dict[str, Attribute] = {"rnd": FPRoundingModeAttr(rnd)}
        if relu:
            props["relu"] = IntegerAttr(1, i1)
        if satfinite:
            props["sat"] = SaturationModeAttr("satfinite")
        super().__init__(operands=[src_a, src_b], result_types=[VectorType(self.ELEMENT(), [2])],
                         properties=props)

    @property
    def pair(self) -> str:
        return "f16x2" if self.ELEMENT is Float16Type else "bf16x2"

    def verify_(self) -> None:
        t = self.dst.type
        if not (isinstance(t, VectorType) and isinstance(t.element_type, self.ELEMENT) and tuple(t.get_shape()) == (2,)):
            raise VerifyException(f"{self.name}: result type {t} is not legal; it is vector<2x{self.pair[:-2]}>")
        target = module_target(self)
        if target is not None and chip(target).arch < PACKED_CVT_ARCH:
            raise VerifyException(f"{self.name}: cvt.{self.pair}.f32 needs sm_{PACKED_CVT_ARCH} or later; the module "
                                  f"targets {target}")
        rnd = self.rnd.data
        if rnd not in self.ROUNDINGS:
            raise VerifyException(f"{self.name}: rounding mode {rnd} is not legal; cvt.{self.pair}.f32 rounds "
                                  f"{' or '.join(self.ROUNDINGS)}")
        if self.relu is not None and self.relu.value.data not in (0, 1, -1):
            raise VerifyException(f"{self.name}: relu is a bool (true or false)")

    @property
    def applies_relu(self) -> bool:
        return self.relu is not None and self.relu.value.data != 0

    @property
    def satfinite(self) -> bool:
        return self.sat is not None and self.sat.data == "satfinite"


@irdl_op_definition
class ConvertF32x2ToF16x2Op(_ConvertF32x2Op):
    """`%d = nvvm.convert.f32x2.to.f16x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>` (upstream)."""

    name = "nvvm.convert.f32x2.to.f16x2"
    ELEMENT: ClassVar[type] = Float16Type


@irdl_op_definition
class ConvertF32x2ToBF16x2Op(_ConvertF32x2Op):
    """`%d = nvvm.convert.f32x2.to.bf16x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>` (upstream)."""

    name = "nvvm.convert.f32x2.to.bf16x2"
    ELEMENT: ClassVar[type] = BFloat16Type


NVVM = Dialect(
    "nvvm",
    [MmaOp, MmaSpOp, MmaBlockScaleOp, MmaSpBlockScaleOp, BarrierOp, BarrierArriveOp, *SREG_OPS.values(), WgmmaMmaAsyncOp, WgmmaFenceAlignedOp, WgmmaGroupSyncAlignedOp,
     WgmmaWaitGroupSyncOp, FenceProxyOp, InlinePtxOp, Tcgen05AllocOp, Tcgen05DeallocOp, Tcgen05RelinquishOp,
     Tcgen05CommitOp, Tcgen05FenceOp, Tcgen05WaitOp, Tcgen05LdOp, Tcgen05StOp, *TCGEN05_MMA_OPS, MBarrierInitOp,
     MBarrierTryWaitParityOp, ExtractElementOp, FshrOp, ConvertF32x2ToF16x2Op, ConvertF32x2ToBF16x2Op, *HOPPER_OPS,
     *CP_ASYNC_OPS, *WARP_OPS, *ATOMIC_OPS],
    [BarrierReductionAttr, MMALayoutAttr, MMATypeAttr, MMAIntOverflowAttr, MMAB1OpAttr, MMAKindAttr, MMAShapeAttr, WgmmaTypeAttr,
     WgmmaScaleOutAttr, WgmmaScaleInAttr, ProxyKindAttr, SharedSpaceAttr, BlockScaleFormatAttr, BlockScaleKindAttr,
     ScaleVecSizeAttr, CTAGroupAttr, Tcgen05MmaKindAttr, Tcgen05BlockScaleAttr, Tcgen05LdStShapeAttr,
     Tcgen05FenceAttr, Tcgen05WaitAttr, FPRoundingModeAttr, SaturationModeAttr, *HOPPER_ATTRS, *WARP_ATTRS],
)
