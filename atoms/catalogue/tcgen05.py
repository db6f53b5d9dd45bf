"""SM100/103/110 `tcgen05.mma` atoms (reference tables D2-D5): D in tensor memory, A from SMEM or
TMEM, B from SMEM. M, N, K and the element types live in the 32-bit instruction descriptor, which
ptxas does not check: the legality of those dimensions is ISA Table 39/57 (marker I), not ptxas."""

from __future__ import annotations

from typing import Any

from ..chips import only
from .elements import F8F6F4, INT8
from .mma_sync import bool_text, opt_text
from .atom_types import BLOCK_SCALED_KINDS, Tcgen05Atom
from .model import SMEM_DESC, TMEM, Dim, Family, OperandSpec, row

SM100_ALL = only("sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f")
SM100_ARCH_SPECIFIC = only("sm_100a", "sm_103a", "sm_110a")

DIMS = (
    Dim("sparse", "sparse", bool_text),
    Dim("cta_group", "cta_group"),
    Dim("kind", "kind"),
    Dim("scale_vec", "block-scale qualifier", opt_text),
    Dim("a", "A type"),
    Dim("b", "B type"),
    Dim("d", "D type"),
    Dim("scale_type", "scale type", opt_text, in_spelling=False),
    Dim("m", "M", in_spelling=False),
    Dim("n", "N", in_spelling=False),
    Dim("k", "K", in_spelling=False),
    Dim("a_residency", "A residency", in_spelling=False),
)

BLOCK_SCALED = BLOCK_SCALED_KINDS
# dense K per kind (Table 39 / 57); sparse doubles it; mxf4 kinds also have K = 96 on sm_103a
DENSE_K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32, "mxf8f6f4": 32, "mxf4": 64, "mxf4nvf4": 64}


def spell(atom: Tcgen05Atom) -> str:
    sp = ".sp" if atom.sparse else ""
    s = f"tcgen05.mma{sp}.cta_group::{atom.cta_group}.kind::{atom.kind}"
    if atom.block_scaled:
        s += ".block_scale"
        vec = atom.scale_vec
        if vec in ("1X", "2X", "4X"):
            s += f".scale_vec::{vec}"
        elif vec:
            s += f".{vec}"
    return s


def operands(atom: Tcgen05Atom) -> tuple[OperandSpec, ...]:
    a_res = atom.a_residency or SMEM_DESC  # None (a bare spelling): SMEM
    ops = [
        OperandSpec("A", a_res, 0, ".b64" if a_res == SMEM_DESC else ".b32"),
        OperandSpec("B", SMEM_DESC, 0, ".b64"),
        OperandSpec("D", TMEM, 0, ".b32"),
    ]
    if atom.sparse:
        ops.append(OperandSpec("E", TMEM, 0, ".b32"))
    if atom.block_scaled:
        ops += [OperandSpec("SFA", TMEM, 0, ".b32"), OperandSpec("SFB", TMEM, 0, ".b32")]
    return tuple(ops)


def context(m: dict[str, Any]) -> str:
    parts = []
    if m.get("sparse"):
        parts.append("sparse")
    if "cta_group" in m:
        parts.append(f"cta_group::{m['cta_group']}")
    if "kind" in m:
        parts.append(f"kind::{m['kind']}")
    if m.get("scale_vec"):
        parts.append(m["scale_vec"])
    return " ".join(parts)


TCGEN05 = Family("tcgen05.mma", "sm100 tcgen05.mma", DIMS, Tcgen05Atom, spell, operands, context)

N8 = range(8, 257, 8)
N16 = range(16, 257, 16)
N_I8_CG1 = frozenset([8, 16, 24, 32, *range(48, 257, 16)])
N_I8_CG2 = range(32, 257, 32)
RESIDENCY = frozenset([SMEM_DESC, TMEM])


