"""Optional dependencies, imported where they are used: a missing one is a CompileError that names the extra to
install, not a bare ModuleNotFoundError from deep inside a call."""

from __future__ import annotations

from types import ModuleType

from .errors import api_error


def require_torch(what: str = "mmatom.gemm") -> ModuleType:
    """The torch module; a CompileError at the caller's line when PyTorch is not installed."""
    try:
        import torch  # noqa: PLC0415 - optional; an import statement, which torch.compile traces (importlib it refuses)
    except ImportError:
        raise api_error(f"{what} needs PyTorch, which is not installed: pip install 'mmatom[torch]' "
                        f"(torch>=2.4)") from None
    return torch


__all__ = ["require_torch"]
