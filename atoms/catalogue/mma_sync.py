"""Warp-level `mma.sync` atoms: SM70/75 legacy shapes, SM80 dense, SM89 fp8, SM90 f64, SM100/120
`kind::f8f6f4`; sparse `mma.sp` / `mma.sp::ordered_metadata`; SM120/121 block-scaled `mma.sync`.

Every row cites `../shared/reference/ptx-mma.md` (tables A1, B, E1-E3). Where ptxas is looser than the
ISA, the row follows the ISA and says so.
"""

from __future__ import annotations

from typing import Any

from ..chips import from_arch, only
from .elements import F8F6F4, FP8, INT4, INT8, register_type, registers
from .atom_types import MmaBlockScaleAtom, MmaSparseAtom, MmaSyncAtom, WarpMmaAtom
from .model import REGISTER, Dim, Family, OperandSpec, row

ROW_COL = ("row", "col")
ALL_LAYOUTS = frozenset((a, b) for a in ("row", "col") for b in ("row", "col"))

# kind::f8f6f4 (unscaled) with e4m3/e5m2 only: sm_100 family and sm_110 accept it too (table E1)
F8F6F4_FP8_TARGETS = only("sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f", "sm_120a", "sm_120f", "sm_121a", "sm_121f")
# fp6/fp4 operands and every block-scaled warp-level form: sm_120 family only (table E1)
SM120_FAMILY = only("sm_120a", "sm_120f", "sm_121a", "sm_121f")


def shape_text(shape: tuple[int, int, int]) -> str:
    m, n, k = shape
    return f"m{m}n{n}k{k}"


def pair_text(p: Any) -> str:
    return "/".join(p) if isinstance(p, tuple) else str(p)


def opt_text(v: Any) -> str:
    return "none" if v is None else str(v)


def bool_text(v: bool) -> str:
    return "yes" if v else "no"


def _types_context(m: dict[str, Any]) -> str:
    parts = []
    if "shape" in m:
        parts.append(shape_text(m["shape"]))
    if m.get("kind"):
        parts.append(f"kind::{m['kind']}")
    if "a" in m:
        parts.append(m["a"] if m.get("b", m["a"]) == m["a"] else f"{m['a']} x {m['b']}")
    if "acc" in m:
        parts.append(f"D/C {pair_text(m['acc'])}")
    return " ".join(parts)


# -- operands ------------------------------------------------------------------------------------

def _mma_operands(atom: WarpMmaAtom) -> tuple[OperandSpec, ...]:
    m, n, k = atom.shape
    kind, sparse = atom.kind, atom.sparse
    d, c = atom.acc
    if (m, n, k) == (8, 8, 4) and atom.a == "f16":
        threads = 8  # sm_70 quad-pairs: four independent 8x8x4 products per warp
    else:
        threads = 32
    a_elems = m * k // threads // (2 if sparse else 1)
    b_elems = k * n // threads
    c_elems = m * n // threads
    ops = [
        OperandSpec("A", REGISTER, registers(a_elems, atom.a, kind), register_type(atom.a)),
        OperandSpec("B", REGISTER, registers(b_elems, atom.b, kind), register_type(atom.b)),
        OperandSpec("C", REGISTER, registers(c_elems, c), register_type(c)),
        OperandSpec("D", REGISTER, registers(c_elems, d), register_type(d)),
    ]
    if sparse:
        ops.append(OperandSpec("E", REGISTER, 1, ".b32"))
    return tuple(ops)


# -- dense mma.sync ------------------------------------------------------------------------------

MMA_DIMS = (
    Dim("shape", "shape", shape_text),
    Dim("kind", "kind", opt_text),
    Dim("a", "A type"),
    Dim("b", "B type"),
    Dim("acc", "D/C types", pair_text),
    Dim("layout", "layouts", pair_text),
    Dim("satfinite", "satfinite", bool_text),
    Dim("bitop", "bit operation", opt_text),
    Dim("rounding", "rounding", opt_text),
)


def spell_mma(atom: MmaSyncAtom) -> str:
    la, lb = atom.layout
    d, c = atom.acc
    s = f"mma.sync.aligned.{shape_text(atom.shape)}.{la}.{lb}"
    if atom.kind:
        s += f".kind::{atom.kind}"
    if atom.satfinite:
        s += ".satfinite"
    s += f".{d}.{atom.a}.{atom.b}.{c}"
    if atom.bitop:
        s += f".{atom.bitop}.popc"
    if atom.rounding:
        s += f".{atom.rounding}"
    return s


MMA_SYNC = Family("mma", "mma.sync", MMA_DIMS, MmaSyncAtom, spell_mma, _mma_operands, _types_context)