def _add(kind, a, b, d, k_dense, *, targets=SM100_ALL, version=(8, 6), scale_vec=None, scale_type=None,
         m_cg1=frozenset([64, 128]), m_cg2=frozenset([128, 256]), m_cg2_sparse=None, n_cg1=N8, n_cg2=N16,
         sparse_targets=None, k_override=None):
    for sparse in (False, True):
        for cg in (1, 2):
            if cg == 1:
                ms, ns = m_cg1, n_cg1
            else:
                ms = m_cg2_sparse if (sparse and m_cg2_sparse) else m_cg2
                ns = n_cg2
            k = k_override if k_override else (k_dense * 2 if sparse else k_dense)
            TCGEN05.rows.append(row(
                "tcgen05.mma", "sm100", (sparse_targets or targets) if sparse else targets, version,
                sparse=sparse, cta_group=cg, kind=kind, scale_vec=scale_vec, a=a, b=b, d=d,
                scale_type=scale_type, m=ms, n=ns, k=k, a_residency=RESIDENCY))


# unscaled kinds (Table 39). kind::i8 is not in the sm_100f family (reference D4).
_add("f16", "f16", "f16", frozenset(["f16", "f32"]), DENSE_K["f16"])
_add("f16", "bf16", "bf16", "f32", DENSE_K["f16"])
_add("tf32", "tf32", "tf32", "f32", DENSE_K["tf32"])
_add("f8f6f4", frozenset(F8F6F4), frozenset(F8F6F4), frozenset(["f16", "f32"]), DENSE_K["f8f6f4"])
_add("i8", frozenset(INT8), frozenset(INT8), "s32", DENSE_K["i8"], targets=only("sm_100a", "sm_110a"),
     n_cg2=N_I8_CG2, n_cg1=N_I8_CG1)

# block-scaled kinds (Table 57; qualifier table D3; targets D4). M = 128 on cta_group::1,
# 128/256 on ::2 dense and 256 only sparse.
_BS = dict(m_cg1=frozenset([128]), m_cg2_sparse=frozenset([256]))
# a bare .block_scale means block32 and is accepted on the f targets too (ptxas 13.5)
for _vec, _tg, _v in ((None, SM100_ALL, (8, 6)), ("1X", SM100_ARCH_SPECIFIC, (8, 6)), ("block32", SM100_ALL, (8, 8))):
    _add("mxf8f6f4", frozenset(F8F6F4), frozenset(F8F6F4), "f32", DENSE_K["mxf8f6f4"], targets=_tg, version=_v,
         scale_vec=_vec, scale_type="ue8m0", **_BS)
for _vec, _tg, _v in ((None, SM100_ALL, (8, 6)), ("2X", SM100_ARCH_SPECIFIC, (8, 6)), ("block32", SM100_ALL, (8, 8))):
    _add("mxf4", "e2m1", "e2m1", "f32", DENSE_K["mxf4"], targets=_tg, version=_v, scale_vec=_vec, scale_type="ue8m0",
         sparse_targets=SM100_ARCH_SPECIFIC, **_BS)
for _vec, _st, _tg, _v in (("2X", "ue8m0", SM100_ARCH_SPECIFIC, (8, 7)),
                           ("4X", frozenset(["ue8m0", "ue4m3"]), SM100_ARCH_SPECIFIC, (8, 7)),
                           ("block32", "ue8m0", SM100_ALL, (8, 8)),
                           ("block16", frozenset(["ue8m0", "ue4m3"]), SM100_ALL, (8, 8))):
    _add("mxf4nvf4", "e2m1", "e2m1", "f32", DENSE_K["mxf4nvf4"], targets=_tg, version=_v, scale_vec=_vec, scale_type=_st,
         sparse_targets=SM100_ARCH_SPECIFIC, **_BS)

# K = 96 for the mxf4 kinds: sm_103a, cta_group::2, M = 256, dense (reference D5)
for _kind, _vecs in (("mxf4", ("2X", "block32")), ("mxf4nvf4", ("2X", "4X", "block32", "block16"))):
    for _vec in _vecs:
        TCGEN05.rows.append(row(
            "tcgen05.mma", "sm103", only("sm_103a"), (8, 8), sparse=False, cta_group=2, kind=_kind,
            scale_vec=_vec, a="e2m1", b="e2m1", d="f32",
            scale_type="ue8m0" if _vec in ("2X", "block32") else frozenset(["ue8m0", "ue4m3"]),
            m=256, n=N16, k=96, a_residency=RESIDENCY))
