"""IR from source text: parse with every op located (file:line:col), verify op by op so each diagnostic
names its own op and position. Shared by `mmatom-opt` and `mmatom.compile`."""

from __future__ import annotations

import weakref

import difflib
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NoReturn

from xdsl import __version__ as xdsl_version
from xdsl.context import Context
from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
)
from xdsl.ir import Attribute, ErasedSSAValue, Operation, TypeAttribute
from xdsl.parser import Parser
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.parser.generic_parser import ParserState
from xdsl.universe import Universe
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Position, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

from mmatom.dialects.launch_bounds import launch_bounds
from mmatom.dialects.op_walk import nested_ops
from mmatom.dialects.verified_shapes import known_valid, remember_valid, shape_of


@dataclass(frozen=True)
class Diagnostic:
    line: int
    col: int
    message: str
    file: str | None = None  # the op's own file (a DSL's source), when it differs from the input's name
    op: str | None = field(default=None, compare=False)  # the name of the op it is about, when there is one

    def render(self, name: str) -> str:
        """The `file:line:col: error: message` form that editors and lit jump to."""
        return f"{self.file or name}:{self.line}:{self.col}: error: {self.message}"


def source_position(loc) -> tuple[str, int, int] | None:
    """(file, line, col) of a location: a FileLineColLoc, or the first one inside a NameLoc (a DSL's named
    location), CallSiteLoc (the call site) or FusedLoc; None for UnknownLoc."""
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    if isinstance(loc, NameLoc):
        return source_position(loc.location) or (loc.desc.data, 0, 0)
    if isinstance(loc, CallSiteLoc):
        return source_position(loc.caller)
    if isinstance(loc, FusedLoc):
        return next((p for p in map(source_position, loc.locations) if p is not None), None)
    return None


def op_diagnostic(op: Operation | None, message: str) -> Diagnostic:
    """A diagnostic at `op`'s source location (0:0 when the op has none), naming the op."""
    position = source_position(getattr(op, "location", None))
    name = op.name if isinstance(op, Operation) else None
    if position is None:
        return Diagnostic(0, 0, message, op=name)
    file, line, col = position
    return Diagnostic(line, col, message, file, op=name)


# xDSL's parser (and our layout reader) recurse once per level of (), [], {} and <>: up to 15 Python frames per
# level (a nested dictionary 12, a struct type 15 for its `<(`). Real IR nests a few dozen levels at most.
# The limits that hold in either printed form, so that what mmatom-opt prints it reads back: regions inside regions,
# and attributes / types inside one attribute or type, each at most MAX_NESTING deep. All the brackets of a text
# (regions, the generic form's operand lists and function types, attributes) are bounded before parsing by
# MAX_TEXT_NESTING, for the stack's sake only: two full nests and an op's own brackets.
MAX_NESTING = 100
MAX_TEXT_NESTING = 2 * MAX_NESTING + 8
FRAMES_PER_LEVEL = 16
MAX_INTEGER_BITS = 128
MAX_INTEGER_LITERAL_CHARS = 100
_LONG_DIGIT_RUN = re.compile(rf"\d{{{MAX_INTEGER_LITERAL_CHARS + 1},}}")
_BLOCK_NAME = re.compile(r"[A-Za-z_$.-][A-Za-z0-9_$.-]*")
_OPEN, _CLOSE = "([{", ")]}"


_BRACKETS = re.compile(r"//[^\n]*|[()\[\]{}]|(?<=[\w.])<|(?<!-)>")


def check_nesting(source: Input) -> None:
    """A located ParseError where the text nests deeper than MAX_TEXT_NESTING levels of brackets (counted everywhere but
    in comments, so layouts in strings count too), before anything recurses on it. A `{` right after `(` or `<` is
    no level of its own: the generic form's region list `({` and property dictionary `<{` are one construct where
    the custom form writes `{`, so what mmatom-opt prints in either form it reads back."""
    text, depth, counted, after_opener = source.content, 0, [], -1
    for m in _BRACKETS.finditer(text):
        tok = m.group()
        if tok.startswith("//"):
            continue
        if tok in _CLOSE or tok == ">":
            depth -= counted.pop() if counted else 0
            after_opener = -1
            continue
        merged = tok == "{" and after_opener >= 0 and not text[after_opener:m.start()].strip()
        counted.append(0 if merged else 1)
        depth += counted[-1]
        after_opener = m.end()
        if depth > MAX_TEXT_NESTING:
            raise ParseError(Span(m.start(), m.start() + 1, source),
                             f"nesting deeper than {MAX_TEXT_NESTING} levels of brackets")


