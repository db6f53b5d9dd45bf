"""What the verifier passes raise: a kernel that breaks an async protocol, located at the op."""

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

from mmatom.dialects.diagnostics import OpError


class LifecycleError(OpError):
    """A kernel that breaks an async protocol (wgmma groups, TMEM allocation); `op` is where."""


def at_line(op: Operation) -> str:
    """` (line N)` of an op parsed from text, for naming a second op in a diagnostic; else empty."""
    loc = op.location
    return f" (line {loc.line.data})" if isinstance(loc, FileLineColLoc) else ""


__all__ = ["LifecycleError", "at_line"]
