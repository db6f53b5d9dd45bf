"""What the verifier passes raise: a kernel that breaks an async protocol, located at the op."""

from mmatom.dialects.diagnostics import OpError


class LifecycleError(OpError):
    """A kernel that breaks an async protocol (wgmma groups, TMEM allocation); `op` is where."""


__all__ = ["LifecycleError"]
