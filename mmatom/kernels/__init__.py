"""Kernels built on mmatom's public API -- applications of the compiler, not part of it.

Each kernel is a package of its own (`gemm`: the H100 GEMM), written only against `mmatom`'s public names; the
compiler's layers never import this package, and `import mmatom` does not load it (`mmatom.gemm` imports it on
first use).
"""