@contextmanager
def recursion_room(levels: int = MAX_TEXT_NESTING):
    """Python's recursion limit raised, while it runs, to what `levels` of nesting take on top of the caller's stack
    (the default 1000 frames hold about 60 levels of a nested dictionary)."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(max(saved, depth + FRAMES_PER_LEVEL * levels + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


class LinearStringLexer(MLIRLexer):
    """xDSL's lexer with a string-literal rule that cannot backtrack: xDSL 0.74's `(?:[^"\\...]+|escape)*"`
    nests a `+` inside a `*`, so an unclosed string costs 2^length (0.75 s at 24 characters, x4 for every 2 more).
    Possessive quantifiers (Python 3.11) match the same strings and fail an unclosed one in linear time."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

    def _lex_string_literal(self, start_pos):
        r"""xDSL's docstring says STRING_LIT when the payload decodes as UTF-8, but its code asks for ASCII: so the
        `"\C3\BF"` that its own printer writes for 'ÿ' came back as a bytes literal and did not parse again."""
        token = super()._lex_string_literal(start_pos)
        if token.kind == MLIRTokenKind.BYTES_LIT:
            try:
                StringLiteral.from_span(token.span).bytes_contents.decode("utf-8")
            except UnicodeDecodeError:
                return token
            return Token(MLIRTokenKind.STRING_LIT, token.span)
        return token

    def lex(self):
        token = super().lex()
        if token.kind == MLIRTokenKind.CARET_IDENT and not _BLOCK_NAME.fullmatch(token.text[1:]):
            # MLIR also allows ^0; xDSL cannot name a block that starts with a digit (a ValueError naming it)
            raise ParseError(token.span, f"'{token.text}' is not a block name mmatom can hold: a letter, '_', '$', "
                                         f"'.' or '-' first, as in ^bb0")
        if token.kind == MLIRTokenKind.BARE_IDENT and (run := _LONG_DIGIT_RUN.search(token.text)) is not None:
            # a shape (`128x<digits>`, `m16n8k<digits>`) or a chip read from an identifier: past 4300 digits
            # Python refuses to convert it at all
            raise ParseError(token.span, f"a number of {len(run.group())} digits in '{token.text[:24]}...'; the "
                                         f"widest integer type (i{MAX_INTEGER_BITS}) needs at most "
                                         f"{len(str(2 ** MAX_INTEGER_BITS))} digits")
        if token.kind == MLIRTokenKind.INTEGER_LIT and len(token.text) > MAX_INTEGER_LITERAL_CHARS:
            # no integer type holds it, and past 4300 digits Python refuses to convert it at all
            raise ParseError(token.span, f"integer literal of {len(token.text)} characters; the widest integer type "
                                         f"(i{MAX_INTEGER_BITS}) needs at most {len(str(2 ** MAX_INTEGER_BITS))} "
                                         f"digits")
        return token


# xDSL's IntegerType.get_normalized_value (a case value, a GEP index, a dense array element out of range)
_OUT_OF_RANGE = re.compile(r"Integer value (-?\d+) is out of range for type (\S+) which supports values in the "
                           r"range \[(-?\d+), (-?\d+)\)")
_PYTHON_ERRORS = (ValueError, IndexError, KeyError, TypeError, ArithmeticError, AssertionError, NotImplementedError)


def did_you_mean(ctx: Context, name: str) -> str:
    """`; did you mean 'mma.sync'?` for the registered op name closest to `name` (its dialect's ops when the
    dialect exists, else every dialect's name), or nothing."""
    dialect_name = name.split(".", 1)[0]
    if dialect_name in ctx.registered_dialect_names:
        names = [op.name for op in ctx.get_optional_dialect(dialect_name).operations]
        close = difflib.get_close_matches(name, names, 1, cutoff=0.8)  # mma.snyc: 0.875; mma.nope/mma.sp: 0.71
        return f"; did you mean '{close[0]}'?" if close else ""
    close = difflib.get_close_matches(dialect_name, list(ctx.registered_dialect_names), 1, cutoff=0.6)
    return f"; there is no dialect '{dialect_name}' (did you mean '{close[0]}'?)" if close else ""


