"""The words of the atom dimensions, as enums: element types, operand layouts, kinds, qualifiers, residencies.

Each member is a `str` (Python's StrEnum): it hashes, compares, sorts and formats exactly like its word, so the
catalogue's rows (plain words), PTX spellings and diagnostics take it unchanged. The `mma` dialect's attributes
wrap these same enums, so a word has one definition.
"""

from __future__ import annotations

from enum import StrEnum

from .elements import ALL_ELEMENT_TYPES

# every element name of elements.BITS, in its order (member F16 is "f16", E2M1_C8 is "e2m1_c8")
ElementType = StrEnum("ElementType", [(e.upper(), e) for e in ALL_ELEMENT_TYPES])


class OperandLayout(StrEnum):
    """mma.sync's .row / .col of A and of B."""

    COL = "col"
    ROW = "row"


class Kind(StrEnum):
    """The .kind:: qualifier (mma.sync, mma.sp, block-scaled mma.sync, tcgen05.mma)."""

    F16 = "f16"
    F8F6F4 = "f8f6f4"
    I8 = "i8"
    MXF4 = "mxf4"
    MXF4NVF4 = "mxf4nvf4"
    MXF8F6F4 = "mxf8f6f4"
    TF32 = "tf32"


class BitOp(StrEnum):
    """The bit operation of a b1 product (.xor.popc / .and.popc)."""

    AND = "and"
    XOR = "xor"


class Rounding(StrEnum):
    """The rounding qualifier of f64 mma.sync."""

    RM = "rm"
    RN = "rn"
    RP = "rp"
    RZ = "rz"


class SparseMode(StrEnum):
    """The sparsity qualifier of warp-level sparse forms."""

    SP = "sp"
    ORDERED_METADATA = "sp::ordered_metadata"


class ScaleVec(StrEnum):
    """How many scale factors per row of K (block-scaled forms): .scale_vec::NX, or tcgen05's .blockN."""

    X1 = "1X"
    X2 = "2X"
    X4 = "4X"
    BLOCK16 = "block16"
    BLOCK32 = "block32"


class Residency(StrEnum):
    """Where an operand lives: registers, an SMEM matrix descriptor, or tensor memory."""

    REGISTER = "register"
    SMEM_DESC = "smem_desc"
    TMEM = "tmem"


__all__ = ["BitOp", "ElementType", "Kind", "OperandLayout", "Residency", "Rounding", "ScaleVec", "SparseMode"]
