"""mmatom: a compiler for NVIDIA tensor-core MMA atoms (SM70..SM121), on xDSL."""

__version__ = "0.1.0"


def compile(module_or_text, /):  # noqa: A001 - the API's name
    """Compile an mma- or nvvm-level module (or .mlir text) to a callable `Kernel` (see mmatom.targets.compiler)."""
    from mmatom.targets.compiler import compile as _compile

    return _compile(module_or_text)
