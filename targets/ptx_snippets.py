"""Probe kernels for ptxas: one PTX instruction per atom, with every operand present (placeholder
registers of the types the catalogue gives, immediates at the atom's values), batched into one kernel per
target. What the catalogue tests hand to ptxas to learn which forms a target accepts.

The instruction is built like the emitter's (catalogue spelling + the family's operand order,
atoms/catalogue/operand_order.py); only the registers are placeholders."""

from __future__ import annotations

from dataclasses import dataclass

from mmatom.atoms.catalogue import Atom, family
from mmatom.atoms.catalogue.model import SMEM_DESC
from mmatom.atoms.catalogue.operand_order import instruction as atom_instruction

REG_PREFIX = {".b32": "r", ".f32": "f", ".f64": "d", ".b64": "q", ".b16": "h"}
POOL = 160  # registers of each type declared per kernel


def _vec(reg_type: str, count: int, start: int = 0) -> list[str]:
    p = REG_PREFIX[reg_type]
    return [f"{p}{start + i}" for i in range(count)]


def _placeholders(atom: Atom) -> dict:
    """Registers for each operand role, disjoint per role (D and C share when their types match, as
    compilers emit them)."""
    ops = {o.role: o for o in family(atom.family).operands(atom)}
    if atom.family in ("mma", "mma.sp", "mma.block_scale"):
        a, b, c, d = ops["A"], ops["B"], ops["C"], ops["D"]
        roles = dict(d=_vec(d.reg_type, d.regs, 0), a=_vec(a.reg_type, a.regs, 40), b=_vec(b.reg_type, b.regs, 60),
                     c=_vec(c.reg_type, c.regs, 80 if c.reg_type != d.reg_type else 0))
        if "E" in ops:
            roles["e"] = "r100"
        if "SFA" in ops:
            roles.update(sfa="r101", sfb="r102")
        return roles
    if atom.family == "wgmma":
        d = ops["D"]
        roles = dict(d=_vec(d.reg_type, d.regs, 0), a="q0" if ops["A"].residency == SMEM_DESC else _vec(".b32", 4, 140),
                     b="q1", scale_d="p")
        if atom.sparse:
            roles["e"] = "r150"
        return roles
    if atom.family == "tcgen05.mma":
        roles = dict(d="r0", a="q0" if ops["A"].residency == SMEM_DESC else "r1", b="q1", idesc="r3",
                     enable_input_d="p")
        if atom.sparse:
            roles["e"] = "r2"
        if "SFA" in ops:
            roles.update(sfa="r4", sfb="r5")
        return roles
    raise ValueError(f"no PTX snippet for family {atom.family}")


def instruction(atom: Atom) -> str:
    """The atom as one PTX instruction with every operand present (immediates at legal values)."""
    return atom_instruction(atom, **_placeholders(atom))


@dataclass(frozen=True)
class ProbeKernel:
    text: str
    first_line: int  # 1-based line of the first instruction; instruction i is on first_line + i


def kernel(instructions: list[str], target: str, version: tuple[int, int]) -> ProbeKernel:
    head = [
        f".version {version[0]}.{version[1]}",
        f".target {target}",
        ".address_size 64",
        ".visible .entry k()",
        "{",
        f"  .reg .b32 r<{POOL}>;",
        f"  .reg .f32 f<{POOL}>;",
        f"  .reg .f64 d<{POOL}>;",
        "  .reg .b64 q<4>;",
        "  .reg .b16 h<4>;",
        "  .reg .pred p;",
        "  setp.ne.b32 p, r0, 0;",
    ]
    body = ["  " + i for i in instructions]
    return ProbeKernel("\n".join(head + body + ["  ret;", "}", ""]), len(head) + 1)


__all__ = ["ProbeKernel", "instruction", "kernel"]