def _dense(tier, targets, version, shape, a, b=None, acc=("f32", "f32"), layout=frozenset([ROW_COL]),
           satfinite=False, bitop=None, kind=None, rounding=None, note=""):
    MMA_SYNC.rows.append(row("mma", tier, targets, version, note, shape=shape, kind=kind, a=a,
                        b=a if b is None else b, acc=acc, layout=layout, satfinite=satfinite,
                        bitop=bitop, rounding=rounding))


F16_ACC = frozenset([("f16", "f16"), ("f32", "f32")])
S32 = ("s32", "s32")
SAT = frozenset([False, True])
F64_ROUNDING = frozenset([None, "rn", "rz", "rm", "rp"])

# SM70: m8n8k4 f16 on quad-pairs, any layouts; f16.f32 (dtype f16, ctype f32) is illegal
_dense("sm70", from_arch(70), (6, 4), (8, 8, 4), "f16", acc=frozenset([("f16", "f16"), ("f32", "f16"), ("f32", "f32")]), layout=ALL_LAYOUTS)
# SM75
_dense("sm75", from_arch(75), (6, 5), (16, 8, 8), "f16", acc=F16_ACC)
_dense("sm75", from_arch(75), (6, 5), (8, 8, 16), frozenset(INT8), frozenset(INT8), S32, satfinite=SAT)
_dense("sm75", from_arch(75), (6, 5), (8, 8, 32), frozenset(INT4), frozenset(INT4), S32, satfinite=SAT)
# ptxas: "Feature '.m8n8k128' requires PTX ISA .version 7.0 or later"
_dense("sm75", from_arch(75), (7, 0), (8, 8, 128), "b1", acc=S32, bitop="xor")
# SM80 dense
_dense("sm80", from_arch(80), (7, 0), (8, 8, 4), "f64", acc=("f64", "f64"), rounding=F64_ROUNDING)
_dense("sm80", from_arch(80), (7, 0), (16, 8, 8), "bf16")
_dense("sm80", from_arch(80), (7, 0), (16, 8, 8), "tf32")
_dense("sm80", from_arch(80), (7, 0), (16, 8, 4), "tf32")
_dense("sm80", from_arch(80), (7, 0), (16, 8, 16), "f16", acc=F16_ACC)
_dense("sm80", from_arch(80), (7, 0), (16, 8, 16), "bf16")
for _k in (16, 32):
    _dense("sm80", from_arch(80), (7, 0), (16, 8, _k), frozenset(INT8), frozenset(INT8), S32, satfinite=SAT)
for _k in (32, 64):
    _dense("sm80", from_arch(80), (7, 0), (16, 8, _k), frozenset(INT4), frozenset(INT4), S32, satfinite=SAT)
_dense("sm80", from_arch(80), (7, 1), (8, 8, 128), "b1", acc=S32, bitop="and")
for _k in (128, 256):
    _dense("sm80", from_arch(80), (7, 0), (16, 8, _k), "b1", acc=S32, bitop="xor")
    _dense("sm80", from_arch(80), (7, 1), (16, 8, _k), "b1", acc=S32, bitop="and")
# SM89 fp8: f32 accumulate from PTX 8.4; f16 accumulate and m16n8k16 from 8.7
_dense("sm89", from_arch(89), (8, 4), (16, 8, 32), frozenset(FP8), frozenset(FP8), ("f32", "f32"))
_dense("sm89", from_arch(89), (8, 7), (16, 8, 32), frozenset(FP8), frozenset(FP8), ("f16", "f16"))
_dense("sm89", from_arch(89), (8, 7), (16, 8, 16), frozenset(FP8), frozenset(FP8), F16_ACC)
# SM90 f64
for _k in (4, 8, 16):
    _dense("sm90", from_arch(90), (7, 8), (16, 8, _k), "f64", acc=("f64", "f64"), rounding=F64_ROUNDING)
# SM100/SM120 kind::f8f6f4 (unscaled). ptxas also accepts m16n8k16 kind::f8f6f4 with e4m3; the ISA
# lists kind::f8f6f4 for m16n8k32 only, so the catalogue does not (reference E3, "Quirk").
# ptxas: f32 accumulate from .version 8.6 (sm_100a), f16 accumulate from 8.7
_dense("sm120", F8F6F4_FP8_TARGETS, (8, 6), (16, 8, 32), frozenset(FP8), frozenset(FP8), ("f32", "f32"), kind="f8f6f4")
_dense("sm120", F8F6F4_FP8_TARGETS, (8, 7), (16, 8, 32), frozenset(FP8), frozenset(FP8), ("f16", "f16"), kind="f8f6f4")
for _a in F8F6F4:
    _fp6fp4_b = frozenset(F8F6F4) if _a not in FP8 else frozenset(t for t in F8F6F4 if t not in FP8)
    _dense("sm120", SM120_FAMILY, (8, 7), (16, 8, 32), _a, _fp6fp4_b, F16_ACC, kind="f8f6f4")


