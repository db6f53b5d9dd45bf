"""Conformance of SM90a wgmma (SS form): every type, N, swizzle and legal major mode.

Each case is one wgmma atom in a one-warpgroup kernel: the CTA stages A (64 x K) and B (N x K) from
global memory into SMEM in the case's canonical layout (mma.copy_to_smem), fences the generic-proxy
writes for the async proxy, builds both descriptors (mma.make_desc), loads C by its TV layout, runs
wgmma.fence / mma_async / commit_group / wait_group 0 and stores D. The reference is numpy float64
(int64 for integers and b1), with the case's negations (imm-scale-a/b) and scale-d.

Cases: the full cross product of type x SS/RS x dense/sparse (every legal selector) x swizzle (none, 32B,
64B, 128B) x major modes (K/MN for A in SMEM and for B where the type allows a transpose) for N in
{8, 64, 128, 256}; every legal N for f16 and bf16 SS with K-major 128B swizzle; negation and scale-d = 0
variants at N = 64. b1 has no sparse form; its RS A fragment is the reference's inferred one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, ModuleOp, i64
from xdsl.ir import Block

from mmatom.dialects import mma, nvvm
from mmatom.layout import ComposedLayout, Layout
from mmatom.atoms.catalogue import Atom, family
from mmatom.atoms.catalogue.elements import BITS, FP8, INT8, TRANSPOSABLE
from mmatom.atoms.catalogue.fragments import tv_layouts
from mmatom.atoms.catalogue.wgmma import dense_k
from mmatom.atoms.descriptors import DescriptorError, SmemOperand, canonical_layout
from mmatom.atoms.numerics import decode, draw

from . import Case, compare, kernel_function
from .register import POISON, _image, _read_image, sparse_operands

GLOBAL = llvm.LLVMPointerType(IntAttr(1))
SHARED = llvm.LLVMPointerType(IntAttr(3))
SMEM_SYMBOL = "smem"
PREAMBLE = f".extern .shared .align 1024 .b8 {SMEM_SYMBOL}[];\n\n"
SWIZZLES = ("none", "32b", "64b", "128b")
CROSS_N = (8, 64, 128, 256)
SELECTORS = {"f16": (0, 1), "bf16": (0, 1), "tf32": (0, 1)}  # fp8 and integer forms take selector 0 only
THREADS = 128


def _types() -> list[dict]:
    out = [dict(a="f16", b="f16", d=d) for d in ("f16", "f32")] + [dict(a="bf16", b="bf16", d="f32"),
                                                                      dict(a="tf32", b="tf32", d="f32")]
    out += [dict(a=a, b=b, d=d) for a in FP8 for b in FP8 for d in ("f16", "f32")]
    out += [dict(a=a, b=b, d="s32", satfinite=s) for a in INT8 for b in INT8 for s in (False, True)]
    out.append(dict(a="b1", b="b1", d="s32", bitop="and"))
    return out


def _atom(t: dict, n: int, trans_a: int | None, trans_b: int | None, scale_a=None, scale_b=None,
          residency: str = "smem_desc", selector: int | None = None) -> Atom:
    k = dense_k(t["a"]) * (2 if selector is not None else 1)
    floating = t["d"] != "s32"
    values = dict(sparse=selector is not None, a=t["a"], b=t["b"], d=t["d"], m=64, n=n, k=k,
                  satfinite=t.get("satfinite", False),
                  bitop=t.get("bitop"), a_residency=residency, trans_a=trans_a, trans_b=trans_b,
                  scale_a=(scale_a or 1) if floating else None, scale_b=(scale_b or 1) if floating else None,
                  selector=selector)
    return family("wgmma").make(values)


@dataclass(frozen=True)
class WgmmaCase:
    swizzle: str
    scale_d: int = 1


def cases() -> list[Case]:
    out: list[Case] = []
    seen = set()
    for atom, swizzle, scale_d in _candidates():
        key = (atom, swizzle, scale_d)
        if key in seen or not _describable(atom, swizzle):
            continue
        seen.add(key)
        out.append(Case(f"w{len(out)}", _label(atom, swizzle, scale_d), atom, ("sm_90a",), WgmmaCase(swizzle, scale_d)))
    return out


def _label(atom: Atom, swizzle: str, scale_d: int) -> str:
    a_place = "regs" if atom.a_residency == "register" else ("mn" if atom.trans_a == 1 else "k")
    return (f"{family('wgmma').spell(atom)} A:{a_place} B:{'mn' if atom.trans_b == 1 else 'k'} {swizzle}"
            + (f" selector {atom.selector}" if atom.sparse else "")
            + (f" scale-a {atom.scale_a} scale-b {atom.scale_b}" if atom.scale_a == -1 or atom.scale_b == -1 else "")
            + (" scale-d 0" if not scale_d else ""))


def _candidates():
    """(atom, swizzle, scale_d) of every case, in order, repeats included (cases() drops them)."""
    for t in _types():
        yield from _dense_candidates(t)
        # RS (A in its canonical register fragment; no trans-a) and sparse (SS and RS, every selector): the
        # full cross product over N in CROSS_N x swizzle x legal major modes, as for dense SS
        if t["a"] == "b1":  # no sparse form; RS with the reference's inferred A fragment (checked on the H100)
            yield from ((_atom(t, n, None, None, residency="register"), sw, 1) for n in CROSS_N for sw in SWIZZLES)
            continue
        yield from _rs_and_sparse_candidates(t)


def _dense_candidates(t: dict):
    """SS wgmma of type `t`: N in CROSS_N x majors x swizzles, every legal N, negated scales, scale-d 0."""
    transposable = t["a"] in TRANSPOSABLE
    majors = [(a, b) for a in (0, 1) for b in (0, 1)] if transposable else [(None, None)]
    legal_n = range(8, 257, 8) if t["d"] != "s32" else [8, 16, 24, 32, *range(48, 257, 16)]
    yield from ((_atom(t, n, ta, tb), sw, 1) for n in CROSS_N for ta, tb in majors for sw in SWIZZLES)
    if transposable:
        yield from ((_atom(t, n, 0, 0), "128b", 1) for n in legal_n)
    z = 0 if transposable else None
    if t["d"] != "s32":
        yield _atom(t, 64, z, z, scale_a=-1), "128b", 1
        yield _atom(t, 64, z, z, scale_b=-1), "128b", 1
    yield _atom(t, 64, z, z), "128b", 0


def _rs_and_sparse_candidates(t: dict):
    """RS and sparse wgmma of type `t`: every selector x N in CROSS_N x A's place and majors x swizzles, negated
    scales, scale-d 0."""
    transposable = t["a"] in TRANSPOSABLE
    majors = [(a, b) for a in (0, 1) for b in (0, 1)] if transposable else [(None, None)]
    z = 0 if transposable else None
    b_majors = (0, 1) if transposable else (None,)
    for sel in (None, *SELECTORS.get(t["a"], (0,))):
        forms = [("register", z, tb) for tb in b_majors]
        if sel is not None:
            forms += [("smem_desc", ta, tb) for ta, tb in majors]
        yield from ((_atom(t, n, ta, tb, residency=residency, selector=sel), sw, 1)
                    for n in CROSS_N for residency, ta, tb in forms for sw in SWIZZLES)
    if t["d"] != "s32":
        yield _atom(t, 64, z, z, scale_a=-1, residency="register"), "128b", 1
        yield _atom(t, 64, z, z, scale_b=-1, selector=SELECTORS.get(t["a"], (0,))[-1]), "128b", 1
    yield _atom(t, 64, z, z, residency="register"), "128b", 0
    yield _atom(t, 64, z, z, selector=0), "128b", 0


def _describable(atom: Atom, swizzle: str) -> bool:
    """Whether one descriptor can view each SMEM operand: a K-major swizzled tile holds at most one swizzle
    row of K (sparse B at K = 64 bytes does not fit 32B swizzle; the verifier rejects that too)."""
    roles = "B" if atom.a_residency == "register" else "AB"
    try:
        for role in roles:
            smem_layout(smem_operand(atom, role, swizzle))
    except DescriptorError:
        return False
    return True


def _extra(case: Case) -> WgmmaCase:
    return case.options  # type: ignore[return-value]


# -- SMEM layouts: canonical, packed tight -----------------------------------------------------------

def smem_operand(atom: Atom, role: str, swizzle: str) -> SmemOperand:
    rows = 64 if role == "A" else atom.n
    k = atom.k // 2 if role == "A" and atom.sparse else atom.k
    major = "mn" if (atom.trans_a if role == "A" else atom.trans_b) == 1 else "k"
    return SmemOperand(rows, k, BITS[atom.multiplicand_type(role)], major, swizzle)


def smem_layout(op: SmemOperand) -> ComposedLayout:
    """The canonical layout of `op` with its core matrices / swizzle atoms packed one after another."""
    core = 128  # bytes of an 8 x 16-byte core matrix
    if op.swizzle == "none":
        along_k = op.k * op.elem_bits // 128  # 16-byte columns of K
        if op.major == "k":
            return canonical_layout(op, lbo=core, sbo=core * along_k)
        return canonical_layout(op, lbo=core * (op.rows // op.t), sbo=core)
    width = {"32b": 32, "64b": 64, "128b": 128}[op.swizzle]
    if op.major == "k":
        return canonical_layout(op, lbo=16, sbo=8 * width)
    atoms_mn = max(1, op.rows * op.elem_bits // 8 // width)
    return canonical_layout(op, lbo=8 * width, sbo=8 * width * atoms_mn)


def _bytes(layout: ComposedLayout, op: SmemOperand) -> int:
    return (layout.layout.cosize() * op.elem_bits + 7) // 8


def global_layout(op: SmemOperand) -> Layout:
    """Global memory holds the tile contiguous along the SMEM layout's 16-byte rows."""
    if op.major == "k":
        return Layout((op.rows, op.k), (op.k, 1))
    return Layout((op.rows, op.k), (1, op.rows))


