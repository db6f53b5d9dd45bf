"""The error every IR-level layer raises about one op: verifier passes, lowering and emission all say which
op is wrong, so the tools and `mmatom.compile` can print it at the op's source location."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class OpError(DiagnosticException):
    """A diagnostic about `op` (None when no op is to blame, e.g. an empty module)."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


__all__ = ["OpError"]
