"""mmatom: a compiler for NVIDIA tensor-core MMA atoms (SM70..SM121), on xDSL."""

__version__ = "0.1.0"

from mmatom.compiler import CompileError, Kernel, compile  # noqa: E402

__all__ = ["CompileError", "Kernel", "compile", "__version__"]