def c_layout(atom: Atom) -> Layout:
    return Layout((64, atom.n), (atom.n, 1))


def shared_bytes(case: Case) -> int:
    ops = [smem_operand(case.atom, r, _extra(case).swizzle) for r in "AB"]
    a_bytes = _bytes(smem_layout(ops[0]), ops[0])
    return -(-a_bytes // 1024) * 1024 + _bytes(smem_layout(ops[1]), ops[1])


def launch_config(case: Case) -> dict:
    return dict(grid=(1,), block=(THREADS,), shared_bytes=shared_bytes(case))


# -- the kernel ----------------------------------------------------------------------------------------

def _desc_type(atom: Atom, role: str, swizzle: str) -> mma.SmemDescType:
    op = smem_operand(atom, role, swizzle)
    return mma.SmemDescType(role, atom.multiplicand_type(role), op.major, swizzle, str(smem_layout(op)))


def build_kernel(case: Case) -> llvm.FuncOp:
    atom, extra = case.atom, _extra(case)
    block = Block(arg_types=[GLOBAL] * (5 if atom.sparse else 4))
    pa, pb, pc, pd = block.args[:4]
    ops, made = _smem_operands(atom, extra.swizzle, pa, pb)
    if atom.a_residency == "register":
        ka = smem_operand(atom, "A", extra.swizzle).k
        a_frag = mma.LoadFragmentOp(pa, str(Layout((64, ka), (ka, 1))), mma.fragment_type(atom, "A"))
        ops.append(a_frag)
        a_value, b_desc = a_frag.res, made[0].res
    else:
        a_value, b_desc = made[0].res, made[1].res
    c = mma.LoadFragmentOp(pc, str(c_layout(atom)), mma.FragmentType("C", atom.d, str(_tv_c(atom))))
    ops.append(c)
    e = None
    if atom.sparse:
        metadata = mma.LoadFragmentOp(block.args[4], "(128,1):(1,0)", mma.FragmentType("E", "b32", "(128,1):(1,0)"))
        ops.append(metadata)
        e = metadata.res
    ops.append(nvvm.WgmmaFenceAlignedOp())
    w = mma.WgmmaOp((64, atom.n, atom.k), a_value, b_desc, c.res,
                    mma.FragmentType("D", atom.d, str(_tv_c(atom))),
                    scale_a=atom.scale_a if atom.scale_a == -1 else None,
                    scale_b=atom.scale_b if atom.scale_b == -1 else None,
                    scale_d=0 if not extra.scale_d else None, satfinite=bool(atom.satfinite), bitop=atom.bitop,
                    e=e, selector=atom.selector if atom.sparse else None)
    ops += [w, nvvm.WgmmaGroupSyncAlignedOp(), nvvm.WgmmaWaitGroupSyncOp(0),
            mma.StoreFragmentOp(w.d, pd, str(c_layout(atom))), llvm.ReturnOp.create()]
    block.add_ops(ops)
    return kernel_function(case.name, block, THREADS)


def _smem_operands(atom: Atom, swizzle: str, pa, pb) -> tuple[list, list]:
    """(ops, made descriptors): A (unless it is read from registers) and B copied into SMEM in their canonical
    layouts, B one 1 KiB-aligned tile after A, a proxy fence and a barrier, then their descriptors."""
    base = llvm.AddressOfOp(SMEM_SYMBOL, SHARED)
    ops_a = smem_operand(atom, "A", swizzle)
    b_at = arith.ConstantOp(IntegerAttr(-(-_bytes(smem_layout(ops_a), ops_a) // 1024) * 1024, i64))
    sb = llvm.GEPOp.from_mixed_indices(base.result, [b_at.result], IntegerType(8), result_type=SHARED)
    ops: list = [base, b_at, sb]
    descs = []
    for role, src, dst in (("A", pa, base.result), ("B", pb, sb.result)):
        if role == "A" and atom.a_residency == "register":
            continue
        t = _desc_type(atom, role, swizzle)
        ops.append(mma.CopyToSmemOp(src, str(global_layout(smem_operand(atom, role, swizzle))), dst, t, THREADS))
        descs.append((dst, t))
    ops += [nvvm.FenceProxyOp(), nvvm.BarrierOp()]
    made = [mma.MakeDescOp(p, t) for p, t in descs]
    return ops + made, made


def _tv_c(atom: Atom):
    return tv_layouts(atom)["C"]


def build_module(cases_: list[Case], target: str) -> ModuleOp:
    smem = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(0), IntegerType(8)), SMEM_SYMBOL, "external",
                         addr_space=3, alignment=1024)
    return ModuleOp([smem, *(build_kernel(c) for c in cases_)], attributes={"mma.target": mma.TargetAttr(target)})


# -- inputs and the reference --------------------------------------------------------------------

@dataclass
class Inputs:
    arrays: list[np.ndarray]  # A, B, C, D (poisoned)
    reference: np.ndarray  # 1 x 64 x N
    scale: np.ndarray
    d_elem: str
    d_poison: int


def make_inputs(case: Case, rng: np.random.Generator) -> Inputs:
    atom, extra = case.atom, _extra(case)
    n, k, d_elem = atom.n, atom.k, atom.d
    a_bits, b_bits = draw(atom.a, (1, 64, k), rng), draw(atom.b, (1, n, k), rng)
    c_bits = draw(d_elem, (1, 64, n), rng)
    a_val, b_val, c_val = decode(atom.a, a_bits), decode(atom.b, b_bits), decode(d_elem, c_bits)
    extra_arrays = []
    if atom.sparse:
        a_val, a_bits, e_words = sparse_operands(atom, a_bits, a_val, 64, k, THREADS, rng)
        extra_arrays = [np.frombuffer(e_words.tobytes(), dtype=np.uint8).copy()]
    if not extra.scale_d:
        c_val = np.zeros_like(c_val)
    if atom.bitop:
        ref = (a_val.astype(np.int64)[:, :, None, :] & b_val.astype(np.int64)[:, None, :, :]).sum(axis=3) + c_val
    else:
        sign = (atom.scale_a or 1) * (atom.scale_b or 1)
        ref = sign * np.einsum("tmk,tnk->tmn", a_val, b_val) + c_val
        if atom.satfinite:
            ref = np.clip(ref, -(2 ** 31), 2 ** 31 - 1)
    scale = np.einsum("tmk,tnk->tmn", np.abs(a_val), np.abs(b_val)) + np.abs(c_val)
    op_a, op_b = (smem_operand(atom, r, extra.swizzle) for r in "AB")
    arrays = [_image(atom.a, a_bits, global_layout(op_a)), _image(atom.b, b_bits, global_layout(op_b)),
              _image(d_elem, c_bits, c_layout(atom)),
              _image(d_elem, np.full((1, 64, n), POISON[d_elem], dtype=np.uint64), c_layout(atom))] + extra_arrays
    return Inputs(arrays, ref.astype(np.float64), scale, d_elem, POISON[d_elem])


def error_bound(atom: Atom) -> float:
    if atom.d == "s32":
        return 0.0
    if atom.d == "f16":
        return 2.0 ** -9
    if atom.a in FP8:
        # measured on the H100: fp8 wgmma with an f32 D keeps fewer accumulator bits than f32 (worst
        # 3.1e-4 = 2^-11.7 over 76 kernels, records/GPU_RUN.md; DeepSeek-V3 reports ~14 bits on H800)
        return 2.0 ** -10
    return 2.0 ** -20


def check(case: Case, inputs: Inputs, d_image: np.ndarray) -> tuple[bool, float, str]:
    got_bits = _read_image(inputs.d_elem, d_image, c_layout(case.atom), 1, 64, case.atom.n)
    return compare(got_bits, inputs.d_poison, decode(inputs.d_elem, got_bits), inputs.reference, inputs.scale,
                   error_bound(case.atom))
