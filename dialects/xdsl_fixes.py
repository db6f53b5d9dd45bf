"""Parsers and printers of xDSL 0.74 ops that break mmatom's promises (round trip; a located error, never a Python
exception), installed on xDSL's own op classes when `mmatom.dialects` is imported. Replacing the classes would
break every `isinstance` check in xDSL (canonicalization, `scf.yield`'s parent check), so they keep their identity.

`scf.execute_region`: xDSL 0.74's `scf.execute_region` prints its region without the `scf.yield` when it has no results (the printed IR
then fails to parse: the last op "terminates the block but is not a terminator"), and its parser reads the
attribute dictionary and drops it. Printed and parsed here in upstream MLIR's syntax
(`scf.execute_region -> (types) {...} {attrs}`).

`llvm.insertvalue` / `llvm.extractvalue`: xDSL's parsers index the container type with each position unchecked: a
position past a struct's fields was an IndexError, a negative one picked a field from the end, one past i64 a
ValueError. Each position is checked here against its container, located at the position.

`llvm.mlir.global`: xDSL's parser `assert`s that `addr_space` and `alignment` are integer attributes and `section`
a string: a wrong kind was an AssertionError with no message. It is a located parse error here.
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

_xdsl_parse_global = llvm.GlobalOp.parse.__func__


def _parse_execute_region(cls: type[scf.ExecuteRegionOp], parser: Parser) -> scf.ExecuteRegionOp:
    result_types = []
    if parser.parse_optional_punctuation("->"):
        result_types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if result_types is None:
            result_types = [parser.parse_type()]
    op = cls(result_types, parser.parse_region())
    op.attributes.update(parser.parse_optional_attr_dict())
    return op


def _print_execute_region(op: scf.ExecuteRegionOp, printer: Printer) -> None:
    if op.outs:
        printer.print_string(" -> (")
        printer.print_list(op.outs.types, printer.print_attribute)
        printer.print_string(")")
    printer.print_string(" ")
    printer.print_region(op.region, print_entry_block_args=False, print_block_terminators=True)
    if op.attributes:
        printer.print_string(" ")
        printer.print_attr_dict(op.attributes)


def _parse_global(cls: type[llvm.GlobalOp], parser: Parser) -> llvm.GlobalOp:
    start = parser.pos
    try:
        return _xdsl_parse_global(cls, parser)
    except AssertionError:
        raise ParseError(Span(start, start, parser.lexer.input), "llvm.mlir.global: 'addr_space' and 'alignment' must be integer attributes "
                         "(e.g. addr_space = 3 : i32) and 'section' a string") from None


def _parse_positions(parser: Parser) -> list[tuple[int, Span]]:
    """`[i, j, ...]`: each position with where it is written."""
    def position() -> tuple[int, Span]:
        at = parser._current_token.span
        return parser.parse_integer(allow_boolean=False), at
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, position)


def _element_type(container: Attribute, positions: list[tuple[int, Span]]) -> Attribute:
    """The type at `positions` inside `container`; a ParseError at the first position it does not have."""
    t = container
    for index, at in positions:
        if isinstance(t, llvm.LLVMArrayType):
            size, inner = t.size.data, t.type
        elif isinstance(t, llvm.LLVMStructType):
            size, inner = len(t.types.data), None
        else:
            raise ParseError(at, f"position {index} indexes into {t}, which is neither a struct nor an array")
        if not 0 <= index < size:
            raise ParseError(at, f"position {index} is out of range for {t}: it has {size} elements (0 to {size - 1})")
        t = inner if inner is not None else t.types.data[index]
    return t


def _parse_container(parser: Parser):
    """`%container[positions] attr-dict : type`, the tail extractvalue and insertvalue share: (the container
    resolved, the positions as a dense array, the attributes, the element type the positions select)."""
    container = parser.parse_unresolved_operand()
    positions = _parse_positions(parser)
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    container_type = parser.parse_type()
    return (parser.resolve_operand(container, container_type), DenseArrayBase.from_list(i64, [i for i, _ in positions]),
            attributes, _element_type(container_type, positions))


def _parse_extract_value(cls: type[llvm.ExtractValueOp], parser: Parser) -> llvm.ExtractValueOp:
    container, positions, attributes, element = _parse_container(parser)
    op = cls(positions, container, element)
    op.attributes |= attributes
    return op


def _parse_insert_value(cls: type[llvm.InsertValueOp], parser: Parser) -> llvm.InsertValueOp:
    value = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    container, positions, attributes, element = _parse_container(parser)
    op = cls(positions, container, parser.resolve_operand(value, element))
    op.attributes |= attributes
    return op


scf.ExecuteRegionOp.parse = classmethod(_parse_execute_region)
llvm.ExtractValueOp.parse = classmethod(_parse_extract_value)
llvm.InsertValueOp.parse = classmethod(_parse_insert_value)
scf.ExecuteRegionOp.print = _print_execute_region
llvm.GlobalOp.parse = classmethod(_parse_global)
