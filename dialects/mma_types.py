"""Attributes and types of the `mma` dialect: the target chip, MMA shapes, and operands typed by residency.

  !mma.frag<ROLE, ELEM, "TV layout">                        a register fragment (ROLE: A, B, C, D, E, SFA, SFB)
  !mma.smem_desc<ROLE, ELEM, MAJOR, SWIZZLE, "SMEM layout"> a shared-memory matrix descriptor view
  !mma.tmem<ELEM, ROWSxCOLS>                                a tensor-memory address
  !mma.tensor_map<ELEM, ROWSxCOLS, SWIZZLE>                 a TMA tensor map (a kernel parameter) and its box
  #mma.target<sm_90a>                                       the chip, on the enclosing module (`mma.target = ...`)
  #mma.layout<col>, #mma.kind<f16>, #mma.bitop<xor>,        the atom ops' words (bare where an op's syntax
  #mma.rounding<rn>, #mma.scale_vec<block32>,                names them: `mma.tcgen05 <m128n256k16> f16 ...`)
  #mma.scale_type<ue8m0>
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i1, i32
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, TypeAttribute
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mmatom.layout import ComposedLayout, Layout, NotationError, parse_any_layout
from mmatom.atoms.catalogue import family
from mmatom.atoms.catalogue.elements import ALL_ELEMENT_TYPES
from mmatom.atoms.catalogue.words import BitOp, ElementType, Kind, OperandLayout, Rounding, ScaleVec
from mmatom.atoms.catalogue.tmem import LANES as TMEM_LANES
from mmatom.atoms.catalogue.tmem import COLUMNS as TMEM_COLUMNS
from .words import word_enum
from mmatom.atoms.chips import UnknownChip, chip
from mmatom.atoms.catalogue.elements import BITS
from mmatom.atoms.tma import BOX_MAX, TMA_REDUCTIONS, TMA_SWIZZLES, TmaBox, TmaError
from mmatom.atoms.descriptors import MAJORS, SWIZZLE_BYTES, DescriptorError, SmemOperand, check_layout, check_pattern_start, sub_tile

# descriptor swizzle modes as written in IR (an identifier cannot start with a digit)
SWIZZLE_SYNTAX = {"none": "none", "32b": "sw32", "64b": "sw64", "128b": "sw128", "128b_base32b": "sw128_base32b"}
SWIZZLE_FROM_SYNTAX = {v: k for k, v in SWIZZLE_SYNTAX.items()}


def _parse_word(parser: AttrParser, what: str) -> str:
    word = parser.parse_optional_identifier()
    if word is None:
        word = parser.parse_optional_str_literal()
    if word is None:
        parser.raise_error(f"expected {what}")
    return word


# -- attributes -----------------------------------------------------------------------------------

@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """The chip a module is compiled for: `#mma.target<sm_90a>`."""

    name = "mma.target"
    chip_name: StringAttr

    def __init__(self, name: str | StringAttr):
        super().__init__(StringAttr(name) if isinstance(name, str) else name)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            name = _parse_word(parser, "a target such as sm_90a")
            try:
                chip(name)
            except UnknownChip as err:
                parser.raise_error(str(err), pos, parser.pos)
        return (StringAttr(name),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.chip_name.data}>")

    def verify(self) -> None:
        try:
            chip(self.chip_name.data)
        except UnknownChip as err:
            raise VerifyException(str(err)) from None


class MnkShape:
    """What both dialects' MMA shape attributes share (each keeps its own syntax): built from and read as m, n, k."""

    def __init__(self, m: int, n: int, k: int):
        super().__init__(IntegerAttr(m, i32), IntegerAttr(n, i32), IntegerAttr(k, i32))

    @property
    def mnk(self) -> tuple[int, int, int]:
        return (self.m.value.data, self.n.value.data, self.k.value.data)


@irdl_attr_definition
class ShapeAttr(MnkShape, ParametrizedAttribute):
    """An MMA shape, written `<m16n8k16>`."""

    name = "mma.shape"
    m: IntegerAttr
    n: IntegerAttr
    k: IntegerAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            word = _parse_word(parser, "a shape such as m16n8k16")
            m = re.fullmatch(r"m(\d+)n(\d+)k(\d+)", word)
            if not m:
                parser.raise_error(f"'{word}' is not a shape; expected mMnNkK such as m16n8k16", pos, parser.pos)
        return tuple(IntegerAttr(int(x), i32) for x in m.groups())

    def print_parameters(self, printer: Printer) -> None:
        m, n, k = self.mnk
        printer.print_string(f"<m{m}n{n}k{k}>")


