"""Conformance of the SM120/121 warp-level atoms: `mma.sync` / `mma.sp` with kind::f8f6f4 (every element
mix, f32 and f16 accumulators) and block-scaled `mma.sync` (mxf8f6f4, mxf4, mxf4nvf4; dense and sparse;
every legal byte-id, both thread-id extremes).

No SM120 GPU is here: these kernels are assembled by ptxas for every claimed target and must be
rejected on the targets in REJECT_ON. make_inputs/check are the numpy reference model (each K-block of
A and B scaled by its factor) that `--run` uses on an sm_120/121 machine; they are unit-tested on CPU.

Kernel: load A, B, C (E) and the scale-factor registers SFA/SFB by their canonical TV layouts from
global memory, one atom, store D. fp6/fp4 under kind::f8f6f4 / mxf8f6f4 are stored one per byte (the
register container: fp4 in bits [5:2]); mxf4 kinds pack e2m1 two per byte.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, ModuleOp
from xdsl.ir import Block

from mmatom.dialects import mma
from mmatom.layout import Layout
from mmatom.atoms.catalogue import Atom, family, resolve, spelled_forms
from mmatom.atoms.catalogue.elements import storage_element
from mmatom.atoms.catalogue.fragments import tv_layouts
from mmatom.atoms.numerics import decode, draw

from . import Case, compare, kernel_function
from .register import POISON, Geometry, _image, _read_image, sparse_operands

GLOBAL = llvm.LLVMPointerType(IntAttr(1))
REJECT_ON = ("sm_90a", "sm_100a", "sm_120")  # none of them has fp6/fp4 or block-scaled warp-level MMA
CHUNKS = {"1X": 1, "2X": 2, "4X": 4}


def cases() -> list[Case]:
    out: list[Case] = []

    def add(atom: Atom, label: str, targets) -> None:
        out.append(Case(f"k{len(out)}", label, atom, tuple(targets)))

    for fam_name in ("mma", "mma.sp", "mma.block_scale"):
        fam = family(fam_name)
        for form in spelled_forms(fam_name):
            if form.tier != "sm120":
                continue
            targets = [t for t, _ in form.versions]
            if fam_name == "mma":
                add(form.atom, form.spelling, targets)
                continue
            row = resolve(form.atom).row
            for sel in sorted(row.allowed("selector")) if form.atom.sparse else [0]:
                sel_text = f" selector {sel}" if form.atom.sparse else ""
                if fam_name == "mma.sp":
                    add(form.atom.replace(selector=sel), form.spelling + sel_text, targets)
                    continue
                # every legal byte-id with thread-ids (0, 0), and the last thread-ids once
                for byte_id in sorted(row.allowed("byte_id")):
                    add(form.atom.replace(selector=sel, byte_id=byte_id), f"{form.spelling}{sel_text} byte-id {byte_id}",
                        targets)
                add(form.atom.replace(selector=sel, thread_id_a=1, thread_id_b=3),
                    f"{form.spelling}{sel_text} thread-ids 1/3", targets)
    return out


# -- shapes and memory layouts ------------------------------------------------------------------------

def geometry(atom: Atom) -> Geometry:
    m, n, k = atom.shape
    sparse = atom.sparse
    return Geometry(m, n, k, k // 2 if sparse else k, sparse,
                    chunks=CHUNKS[atom.scale_vec] if atom.family == "mma.block_scale" else 0)


def memory_layouts(atom: Atom) -> dict[str, Layout]:
    """A row-major (M x K), B as N x K with K contiguous, C/D row-major, SFA M x chunks, SFB N x chunks."""
    g = geometry(atom)
    return {
        "A": Layout((g.m, g.ka), (g.ka, 1)),
        "B": Layout((g.n, g.k), (g.k, 1)),
        "C": Layout((g.m, g.n), (g.n, 1)),
        "E": Layout((32, 1), (1, 0)),
        "SFA": Layout((g.m, max(g.chunks, 1)), (max(g.chunks, 1), 1)),
        "SFB": Layout((g.n, max(g.chunks, 1)), (max(g.chunks, 1), 1)),
    }


def roles(atom: Atom) -> list[str]:
    g = geometry(atom)
    return ["A", "B", "C", "D"] + (["E"] if g.sparse else []) + (["SFA", "SFB"] if g.chunks else [])


def storage(atom: Atom, role: str) -> str:
    return storage_element(atom.multiplicand_type(role), atom.kind)


# -- the kernel, through the builder -------------------------------------------------------------------

def build_kernel(case: Case) -> llvm.FuncOp:
    atom = case.atom
    g = geometry(atom)
    mem = memory_layouts(atom)
    names = roles(atom)
    block = Block(arg_types=[GLOBAL] * len(names))
    ptrs = dict(zip(names, block.args))
    ops: list = []
    frags = {}
    for role in [r for r in names if r != "D"]:
        if role == "E":
            t = mma.FragmentType("E", "b32", str(tv_layouts(atom)["E"]))
        else:
            t = mma.fragment_type(atom, role)
        load = mma.LoadFragmentOp(ptrs[role], str(mem[role]), t)
        ops.append(load)
        frags[role] = load.res
    d_type = mma.fragment_type(atom, "D")
    if atom.family == "mma.block_scale":
        op = mma.BlockScaleOp(atom.shape, atom.kind, atom.scale_vec, frags["A"], frags["B"], frags["C"],
                              frags["SFA"], frags["SFB"], d_type, e=frags.get("E"),
                              selector=atom.selector if g.sparse else None, byte_id=atom.byte_id,
                              thread_id_a=atom.thread_id_a, thread_id_b=atom.thread_id_b)
    elif g.sparse:
        op = mma.SparseOp(atom.shape, frags["A"], frags["B"], frags["C"], frags["E"], d_type,
                          selector=atom.selector, ordered_metadata=True, kind=atom.kind)
    else:
        op = mma.SyncOp(atom.shape, frags["A"], frags["B"], frags["C"], d_type, kind=atom.kind)
    ops += [op, mma.StoreFragmentOp(op.d, ptrs["D"], str(mem["C"])), llvm.ReturnOp.create()]
    block.add_ops(ops)
    return kernel_function(case.name, block, 32)


def build_module(cases_: list[Case], target: str) -> ModuleOp:
    return ModuleOp([build_kernel(c) for c in cases_], attributes={"mma.target": mma.TargetAttr(target)})


# -- the reference model -----------------------------------------------------------------------------

@dataclass
class Inputs:
    arrays: list[np.ndarray]  # one memory image per kernel parameter, in roles() order
    reference: np.ndarray  # D as float64 (1 x M x N)
    scale: np.ndarray  # per element: sum |a sfa||b sfb| + |c|
    d_elem: str
    d_poison: int


def block_scaled_product(a: np.ndarray, b: np.ndarray, sfa: np.ndarray, sfb: np.ndarray) -> np.ndarray:
    """sum_k (A[m,k] SFA[m, k // w]) (B[n,k] SFB[n, k // w]) with w = K / chunks: each K-block of A and of
    B multiplied by its own factor (ISA 9.7.14.3; reference ptx-fragments.md section 4)."""
    k = a.shape[-1]
    width = k // sfa.shape[-1]
    block = np.arange(k) // width
    return np.einsum("mk,nk->mn", a * sfa[:, block], b * sfb[:, block])


def _scale_codes(elem: str, shape, rng: np.random.Generator) -> np.ndarray:
    """Scale factors between 1/8 and 8 (exact powers of two for ue8m0), so products stay representable."""
    values = decode(elem, np.arange(128 if elem == "ue4m3" else 256, dtype=np.uint64))
    codes = np.flatnonzero(np.isfinite(values) & (values >= 0.125) & (values <= 8))
    return rng.choice(codes, size=shape).astype(np.uint64)


def make_inputs(case: Case, rng: np.random.Generator) -> Inputs:
    atom = case.atom
    g = geometry(atom)
    mem = memory_layouts(atom)
    d_elem, c_elem = atom.acc
    a_elem, b_elem = storage(atom, "A"), storage(atom, "B")
    a_bits = draw(a_elem, (1, g.m, g.k), rng)
    b_bits = draw(b_elem, (1, g.n, g.k), rng)
    c_bits = draw(c_elem, (1, g.m, g.n), rng)
    a_val, b_val, c_val = decode(a_elem, a_bits), decode(b_elem, b_bits), decode(c_elem, c_bits)
    images: dict[str, np.ndarray] = {}
    if g.sparse:
        a_val, compressed, e_words = sparse_operands(atom, a_bits, a_val, g.m, g.k, 32, rng)
        images["A"] = _image(a_elem, compressed, mem["A"])
        images["E"] = np.frombuffer(e_words.tobytes(), dtype=np.uint8).copy()
    else:
        images["A"] = _image(a_elem, a_bits, mem["A"])
    images["B"], images["C"] = _image(b_elem, b_bits, mem["B"]), _image(c_elem, c_bits, mem["C"])
    if g.chunks:
        st = atom.scale_type
        sfa_bits, sfb_bits = _scale_codes(st, (1, g.m, g.chunks), rng), _scale_codes(st, (1, g.n, g.chunks), rng)
        images["SFA"], images["SFB"] = _image(st, sfa_bits, mem["SFA"]), _image(st, sfb_bits, mem["SFB"])
        sfa, sfb = decode(st, sfa_bits)[0], decode(st, sfb_bits)[0]
    else:
        sfa, sfb = np.ones((g.m, 1)), np.ones((g.n, 1))
    ref = block_scaled_product(a_val[0], b_val[0], sfa, sfb)[None] + c_val
    scale = block_scaled_product(np.abs(a_val[0]), np.abs(b_val[0]), sfa, sfb)[None] + np.abs(c_val)
    images["D"] = _image(d_elem, np.full((1, g.m, g.n), POISON[d_elem], dtype=np.uint64), mem["C"])
    return Inputs([images[r] for r in roles(atom)], ref, scale, d_elem, POISON[d_elem])


def error_bound(atom: Atom) -> float:
    return 2.0 ** -9 if atom.acc[0] == "f16" else 2.0 ** -20


def check(case: Case, inputs: Inputs, d_image: np.ndarray) -> tuple[bool, float, str]:
    g = geometry(case.atom)
    got_bits = _read_image(inputs.d_elem, d_image, memory_layouts(case.atom)["C"], 1, g.m, g.n)
    return compare(got_bits, inputs.d_poison, decode(inputs.d_elem, got_bits), inputs.reference, inputs.scale,
                   error_bound(case.atom))
