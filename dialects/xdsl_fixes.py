"""Parsers and printers of xDSL 0.74 ops that break mmatom's promises (round trip; a located error, never a Python
exception), installed on xDSL's own op classes when `mmatom.dialects` is imported. Replacing the classes would
break every `isinstance` check in xDSL (canonicalization, `scf.yield`'s parent check), so they keep their identity.

`scf.execute_region`: xDSL 0.74's `scf.execute_region` prints its region without the `scf.yield` when it has no results (the printed IR
then fails to parse: the last op "terminates the block but is not a terminator"), and its parser reads the
attribute dictionary and drops it. Printed and parsed here in upstream MLIR's syntax
(`scf.execute_region -> (types) {...} {attrs}`).

`llvm.mlir.global`: xDSL's parser `assert`s that `addr_space` and `alignment` are integer attributes and `section`
a string: a wrong kind was an AssertionError with no message. It is a located parse error here.
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf
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


scf.ExecuteRegionOp.parse = classmethod(_parse_execute_region)
scf.ExecuteRegionOp.print = _print_execute_region
llvm.GlobalOp.parse = classmethod(_parse_global)