# -- the words of the types, as enums ---------------------------------------------------------------
#
# Member names equal their values, so a member hashes and compares like its word: catalogue tables keyed
# by "f16" or "128b" take the enum as they are.

Role = word_enum("Role", ("A", "B", "C", "D", "E", "SFA", "SFB"))
ROLES = tuple(r.value for r in Role)
Major = word_enum("Major", tuple(MAJORS))
SwizzleMode = word_enum("SwizzleMode", tuple(SWIZZLE_BYTES))


def _word(enum: type[StrEnum], word: str, what: str) -> StrEnum:
    try:
        return enum(word)
    except ValueError:
        raise VerifyException(f"{what} '{word}' is not one of {', '.join(m.value for m in enum)}") from None


@irdl_attr_definition
class RoleAttr(EnumAttribute[Role], SpacedOpaqueSyntaxAttribute):
    name = "mma.role"


@irdl_attr_definition
class ElementAttr(EnumAttribute[ElementType], SpacedOpaqueSyntaxAttribute):
    name = "mma.elem"


@irdl_attr_definition
class MajorAttr(EnumAttribute[Major], SpacedOpaqueSyntaxAttribute):
    name = "mma.major"


@irdl_attr_definition
class SwizzleAttr(EnumAttribute[SwizzleMode], SpacedOpaqueSyntaxAttribute):
    name = "mma.swizzle"


@irdl_attr_definition
class LayoutAttr(Data[Layout | ComposedLayout]):
    """A CuTe layout, parsed once when the IR is read and printed back in CuTe notation: `"(16,8):(8,1)"`."""

    name = "mma.cute_layout"

    @classmethod
    def from_text(cls, text: str, what: str) -> "LayoutAttr":
        try:
            return cls(parse_any_layout(text))
        except NotationError as err:
            raise VerifyException(f"{what}: {err}") from None

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Layout | ComposedLayout:
        return cls.from_text(parser.parse_str_literal(" (a layout in CuTe notation)"), "layout").data

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f'"{self.data}"')


def _layout_attr(layout: str | Layout | ComposedLayout, what: str) -> LayoutAttr:
    return LayoutAttr.from_text(layout, what) if isinstance(layout, str) else LayoutAttr(layout)


# -- the words of the atom ops, as enums --------------------------------------------------------------
#
# Each enum's words are those the catalogue's rows admit for the dimensions it spells, so a word no row
# takes is refused while the IR is read; which of them one atom takes (mma.sync's only kind is f8f6f4) is
# the catalogue's verdict, given by the op verifier with the matched context.

def catalogue_words(*dims: tuple[str, str]) -> tuple[str, ...]:
    """The words the catalogue's rows admit for these (family, dimension) pairs; a dimension whose values
    are pairs of words (mma.sync's layout: A's and B's) gives both."""
    words: set[str] = set()
    for fam, key in dims:
        for r in family(fam).rows:
            for value in r.allowed(key):
                words.update(value if isinstance(value, tuple) else (value,))
    words.discard(None)
    return tuple(sorted(words))


# OperandLayout, Kind, BitOp, Rounding and ScaleVec are the typed atoms' own enums (atoms/catalogue/words.py), whose
# words are exactly those the rows admit, sorted (tests/unit/dialects/test_atom_words.py); scale types are a few
# element types, so they get an enum of their own
ScaleType = word_enum("ScaleType", catalogue_words(("tcgen05.mma", "scale_type")))


