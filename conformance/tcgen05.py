"""Conformance of the SM100/103/110 `tcgen05.mma` atoms: one kernel per case, assembled by ptxas for
every claimed target (sm_100a/f, 103a/f, 110a/f as the catalogue says) and rejected on REJECT_ON.

No SM100 GPU is here, so these kernels are never run: ptxas validates them, and the numpy model in
make_inputs/check (the atom's math and the TMEM layout of D, reference ptx-fragments.md 5.3) is what a
run on an SM100 machine would compare against. The TMEM layouts of sparse metadata and scale factors
are not modelled (ISA figures only): those cases' kernels copy the host's words into TMEM verbatim, and
check() reports them as not checkable rather than guessing.

Kernel, 128 threads (one warpgroup) per CTA: mbarrier init (thread 0) -> mma.tmem_alloc (warp 0) -> A and
B copied to SMEM in the canonical K-major layout (A into TMEM instead with .32x32b when A is TMEM-resident;
metadata / scale factors into TMEM) -> proxy fence, barrier, tcgen05 fence -> mma.tcgen05 (thread 0) ->
mma.tcgen05_commit -> mbarrier wait -> mma.tmem_load of D's TMEM columns (all 128 lanes, raw 32-bit cells)
-> wait::ld -> store to global -> mma.tmem_dealloc -> mma.tmem_relinquish. With cta_group 2 every op says
so; each CTA holds its half of A and of B (M/2 and N/2 rows), as the SMEM descriptors describe, but the
cluster launch and the per-CTA D images are not built: cta_group::2 kernels are for ptxas only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, ModuleOp, i64
from xdsl.ir import Block, Region

from mmatom.dialects import mma, nvvm
from mmatom.layout import Layout
from mmatom.atoms.catalogue import Atom, family, resolve, spelled_forms
from mmatom.atoms.catalogue.elements import BITS
from mmatom.atoms.catalogue.tmem import ALLOC_COLUMNS
from mmatom.atoms.descriptors import SmemOperand
from mmatom.atoms.numerics import decode, draw

from . import Case, compare, kernel_function
from .register import _image, _read_image
from .sm120 import block_scaled_product
from .wgmma import global_layout, smem_layout

GLOBAL = llvm.LLVMPointerType(IntAttr(1))
SHARED = llvm.LLVMPointerType(IntAttr(3))
THREADS = 128
SMEM, SLOT, MBAR = "smem", "tmem_slot", "mbar"
PREAMBLE = (f".shared .align 8 .b8 {MBAR}[8];\n.shared .align 4 .b8 {SLOT}[4];\n"
            f".extern .shared .align 1024 .b8 {SMEM}[];\n\n")
REJECT_ON = ("sm_90a", "sm_100", "sm_120a")  # no tcgen05 there (reference D1, D4)
EXTRA_COLUMNS = 32  # TMEM columns reserved for each of A (TMEM-resident), E, SFA, SFB
# fp6/fp4 under kind::f8f6f4 / mxf8f6f4 are read from SMEM in a padded format (16 elements per 16 bytes)
# that the layout algebra here does not model: those element types are covered by the idesc tests only
PADDED_IN_SMEM = ("e3m2", "e2m3", "e2m1")


@dataclass(frozen=True)
class Options:
    a_in_tmem: bool


def cases() -> list[Case]:
    out: list[Case] = []
    fam = family("tcgen05.mma")

    def add(atom: Atom, label: str, targets, a_in_tmem: bool) -> None:
        atom = atom.replace(a_residency="tmem" if a_in_tmem else "smem_desc")
        out.append(Case(f"k{len(out)}", f"{label} m{atom.m}n{atom.n}k{atom.k} {atom.a}x{atom.b}->"
                                         f"{atom.d} A:{'tmem' if a_in_tmem else 'smem'}", atom, tuple(targets),
                        Options(a_in_tmem)))

    for form in spelled_forms("tcgen05.mma"):
        targets = [t for t, _ in form.versions]
        row = resolve(form.atom).row
        types = [t for t in sorted(row.allowed("a")) if t not in PADDED_IN_SMEM or form.atom.kind in ("mxf4", "mxf4nvf4")]
        form = type(form)(form.spelling, form.family, form.atom.replace(a=types[0], b=types[0]), form.versions)
        ms = sorted(row.allowed("m"))
        for m in ms:
            add(form.atom.replace(m=m), form.spelling, targets, False)
        # A from TMEM: 128 rows per CTA (M = 128 on cta_group 1, 256 on cta_group 2)
        if 128 * form.atom.cta_group in ms:
            add(form.atom.replace(m=128 * form.atom.cta_group), form.spelling, targets, True)
        # the widest N and the element types the spelling does not show (they live in idesc)
        add(form.atom.replace(m=ms[-1], n=max(row.allowed("n"))), form.spelling, targets, False)
        if not form.atom.sparse:
            for a in types:
                for d in sorted(row.allowed("d")):
                    if (a, d) != (form.atom.a, form.atom.d):
                        add(form.atom.replace(m=ms[-1], a=a, b=a, d=d, n=64), form.spelling, targets, False)
    # K = 96 (sm_103a, cta_group::2, M = 256): the spelling is K = 64's, so spelled_forms shows it only once
    for r in fam.rows:
        if r.allowed("k") == frozenset([96]):
            atom = fam.make({d.key: sorted(r.allowed(d.key), key=str)[0] for d in fam.dims})
            add(atom.replace(n=256), fam.spell(atom), sorted(r.targets), False)
    return out


# -- TMEM columns -------------------------------------------------------------------------------------

def regions(atom: Atom, a_in_tmem: bool) -> dict[str, int]:
    """First TMEM column of each region: D at 0 (N columns), then A, E, SFA, SFB where present."""
    at, out = atom.n, {"D": 0}
    scaled = atom.block_scaled
    for role, present in (("A", a_in_tmem), ("E", atom.sparse), ("SFA", scaled), ("SFB", scaled)):
        if present:
            out[role] = at
            at += EXTRA_COLUMNS
    out["end"] = at
    return out


def alloc_columns(atom: Atom, a_in_tmem: bool) -> int:
    need = regions(atom, a_in_tmem)["end"]
    return next(c for c in ALLOC_COLUMNS if c >= need)


def smem_operand(atom: Atom, role: str) -> SmemOperand:
    """This CTA's part of A (M/cta_group x K, K/2 when sparse) or B (N/cta_group x K), K-major, no swizzle."""
    g = atom.cta_group
    rows = (atom.m if role == "A" else atom.n) // g
    k = atom.k // 2 if role == "A" and atom.sparse else atom.k
    return SmemOperand(rows, k, BITS[atom.multiplicand_type(role)], "k", "none")


