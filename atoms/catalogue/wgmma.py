"""SM90a warpgroup `wgmma.mma_async` atoms (reference tables C1-C5): sm_90a only, M = 64."""

from __future__ import annotations

from typing import Any

from ..chips import only
from .elements import FP8, INT4, INT8, TRANSPOSABLE
from .mma_sync import bool_text, opt_text
from .atom_types import WgmmaAtom
from .model import REGISTER, SMEM_DESC, Dim, Family, OperandSpec, row

SM90A = only("sm_90a")


def imm_trans(a: str, mn_major: bool) -> int | None:
    """An SMEM operand's imm-trans for element type `a`: 1 MN-major, 0 K-major for the transposable types; the
    others have no imm-trans (None), and MN-major gives 1, which the catalogue then rejects with its diagnostic."""
    if a in TRANSPOSABLE:
        return 1 if mn_major else 0
    return 1 if mn_major else None

UNSCALED = INT8 + INT4 + ("b1",)  # integer and single-bit types: wgmma has no imm-scale-a/b for them


def imm_scale(a: str, given: int | None) -> int | None:
    """An operand's imm-scale for element type `a`: the value the IR gives (-1 negates), else 1 on the floating
    types and None on those with no imm-scale (a value given there reaches the rows, which reject it)."""
    if given is not None:
        return given
    return None if a in UNSCALED else 1


N_FLOAT = range(8, 257, 8)
N_INT = frozenset([8, 16, 24, 32, *range(48, 257, 16)])

DIMS = (
    Dim("sparse", "sparse", bool_text),
    Dim("a", "A type"),
    Dim("b", "B type"),
    Dim("d", "D type"),
    Dim("m", "M"),
    Dim("n", "N"),
    Dim("k", "K"),
    Dim("satfinite", "satfinite", bool_text),
    Dim("bitop", "bit operation", opt_text),
    Dim("a_residency", "A residency", in_spelling=False),
    Dim("trans_a", "A major (imm-trans-a)", lambda v: "mn" if v == 1 else "k", in_spelling=False),
    Dim("trans_b", "B major (imm-trans-b)", lambda v: "mn" if v == 1 else "k", in_spelling=False),
    Dim("scale_a", "imm-scale-a", opt_text, in_spelling=False),
    Dim("scale_b", "imm-scale-b", opt_text, in_spelling=False),
    Dim("selector", "sparsity selector", opt_text, in_spelling=False),
)


def spell(atom: WgmmaAtom) -> str:
    sp = ".sp" if atom.sparse else ""
    s = f"wgmma.mma_async{sp}.sync.aligned.m{atom.m}n{atom.n}k{atom.k}"
    if atom.satfinite:
        s += ".satfinite"
    s += f".{atom.d}.{atom.a}.{atom.b}"
    if atom.bitop:
        s += f".{atom.bitop}.popc"
    return s


def operands(atom: WgmmaAtom) -> tuple[OperandSpec, ...]:
    n = atom.n
    d_regs = n // 4 if atom.d == "f16" else n // 2
    d_type = ".f32" if atom.d == "f32" else ".b32"
    if atom.a_residency == REGISTER:  # None (a bare spelling): SMEM
        a = OperandSpec("A", REGISTER, 4, ".b32")
    else:
        a = OperandSpec("A", SMEM_DESC, 0, ".b64")
    # C is the accumulator read in place: the same registers as D
    ops = [a, OperandSpec("B", SMEM_DESC, 0, ".b64"), OperandSpec("C", REGISTER, d_regs, d_type),
           OperandSpec("D", REGISTER, d_regs, d_type)]
    if atom.sparse:
        ops.append(OperandSpec("E", REGISTER, 1, ".b32"))
    return tuple(ops)


def context(m: dict[str, Any]) -> str:
    parts = []
    if m.get("sparse"):
        parts.append("sparse")
    if "a" in m:
        parts.append(m["a"] if m.get("b", m["a"]) == m["a"] else f"{m['a']} x {m['b']}")
    if "d" in m:
        parts.append(f"-> {m['d']}")
    return " ".join(parts)


WGMMA = Family("wgmma", "sm90 wgmma", DIMS, WgmmaAtom, spell, operands, context)

NEGATE = frozenset([1, -1])


def dense_k(a: str) -> int:
    """K of a dense wgmma atom: 32 bytes of A's type (sparse atoms have twice that)."""
    return {"f16": 16, "bf16": 16, "tf32": 8, "b1": 256}.get(a, 32)


def _rows(a, b, d, n, *, version, sparse_version=(8, 2), transposable=False, negatable=True,
          satfinite=False, bitop=None, sparse_selector=None):
    k = dense_k(next(iter(a)) if isinstance(a, frozenset) else a)
    for sparse in (False, True):
        if sparse and sparse_selector is None:
            continue
        for residency in (SMEM_DESC, REGISTER):
            WGMMA.rows.append(row(
                "wgmma", "sm90a", SM90A, max(version, sparse_version) if sparse else version,
                sparse=sparse, a=a, b=b, d=d, m=64, n=n, k=k * 2 if sparse else k, satfinite=satfinite,
                bitop=bitop, a_residency=residency,
                # trans-a exists only with A in SMEM; transposes only for f16/bf16 (reference C3)
                trans_a=frozenset([0, 1]) if transposable and residency == SMEM_DESC else (0 if transposable else None),
                trans_b=frozenset([0, 1]) if transposable else None,
                scale_a=NEGATE if negatable else None, scale_b=NEGATE if negatable else None,
                selector=sparse_selector if sparse else None))


_rows("f16", "f16", frozenset(["f16", "f32"]), N_FLOAT, version=(8, 0), transposable="f16" in TRANSPOSABLE,
      sparse_selector=range(2))
_rows("bf16", "bf16", "f32", N_FLOAT, version=(8, 0), transposable="bf16" in TRANSPOSABLE, sparse_selector=range(2))
_rows("tf32", "tf32", "f32", N_FLOAT, version=(8, 0), sparse_selector=range(2))
_rows(frozenset(FP8), frozenset(FP8), frozenset(["f16", "f32"]), N_FLOAT, version=(8, 0), sparse_selector=range(1))
for _a in INT8:
    for _b in INT8:
        # mixed signedness needs PTX 8.4 (reference C1)
        _rows(_a, _b, "s32", N_INT, version=(8, 0) if _a == _b else (8, 4), negatable=False,
              satfinite=frozenset([False, True]), sparse_selector=range(1))
_rows("b1", "b1", "s32", N_INT, version=(8, 0), negatable=False, bitop="and")