class WordAttr:
    """Mixin over xDSL's EnumAttribute for an atom op's word: `#mma.<name><word>` in an attribute dictionary,
    the bare word where the op's syntax names it (the BareWord directive). A word that is not an identifier
    (scale_vec's 2X) is quoted; a quoted word is accepted everywhere. A word outside the enum is a located
    parse error, or a VerifyException from the constructor, naming the legal words."""

    what: str  # the word's name in diagnostics

    def __init__(self, word: str):
        if word not in self.words():
            raise VerifyException(self._not_legal(word))
        super().__init__(self.enum_type(word))  # type: ignore[attr-defined, call-arg]

    @property
    def word(self) -> str:
        return self.data.value  # type: ignore[attr-defined]

    @classmethod
    def words(cls) -> tuple[str, ...]:
        return tuple(m.value for m in cls.enum_type)  # type: ignore[attr-defined]

    @classmethod
    def _not_legal(cls, word: str) -> str:
        return f"{cls.what} '{word}' is not one of {', '.join(cls.words())}"

    @classmethod
    def parse_word(cls, parser: AttrParser):
        pos = parser.pos
        word = _parse_word(parser, f"a {cls.what} ({', '.join(cls.words())})")
        if word not in cls.words():
            parser.raise_error(cls._not_legal(word), pos, parser.pos)
        return cls.enum_type(word)  # type: ignore[attr-defined]

    def print_word(self, printer: Printer) -> None:
        printer.print_identifier_or_string_literal(self.word)

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return cls.parse_word(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_word(printer)


@irdl_attr_definition
class OperandLayoutAttr(WordAttr, EnumAttribute[OperandLayout]):
    """How A or B of an m8n8k4 mma.sync sits in registers: `#mma.layout<col>` (row for A, col for B if absent)."""
    name = "mma.layout"
    what = "operand layout"


@irdl_attr_definition
class KindAttr(WordAttr, EnumAttribute[Kind]):
    """The `kind::` qualifier: `#mma.kind<f8f6f4>`, or bare after the shape of mma.block_scale and mma.tcgen05."""
    name = "mma.kind"
    what = "kind"


@irdl_attr_definition
class BitOpAttr(WordAttr, EnumAttribute[BitOp]):
    """The b1 multiply-add's bit operation: `#mma.bitop<xor>`."""
    name = "mma.bitop"
    what = "bit operation"


@irdl_attr_definition
class RoundingAttr(WordAttr, EnumAttribute[Rounding]):
    """The f64 rounding mode: `#mma.rounding<rn>`."""
    name = "mma.rounding"
    what = "rounding mode"


@irdl_attr_definition
class ScaleVecAttr(WordAttr, EnumAttribute[ScaleVec]):
    """How many scale factors a K block takes: `#mma.scale_vec<block32>`, `#mma.scale_vec<"2X">`."""
    name = "mma.scale_vec"
    what = "scale_vec"


@irdl_attr_definition
class ScaleTypeAttr(WordAttr, EnumAttribute[ScaleType]):
    """The scale-factor element of a tcgen05 block-scaled MMA: `#mma.scale_type<ue8m0>`."""
    name = "mma.scale_type"
    what = "scale type"


TmaReduction = word_enum("TmaReduction", tuple(TMA_REDUCTIONS))


@irdl_attr_definition
class TmaReduceAttr(WordAttr, EnumAttribute[TmaReduction]):
    """How a TMA store combines its box with global memory (cp.reduce.async.bulk.tensor): `#mma.tma_reduce<add>`,
    bare after `reduce` in mma.tma_store."""
    name = "mma.tma_reduce"
    what = "TMA reduction"


WORD_ATTRS = (OperandLayoutAttr, KindAttr, BitOpAttr, RoundingAttr, ScaleVecAttr, ScaleTypeAttr, TmaReduceAttr)


@irdl_custom_directive
class BareWord(CustomDirective):
    """`custom<BareWord>($kind)`: a word attribute written as its word alone, `f16` (`"f16"` is read too)."""

    word: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        attr_class = self.word.unique_base  # type: ignore[attr-defined]
        self.word.set(state, attr_class.new(attr_class.parse_word(parser)))
        return True

    def print(self, printer: Printer, state: PrintingState, op) -> None:
        state.print_whitespace(printer)
        self.word.get(op).print_word(printer)  # type: ignore[union-attr]


@irdl_custom_directive
class OptionalBareWord(BareWord):
    """`(`kw` custom<OptionalBareWord>($word)^)?`: an optional word attribute, written as its word alone after a
    keyword when present (BareWord cannot anchor an optional group)."""

    word: AttributeVariable

    def is_anchorable(self) -> bool:
        return True

    def is_present(self, op) -> bool:
        return self.word.is_present(op)


# -- types by residency ---------------------------------------------------------------------------


@irdl_attr_definition
class FragmentType(ParametrizedAttribute, TypeAttribute):
    """A register fragment: each thread's values of an operand, placed by a CuTe TV layout."""

    name = "mma.frag"
    role: RoleAttr
    elem: ElementAttr
    layout: LayoutAttr

    def __init__(self, role: str, elem: str, layout: str | Layout):
        super().__init__(RoleAttr(_word(Role, role, "fragment role")), ElementAttr(_word(ElementType, elem, "element type")),
                         _layout_attr(layout, "fragment layout"))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            role = _parse_word(parser, "an operand role (A, B, C, D, E, SFA, SFB)")
            parser.parse_punctuation(",")
            elem = _parse_word(parser, "an element type")
            parser.parse_punctuation(",")
            layout = parser.parse_str_literal(" (a TV layout in CuTe notation)")
        return (RoleAttr(_word(Role, role, "fragment role")), ElementAttr(_word(ElementType, elem, "element type")),
                _layout_attr(layout, "fragment layout"))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f'<{self.role.data}, {self.elem.data}, "{self.layout.data}">')

    def verify(self) -> None:
        if not isinstance(self.layout.data, Layout):
            raise VerifyException(f"fragment layout {self.layout.data} must be a plain layout (no swizzle)")


