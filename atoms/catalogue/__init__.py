"""The atom catalogue: the one source of truth for every tensor-core MMA form, SM70..SM121.

Verifiers, lowering, descriptor packing, `mmatom-atoms` and the docs all read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product as cartesian
from functools import lru_cache

from ..chips import ALL_TARGET_NAMES
from .atom_types import MmaBlockScaleAtom, MmaSparseAtom, MmaSyncAtom, Tcgen05Atom, WarpMmaAtom, WgmmaAtom
from .model import Atom, AtomError, Family, OperandSpec, Resolved, Row, format_targets, sort_key, version_text
from .mma_sync import MMA_BLOCK_SCALE, MMA_SP, MMA_SYNC
from .tcgen05 import TCGEN05
from .wgmma import WGMMA

FAMILIES: dict[str, Family] = {f.name: f for f in (MMA_SYNC, MMA_SP, MMA_BLOCK_SCALE, WGMMA, TCGEN05)}

# families as the tools group them
GROUPS = {
    "register": ("mma", "mma.sp"),
    "wgmma": ("wgmma",),
    "tcgen05": ("tcgen05.mma",),
    "sm120": ("mma.block_scale",),
}


def family(name: str) -> Family:
    try:
        return FAMILIES[name]
    except KeyError:
        raise AtomError(f"unknown atom family '{name}'; known: {', '.join(FAMILIES)}") from None


@dataclass(frozen=True)
class SpelledForm:
    """One PTX spelling (opcode and qualifiers), the targets that accept it and at which .version."""

    spelling: str
    family: str
    atom: Atom  # a representative atom (dimensions ptxas cannot see set to their first legal value)
    versions: tuple[tuple[str, tuple[int, int]], ...]  # target -> minimum .version

    @property
    def targets(self) -> frozenset[str]:
        return frozenset(t for t, _ in self.versions)

    def min_version(self, target: str) -> tuple[int, int]:
        return dict(self.versions)[target]

    @property
    def tier(self) -> str:
        return resolve(self.atom).row.tier


@lru_cache(maxsize=None)
def spelled_forms(family_name: str | None = None) -> tuple[SpelledForm, ...]:
    """Every distinct PTX spelling of the catalogue, in catalogue order."""
    out: dict[str, tuple[str, Atom, dict[str, tuple[int, int]]]] = {}
    names = [family_name] if family_name else list(FAMILIES)
    for name in names:
        fam = FAMILIES[name]
        spelled = [d.key for d in fam.dims if d.in_spelling]
        for r in fam.rows:
            # one representative per combination of spelled dimensions
            for atom, _ in _spelled_atoms(fam, r, spelled):
                s = fam.spell(atom)
                _, _, versions = out.setdefault(s, (name, atom, {}))
                for t in r.targets:
                    versions[t] = min(versions.get(t, r.min_version), r.min_version)
    return tuple(
        SpelledForm(s, name, atom, tuple(sorted(v.items(), key=lambda kv: ALL_TARGET_NAMES.index(kv[0]))))
        for s, (name, atom, v) in out.items()
    )


def _spelled_atoms(fam: Family, r: Row, spelled: list[str]):
    keys = [d.key for d in fam.dims]
    pools = [sorted(r.allowed(k), key=sort_key) if k in spelled else sorted(r.allowed(k), key=sort_key)[:1] for k in keys]
    for combo in cartesian(*pools):
        yield fam.make(dict(zip(keys, combo))), r


@lru_cache(maxsize=4096)
def resolve(atom: Atom, target: str | None = None) -> Resolved:
    """`atom` checked against its family's rows and `target`; remembered (atoms are frozen values), so the verifier,
    the nvvm verifiers and the PTX target that ask about one atom of one op resolve it once."""
    return family(atom.family).resolve_atom(atom, target)


def operands(atom: Atom) -> tuple[OperandSpec, ...]:
    return family(atom.family).operands(atom)


def spell(atom: Atom) -> str:
    return family(atom.family).spell(atom)


__all__ = [
    "Atom", "AtomError", "FAMILIES", "GROUPS", "MmaBlockScaleAtom", "MmaSparseAtom", "MmaSyncAtom", "OperandSpec",
    "Resolved", "SpelledForm", "Tcgen05Atom", "WarpMmaAtom", "WgmmaAtom", "family",
    "format_targets", "operands", "resolve", "spell", "spelled_forms", "version_text",
]
