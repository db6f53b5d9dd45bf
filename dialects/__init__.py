"""IR: the `mma` dialect of atoms (and, later, the `nvvm` subset we emit)."""
