"""Conformance of the register-tier atoms (SM70/75 mma.sync, SM80 dense and sparse, SM89 fp8, SM90 f64).

Each case is one atom (every spelling in the catalogue; sparse forms once per legal selector) in a
kernel built with the Python builder: load A, B, C (and E) by their canonical TV layouts from
global memory, one atom, store D. The reference is numpy float64 (int64 for integers and b1).

Memory layouts are the operand's own major order, so every register is one aligned 32-bit access:
A (M x K) row-major for `.row`, column-major for `.col`; B as N x K, K contiguous for `.col`; C and
D (M x N) row-major. SM70 m8n8k4 runs four independent quad-pair tiles per warp.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntAttr, ModuleOp
from xdsl.ir import Block

from mmatom.dialects import mma, nvvm
from mmatom.layout import Layout
from mmatom.atoms.catalogue import Atom, family, resolve, spelled_forms
from mmatom.atoms.catalogue.fragments import sparse_metadata, tv_layouts
from mmatom.atoms.numerics import decode, draw, pack, unpack

from . import Case, compare, kernel_function

REGISTER_TIERS = ("sm70", "sm75", "sm80", "sm89", "sm90")
GLOBAL = llvm.LLVMPointerType(IntAttr(1))


def cases() -> list[Case]:
    out = []
    for fam_name in ("mma", "mma.sp"):
        fam = family(fam_name)
        for form in spelled_forms(fam_name):
            if form.tier not in REGISTER_TIERS:
                continue
            atoms = [form.atom]
            if fam_name == "mma.sp":
                row = resolve(form.atom).row
                atoms = [form.atom.replace(selector=s) for s in sorted(row.allowed("selector"))]
            for atom in atoms:
                label = form.spelling + (f" selector {atom.selector}" if fam_name == "mma.sp" else "")
                targets = tuple(t for t, _ in form.versions)
                out.append(Case(f"k{len(out)}", label, atom, targets))
    return out


# -- shapes and layouts ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geometry:
    m: int
    n: int
    k: int
    ka: int  # columns of A in memory (K/2 when sparse)
    sparse: bool
    quad_pairs: bool = False  # SM70 m8n8k4: four independent tiles per warp
    chunks: int = 0  # scale factors per row of A / column of B (block-scaled forms, sm120.py; 0: none)

    @property
    def tiles(self) -> int:
        return 4 if self.quad_pairs else 1


def geometry(atom: Atom) -> Geometry:
    m, n, k = atom.shape
    sparse = atom.sparse
    quad = (m, n, k) == (8, 8, 4) and atom.a == "f16"
    return Geometry(m, n, k, k // 2 if sparse else k, sparse, quad_pairs=quad)


def memory_layouts(atom: Atom) -> dict[str, Layout]:
    g = geometry(atom)
    la, lb = atom.layout
    return {
        "A": Layout((g.m, g.ka), (g.ka, 1)) if la == "row" else Layout((g.m, g.ka), (1, g.m)),
        "B": Layout((g.n, g.k), (g.k, 1)) if lb == "col" else Layout((g.n, g.k), (1, g.n)),
        "C": Layout((g.m, g.n), (g.n, 1)),
        "E": Layout((32, 1), (1, 0)),
    }


# -- the kernel, through the builder -------------------------------------------------------------------

def build_kernel(case: Case) -> llvm.FuncOp:
    atom = case.atom
    g = geometry(atom)
    mem = memory_layouts(atom)
    roles = ["A", "B", "C", "D"] + (["E"] if g.sparse else [])
    block = Block(arg_types=[GLOBAL] * len(roles))
    ptrs = dict(zip(roles, block.args))
    ops: list = []
    offsets: dict[str, object] = {}
    if g.quad_pairs:  # quad pair q = (lane / 4) % 4 owns tile q
        lane = nvvm.SREG_OPS["laneid"]()
        two, three = arith.ConstantOp.from_int_and_width(2, 32), arith.ConstantOp.from_int_and_width(3, 32)
        q = arith.AndIOp(arith.ShRUIOp(lane.res, two.result).result, three.result)
        ops += [lane, two, three, q.lhs.owner, q]
        for role, size in (("A", g.m * g.ka), ("B", g.n * g.k), ("C", g.m * g.n)):
            c = arith.ConstantOp.from_int_and_width(size, 32)
            off = arith.MuliOp(q.result, c.result)
            ops += [c, off]
            offsets[role] = off.result
        offsets["D"] = offsets["C"]
    frags = {}
    for role in ("A", "B", "C") + (("E",) if g.sparse else ()):
        t = mma.fragment_type(atom, role) if role != "E" else mma.FragmentType("E", "b32", str(tv_layouts(atom)["E"]))
        load = mma.LoadFragmentOp(ptrs[role], str(mem[role]), t, offsets.get(role))
        ops.append(load)
        frags[role] = load.res
    d_type = mma.fragment_type(atom, "D")
    if g.sparse:
        op = mma.SparseOp(atom.shape, frags["A"], frags["B"], frags["C"], frags["E"], d_type,
                          selector=atom.selector, ordered_metadata=atom.ordered_metadata,
                          kind=atom.kind, satfinite=bool(atom.satfinite))
    else:
        op = mma.SyncOp(atom.shape, frags["A"], frags["B"], frags["C"], d_type, layout=atom.layout,
                        kind=atom.kind, satfinite=bool(atom.satfinite), bitop=atom.bitop,
                        rounding=atom.rounding)
    ops += [op, mma.StoreFragmentOp(op.d, ptrs["D"], str(mem["C"]), offsets.get("D")), llvm.ReturnOp.create()]
    block.add_ops(ops)
    return kernel_function(case.name, block, 32)


def build_module(cases_: list[Case], target: str) -> ModuleOp:
    return ModuleOp([build_kernel(c) for c in cases_], attributes={"mma.target": mma.TargetAttr(target)})


# -- inputs and the reference ----------------------------------------------------------------------

@dataclass
class Inputs:
    arrays: list[np.ndarray]  # A, B, C, D (poisoned), E: memory images, one per kernel parameter
    reference: np.ndarray  # D as float64 (tiles x M x N)
    scale: np.ndarray  # per element: sum |a||b| + |c|, the size errors are measured against
    d_elem: str
    d_poison: int


def _image(elem: str, tiles_values: np.ndarray, layout: Layout) -> np.ndarray:
    """Element bits (tiles x rows x cols) -> the bytes of the tiles laid out by `layout`, one after another."""
    tiles, rows, cols = tiles_values.shape
    size = rows * cols
    flat = np.zeros(tiles * size, dtype=np.uint64)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    offs = np.array([layout((int(i), int(j))) for i, j in zip(r.ravel(), c.ravel())])
    for t in range(tiles):
        flat[t * size + offs] = tiles_values[t].ravel()
    return np.frombuffer(pack(elem, flat), dtype=np.uint8).copy()


def _read_image(elem: str, data: np.ndarray, layout: Layout, tiles: int, rows: int, cols: int) -> np.ndarray:
    flat = unpack(elem, data.tobytes(), tiles * rows * cols)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    offs = np.array([layout((int(i), int(j))) for i, j in zip(r.ravel(), c.ravel())])
    return np.stack([flat[t * rows * cols + offs].reshape(rows, cols) for t in range(tiles)])


POISON = {"f32": 0x7FC00BAD, "f16": 0x7E0B, "f64": 0x7FF80000_00000BAD, "s32": 0x7FFFFBAD}


def _keep_patterns(width: int) -> list[tuple[int, ...]]:
    if width == 2:  # tf32 1:2
        return [(0,), (1,)]
    if width == 4:  # 2:4
        return [(i, j) for i in range(4) for j in range(i + 1, 4)]
    return [tuple(x for p in (i, j) for x in (2 * p, 2 * p + 1)) for i in range(4) for j in range(i + 1, 4)]


def _nibble(keep: tuple[int, ...], width: int) -> int:
    if width == 2:
        return 0b0100 if keep == (0,) else 0b1110
    idx = keep if width == 4 else (keep[0] // 2, keep[2] // 2)
    return idx[0] | (idx[1] << 2)


def sparse_operands(atom: Atom, a_bits: np.ndarray, a_val: np.ndarray, m: int, k: int, threads: int,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random valid 2:4 / 1:2 / 4:8 sparsity for A (tiles x m x k): (A values with the dropped ones zeroed,
    the compressed A bits (kept values in column order), one 32-bit metadata word per thread). Threads
    the selector leaves out get valid but different words, which the hardware must ignore."""
    fields = sparse_metadata(atom)
    width = fields[0].width
    patterns = _keep_patterns(width)
    choice = rng.integers(0, len(patterns), size=(m, k // width))
    keep_mask = np.zeros((m, k), dtype=bool)
    for r in range(m):
        for ch in range(k // width):
            for i in patterns[choice[r, ch]]:
                keep_mask[r, ch * width + i] = True
    tiles = a_bits.shape[0]
    compressed = a_bits[:, keep_mask].reshape(tiles, m, k // 2)
    words = rng.integers(0, len(patterns), size=(threads, 8))
    meta = np.array([[_nibble(patterns[w], width) for w in row] for row in words], dtype=np.uint64)
    for fld in fields:
        meta[fld.lane, fld.nibble] = _nibble(patterns[choice[fld.row, fld.col // width]], width)
    e_words = (meta << (4 * np.arange(8, dtype=np.uint64))).sum(axis=1).astype(np.uint32)
    return np.where(keep_mask[None], a_val, 0.0), compressed, e_words


def make_inputs(case: Case, rng: np.random.Generator) -> Inputs:
    atom = case.atom
    g = geometry(atom)
    mem = memory_layouts(atom)
    d_elem, c_elem = atom.acc
    a_bits = draw(atom.a, (g.tiles, g.m, g.k), rng)
    b_bits = draw(atom.b, (g.tiles, g.n, g.k), rng)
    c_bits = draw(c_elem, (g.tiles, g.m, g.n), rng)
    a_val = decode(atom.a, a_bits)
    arrays_extra = []
    if g.sparse:
        a_val, compressed, e_words = sparse_operands(atom, a_bits, a_val, g.m, g.k, 32, rng)
        a_image = _image(atom.a, compressed, mem["A"])
        arrays_extra = [np.frombuffer(e_words.tobytes(), dtype=np.uint8).copy()]
    else:
        a_image = _image(atom.a, a_bits, mem["A"])
    b_val, c_val = decode(atom.b, b_bits), decode(c_elem, c_bits)
    if atom.bitop:
        ai, bi = a_val.astype(np.int64), b_val.astype(np.int64)
        both = (ai[:, :, None, :] ^ bi[:, None, :, :]) if atom.bitop == "xor" else (ai[:, :, None, :] & bi[:, None, :, :])
        ref = both.sum(axis=3).astype(np.float64) + c_val
    else:
        ref = np.einsum("tmk,tnk->tmn", a_val, b_val) + c_val
        if atom.satfinite and d_elem == "s32":
            ref = np.clip(ref, -(2 ** 31), 2 ** 31 - 1)
    scale = np.einsum("tmk,tnk->tmn", np.abs(a_val), np.abs(b_val)) + np.abs(c_val)
    d_image = _image(d_elem, np.full((g.tiles, g.m, g.n), POISON[d_elem], dtype=np.uint64), mem["C"])
    arrays = [a_image, _image(atom.b, b_bits, mem["B"]), _image(c_elem, c_bits, mem["C"]), d_image] + arrays_extra
    return Inputs(arrays, ref, scale, d_elem, POISON[d_elem])


# documented bounds: max |D - ref| / max(sum |a||b| + |c|), per (A type, D type)
def error_bound(atom: Atom) -> float:
    _a, d = atom.a, atom.acc[0]
    if d == "s32":
        return 0.0
    if d == "f64":
        return atom.shape[2] * 2.0 ** -52  # K sequential roundings, directed modes (.rz/.rm/.rp) included
    if d == "f16":
        return 2.0 ** -9
    return 2.0 ** -20  # f32 accumulation (fp8 included: worst seen on the H100 1.1e-7, records/GPU_RUN.md)


def check(case: Case, inputs: Inputs, d_image: np.ndarray) -> tuple[bool, float, str]:
    """(passed, error, note) for the D memory image the kernel wrote."""
    g = geometry(case.atom)
    got_bits = _read_image(inputs.d_elem, d_image, memory_layouts(case.atom)["C"], g.tiles, g.m, g.n)
    return compare(got_bits, inputs.d_poison, decode(inputs.d_elem, got_bits), inputs.reference, inputs.scale,
                   error_bound(case.atom))