def _desc_type(atom: Atom, role: str) -> mma.SmemDescType:
    op = smem_operand(atom, role)
    return mma.SmemDescType(role, atom.multiplicand_type(role), "k", "none", str(smem_layout(op)))


def _bytes(op: SmemOperand) -> int:
    return (smem_layout(op).layout.cosize() * op.elem_bits + 7) // 8


def shared_bytes(case: Case) -> int:
    a, b = smem_operand(case.atom, "A"), smem_operand(case.atom, "B")
    return -(-_bytes(a) // 1024) * 1024 + _bytes(b)


def launch_config(case: Case) -> dict:
    return dict(grid=(case.atom.cta_group,), block=(THREADS,), shared_bytes=shared_bytes(case))


def params(atom: Atom) -> list[str]:
    return ["A", "B", "C", "D"] + [r for r in ("E", "SFA", "SFB") if r in regions(atom, False)]


def raw_words(cols: int) -> mma.FragmentType:
    return mma.FragmentType("D", "b32", str(Layout((128, cols), (1, 128))))


# -- the kernel ----------------------------------------------------------------------------------------

def build_kernel(case: Case) -> llvm.FuncOp:
    return _Kernel(case).build()


class _Kernel:
    """One case's kernel, op by op into `ops`: the module docstring's steps, one method each."""

    def __init__(self, case: Case):
        self.case, self.atom, self.a_in_tmem = case, case.atom, case.options.a_in_tmem
        names = params(self.atom)
        self.block = Block(arg_types=[GLOBAL] * len(names))
        self.ptr = dict(zip(names, self.block.args))
        self.ops: list = []

    def build(self) -> llvm.FuncOp:
        atom, ops = self.atom, self.ops
        self.prologue()
        descs, tmem_operands = self.operands()
        ops += [nvvm.FenceProxyOp(), nvvm.Tcgen05WaitOp.build(properties={"kind": nvvm.Tcgen05WaitAttr("store")}),
                nvvm.BarrierOp(), nvvm.Tcgen05FenceOp.build(properties={"kind": nvvm.Tcgen05FenceAttr("after")})]
        made = {role: mma.MakeDescOp(p, t) for role, (p, t) in descs.items()}
        ops += list(made.values())
        self.mma(made, tmem_operands)
        d_cells = self.view("D", atom.n)
        load = mma.TmemLoadOp(d_cells, raw_words(atom.n))
        ops += [load, nvvm.Tcgen05WaitOp.build(properties={"kind": nvvm.Tcgen05WaitAttr("load")}),
                mma.StoreFragmentOp(load.res, self.ptr["D"], str(Layout((128, atom.n), (atom.n, 1)))),
                mma.TmemDeallocOp(self.tmem.res, atom.cta_group), mma.TmemRelinquishOp(atom.cta_group),
                llvm.ReturnOp.create()]
        self.block.add_ops(ops)
        return kernel_function(self.case.name, self.block, THREADS)

    def prologue(self) -> None:
        """The mbarrier (thread 0 initialises it; the allocation's barrier publishes it) and the TMEM columns."""
        self.mbar, slot, self.base = (llvm.AddressOfOp(s, SHARED) for s in (MBAR, SLOT, SMEM))
        tid = nvvm.SREG_OPS["tid.x"]()
        self.zero32, one32 = arith.ConstantOp.from_int_and_width(0, 32), arith.ConstantOp.from_int_and_width(1, 32)
        first = arith.CmpiOp(tid.res, one32.result, "ult")
        init = nvvm.MBarrierInitOp.build(operands=[self.mbar.result, one32.result])
        self.ops += [self.mbar, slot, self.base, tid, self.zero32, one32, first,
                     scf.IfOp(first.result, [], Region(Block([init, scf.YieldOp()])), Region(Block([scf.YieldOp()])))]
        self.tmem = mma.TmemAllocOp(slot.result, alloc_columns(self.atom, self.a_in_tmem), self.atom.cta_group)
        self.ops.append(self.tmem)
        self.where = regions(self.atom, self.a_in_tmem)

    def view(self, role: str, width: int):
        atom = self.atom
        elem = {"A": atom.a, "SFA": atom.scale_type, "SFB": atom.scale_type, "E": "b32"}.get(role, atom.d)
        v = mma.TmemViewOp(self.tmem.res, self.where[role], mma.TmemType(elem, 128, width))
        self.ops.append(v)
        return v.res

    def operands(self) -> tuple[dict, dict]:
        """A and B into SMEM (their pointers and descriptor types), A (when TMEM-resident), E, SFA and SFB into
        TMEM (their views)."""
        atom, ptr = self.atom, self.ptr
        b_at = arith.ConstantOp(IntegerAttr(-(-_bytes(smem_operand(atom, "A")) // 1024) * 1024, i64))
        sb = llvm.GEPOp.from_mixed_indices(self.base.result, [b_at.result], IntegerType(8), result_type=SHARED)
        self.ops += [b_at, sb]
        descs = {}
        for role, dst in (("A", self.base.result), ("B", sb.result)):
            if role == "A" and self.a_in_tmem:
                continue
            t = _desc_type(atom, role)
            self.ops.append(mma.CopyToSmemOp(ptr[role], str(global_layout(smem_operand(atom, role))), dst, t,
                                             THREADS))
            descs[role] = (dst, t)
        tmem_operands = {}
        for role in ("A", "E", "SFA", "SFB"):
            if role in self.where and (role != "A" or self.a_in_tmem):
                width = _tmem_words(atom, role)
                words = mma.LoadFragmentOp(ptr[role], str(Layout((128, width), (width, 1))), raw_words(width))
                target = self.view(role, width)
                self.ops += [words, mma.TmemStoreOp(words.res, target)]
                tmem_operands[role] = target
        return descs, tmem_operands

    def mma(self, made: dict, tmem_operands: dict) -> None:
        """The MMA into D's TMEM columns, its commit to the mbarrier, and the wait for it."""
        atom, g = self.atom, self.atom.cta_group
        d_tile = self.view("D", atom.n)
        a_value = tmem_operands["A"] if self.a_in_tmem else made["A"].res
        op = mma.Tcgen05MmaOp((atom.m, atom.n, atom.k), atom.kind, g, a_value, made["B"].res, d_tile,
                              e=tmem_operands.get("E"), sfa=tmem_operands.get("SFA"), sfb=tmem_operands.get("SFB"),
                              scale_vec=atom.scale_vec, scale_type=None if "SFA" in tmem_operands else atom.scale_type,
                              accumulate=0)
        ticks = arith.ConstantOp.from_int_and_width(0x989680, 32)
        self.ops += [op, mma.Tcgen05CommitOp(self.mbar.result, g), ticks,
                     nvvm.MBarrierTryWaitParityOp.build(operands=[self.mbar.result, self.zero32.result, ticks.result]),
                     nvvm.Tcgen05FenceOp.build(properties={"kind": nvvm.Tcgen05FenceAttr("after")})]


def _tmem_words(atom: Atom, role: str) -> int:
    """32-bit TMEM columns per lane a TMEM-resident operand takes: A is K elements packed along columns
    (lane = row); E and the scale factors get a fixed region whose layout is not modelled."""
    if role == "A":
        k = atom.k // 2 if atom.sparse else atom.k
        return max(1, k * BITS[atom.a] // 32)
    return EXTRA_COLUMNS


def build_module(cases_: list[Case], target: str) -> ModuleOp:
    return ModuleOp([build_kernel(c) for c in cases_], attributes={"mma.target": mma.TargetAttr(target)})


# -- the reference model -------------------------------------------------------------------------------

def tmem_d_position(atom: Atom, m: int, n: int) -> tuple[int, int, int]:
    """(CTA, TMEM lane, column) of D[m, n] (reference ptx-fragments.md 5.3, layouts A-F; .ws not modelled)."""
    big_m, big_n, g = atom.m, atom.n, atom.cta_group
    if g == 1 and big_m == 128:  # layout D
        return 0, m, n
    if g == 1 and big_m == 64:  # layout F, lane alignment 0
        return 0, 32 * (m >> 4) + (m & 15), n
    if big_m == 256:  # layout A: CTA c holds rows 128c..128c+127
        return m // 128, m % 128, n
    c, r = m // 64, m % 64
    if not atom.sparse:  # layout B: 2x2 datapath per CTA
        return c, r + 64 * (n // (big_n // 2)), n % (big_n // 2)
    return c, 32 * (r >> 4) + (r & 15), n  # layout C


@dataclass
class Inputs:
    arrays: list[np.ndarray]
    reference: np.ndarray | None  # D (M x N) as float64; None where the operands' TMEM layout is not modelled
    scale: np.ndarray | None
    d_elem: str


def make_inputs(case: Case, rng: np.random.Generator) -> Inputs:
    atom = case.atom
    a_op = smem_operand(atom, "A")
    a_bits = draw(atom.a, (1, atom.m, a_op.k), rng)
    b_bits = draw(atom.b, (1, atom.n, atom.k), rng)
    arrays = [_image(atom.a, a_bits, Layout((atom.m, a_op.k), (a_op.k, 1))),
              _image(atom.b, b_bits, Layout((atom.n, atom.k), (atom.k, 1))),
              np.zeros(4, np.uint8), np.full(128 * atom.n * 4 * atom.cta_group, 0xFF, np.uint8)]
    # modelled: cta_group 1 (a pair needs a cluster launch and per-CTA D images, not built), no metadata
    # or scale factors in TMEM (their TMEM layouts are ISA figures only)
    modelled = atom.cta_group == 1 and not atom.sparse and not atom.block_scaled
    for role in params(atom)[4:]:
        arrays.append(rng.integers(0, 256, 128 * EXTRA_COLUMNS * 4, dtype=np.uint8))
    if not modelled:
        return Inputs(arrays, None, None, atom.d)
    a, b = decode(atom.a, a_bits)[0], decode(atom.b, b_bits)[0]
    ones_a, ones_b = np.ones((atom.m, 1)), np.ones((atom.n, 1))
    return Inputs(arrays, block_scaled_product(a, b, ones_a, ones_b),
                  block_scaled_product(np.abs(a), np.abs(b), ones_a, ones_b), atom.d)


def check(case: Case, inputs: Inputs, d_image: np.ndarray) -> tuple[bool, float, str]:
    """Read D out of the TMEM image (128 lanes x N cells per CTA) by the modelled layout and compare."""
    atom = case.atom
    if inputs.reference is None:
        return False, float("inf"), ("not checkable: cta_group::2 (no cluster launch) or sparse metadata / scale "
                                     "factors in TMEM (layouts not modelled)")
    cells = _read_image("s32", d_image, Layout((128 * atom.cta_group, atom.n), (atom.n, 1)), 1,
                        128 * atom.cta_group, atom.n)[0].astype(np.uint64) & 0xFFFFFFFF
    got = np.zeros((atom.m, atom.n), dtype=np.uint64)
    for m in range(atom.m):
        for n in range(atom.n):
            c, lane, col = tmem_d_position(atom, m, n)
            got[m, n] = cells[128 * c + lane, col]
    if atom.d == "f16":
        got &= 0xFFFF  # a 16-bit D uses the low half of its 32-bit cell
    bound = 0.0 if atom.d == "s32" else (2.0 ** -9 if atom.d == "f16" else 2.0 ** -10)
    return compare(got, 0xFFFFFFFF if atom.d != "f16" else 0xFFFF, decode(atom.d, got), inputs.reference,
                   inputs.scale, bound)
