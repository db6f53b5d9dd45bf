"""IR only: the `mma` dialect of atoms (operands typed by residency) and the `nvvm` dialect in upstream
MLIR's spelling, with their verifiers (which read the atom catalogue)."""
