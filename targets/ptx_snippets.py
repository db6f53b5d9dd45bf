"""Single-instruction PTX for an atom, with operands shaped by the catalogue, batched into one kernel
per target: what `mmatom-atoms check` and the catalogue tests hand to ptxas."""

from __future__ import annotations

from dataclasses import dataclass

from mmatom.atoms.catalogue import Atom, family
from mmatom.atoms.catalogue.model import REGISTER, SMEM_DESC, TMEM
from mmatom.atoms.chips import chip

REG_PREFIX = {".b32": "r", ".f32": "f", ".f64": "d", ".b64": "q", ".b16": "h"}
POOL = 160  # registers of each type declared per kernel


def _vec(reg_type: str, count: int, start: int = 0) -> str:
    p = REG_PREFIX[reg_type]
    return "{" + ",".join(f"{p}{start + i}" for i in range(count)) + "}"


def _operand_map(atom: Atom) -> dict:
    return {o.role: o for o in family(atom.family).operands(atom)}


def instruction(atom: Atom) -> str:
    """The atom as one PTX instruction with every operand present (immediates at legal values)."""
    fam = family(atom.family)
    ops = _operand_map(atom)
    spelling = fam.spell(atom)
    if atom.family in ("mma", "mma.sp", "mma.block_scale"):
        a, b, c, d = ops["A"], ops["B"], ops["C"], ops["D"]
        # D and C share registers when their types match (as compilers emit them)
        args = [_vec(d.reg_type, d.regs, 0), _vec(a.reg_type, a.regs, 40), _vec(b.reg_type, b.regs, 60),
                _vec(c.reg_type, c.regs, 80 if c.reg_type != d.reg_type else 0)]
        if "E" in ops:
            args += ["r100", str(atom.get("selector") or 0)]
        if "SFA" in ops:
            args += ["r101", f"{{{atom.get('byte_id') or 0}, {atom.get('thread_id_a') or 0}}}",
                     "r102", f"{{{atom.get('byte_id') or 0}, {atom.get('thread_id_b') or 0}}}"]
        return f"{spelling} {', '.join(args)};"
    if atom.family == "wgmma":
        d = ops["D"]
        args = [_vec(d.reg_type, d.regs, 0)]
        args.append("q0" if ops["A"].residency == SMEM_DESC else _vec(".b32", 4, 140))
        args.append("q1")
        if atom["sparse"]:
            args += ["r150", str(atom.get("selector") or 0)]
        args.append("p")
        if atom.get("scale_a") is not None:
            args += [str(atom["scale_a"]), str(atom["scale_b"])]
        if atom.get("trans_b") is not None:
            if ops["A"].residency == SMEM_DESC:
                args.append(str(atom["trans_a"]))
            args.append(str(atom["trans_b"]))
        return f"{spelling} {', '.join(args)};"
    if atom.family == "tcgen05.mma":
        args = ["[r0]", "q0" if ops["A"].residency == SMEM_DESC else "[r1]", "q1"]
        if atom["sparse"]:
            args.append("[r2]")
        args.append("r3")  # instruction descriptor
        if "SFA" in ops:
            args += ["[r4]", "[r5]"]
        args.append("p")
        return f"{spelling} {', '.join(args)};"
    raise ValueError(f"no PTX snippet for family {atom.family}")


def version_for(target: str, needed: tuple[int, int], ceiling: tuple[int, int]) -> tuple[int, int]:
    """The .version a kernel needs: the form's minimum, at least the target's own."""
    return max(needed, chip(target).min_ptx_version) if needed else min(ceiling, max(chip(target).min_ptx_version, (8, 8)))


@dataclass(frozen=True)
class Kernel:
    text: str
    first_line: int  # 1-based line of the first instruction; instruction i is on first_line + i


def kernel(instructions: list[str], target: str, version: tuple[int, int]) -> Kernel:
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
    return Kernel("\n".join(head + body + ["  ret;", "}", ""]), len(head) + 1)


__all__ = ["Kernel", "instruction", "kernel", "version_for", "REGISTER", "TMEM"]