# -- sparse mma.sp ---------------------------------------------------------------------------------

SPARSE_MODES = frozenset(["sp", "sp::ordered_metadata"])
ORDERED = "sp::ordered_metadata"

SP_DIMS = (
    Dim("sparse_mode", "sparsity qualifier"),
    Dim("shape", "shape", shape_text),
    Dim("kind", "kind", opt_text),
    Dim("a", "A type"),
    Dim("b", "B type"),
    Dim("acc", "D/C types", pair_text),
    Dim("satfinite", "satfinite", bool_text),
    Dim("selector", "sparsity selector", in_spelling=False),
)


def spell_mma_sp(atom: MmaSparseAtom) -> str:
    d, c = atom.acc
    s = f"mma.{atom.sparse_mode}.sync.aligned.{shape_text(atom.shape)}.row.col"
    if atom.kind:
        s += f".kind::{atom.kind}"
    if atom.satfinite:
        s += ".satfinite"
    return s + f".{d}.{atom.a}.{atom.b}.{c}"


MMA_SP = Family("mma.sp", "mma.sp", SP_DIMS, MmaSparseAtom, spell_mma_sp, _mma_operands, _types_context)


def _sparse(tier, targets, version, shape, a, b=None, acc=("f32", "f32"), selector=range(1), satfinite=False,
            kind=None, modes=SPARSE_MODES, note=""):
    for mode in sorted(modes):  # sorted: case order (and conformance kernel names) must not depend on the hash seed
        # .sp::ordered_metadata needs PTX 8.5
        v = max(version, (8, 5)) if mode == ORDERED else version
        MMA_SP.rows.append(row("mma.sp", tier, targets, v, note, sparse_mode=mode, shape=shape, kind=kind, a=a,
                               b=a if b is None else b, acc=acc, satfinite=satfinite, selector=selector))


# Selectors follow the ISA: one thread per quad (0..3), a thread pair (0..1), or all four (0).
# ptxas accepts 0..3 for m16n8k32 f16 with an f32 accumulator; the ISA says 0..1 (reference B).
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 16), "f16", acc=F16_ACC, selector=range(4))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 32), "f16", acc=F16_ACC, selector=range(2))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 16), "bf16", selector=range(4))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 32), "bf16", selector=range(2))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 8), "tf32", selector=range(4))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 16), "tf32", selector=range(2))
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 32), frozenset(INT8), frozenset(INT8), S32, range(2), SAT)
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 64), frozenset(INT8), frozenset(INT8), S32, range(1), SAT)
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 64), frozenset(INT4), frozenset(INT4), S32, range(2), SAT)
_sparse("sm80", from_arch(80), (7, 1), (16, 8, 128), frozenset(INT4), frozenset(INT4), S32, range(1), SAT)
_sparse("sm89", from_arch(89), (8, 4), (16, 8, 64), frozenset(FP8), frozenset(FP8), ("f32", "f32"))
_sparse("sm120", SM120_FAMILY, (8, 7), (16, 8, 64), frozenset(FP8), frozenset(FP8), ("f16", "f16"), modes=[ORDERED])
# the reference lists sm_100a, 100f, 103a, 110a, 120a, 120f, 121a; ptxas 13.5 also accepts the f targets
_sparse("sm120", F8F6F4_FP8_TARGETS, (8, 6),
        (16, 8, 64), frozenset(FP8), frozenset(FP8), ("f32", "f32"), kind="f8f6f4", modes=[ORDERED])
_sparse("sm120", SM120_FAMILY, (8, 7), (16, 8, 64), frozenset(FP8), frozenset(FP8), ("f16", "f16"), kind="f8f6f4", modes=[ORDERED])
for _a in F8F6F4:
    _b = frozenset(F8F6F4) if _a not in FP8 else frozenset(t for t in F8F6F4 if t not in FP8)
    _sparse("sm120", SM120_FAMILY, (8, 7), (16, 8, 64), _a, _b, F16_ACC, kind="f8f6f4", modes=[ORDERED])


# -- SM120/121 block-scaled mma.sync ---------------------------------------------------------------

