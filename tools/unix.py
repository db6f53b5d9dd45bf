"""What a command-line tool owes its shell."""

from __future__ import annotations

import signal


def restore_sigpipe() -> None:
    """Die quietly of SIGPIPE when the reader goes away (`mmatom-atoms list | head`), as Unix tools do: Python
    ignores the signal and raises BrokenPipeError at the next write instead (a message and exit 1, every time).
    For the console scripts only: a caller of `main()` keeps Python's behaviour."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
