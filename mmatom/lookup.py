"""Atom lookup for a DSL: `mmatom.atom(target, op, m=, n=, k=, a=, b=, d=, ...)` with the same field names in every
family and the defaults a user means, and `mmatom.atoms(...)` to list what a target has.

The catalogue (`mmatom.atoms.catalogue`) names its dimensions per family (mma.sync: `shape`, `acc=(d, c)`,
`layout=(a, b)`; wgmma: `m, n, k, d`, `trans_a` ...). Here every family takes `m, n, k, a, b, d` (and `c` where C
may differ from D); a qualifier left out takes its default when that is legal for the rest, else the one value
that is legal, else the error lists the choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mmatom.atoms.catalogue import Atom as CatalogueAtom
from mmatom.atoms.catalogue import AtomError, family, operands, resolve, spell
from mmatom.atoms.catalogue.fragments import FragmentError, threads, tv_layouts
from mmatom.atoms.chips import ALL_TARGET_NAMES, UnknownChip, chip
from mmatom.dialects.mma import FragmentType, fragment_type
from mmatom.layout import Layout

from .errors import api_error

# public op name -> catalogue family
FAMILY_OF_OP = {"mma.sync": "mma", "mma.sp": "mma.sp", "wgmma": "wgmma", "tcgen05": "tcgen05.mma",
                "mma.block_scale": "mma.block_scale"}
OP_OF_FAMILY = {v: k for k, v in FAMILY_OF_OP.items()}

# what a user means when they do not say (used only where the value is legal for the fields given)
DEFAULTS: dict[str, dict[str, Any]] = {
    "mma": {"layout": ("row", "col"), "kind": None, "satfinite": False, "bitop": None, "rounding": None},
    "mma.sp": {"sparse_mode": "sp::ordered_metadata", "kind": None, "satfinite": False, "selector": 0},
    "wgmma": {"sparse": False, "satfinite": False, "bitop": None, "a_residency": "smem_desc", "trans_a": 0,
              "trans_b": 0, "scale_a": 1, "scale_b": 1, "selector": None},
    "tcgen05.mma": {"sparse": False, "cta_group": 1, "scale_vec": None, "scale_type": None,
                    "a_residency": "smem_desc"},
    "mma.block_scale": {"sparse_mode": None, "selector": 0, "byte_id": 0, "thread_id_a": 0, "thread_id_b": 0},
}


def _family_name(op: str) -> str:
    if op not in FAMILY_OF_OP:
        raise api_error(f"op '{op}' is not an atom family; expected one of {', '.join(FAMILY_OF_OP)}")
    return FAMILY_OF_OP[op]


def _catalogue_values(fam_name: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The public field names -> the family's own dimensions."""
    values = dict(fields)
    shared = {k: values.pop(k) for k in ("m", "n", "k", "c") if k in values}
    if fam_name in ("mma", "mma.sp", "mma.block_scale"):
        if {"m", "n", "k"} <= shared.keys():
            values["shape"] = (shared["m"], shared["n"], shared["k"])
        elif shared.keys() & {"m", "n", "k"}:
            raise api_error(f"{OP_OF_FAMILY[fam_name]}: give m, n and k together (got {', '.join(sorted(shared))})")
        if "d" in values:
            d = values.pop("d")
            values["acc"] = (d, shared.get("c", d))
    else:
        values.update({k: v for k, v in shared.items() if k != "c"})
        if "c" in shared and shared["c"] != values.get("d"):
            raise api_error(f"{OP_OF_FAMILY[fam_name]}: C and D have one element type (d); got c={shared['c']}")
    return values


def _complete(fam_name: str, values: dict[str, Any], target: str) -> dict[str, Any]:
    """Fill each missing dimension: its default if legal with what is given, else the only legal value."""
    fam = family(fam_name)
    known = {d.key for d in fam.dims}
    unknown = set(values) - known
    if unknown:
        public = sorted({"m", "n", "k", "a", "b", "d"} | (known - {"shape", "acc"}))
        raise api_error(f"{OP_OF_FAMILY[fam_name]}: no field {', '.join(sorted(unknown))}; its fields are "
                     f"{', '.join(public)}")
    rows = [r for r in fam.match(values) if target in r.targets] or fam.match(values)
    out = dict(values)
    for d in fam.dims:
        if d.key in out:
            continue
        legal = set().union(*(r.allowed(d.key) for r in rows))
        default = DEFAULTS.get(fam_name, {}).get(d.key, _NO_DEFAULT)
        if default in legal:
            out[d.key] = default
        elif len(legal) == 1:
            out[d.key] = next(iter(legal))
        else:
            choices = ", ".join(sorted(d.fmt(v) for v in legal))
            raise api_error(f"{OP_OF_FAMILY[fam_name]}: say which {d.label} ({d.key}=...): one of {choices}")
        rows = [r for r in rows if out[d.key] in r.allowed(d.key)]
    return out


