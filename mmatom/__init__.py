"""mmatom: a compiler for NVIDIA tensor-core MMA atoms (SM70..SM121), on xDSL."""

__version__ = "0.1.0"