@irdl_attr_definition
class SmemDescType(ParametrizedAttribute, TypeAttribute):
    """A shared-memory matrix descriptor viewing an operand tile laid out in SMEM."""

    name = "mma.smem_desc"
    role: RoleAttr
    elem: ElementAttr
    major: MajorAttr
    swizzle: SwizzleAttr
    layout: LayoutAttr

    def __init__(self, role: str, elem: str, major: str, swizzle: str, layout: str | Layout | ComposedLayout):
        super().__init__(RoleAttr(_word(Role, role, "operand role")), ElementAttr(_word(ElementType, elem, "element type")),
                         MajorAttr(_word(Major, major, "major mode")), SwizzleAttr(_word(SwizzleMode, swizzle, "swizzle")),
                         _layout_attr(layout, "SMEM layout"))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            role = _parse_word(parser, "an operand role (A or B)")
            parser.parse_punctuation(",")
            elem = _parse_word(parser, "an element type")
            parser.parse_punctuation(",")
            major = _parse_word(parser, "a major mode (k or mn)")
            parser.parse_punctuation(",")
            pos = parser.pos
            spelled = _parse_word(parser, "a swizzle (none, sw32, sw64, sw128, sw128_base32b)")
            swizzle = SWIZZLE_FROM_SYNTAX.get(spelled)
            if swizzle is None:
                parser.raise_error(f"'{spelled}' is not a swizzle; expected one of {', '.join(SWIZZLE_FROM_SYNTAX)}",
                                   pos, parser.pos)
            parser.parse_punctuation(",")
            layout = parser.parse_str_literal(" (an SMEM layout in CuTe notation)")
        return (RoleAttr(_word(Role, role, "operand role")), ElementAttr(_word(ElementType, elem, "element type")),
                MajorAttr(_word(Major, major, "major mode")), SwizzleAttr(SwizzleMode(swizzle)),
                _layout_attr(layout, "SMEM layout"))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f'<{self.role.data}, {self.elem.data}, {self.major.data}, {SWIZZLE_SYNTAX[self.swizzle.data]}, '
            f'"{self.layout.data}">')

    def verify(self) -> None:
        if self.role.data not in ("A", "B"):
            raise VerifyException(f"an SMEM descriptor views A or B, not '{self.role.data}'")


def _parse_extents(parser: AttrParser, max_rows: int, max_cols: int, expected: str) -> tuple[int, int]:
    """`ROWSxCOLS` (the lexer reads `x256` as one identifier, and `0x64` as one hexadecimal literal: split as
    0 x 64, as MLIR splits a shape), each within its maximum; else a located error."""
    pos = parser.pos
    text = parser._current_token.text
    rows = parser.parse_integer(allow_negative=False, allow_boolean=False)
    if text[:2] in ("0x", "0X"):
        rows, cols_text = 0, text[2:]
    else:
        word = parser.parse_optional_identifier()
        cols_text = word[1:] if word and word.startswith("x") else None
    if not cols_text or not cols_text.isdigit():
        parser.raise_error(f"expected {expected}", pos, parser.pos)
    if rows > max_rows or int(cols_text) > max_cols:
        parser.raise_error(f"expected {expected}; got {rows}x{cols_text}", pos, parser.pos)
    return rows, int(cols_text)


