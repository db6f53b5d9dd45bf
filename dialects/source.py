"""IR from source text: parse with every op located (file:line:col), verify op by op so each diagnostic
names its own op and position. Shared by `mmatom-opt` and `mmatom.compile`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.universe import Universe
from xdsl.utils.exceptions import ParseError, VerifyException


@dataclass(frozen=True)
class Diagnostic:
    line: int
    col: int
    message: str


class LocatingParser(Parser):
    """Records each op's source position as a FileLineColLoc (unless the text gives a `loc`)."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int):
        super().__init__(ctx, text, name)
        self._line_offset = line_offset
        self._name = name

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as err:  # an attribute or type that failed its own verify()
            raise ParseError(self._current_token.span, str(err).splitlines()[0]) from None
        if not isinstance(op.location, FileLineColLoc):
            loc = start.get_location()
            op.location = FileLineColLoc(StringAttr(self._name), IntAttr(loc.line + self._line_offset), IntAttr(loc.col))
        return op


def make_context() -> Context:
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def verify_located(module: ModuleOp) -> list[Diagnostic]:
    """Verify op by op, innermost first, so each error names its own op and position."""
    diags: list[Diagnostic] = []
    for op in module.walk(reverse=False):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            loc = op.location
            line = loc.line.data if isinstance(loc, FileLineColLoc) else 0
            col = loc.column.data if isinstance(loc, FileLineColLoc) else 0
            diags.append(Diagnostic(line, col, f"'{op.name}' op {str(err).splitlines()[0]}"))
    return diags


__all__ = ["Diagnostic", "LocatingParser", "make_context", "verify_located"]