BS_DIMS = (
    Dim("sparse_mode", "sparsity qualifier", opt_text),
    Dim("kind", "kind"),
    Dim("scale_vec", "scale_vec"),
    Dim("scale_type", "scale type"),
    Dim("shape", "shape", shape_text),
    Dim("a", "A type"),
    Dim("b", "B type"),
    Dim("acc", "D/C types", pair_text),
    Dim("selector", "sparsity selector", in_spelling=False),
    Dim("byte_id", "byte-id", in_spelling=False),
    Dim("thread_id_a", "thread-id-a", in_spelling=False),
    Dim("thread_id_b", "thread-id-b", in_spelling=False),
)


def spell_block_scale(atom: MmaBlockScaleAtom) -> str:
    d, c = atom.acc
    sp = f".{atom.sparse_mode}" if atom.sparse_mode else ""
    return (
        f"mma{sp}.sync.aligned.{shape_text(atom.shape)}.row.col.kind::{atom.kind}.block_scale"
        f".scale_vec::{atom.scale_vec}.{d}.{atom.a}.{atom.b}.{c}.{atom.scale_type}"
    )


def _bs_operands(atom: MmaBlockScaleAtom) -> tuple[OperandSpec, ...]:
    base = _mma_operands(atom)
    return base + (OperandSpec("SFA", REGISTER, 1, ".b32"), OperandSpec("SFB", REGISTER, 1, ".b32"))


def _bs_context(m: dict[str, Any]) -> str:
    parts = []
    if "kind" in m:
        parts.append(f"kind::{m['kind']}")
    if "scale_vec" in m:
        parts.append(f"scale_vec::{m['scale_vec']}")
    if "scale_type" in m:
        parts.append(m["scale_type"])
    if "shape" in m:
        parts.append(shape_text(m["shape"]))
    return " ".join(parts)


MMA_BLOCK_SCALE = Family("mma.block_scale", "mma.sync block_scale", BS_DIMS, MmaBlockScaleAtom, spell_block_scale,
                         _bs_operands, _bs_context)

# byte-id ranges per scale_vec (reference E2): 1X 0..3, 2X 0 or 2, 4X 0 only
BYTE_IDS = {"1X": range(4), "2X": frozenset([0, 2]), "4X": range(1)}


def _block_scaled(kind, scale_vec, scale_type, shape, a, b, version=(8, 7), targets=SM120_FAMILY, sparse=False):
    MMA_BLOCK_SCALE.rows.append(row(
        "mma.block_scale", "sm120", targets, version, sparse_mode=ORDERED if sparse else None, kind=kind,
        scale_vec=scale_vec, scale_type=scale_type, shape=shape, a=a, b=b, acc=("f32", "f32"),
        selector=range(1), byte_id=BYTE_IDS[scale_vec], thread_id_a=range(2), thread_id_b=range(4)))


_block_scaled("mxf8f6f4", "1X", "ue8m0", (16, 8, 32), frozenset(F8F6F4), frozenset(F8F6F4))
_block_scaled("mxf4", "2X", "ue8m0", (16, 8, 64), "e2m1", "e2m1")
_block_scaled("mxf4nvf4", "2X", "ue8m0", (16, 8, 64), "e2m1", "e2m1")
_block_scaled("mxf4nvf4", "4X", "ue4m3", (16, 8, 64), "e2m1", "e2m1")
# ue8m0 with 4X arrived in PTX 9.1 (reference E1, last row)
_block_scaled("mxf4nvf4", "4X", "ue8m0", (16, 8, 64), "e2m1", "e2m1", version=(9, 1))
# sparse block-scaled: mxf8f6f4 on the sm_120 family; mxf4 kinds only on sm_120a and sm_121a
_block_scaled("mxf8f6f4", "1X", "ue8m0", (16, 8, 64), frozenset(F8F6F4), frozenset(F8F6F4), sparse=True)
_block_scaled("mxf4", "2X", "ue8m0", (16, 8, 128), "e2m1", "e2m1", targets=only("sm_120a", "sm_121a"), sparse=True)
_block_scaled("mxf4nvf4", "2X", "ue8m0", (16, 8, 128), "e2m1", "e2m1", targets=only("sm_120a", "sm_121a"), sparse=True)
_block_scaled("mxf4nvf4", "4X", "ue4m3", (16, 8, 128), "e2m1", "e2m1", targets=only("sm_120a", "sm_121a"), sparse=True)
# the sparse twin of the PTX 9.1 ue8m0 + 4X form (ptxas 13.5 accepts it; not in the reference)
_block_scaled("mxf4nvf4", "4X", "ue8m0", (16, 8, 128), "e2m1", "e2m1", version=(9, 1), targets=only("sm_120a", "sm_121a"), sparse=True)

# omitted scale_vec means the kind's default (reference E3); mxf4nvf4 has none
DEFAULT_SCALE_VEC = {"mxf8f6f4": "1X", "mxf4": "2X"}
