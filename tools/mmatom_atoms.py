"""mmatom-atoms: the atom catalogue for people.

  mmatom-atoms list [--target sm_XX] [--family F]
  mmatom-atoms show ATOM [--svg FILE]          ATOM: a PTX spelling or an id from `list`
  mmatom-atoms check --target sm_XX INSTR...   (or - to read one per line from stdin)
"""

from __future__ import annotations

import argparse
import sys

from mmatom.atoms.catalogue import FAMILIES, GROUPS, AtomError, SpelledForm, format_targets, spelled_forms, version_text
from mmatom.atoms.catalogue.fragments import operand_extent, threads, tv_layouts
from mmatom.atoms.chips import UnknownChip, chip

from .atom_check import check_instruction
from .tv_svg import tv_svg
from .unix import restore_sigpipe

HARDWARE_NOTE = {
    "sm90a": "runs on the project's H100 (sm_90a)",
    "sm100": "ptxas-validated only (mmatom-conformance --family tcgen05) + numpy reference semantics; "
             "never executed: no SM100 GPU here",
    "sm103": "ptxas-validated only (mmatom-conformance --family tcgen05) + numpy reference semantics; "
             "never executed: no SM103 GPU here",
    "sm120": "ptxas-validated only (mmatom-conformance --family sm120) + numpy reference semantics; "
             "never executed: no SM120 GPU here",
}


def atom_id(form: SpelledForm) -> str:
    """A short id: the spelling without the boilerplate qualifiers."""
    return form.spelling.replace(".sync.aligned", "").replace("mma_async", "mma")


def _find(name: str) -> SpelledForm:
    for f in spelled_forms():
        if name in (f.spelling, atom_id(f)):
            return f
    raise AtomError(f"no atom '{name}' in the catalogue; `mmatom-atoms list` names them all, "
                    f"`mmatom-atoms check` explains why a spelling is illegal")


def cmd_list(args: argparse.Namespace) -> int:
    fams = None
    if args.family:
        fams = GROUPS.get(args.family, (args.family,))
        for f in fams:
            if f not in FAMILIES:
                raise AtomError(f"unknown family '{args.family}'; families: {', '.join(list(GROUPS) + list(FAMILIES))}")
    if args.target:
        chip(args.target)
    for f in spelled_forms():
        if fams and f.family not in fams:
            continue
        if args.target and args.target not in f.targets:
            continue
        print(f.spelling)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    form = _find(args.atom)
    atom = form.atom
    fam = FAMILIES[form.family]
    layouts = tv_layouts(atom)
    tier = form.tier
    print(f"atom      {atom_id(form)}")
    print(f"ptx       {form.spelling}")
    print(f"family    {fam.label}   tier {tier}")
    first = {version_text(v) for _, v in form.versions}
    print(f"targets   {format_targets(form.targets)}  (.version >= {min(first)} at the earliest target)")
    if atom.family == "tcgen05.mma":
        print("          M, N, K and types live in the instruction descriptor: the row shown is one legal choice")
    shape = atom.mnk
    print(f"shape     M={shape[0]} N={shape[1]} K={shape[2]}   threads {threads(atom)}")
    note = HARDWARE_NOTE.get(tier, "runs on the project's H100 (sm_90a), which executes every sm_70..sm_90 form")
    print(f"hardware  {note}")
    print("operands")
    for spec in fam.operands(atom):
        regs = f"{spec.regs} x {spec.reg_type}" if spec.regs else spec.reg_type
        print(f"  {spec.role:<4} {spec.residency:<10} {regs}")
    print("TV layouts ((thread, value) -> index; A: m + M*k, B: n + N*k, C: m + M*n)")
    for role in ("A", "B", "C", "SFA", "SFB"):
        if role in layouts:
            rows, cols = operand_extent(atom, role) if role in "ABC" else (0, 0)
            ext = f"  [{rows}x{cols}]" if rows else ""
            print(f"  {role:<4} {layouts[role]}{ext}")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(tv_svg(atom, layouts))
        print(f"wrote {args.svg}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    chip(args.target)
    instrs = args.instructions
    if instrs == ["-"]:
        instrs = [line.strip() for line in _stdin_lines() if line.strip() and not line.strip().startswith("//")]
    if not instrs:
        raise AtomError("check: no instruction given")
    all_legal = True
    for ins in instrs:
        verdict = check_instruction(ins, args.target)
        all_legal &= verdict.legal
        print(verdict.line())
    return 0 if all_legal else 1


def _stdin_lines() -> list[str]:
    """Standard input as UTF-8 lines; a byte that is not UTF-8 is an error naming its line and column (the
    locale's decoder would raise UnicodeDecodeError, or smuggle the byte in as a surrogate)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream put in place of stdin (tests, embedding): already decoded
        return sys.stdin.read().splitlines()
    data = binary.read()
    try:
        return data.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise AtomError(f"<stdin>:{line}:{col}: byte 0x{data[err.start]:02x} is not UTF-8") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mmatom-atoms", description="The tensor-core MMA atom catalogue.")
    sub = p.add_subparsers(dest="command", required=True)
    pl = sub.add_parser("list", help="one atom per line")
    pl.add_argument("--target")
    pl.add_argument("--family", help=f"one of {', '.join(list(GROUPS) + list(FAMILIES))}")
    ps = sub.add_parser("show", help="tier, targets, shape, operands, TV layouts, PTX form")
    ps.add_argument("atom")
    ps.add_argument("--svg", help="also draw the TV layouts into this SVG file")
    pc = sub.add_parser("check", help="legal or illegal, for each exact PTX spelling")
    pc.add_argument("--target", required=True)
    pc.add_argument("instructions", nargs="+")
    return p


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # echo odd input (a surrogate from a non-UTF-8 argv) escaped, not crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return {"list": cmd_list, "show": cmd_show, "check": cmd_check}[args.command](args)
    except (AtomError, UnknownChip) as err:
        print(f"mmatom-atoms: error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"mmatom-atoms: error: {err}", file=sys.stderr)
        return 1


def entry() -> None:
    restore_sigpipe()
    sys.exit(main())


if __name__ == "__main__":
    entry()
