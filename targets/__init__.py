"""Hardware knowledge: chips, the atom catalogue, descriptors, ptxas."""