@irdl_attr_definition
class TmemType(ParametrizedAttribute, TypeAttribute):
    """A tensor-memory address of a ROWSxCOLS tile of ELEM: `!mma.tmem<f32, 128x256>`."""

    name = "mma.tmem"
    elem: ElementAttr
    rows: IntegerAttr
    cols: IntegerAttr

    def __init__(self, elem: str, rows: int, cols: int):
        super().__init__(ElementAttr(_word(ElementType, elem, "element type")), IntegerAttr(rows, i32),
                         IntegerAttr(cols, i32))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            elem = _parse_word(parser, "an element type")
            parser.parse_punctuation(",")
            rows, cols = _parse_extents(parser, TMEM_LANES, TMEM_COLUMNS, f"ROWSxCOLS of tensor memory, at most "
                                        f"{TMEM_LANES}x{TMEM_COLUMNS} (lanes x 32-bit columns), such as 128x256")
        return (ElementAttr(_word(ElementType, elem, "element type")), IntegerAttr(rows, i32), IntegerAttr(cols, i32))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.elem.data}, {self.rows.value.data}x{self.cols.value.data}>")


TMA_ELEMENT_TYPES = tuple(e for e in ALL_ELEMENT_TYPES if BITS[e] >= 8)  # what TensorMapType.verify admits
BATCHED = "batched"


@irdl_attr_definition
class TensorMapType(ParametrizedAttribute, TypeAttribute):
    """A TMA tensor map (CUtensorMap, 128 bytes passed by value) of a row-major 2-d tensor, moving boxes of
    ROWSxCOLS elements (COLS contiguous) swizzled in SMEM: `!mma.tensor_map<bf16, 128x64, sw128>`; `batched`, of a
    3-d tensor (L, rows, cols) moving boxes of one layer, 1 x ROWS x COLS: `!mma.tensor_map<bf16, 128x64, sw128,
    batched>` (its loads and stores name the layer). A kernel parameter; the host encodes the map
    (mmatom.tensor_map)."""

    name = "mma.tensor_map"
    elem: ElementAttr
    rows: IntegerAttr
    cols: IntegerAttr
    swizzle: SwizzleAttr
    layered: IntegerAttr  # i1: 1 for a batched (3-d) map

    def __init__(self, elem: str, rows: int, cols: int, swizzle: str = "128b", batched: bool = False):
        super().__init__(ElementAttr(_word(ElementType, elem, "element type")), IntegerAttr(rows, i32),
                         IntegerAttr(cols, i32), SwizzleAttr(_word(SwizzleMode, swizzle, "swizzle")),
                         IntegerAttr(int(bool(batched)), i1))

    @property
    def box(self) -> TmaBox:
        return TmaBox(BITS[self.elem.data], self.rows.value.data, self.cols.value.data, self.swizzle.data)

    @property
    def batched(self) -> bool:
        return bool(self.layered.value.data)

    @property
    def rank(self) -> int:
        """The tensor's dimensions: the coordinates a box of it takes."""
        return 3 if self.batched else 2

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            elem = _parse_word(parser, "an element type")
            if elem not in ALL_ELEMENT_TYPES:
                parser.raise_error(f"'{elem}' is not an element type; a tensor map holds one of "
                                   f"{', '.join(TMA_ELEMENT_TYPES)}", pos, parser.pos)
            parser.parse_punctuation(",")
            rows, cols = _parse_extents(parser, BOX_MAX, BOX_MAX,
                                        f"the box as ROWSxCOLS, each at most {BOX_MAX}, such as 128x64")
            parser.parse_punctuation(",")
            pos = parser.pos
            spelled = _parse_word(parser, "a swizzle (none, sw32, sw64, sw128)")
            swizzle = SWIZZLE_FROM_SYNTAX.get(spelled)
            if swizzle not in TMA_SWIZZLES:
                parser.raise_error(f"'{spelled}' is not a TMA swizzle; expected one of none, sw32, sw64, sw128",
                                   pos, parser.pos)
            batched = parser.parse_optional_punctuation(",") is not None
            if batched:
                parser.parse_keyword(BATCHED, " after the swizzle (a map of a 3-d tensor, L x rows x cols)")
        return (ElementAttr(_word(ElementType, elem, "element type")), IntegerAttr(rows, i32),
                IntegerAttr(cols, i32), SwizzleAttr(SwizzleMode(swizzle)), IntegerAttr(int(batched), i1))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.elem.data}, {self.rows.value.data}x{self.cols.value.data}, "
                             f"{SWIZZLE_SYNTAX[self.swizzle.data]}{', ' + BATCHED if self.batched else ''}>")

    def verify(self) -> None:
        if BITS[self.elem.data] < 8:
            raise VerifyException(f"!mma.tensor_map: {self.elem.data} elements are narrower than a byte; the TMA "
                                  f"path moves 8-, 16-, 32- and 64-bit elements ({', '.join(TMA_ELEMENT_TYPES)})")
        try:
            self.box.check()
        except TmaError as err:
            raise VerifyException(f"!mma.tensor_map: {err}") from None