class LocatingParser(Parser):
    """Records each op's source position as a FileLineColLoc (unless the text gives a `loc`)."""

    def __init__(self, ctx: Context, text: str | bytes, name: str, line_offset: int):
        text = decode_source(text, name) if isinstance(text, bytes) else text
        super().__init__(ctx, "", name)  # then lex the real text with the linear-time string rule
        source = Input(text, name)
        check_nesting(source)
        self._parser_state = ParserState(LinearStringLexer(source))
        self._line_offset = line_offset
        self._name = name
        self._previous_end: Position | None = None
        self._open_regions: list[Span] = []
        self._defined_blocks: list[dict[str, Span]] = []
        self._previous: Span | None = None
        self._integers: list[Span] = []  # the integer literals read so far, to locate a value out of range
        self._first_uses: dict[ForwardDeclaredValue, Span] = {}
        self._attribute_depth = 0  # attributes and types being read, one inside the other
        self._region_depth = 0  # regions being read, one inside the other, but a module's (see parse_optional_region)
        self._module_body_next = False  # the op being read is a builtin.module: the next region is its body

    def _consume_token(self, expected_kind=None):
        token = super()._consume_token(expected_kind)
        self._previous_end = token.span.end
        self._previous = token.span
        if token.kind == MLIRTokenKind.INTEGER_LIT:
            self._integers.append(token.span)
        return token

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's, with room on the stack for MAX_TEXT_NESTING levels, and an implicit module (several top-level ops, or
        none) located at the start of the text rather than nowhere."""
        with recursion_room():
            module = super().parse_module(allow_implicit_module)
        if not isinstance(module.location, FileLineColLoc):
            module.location = FileLineColLoc(StringAttr(self._name), IntAttr(1 + self._line_offset), IntAttr(1))
        return module

    def parse_optional_region(self, arguments=None):
        opening = self._current_token.span
        if self._current_token.kind != MLIRTokenKind.L_BRACE:
            return super().parse_optional_region(arguments)
        # a module's body is no level: top-level ops read into an implicit module are printed inside one
        counted, self._module_body_next = not self._module_body_next, False
        if counted and self._region_depth >= MAX_NESTING:
            raise ParseError(opening, f"regions nest deeper than {MAX_NESTING} levels")
        self._region_depth += counted
        self._open_regions.append(opening)
        self._defined_blocks.append({})
        # a value the region uses before any definition is a forward reference of the region's own: xDSL keeps one
        # table for the file, so a value defined inside the region resolved a use before it, outside, to a value
        # that use cannot see (and one that stayed forward-declared reached the verifiers without an owner)
        outer, self.forward_ssa_references = self.forward_ssa_references, {}
        try:
            region = super().parse_optional_region(arguments)
        finally:
            self._region_depth -= counted
            self._open_regions.pop()
            self._defined_blocks.pop()
            inner, self.forward_ssa_references = self.forward_ssa_references, outer
        self._defer_to_enclosing_region(inner)
        return region

    def _defer_to_enclosing_region(self, unresolved: dict[str, dict[int, ForwardDeclaredValue]]) -> None:
        """Uses a region left undefined may be defined later in the region around it: they join its references."""
        for name, references in unresolved.items():
            outer = self.forward_ssa_references.setdefault(name, {})
            for index, value in references.items():
                if index not in outer:
                    outer[index] = value
                    continue
                if outer[index].type != value.type:
                    raise ParseError(self._first_uses[value], f"%{name} is used as {value.type} here and as "
                                                              f"{outer[index].type} before")
                value.replace_all_uses_with(outer[index])

    def resolve_operand(self, operand, type):
        value = super().resolve_operand(operand, type)
        if isinstance(value, ForwardDeclaredValue):
            self._first_uses.setdefault(value, operand.span)
        return value

    def _get_op_by_name(self, name: str):
        """A name no dialect registers is reported at the name, with the closest registered name."""
        if op_type := self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack):
            return op_type
        raise ParseError(self._previous or self._current_token.span,
                         f"Operation {name} is not registered{did_you_mean(self.ctx, name)}")

    def _parse_block(self):
        """xDSL reports a region that is not closed as 'error:  in block definition' (no message, at the end of
        the input): name what is missing and where the region began."""
        token = self._current_token
        if token.kind != MLIRTokenKind.CARET_IDENT and self._open_regions:
            opened = self._open_regions[-1].get_location()
            where = f"the region opened at {opened.line + self._line_offset}:{opened.col}"
            if token.kind == MLIRTokenKind.EOF:
                self.raise_error(f"expected '}}' to close {where}; the input ends inside it")
            self.raise_error(f"expected an operation, a block label (^name) or '}}' closing {where}; found "
                             f"'{token.text}'", token.span)
        if token.kind == MLIRTokenKind.CARET_IDENT and self._defined_blocks:
            # xDSL forgets where a forward-referenced block was defined, so a second definition of it is a
            # KeyError from its bookkeeping rather than its 're-declaration' error
            defined = self._defined_blocks[-1]
            if token.text in defined:
                first = defined[token.text].get_location()
                raise ParseError(token.span, f"block {token.text} is defined twice in this region (first at "
                                             f"{first.line + self._line_offset}:{first.col})")
            defined[token.text] = token.span
        return super()._parse_block()

    def raise_error(self, msg: str, at_position=None, end_position=None) -> NoReturn:
        """A missing token is reported where it was expected (just after the last token read) when the token
        found instead is on a later line, as MLIR's emitWrongTokenError does; an unclosed `<` was reported at
        the next op. A value used and never defined is reported at its first use, in MLIR's words."""
        if msg.startswith("values used but not defined") and self.forward_ssa_references:
            name, references = next(iter(self.forward_ssa_references.items()))
            raise ParseError(self._first_uses[next(iter(references.values()))], f"use of undeclared SSA value %{name}")
        current = self._current_token.span
        if at_position is None and self._previous_end is not None and "expected" in msg.lower() and \
                (current.start >= len(current.input.content) or
                 "\n" in current.input.content[self._previous_end:current.start]):
            at_position = Span(self._previous_end, self._previous_end, current.input)
        super().raise_error(msg, at_position, end_position)

    def _located(self, start: Span, err: Exception) -> ParseError:
        """What an xDSL parser raised, as a located ParseError: an integer out of range for its type at its literal;
        a failed verify() at `start`; a Python exception at `start`, naming it (the fuzzer reports those: each is
        a bug to fix where it is raised)."""
        text = str(err).splitlines()[0] if str(err) else ""
        if (m := _OUT_OF_RANGE.search(text)) is not None:
            value, type_name, low, high = m.groups()
            return ParseError(self._integer_literal(int(value)) or start,
                              f"integer {value} is out of range for {type_name}, which holds {low} to {int(high) - 1}")
        if isinstance(err, VerifyException):
            return ParseError(start, text)
        if isinstance(err, NotImplementedError):  # e.g. cf.switch on i128: xDSL packs case values in <= 64 bits
            return ParseError(start, f"xDSL {xdsl_version} cannot hold this: {text}")
        return ParseError(start, f"cannot read this text: {type(err).__name__}: {text}")

    def _integer_literal(self, value: int) -> Span | None:
        """The most recent integer literal read that spells `value` (or -value: its sign is a token of its own)."""
        for span in reversed(self._integers[-64:]):
            text = span.text.lstrip("+-")
            if int(text, 16 if text[:2] in ("0x", "0X") else 10) == abs(value):
                return span
        return None

    @contextmanager
    def _reading_attribute(self, start: Span):
        """One more attribute or type inside those being read: at most MAX_NESTING deep; its failures located at
        `start` (a verify() that fails, a Python exception from xDSL's parser)."""
        self._attribute_depth += 1
        try:
            if self._attribute_depth > MAX_NESTING:
                raise ParseError(start, f"nesting deeper than {MAX_NESTING} levels of brackets")
            yield
        except (VerifyException, *_PYTHON_ERRORS) as err:
            raise self._located(start, err) from None
        finally:
            self._attribute_depth -= 1

    def parse_optional_type(self) -> TypeAttribute | None:
        start = self._current_token.span
        with self._reading_attribute(start):
            t = super().parse_optional_type()
        if isinstance(t, IntegerType) and t.width.data > MAX_INTEGER_BITS:
            # xDSL computes 2**width for constants of the type: i99999999999 would take forever
            raise ParseError(start, f"integer type {t} is wider than {MAX_INTEGER_BITS} bits, the widest a kernel "
                                    f"register or constant can be")
        return t

    def parse_optional_attribute(self) -> Attribute | None:
        with self._reading_attribute(self._current_token.span):
            return super().parse_optional_attribute()

    def parse_optional_builtin_int_or_float_attr(self):
        start = self._current_token.span
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:  # xDSL packs the value into the float type's bytes: too large for it
            raise ParseError(start, f"float literal {start.text} is out of range for its type (it would be +-inf)") \
                from None

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        self._module_body_next = start.text in ('builtin.module', '"builtin.module"')
        try:
            op = super().parse_operation()
        except (VerifyException, *_PYTHON_ERRORS) as err:  # what an op's custom parser built, failing verify()
            raise self._located(start, err) from None
        if not isinstance(op.location, FileLineColLoc):
            loc = start.get_location()
            op.location = FileLineColLoc(StringAttr(self._name), IntAttr(loc.line + self._line_offset), IntAttr(loc.col))
        return op


