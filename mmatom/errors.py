"""The one error type of the public API, and where it points: at the op in the IR, or, for a call that has no IR
yet (an atom lookup, a builder call), at the line of the DSL that made the call."""

from __future__ import annotations

import functools
import sys

from xdsl.utils.exceptions import DiagnosticException

from mmatom.dialects.source import Diagnostic

_LIBRARIES = ("mmatom", "xdsl")  # frames of these are not the DSL's ...
_APPLICATIONS = "mmatom.kernels"  # ... except the kernels written on the API: their lines are the DSL's


class CompileError(DiagnosticException):
    """Why something did not compile: each diagnostic located `file:line:col` at the op it is about (or at the
    DSL's call). Every failure of the public API (parsing, verification, lowering, emission, atom lookup, the
    kernel builder) is this type."""

    def __init__(self, diagnostics: list[Diagnostic], name: str = "<module>"):
        super().__init__("\n".join(d.render(name) for d in diagnostics))
        self.diagnostics = diagnostics


def caller_diagnostic(message: str, kernels_are_dsl: bool = False) -> Diagnostic:
    """`message` located at the innermost caller outside mmatom (the DSL's own line and column; with
    `kernels_are_dsl`, a line of mmatom.kernels counts as the DSL's: where the builder locates a kernel's ops). Walks
    raw frames (inspect.stack would read every frame's source: ~1 ms a call, and the builder locates every op)."""
    frame = sys._getframe(1)
    while frame is not None:
        if _is_dsl(frame.f_globals.get("__name__", ""), kernels_are_dsl):
            columns = _columns(frame.f_code)
            at = frame.f_lasti // 2
            col = columns[at] + 1 if at < len(columns) and columns[at] is not None else 1
            return Diagnostic(frame.f_lineno, col, message, frame.f_code.co_filename)
        frame = frame.f_back
    return Diagnostic(0, 0, message)


@functools.lru_cache(maxsize=4096)
def _is_dsl(module: str, kernels_are_dsl: bool) -> bool:
    """Whether a frame of `module` is the DSL's, answered once per module: the builder asks it of ~8 frames for
    each of the thousands of ops it locates, from a few dozen modules."""
    return module.split(".")[0] not in _LIBRARIES or (kernels_are_dsl and module.startswith(_APPLICATIONS))


@functools.lru_cache(maxsize=4096)
def _columns(code) -> tuple:
    """Each instruction's starting column in `code` (co_positions), listed once: the builder locates every op it
    inserts, often from one long kernel function."""
    return tuple(pos[2] for pos in code.co_positions())


def api_error(message: str) -> CompileError:
    """A CompileError at the DSL's call."""
    return CompileError([caller_diagnostic(message)])


__all__ = ["CompileError", "api_error", "caller_diagnostic"]
