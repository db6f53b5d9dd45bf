"""PTX for the tcgen05 / tensor-memory / mbarrier nvvm ops (reference D1-D8 spellings).

Kept apart from ptx_emitter.py, which dispatches to these functions: each takes the emitter, the
function being emitted and the op. The tcgen05.mma atom is read back from its instruction descriptor
(a constant) and checked against the module's chip like every other atom.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue

from mmatom.dialects import nvvm
from mmatom.atoms import instr_desc
from mmatom.atoms.catalogue import Atom, family
from mmatom.atoms.catalogue.tcgen05 import BLOCK_SCALED, DENSE_K
from mmatom.atoms.catalogue.tmem import ldst_num

from .ptx_function import B32, PRED, PTXEmissionError, constant_int

def _group(op) -> str:
    return f".cta_group::{op.ctas}"


def _imm_or_reg(em, fn, v: SSAValue) -> str:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return str(owner.value.value.data)
    return em._r(fn, v)


def alloc(em, fn, op: nvvm.Tcgen05AllocOp) -> None:
    fn.emit(f"tcgen05.alloc{_group(op)}.sync.aligned.shared::cta.b32 [{em._r(fn, op.addr)}], "
            f"{_imm_or_reg(em, fn, op.nCols)};")


def dealloc(em, fn, op: nvvm.Tcgen05DeallocOp) -> None:
    fn.emit(f"tcgen05.dealloc{_group(op)}.sync.aligned.b32 {em._r(fn, op.taddr)}, {_imm_or_reg(em, fn, op.nCols)};")


def relinquish(em, fn, op: nvvm.Tcgen05RelinquishOp) -> None:
    fn.emit(f"tcgen05.relinquish_alloc_permit{_group(op)}.sync.aligned;")


def commit(em, fn, op: nvvm.Tcgen05CommitOp) -> None:
    fn.emit(f"tcgen05.commit{_group(op)}.mbarrier::arrive::one.shared::cluster.b64 [{em._r(fn, op.addr)}];")


def fence(em, fn, op: nvvm.Tcgen05FenceOp) -> None:
    fn.emit(f"tcgen05.fence::{op.kind.value.data}_thread_sync;")


def wait(em, fn, op: nvvm.Tcgen05WaitOp) -> None:
    fn.emit(f"tcgen05.wait::{'ld' if op.kind.value.data == 'load' else 'st'}.sync.aligned;")


def _ldst(shape: str, registers: int) -> str:
    return f".sync.aligned.{shape}.x{ldst_num(shape, registers)}"


def load(em, fn, op: nvvm.Tcgen05LdOp) -> None:
    n = op.res.type.get_shape()[0]
    regs = [fn.new(B32) for _ in range(n)]
    fn.names[op.res] = regs
    pack = ".pack::16b" if op.pack is not None else ""
    fn.emit(f"tcgen05.ld{_ldst(nvvm._ldst_shape(op), n)}{pack}.b32 {{{', '.join(regs)}}}, [{em._r(fn, op.tmemAddr)}];")


def store(em, fn, op: nvvm.Tcgen05StOp) -> None:
    regs = em._r(fn, op.val)
    unpack = ".unpack::16b" if op.unpack is not None else ""
    fn.emit(f"tcgen05.st{_ldst(nvvm._ldst_shape(op), len(regs))}{unpack}.b32 [{em._r(fn, op.tmemAddr)}], "
            f"{{{', '.join(regs)}}};")


def mma_atom(op) -> Atom:
    """The catalogue atom a nvvm.tcgen05.mma* performs: kind and cta_group from the op, everything else
    decoded from its constant instruction descriptor."""
    kind = op.kind.value.data
    try:
        f = instr_desc.unpack(constant_int(op.idesc, op), kind)
    except PTXEmissionError:
        raise PTXEmissionError(op, f"{op.name}: the instruction descriptor must be a constant so that the atom "
                                   f"can be checked against the chip") from None
    sparse = isinstance(op, (nvvm.Tcgen05MmaSpOp, nvvm.Tcgen05MmaSpBlockScaleOp))
    k = 96 if f.k96 else DENSE_K[kind] * (2 if sparse else 1)
    scale_vec = None
    if kind in BLOCK_SCALED:
        spelled = op.attributes.get(nvvm.SCALE_VEC_ATTR)
        block = op.blockScale.value.data if op.blockScale is not None else "default"
        scale_vec = spelled.data if spelled is not None else (None if block == "default" else block)
    a_res = "tmem" if isinstance(op.matrixA.type, type(nvvm.TMEM_PTR)) else "smem_desc"
    values = dict(sparse=sparse, cta_group=op.ctaGroup.ctas, kind=kind, scale_vec=scale_vec, a=f.a, b=f.b,
                  d=f.d if kind not in BLOCK_SCALED else "f32", scale_type=f.scale_type, m=f.m, n=f.n, k=k,
                  a_residency=a_res)
    fam = family("tcgen05.mma")
    return Atom(fam.name, tuple((d.key, values[d.key]) for d in fam.dims))


def mma(em, fn, op) -> None:
    atom = em._use_atom(op, mma_atom(op))
    r = lambda v: em._r(fn, v)  # noqa: E731
    a = f"[{r(op.matrixA)}]" if atom["a_residency"] == "tmem" else r(op.matrixA)
    args = [f"[{r(op.matrixD)}]", a, r(op.matrixB)]
    if atom["sparse"]:
        args.append(f"[{r(op.sparseMetadata)}]")
    args.append(r(op.idesc))
    if atom["kind"] in BLOCK_SCALED:
        args += [f"[{r(op.scaleA)}]", f"[{r(op.scaleB)}]"]
    elif op.disableOutputLane is not None:
        args.append("{" + ", ".join(r(op.disableOutputLane)) + "}")
    args.append(r(op.enableInputD))
    fn.emit(f"{family(atom.family).spell(atom)} {', '.join(args)};")


def mbarrier_init(em, fn, op: nvvm.MBarrierInitOp) -> None:
    fn.emit(f"mbarrier.init.shared::cta.b64 [{em._r(fn, op.addr)}], {em._r(fn, op.count)};")


def mbarrier_wait(em, fn, op: nvvm.MBarrierTryWaitParityOp) -> None:
    """try_wait returns false when its time hint runs out before the phase completes: loop until it is."""
    done, again = fn.new(PRED), fn.label("mbar_wait")
    fn.lines.append(f"{again}:")
    fn.emit(f"mbarrier.try_wait.parity.shared::cta.b64 {done}, [{em._r(fn, op.addr)}], {em._r(fn, op.phase)}, "
            f"{em._r(fn, op.ticks)};")
    fn.emit(f"@!{done} bra {again};")