AnyOperand = FragmentType | SmemDescType | TmemType


# -- SMEM operands as the descriptor packer sees them ---------------------------------------------

def smem_operand(t: SmemDescType):
    """The descriptor type's tile as the descriptor packer sees it, and its SMEM layout."""
    layout = t.layout.data
    inner = getattr(layout, "layout", layout)
    if inner.rank() != 2:
        raise VerifyException(f"SMEM layout {layout} must have rank 2, (rows, K) of the tile")
    return SmemOperand(inner[0].size(), inner[1].size(), BITS[t.elem.data], t.major.data, t.swizzle.data), layout


def descriptor_view(t: SmemDescType):
    """(operand, layout) the 64-bit descriptor of `t` describes: the whole tile when it is one canonical
    layout, else its first 32-byte K window when every K window is (a tile that mma.wgmma_tile walks)."""
    op, layout = smem_operand(t)
    try:
        check_layout(layout, op)
        return op, layout
    except DescriptorError as whole:
        k_atom = 256 // op.elem_bits
        if op.k <= k_atom or op.k % k_atom:
            raise whole
        window = SmemOperand(op.rows, k_atom, op.elem_bits, op.major, op.swizzle)
        for j in range(op.k // k_atom):
            offset, sub = sub_tile(layout, 0, op.rows, j * k_atom, k_atom, op.elem_bits)
            check_layout(sub, window)
            check_pattern_start(offset, op.swizzle)
        return window, sub_tile(layout, 0, op.rows, 0, k_atom, op.elem_bits)[1]

TARGET_ATTR = "mma.target"


def module_target(op: Operation) -> str | None:
    """The chip named by the nearest `mma.target = #mma.target<sm_..>` on `op` or an op around it: the one accessor
    of the chip, read by the verifiers, the lowering and the PTX target alike (None where no op names one)."""
    cur: Operation | None = op
    while cur is not None:
        attr = cur.attributes.get(TARGET_ATTR)
        if isinstance(attr, TargetAttr):
            return attr.chip_name.data
        if attr is not None:
            raise VerifyException(f"{TARGET_ATTR} must name a chip, as #mma.target<sm_..>; got {attr}")
        cur = cur.parent_op()
    return None


def require_chip(op: Operation, min_sm: int, needs: str) -> None:
    """Refuse `op` (a VerifyException naming it) where its module targets a chip older than sm_`min_sm`, which
    `needs` -- what the op uses -- requires; a module naming no chip is not checked."""
    target = module_target(op)  # a chip it has checked: `mma.target` names a known one or is an error itself
    if target is None:
        return
    try:
        sm = chip(target).arch
    except UnknownChip as err:  # defensive: module_target only returns names chip() knows
        raise VerifyException(f"{op.name}: {err}") from None
    if sm < min_sm:
        raise VerifyException(f"{op.name}: {needs} needs sm_{min_sm} or later; the module targets {target}")