def decode_source(data: bytes, name: str) -> str:
    """UTF-8 source text; a byte that is not UTF-8 is a ParseError at its own line:col (xDSL's Parser would
    raise a bare UnicodeDecodeError with no position)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        at = len(data[:err.start].decode("utf-8"))  # in characters, like every other column the parser reports
        shown = Input(data.decode("utf-8", errors="replace"), name)
        raise ParseError(Span(at, at + 1, shown),
                         f"invalid UTF-8 byte 0x{data[err.start]:02x}: the source must be UTF-8 text") from None


def make_context() -> Context:
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def _used_before_defined(op: Operation, positions: dict[Operation, int] | None = None) -> str | None:
    """The first operand of `op` whose defining op comes later in the block that holds `op` (or an op enclosing
    it): a use the definition does not dominate. (xDSL's parser accepts forward references, its verifier does
    not check dominance, and later code assumes every operand already has its owner.)"""
    for i, v in enumerate(op.operands):
        if isinstance(v, ForwardDeclaredValue):  # the parser reports these; an op built by hand could hold one
            return f"operand #{i} is used but never defined"
        owner = v.owner
        if not isinstance(owner, Operation) or owner.parent_block() is None or isinstance(owner.parent_op(), ModuleOp):
            continue  # a module body is a graph region: no dominance there
        user: Operation | None = op
        while user is not None and user.parent_block() is not owner.parent_block():
            user = user.parent_op()
        if user is not None and user is not owner and _position(owner, positions) > _position(user, positions):
            return f"operand #{i} ({_value_name(v)}) is used before its definition (it does not dominate this use)"
    return None


def _position(op: Operation, positions: dict[Operation, int] | None) -> int:
    """The op's index in its block (from `positions`, filled a block at a time: xDSL's own lookup walks the block
    from its start, quadratic over a kernel of thousands of ops)."""
    if positions is None:
        return op.parent_block().get_operation_index(op)
    if op not in positions:
        for i, sibling in enumerate(op.parent_block().ops):
            positions[sibling] = i
    return positions[op]


def _has_erased_operand(op: Operation) -> bool:
    """What Operation.verify refuses whatever the op's shape (an operand the rewriter erased)."""
    return any(isinstance(v, ErasedSSAValue) for v in op.operands)


