"""The PTX operand list of each MMA family, in the order the ISA gives it (reference B, C3/C4, D2, E2).

One function per family; the PTX emitter, the inline-PTX lowering and the ptxas probe kernels all call
these, so an operand order is written down once. Callers pass what stands in each role's place: a
register name (or placeholder such as `$3`) as a string, or a vector as a sequence of them, which is
printed `{r1, r2}`. Tensor-memory operands are bracketed here (`[r]`), as their residency says. The
immediates the instruction takes (sparsity selector, byte/thread ids, imm-scale, imm-trans) are the
atom's own dimension values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .mma_sync import MMA_BLOCK_SCALE, MMA_SP, MMA_SYNC
from .model import REGISTER, TMEM, Atom, Family
from .tcgen05 import TCGEN05
from .wgmma import WGMMA

Operand = str | Sequence[str]


def _text(x: Operand) -> str:
    return x if isinstance(x, str) else "{" + ", ".join(x) + "}"


def _required(family: str, role: str, x: Operand | None) -> Operand:
    if x is None:
        raise ValueError(f"{family}: operand {role} is required by this atom")
    return x


def mma_sync_operands(atom: Atom, *, d: Operand, a: Operand, b: Operand, c: Operand, e: Operand | None = None,
                      sfa: Operand | None = None, sfb: Operand | None = None,
                      byte_id_b: int | None = None) -> list[str]:
    """mma.sync / mma.sp / block-scaled mma.sync: d, a, b, c, [e, selector,] [scale-a-data,
    {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}]. The catalogue has one byte-id;
    `byte_id_b` is B's where an op gives it separately."""
    args = [_text(d), _text(a), _text(b), _text(c)]
    if atom.sparse:
        args += [_text(_required(atom.family, "E", e)), str(atom.selector or 0)]
    if atom.family == "mma.block_scale":
        byte_a = atom.byte_id or 0
        byte_b = byte_a if byte_id_b is None else byte_id_b
        args += [_text(_required(atom.family, "SFA", sfa)), f"{{{byte_a}, {atom.thread_id_a or 0}}}",
                 _text(_required(atom.family, "SFB", sfb)), f"{{{byte_b}, {atom.thread_id_b or 0}}}"]
    return args


def wgmma_operands(atom: Atom, *, d: Operand, a: Operand, b: Operand, scale_d: str,
                   e: Operand | None = None) -> list[str]:
    """wgmma.mma_async[.sp]: d, a-desc | {a}, b-desc, [sp-meta, sp-sel,] scale-d, [imm-scale-a, imm-scale-b,
    [imm-trans-a,] imm-trans-b]; imm-trans-a exists only with A in SMEM, imm-scale only on float types."""
    args = [_text(d), _text(a), _text(b)]
    if atom.sparse:
        args += [_text(_required(atom.family, "E", e)), str(atom.selector or 0)]
    args.append(scale_d)
    if atom.scale_a is not None:
        args += [str(atom.scale_a), str(atom.scale_b)]
    if atom.trans_b is not None:
        if atom.a_residency != REGISTER:
            args.append(str(atom.trans_a))
        args.append(str(atom.trans_b))
    return args


def tcgen05_operands(atom: Atom, *, d: str, a: str, b: str, idesc: str, enable_input_d: str, e: str | None = None,
                     sfa: str | None = None, sfb: str | None = None,
                     disable_output_lane: Sequence[str] | None = None) -> list[str]:
    """tcgen05.mma[.sp][.block_scale]: [d-tmem], a-desc | [a-tmem], b-desc, [[sp-meta-tmem],] idesc,
    [[scale-a-tmem], [scale-b-tmem] | {disable-output-lane}], enable-input-d."""
    args = [f"[{d}]", f"[{a}]" if atom.a_residency == TMEM else a, b]
    if atom.sparse:
        args.append(f"[{_required(atom.family, 'E', e)}]")
    args.append(idesc)
    if atom.block_scaled:
        args += [f"[{_required(atom.family, 'SFA', sfa)}]", f"[{_required(atom.family, 'SFB', sfb)}]"]
    elif disable_output_lane is not None:
        args.append(_text(disable_output_lane))
    args.append(enable_input_d)
    return args


OPERAND_ORDER: dict[str, tuple[Family, Callable[..., list[str]]]] = {
    MMA_SYNC.name: (MMA_SYNC, mma_sync_operands),
    MMA_SP.name: (MMA_SP, mma_sync_operands),
    MMA_BLOCK_SCALE.name: (MMA_BLOCK_SCALE, mma_sync_operands),
    WGMMA.name: (WGMMA, wgmma_operands),
    TCGEN05.name: (TCGEN05, tcgen05_operands),
}


def ptx_operands(atom: Atom, **operands) -> list[str]:
    """The operand list of `atom`'s instruction; keyword names as in the family's function."""
    return OPERAND_ORDER[atom.family][1](atom, **operands)


def instruction(atom: Atom, **operands) -> str:
    """One complete PTX instruction: the catalogue's spelling, then the operands in order."""
    return f"{OPERAND_ORDER[atom.family][0].spell(atom)} {', '.join(ptx_operands(atom, **operands))};"
