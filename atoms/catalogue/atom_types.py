"""The typed atom of each family: a frozen value object with one field per catalogue dimension (named as the
dimension), words as enums (`words.py`), shapes as ints. `Family.make` builds them (model.py); the verifier
resolves one per op and lowering, the PTX emitter and the tools read its fields, never a dimension's name.

Facts that follow from the atom alone (its M x N x K, whether it is sparse or block-scaled, whether its
operands transpose) are properties here, so no caller re-derives them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .elements import TRANSPOSABLE
from .model import Atom, word, word_pair
from .words import BitOp, ElementType, Kind, OperandLayout, Residency, Rounding, ScaleVec, SparseMode

BLOCK_SCALED_KINDS = (Kind.MXF8F6F4, Kind.MXF4, Kind.MXF4NVF4)


class Multiplies:
    """Every family multiplies an A by a B (its fields `a` and `b`)."""

    def multiplicand_type(self, role: str) -> ElementType:
        """The element type of operand A or B."""
        return self.a if role == "A" else self.b  # type: ignore[attr-defined]


@dataclass(frozen=True)
class WarpMmaAtom(Multiplies, Atom):
    """What the warp-level families (mma.sync, mma.sp, block-scaled mma.sync) share: an m-n-k shape, A and B
    element types and the (D, C) accumulator types."""

    @property
    def mnk(self) -> tuple[int, int, int]:
        return self.shape  # type: ignore[attr-defined]

    @property
    def d_type(self) -> ElementType:
        return self.acc[0]  # type: ignore[attr-defined]

    @property
    def c_type(self) -> ElementType:
        return self.acc[1]  # type: ignore[attr-defined]


@dataclass(frozen=True, kw_only=True)
class MmaSyncAtom(WarpMmaAtom):
    """mma.sync (dense)."""

    family: ClassVar[str] = "mma"
    shape: tuple[int, int, int]
    kind: Kind | None = word(Kind)
    a: ElementType = word(ElementType)
    b: ElementType = word(ElementType)
    acc: tuple[ElementType, ElementType] = word_pair(ElementType)  # (D, C)
    layout: tuple[OperandLayout, OperandLayout] = word_pair(OperandLayout)  # (A, B)
    satfinite: bool
    bitop: BitOp | None = word(BitOp)
    rounding: Rounding | None = word(Rounding)

    sparse: ClassVar[bool] = False


@dataclass(frozen=True, kw_only=True)
class MmaSparseAtom(WarpMmaAtom):
    """mma.sp / mma.sp::ordered_metadata: A compressed 2:4, with metadata and a sparsity selector."""

    family: ClassVar[str] = "mma.sp"
    sparse_mode: SparseMode = word(SparseMode)
    shape: tuple[int, int, int]
    kind: Kind | None = word(Kind)
    a: ElementType = word(ElementType)
    b: ElementType = word(ElementType)
    acc: tuple[ElementType, ElementType] = word_pair(ElementType)
    satfinite: bool
    selector: int | None

    sparse: ClassVar[bool] = True
    layout: ClassVar[tuple[OperandLayout, OperandLayout]] = (OperandLayout.ROW, OperandLayout.COL)  # the only one
    bitop: ClassVar[None] = None  # mma.sp has no .b1 forms
    rounding: ClassVar[None] = None  # nor f64 ones

    @property
    def ordered_metadata(self) -> bool:
        return self.sparse_mode == SparseMode.ORDERED_METADATA


@dataclass(frozen=True, kw_only=True)
class MmaBlockScaleAtom(WarpMmaAtom):
    """Block-scaled mma.sync (SM120/121), dense or sparse, with its scale-factor selectors."""

    family: ClassVar[str] = "mma.block_scale"
    sparse_mode: SparseMode | None = word(SparseMode)
    kind: Kind = word(Kind)
    scale_vec: ScaleVec = word(ScaleVec)
    scale_type: ElementType = word(ElementType)
    shape: tuple[int, int, int]
    a: ElementType = word(ElementType)
    b: ElementType = word(ElementType)
    acc: tuple[ElementType, ElementType] = word_pair(ElementType)
    selector: int | None
    byte_id: int | None
    thread_id_a: int | None
    thread_id_b: int | None

    layout: ClassVar[tuple[OperandLayout, OperandLayout]] = (OperandLayout.ROW, OperandLayout.COL)  # the only one

    @property
    def sparse(self) -> bool:
        return self.sparse_mode is not None


class AccumulatesInPlace:
    """The async families (wgmma, tcgen05.mma): M, N and K are fields of their own, and C is D read and
    written in place (wgmma's registers, tcgen05's tensor memory)."""

    @property
    def mnk(self) -> tuple[int, int, int]:
        return (self.m, self.n, self.k)  # type: ignore[attr-defined]

    @property
    def d_type(self) -> ElementType:
        return self.d  # type: ignore[attr-defined]

    @property
    def c_type(self) -> ElementType:
        return self.d  # type: ignore[attr-defined]


@dataclass(frozen=True, kw_only=True)
class WgmmaAtom(AccumulatesInPlace, Multiplies, Atom):
    """wgmma.mma_async (SM90a): one warpgroup, A from SMEM or registers, B from SMEM; the immediates
    (imm-trans, imm-scale, sparsity selector) are the atom's own."""

    family: ClassVar[str] = "wgmma"
    sparse: bool
    a: ElementType = word(ElementType)
    b: ElementType = word(ElementType)
    d: ElementType = word(ElementType)
    m: int
    n: int
    k: int
    satfinite: bool
    bitop: BitOp | None = word(BitOp)
    a_residency: Residency | None = word(Residency)
    trans_a: int | None  # 1: MN-major; None where the type cannot transpose and is K-major
    trans_b: int | None
    scale_a: int | None  # 1 or -1 (negate); None on integer types
    scale_b: int | None
    selector: int | None

    kind: ClassVar[None] = None  # wgmma has no .kind qualifier

    @property
    def transposable(self) -> bool:
        """f16/bf16 operands may be MN-major in SMEM (imm-trans-a/b); other types are K-major only."""
        return self.a in TRANSPOSABLE


@dataclass(frozen=True, kw_only=True)
class Tcgen05Atom(AccumulatesInPlace, Multiplies, Atom):
    """tcgen05.mma (SM100 family): D in tensor memory, A from SMEM or TMEM, B from SMEM; M, N, K and the
    element types go into the instruction descriptor."""

    family: ClassVar[str] = "tcgen05.mma"
    sparse: bool
    cta_group: int
    kind: Kind = word(Kind)
    scale_vec: ScaleVec | None = word(ScaleVec)
    a: ElementType = word(ElementType)
    b: ElementType = word(ElementType)
    d: ElementType = word(ElementType)
    scale_type: ElementType | None = word(ElementType)
    m: int
    n: int
    k: int
    a_residency: Residency | None = word(Residency)

    @property
    def block_scaled(self) -> bool:
        return self.kind in BLOCK_SCALED_KINDS


__all__ = ["AccumulatesInPlace", "BLOCK_SCALED_KINDS", "MmaBlockScaleAtom", "Multiplies", "MmaSparseAtom", "MmaSyncAtom", "Tcgen05Atom", "WarpMmaAtom",
           "WgmmaAtom"]