def _value_name(v) -> str:
    return f"%{v.name_hint}" if v.name_hint else "a value"


# modules verify_located found valid, with their op counts then: a compile of a module a builder has just verified
# (compile_generated's) skips verifying it again where it still has as many ops -- ~9% of a large kernel's cold
# compile (session 19)
_VERIFIED: "weakref.WeakKeyDictionary[ModuleOp, int]" = weakref.WeakKeyDictionary()


def verified_as_is(module: ModuleOp) -> bool:
    """Whether verify_located found `module` valid and it has as many ops as then (its ops not added or removed)."""
    count = _VERIFIED.get(module)
    return count is not None and count == len(nested_ops(module))


def verify_located(module: ModuleOp) -> list[Diagnostic]:
    """Verify op by op, innermost first, so each error names its own op and position."""
    diags: list[Diagnostic] = []
    positions: dict[Operation, int] = {}
    count = 0
    for op in nested_ops(module):
        count += 1
        undominated = _used_before_defined(op, positions)
        if undominated is not None:
            diags.append(op_diagnostic(op, f"'{op.name}' op {undominated}"))
            continue
        shape = shape_of(op)
        if known_valid(shape) and not _has_erased_operand(op):
            continue  # an op of this class with these types and attributes verified before
        try:
            op.verify(verify_nested_ops=False)
            launch_bounds(op)
            remember_valid(shape)
        except VerifyException as err:
            diags.append(op_diagnostic(op, f"'{op.name}' op {str(err).splitlines()[0]}"))
    if not diags:
        _VERIFIED[module] = count
    return diags


__all__ = ["Diagnostic", "LocatingParser", "check_nesting", "decode_source", "make_context", "op_diagnostic",
           "recursion_room", "verified_as_is", "verify_located"]
