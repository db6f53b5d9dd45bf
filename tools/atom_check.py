"""Judge one exact PTX spelling for a target with the dialect's own rules (the catalogue matcher
that every atom op's verifier calls), at the newest PTX .version. The spelling is read against its
family's PTX grammar first (atoms/catalogue/spelling.py): a qualifier out of place, repeated or empty is
illegal, named with its position."""

from __future__ import annotations

from dataclasses import dataclass

from mmatom.atoms.catalogue import AtomError, family, version_text
from mmatom.atoms.catalogue.spelling import parse
from mmatom.atoms.chips import chip


@dataclass(frozen=True)
class Verdict:
    instruction: str
    legal: bool
    detail: str

    def line(self) -> str:
        return f"{'legal' if self.legal else 'illegal'} {self.instruction}: {self.detail}"


def check_instruction(instruction: str, target: str) -> Verdict:
    ins = instruction.strip().rstrip(";")
    try:
        fam_name, values = parse(ins)
        fam = family(fam_name)
        resolved = fam.resolve_partial(values, target)
    except AtomError as err:
        return Verdict(ins, False, str(err))
    v = max(resolved.min_version, _target_version(target))
    detail = f"{target}, needs PTX .version {version_text(v)}"
    canonical = fam.spell(resolved.atom)
    if canonical != ins:  # an order the grammar also admits, or a defaulted .scale_vec
        detail += f"; the catalogue spells it {canonical}"
    return Verdict(ins, True, detail)


def _target_version(target: str) -> tuple[int, int]:
    return chip(target).min_ptx_version