_NO_DEFAULT = object()


@dataclass(frozen=True)
class Atom:
    """One legal MMA atom for one target: what a DSL needs to place it (shape, threads, the TV layouts of its
    operands, the IR fragment types) and to print it (`.ptx`)."""

    catalogue: CatalogueAtom
    target: str

    @property
    def op(self) -> str:
        return OP_OF_FAMILY[self.catalogue.family]

    @property
    def ptx(self) -> str:
        """The instruction's exact PTX spelling."""
        return spell(self.catalogue)

    @property
    def mnk(self) -> tuple[int, int, int]:
        return self.catalogue.mnk

    @property
    def threads(self) -> int:
        """Threads that execute one atom together (32: a warp; 128: a warpgroup; 1: tcgen05's issuing thread)."""
        return threads(self.catalogue)

    @property
    def targets(self) -> tuple[str, ...]:
        """Every target that has this atom, in chip order."""
        have = resolve(self.catalogue).targets
        return tuple(t for t in ALL_TARGET_NAMES if t in have)

    @property
    def fields(self) -> dict[str, Any]:
        """The atom's every dimension, in the catalogue's names (the public, by-name view a DSL reads; mmatom's
        own code reads the typed `catalogue` atom's fields)."""
        return dict(self.catalogue.values)

    def residency(self, role: str) -> str:
        """Where the operand lives: "register", "smem_desc" or "tmem"."""
        for spec in operands(self.catalogue):
            if spec.role == role:
                return str(spec.residency)  # the word (a public API returns plain strings)
        raise api_error(f"{self.ptx}: no operand {role}; it has {', '.join(s.role for s in operands(self.catalogue))}")

    def tv_layout(self, role: str) -> Layout:
        """(thread, value) -> element coordinate of the operand `role` ("A", "B", "C" or "D") in CuTe
        notation: thread t's value v is element `layout(t, v)` of the column-major (M or N) x K / M x N tile."""
        if self.residency(role) != "register":
            raise api_error(f"{self.ptx}: operand {role} is read from {self.residency(role)}, not registers; it has "
                         f"no thread-value layout (its SMEM/TMEM layout is the descriptor's)")
        try:
            layouts = tv_layouts(self.catalogue)
        except FragmentError as err:
            raise api_error(str(err)) from None
        return layouts.get(role) or layouts["C" if role == "D" else role]

    def fragment_type(self, role: str) -> FragmentType:
        """The `!mma.frag<role, element, "layout">` IR type of the operand's registers (storage element: fp6/fp4
        operands travel in byte containers)."""
        self.tv_layout(role)  # an operand without registers is an error naming its residency
        return fragment_type(self.catalogue, role)

    def __str__(self) -> str:
        return f"{self.ptx} ({self.target})"


def atom(target: str, op: str, **fields: Any) -> Atom:
    """The atom `op` ("mma.sync", "mma.sp", "wgmma", "tcgen05", "mma.block_scale") with `fields` (m, n, k, a, b,
    d, then the family's qualifiers) on `target`; CompileError naming the legal alternatives if there is none.

        mmatom.atom("sm_80", "mma.sync", m=16, n=8, k=16, a="bf16", b="bf16", d="f32")
    """
    fam_name = _family_name(op)
    try:
        chip(target)
        values = _complete(fam_name, _catalogue_values(fam_name, fields), target)
        resolve(family(fam_name).make(values), target)
        return Atom(family(fam_name).make(values), target)
    except AtomError as err:
        raise api_error(str(err)) from None
    except UnknownChip as err:
        raise api_error(str(err)) from None


def atoms(target: str, op: str | None = None, **filters: Any) -> list[Atom]:
    """Every atom `target` has (of family `op`, if given) whose fields equal `filters` (same names as `atom`)."""
    ops = [op] if op is not None else list(FAMILY_OF_OP)
    out = []
    for name in ops:
        fam_name = _family_name(name)
        wanted = _catalogue_values(fam_name, filters)
        for a, r in family(fam_name).atoms():
            named = dict(a.values)  # the filters name dimensions, as the user wrote them
            if target in r.targets and all(named.get(k, _NO_DEFAULT) == v for k, v in wanted.items()):
                out.append(Atom(a, target))
    return list(dict.fromkeys(out))


__all__ = ["Atom", "atom", "atoms"]
