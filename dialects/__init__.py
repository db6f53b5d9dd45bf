"""IR only: the `mma` dialect of atoms (operands typed by residency) and the `nvvm` dialect in upstream
MLIR's spelling, with their verifiers (which read the atom catalogue)."""

from mmatom.dialects import xdsl_fixes  # noqa: F401, E402 - parsers and printers of xDSL ops, fixed
