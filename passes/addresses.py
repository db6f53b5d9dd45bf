"""Addresses as affine forms, so that a checker can tell that two differently built pointers are the same slot.

A kernel builds `ring.full(stage)` as a fresh `llvm.getelementptr %bars[(%stage + 0) * 8]` every time it names
it; SSA identity cannot relate them, their value can: each address (or i32 index) is read as

    base + const + sum(coeff * leaf)

where `base` is the symbol an `llvm.mlir.addressof` names (or an opaque pointer), and a leaf is any value the
form does not look through (a stage index `%it % N`, a block argument, a thread index). Only byte-addressed
GEPs (i8 element type), constants, addi/subi, and muli/shli by a constant are looked through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import OpResult, SSAValue


@dataclass(frozen=True)
class Affine:
    """base + const + sum(coeff * leaf); `terms` is a sorted tuple of (leaf, coeff) with coeff != 0."""

    base: object = None  # a symbol name (str), an opaque pointer value, or None for an integer
    const: int = 0
    terms: tuple = field(default=())

    @property
    def leaves(self) -> frozenset:
        return frozenset(leaf for leaf, _ in self.terms)

    def plus(self, other: Affine) -> Affine | None:
        if self.base is not None and other.base is not None:
            return None  # pointer + pointer: not an address
        coeffs = dict(self.terms)
        for leaf, c in other.terms:
            coeffs[leaf] = coeffs.get(leaf, 0) + c
        return Affine(self.base if self.base is not None else other.base, self.const + other.const, _terms(coeffs))

    def scaled(self, k: int) -> Affine | None:
        if self.base is not None:
            return None
        return Affine(None, self.const * k, _terms({leaf: c * k for leaf, c in self.terms}))

    def with_leaf(self, old: SSAValue, new: SSAValue) -> Affine:
        return Affine(self.base, self.const, _terms({(new if leaf is old else leaf): c for leaf, c in self.terms}))

    def describe(self) -> str:
        parts = [f"@{self.base}" if isinstance(self.base, str) else "%ptr" if self.base is not None else ""]
        parts.append(str(self.const) if self.const or not self.terms else "")
        parts += [f"{c}*{_name(leaf)}" for leaf, c in self.terms]
        return " + ".join(p for p in parts if p)


def _name(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    return f"({v.op.name} result)" if isinstance(v, OpResult) else "(a block argument)"


def _terms(coeffs: dict) -> tuple:
    return tuple(sorted(((leaf, c) for leaf, c in coeffs.items() if c), key=lambda t: id(t[0])))


def _constant(v: SSAValue) -> int | None:
    if isinstance(v, OpResult) and isinstance(v.op, arith.ConstantOp) and isinstance(v.op.value, IntegerAttr):
        return v.op.value.value.data
    return None


def _leaf(v: SSAValue) -> Affine:
    return Affine(None, 0, ((v, 1),))  # (not cached: a cache keyed by SSA values kept every compiled module alive)


def affine(v: SSAValue) -> Affine:
    """The affine form of an address or integer value (a leaf when nothing better is known)."""
    form = _affine(v)
    if form is not None:
        return form
    return Affine(v, 0, ()) if isinstance(v.type, llvm.LLVMPointerType) else _leaf(v)


def _affine(v: SSAValue) -> Affine | None:
    if not isinstance(v, OpResult):
        return None
    op = v.op
    k = _constant(v)
    if k is not None:
        return Affine(None, k, ())
    if isinstance(op, llvm.AddressOfOp):
        return Affine(op.global_name.root_reference.data, 0, ())
    if isinstance(op, llvm.GEPOp):
        return _gep(op)
    if isinstance(op, (arith.AddiOp, arith.SubiOp)):
        lhs, rhs = affine(op.lhs), affine(op.rhs)
        if isinstance(op, arith.SubiOp):
            rhs = rhs.scaled(-1)
        return lhs.plus(rhs) if rhs is not None else None
    if isinstance(op, (arith.MuliOp, arith.ShLIOp)):
        for x, y in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            k = _constant(y)
            if k is not None:
                return affine(x).scaled(k if isinstance(op, arith.MuliOp) else 1 << k)
    return None


def _gep(op: llvm.GEPOp) -> Affine | None:
    if not (isinstance(op.elem_type, IntegerType) and op.elem_type.width.data == 8):
        return None
    indices = op.rawConstantIndices.get_values()
    if len(indices) != 1:
        return None
    index = Affine(None, indices[0], ()) if indices[0] != llvm.GEP_USE_SSA_VAL else affine(op.ssa_indices[0])
    base = affine(op.ptr)
    return base.plus(index)


def is_shared(ptr: SSAValue) -> bool:
    """Whether `ptr` is a shared-memory pointer (!llvm.ptr<3>)."""
    t = ptr.type
    return isinstance(t, llvm.LLVMPointerType) and getattr(t.addr_space, "data", 0) == 3


__all__ = ["Affine", "affine", "is_shared"]
