"""The catalogue's data model: rows of legal atom forms, and the matcher that explains illegal ones.

A `Row` is one line of the reference tables (`../shared/reference/ptx-mma.md`): for each dimension
(shape, element types, qualifiers, ...) the set of legal values, plus the targets that accept the
row, the minimum PTX `.version` and the operands. A concrete atom picks one value per dimension: it is a
typed value object of its family (`atom_types.py`), built only by `Family.make`. `Family.match` filters
the rows dimension by dimension in a fixed order; the first dimension that leaves no row is the
diagnostic, with the legal values that were left before it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import product as cartesian
from typing import Any, Callable, ClassVar, Iterable, Mapping

from ..chips import ALL_CHIPS, ALL_TARGET_NAMES, CHIPS_BY_NAME, chip, format_versions, from_arch
from .words import Residency

REGISTER = Residency.REGISTER
SMEM_DESC = Residency.SMEM_DESC
TMEM = Residency.TMEM


class AtomError(ValueError):
    """An atom that is not legal: the message names the family, the dimension, the value received
    and the legal set."""


@dataclass(frozen=True)
class OperandSpec:
    role: str  # A, B, C, D, E (sparse metadata), SFA, SFB (scale factors)
    residency: str  # register, smem_desc or tmem
    regs: int  # registers per thread (0 for descriptors and TMEM addresses)
    reg_type: str  # PTX register type: .b32, .f32, .f64, .b64 (descriptor), .b16


@dataclass(frozen=True)
class Dim:
    key: str
    label: str
    fmt: Callable[[Any], str] = str
    in_spelling: bool = True  # False for dimensions ptxas cannot see (e.g. tcgen05 M/N in idesc)


@dataclass(frozen=True)
class Row:
    family: str
    tier: str
    dims: tuple[tuple[str, frozenset], ...]
    targets: frozenset[str]
    min_version: tuple[int, int]
    note: str = ""

    def allowed(self, key: str) -> frozenset:
        for k, v in self.dims:
            if k == key:
                return v
        raise KeyError(f"row of {self.family} has no dimension {key}")


def row(family: str, tier: str, targets: Iterable[str], version: tuple[int, int], note: str = "", **dims: Any) -> Row:
    """A row; a scalar dimension value means the singleton set."""

    def as_set(v: Any) -> frozenset:
        if isinstance(v, (set, frozenset, list, range)):
            return frozenset(v)
        return frozenset([v])

    targets = frozenset(targets)
    for t in targets:
        chip(t)
    return Row(family, tier, tuple((k, as_set(v)) for k, v in dims.items()), targets, version, note)


def word(enum: type[StrEnum]) -> Any:
    """An atom field whose value is a word of `enum` (or None: a qualifier the atom does not have)."""
    return field(metadata={"words": enum})


def word_pair(enum: type[StrEnum]) -> Any:
    """An atom field whose value is a pair of words of `enum` (mma.sync's D/C types, A/B layouts)."""
    return field(metadata={"words": enum, "pair": True})


def _as_words(enum: type[StrEnum], value: Any, pair: bool) -> Any:
    if value is None:
        return None
    if pair:
        if not isinstance(value, tuple) or len(value) != 2:
            raise ValueError(value)
        return (enum(value[0]), enum(value[1]))
    return enum(value)


@dataclass(frozen=True)
class Atom:
    """One concrete atom: a family's typed value object (`atom_types.py`), one field per dimension. Word fields
    hold enum members; a field may be None where the atom has no such qualifier, or where a bare PTX spelling
    leaves the dimension free (selectors, residencies, descriptor-borne shapes)."""

    family: ClassVar[str]

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            enum = f.metadata.get("words")
            if enum is None:
                continue
            value = getattr(self, f.name)
            try:
                object.__setattr__(self, f.name, _as_words(enum, value, f.metadata.get("pair", False)))
            except (TypeError, ValueError):
                raise AtomError(f"{self.family}: {f.name}={value!r} is not "
                                f"{'a pair of' if f.metadata.get('pair') else 'a'} {enum.__name__}") from None

    @property
    def values(self) -> tuple[tuple[str, Any], ...]:
        """(dimension, value) in the family's order: the named view that only the catalogue's generic machinery
        (the matcher, enumeration) and the IR's `mma.atom` attribute read; everything else reads the fields."""
        return tuple((f.name, getattr(self, f.name)) for f in dataclasses.fields(self))

    def replace(self, **changes: Any) -> "Atom":
        """The same atom with some dimensions changed (e.g. another selector)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise KeyError(f"{self.family} atoms have no dimension {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Resolved:
    """A legal atom: the row that admits it and everything the tools and lowering need."""

    atom: Atom
    row: Row
    targets: frozenset[str]
    min_version: tuple[int, int]


def describe_int_set(label: str, values: Iterable[int]) -> str:
    vals = sorted(set(values))
    if len(vals) >= 3:
        step = vals[1] - vals[0]
        if vals[0] == step and all(b - a == step for a, b in zip(vals, vals[1:])):
            return f"{label} must be a multiple of {step} in [{vals[0]}, {vals[-1]}]"
    if len(vals) == 1:
        return f"{label} must be {vals[0]}"
    return f"{label} must be one of {compress_ints(vals)}"


def compress_ints(vals: list[int]) -> str:
    """8, 16, 24, 32, 48..256 step 16: runs of four or more equal steps are folded."""
    parts: list[str] = []
    i = 0
    while i < len(vals):
        j = i + 1
        if j < len(vals):
            step = vals[j] - vals[i]
            while j + 1 < len(vals) and vals[j + 1] - vals[j] == step:
                j += 1
            if j - i >= 3:
                parts.append(f"{vals[i]}..{vals[j]} step {step}")
                i = j + 1
                continue
        parts.append(str(vals[i]))
        i += 1
    return ", ".join(parts)


@dataclass
class Family:
    """How one atom family is spelled, diagnosed and laid out."""

    name: str  # "mma", "mma.sp", "wgmma", ...
    label: str  # for diagnostics, e.g. "mma.sync"
    dims: tuple[Dim, ...]
    atom_type: type[Atom]  # the family's typed atom: one field per dimension, in the dimensions' order
    spell: Callable[[Atom], str]
    operands: Callable[[Atom], tuple[OperandSpec, ...]]
    context: Callable[[dict[str, Any]], str]  # words for the already-matched dimensions
    rows: list[Row] = field(default_factory=list)

    def __post_init__(self) -> None:
        fields = tuple(f.name for f in dataclasses.fields(self.atom_type))
        if self.atom_type.family != self.name or fields != tuple(d.key for d in self.dims):
            raise TypeError(f"{self.name}: {self.atom_type.__name__} must have one field per dimension, in order")

    def make(self, values: Mapping[str, Any]) -> Atom:
        """The typed atom of `values` (absent dimensions None). The one place an atom is built from named values:
        the verifier, the lowering and the tools all come through here. A value that is not even a word of its
        dimension is diagnosed as the matcher names it (the first dimension no row admits)."""
        if isinstance(values, Atom):
            raise TypeError(f"{self.name}: make() takes named values, and this is already an atom")
        try:
            return self.atom_type(**{d.key: values.get(d.key) for d in self.dims})
        except AtomError:
            self.match(values)
            raise

    def dim(self, key: str) -> Dim:
        return next(d for d in self.dims if d.key == key)

    def match(self, values: Mapping[str, Any]) -> list[Row]:
        """The rows that admit `values`; raises AtomError naming the first dimension that fails."""
        rows = list(self.rows)
        matched: dict[str, Any] = {}
        for d in self.dims:
            if d.key not in values:
                continue
            v = values[d.key]
            kept = [r for r in rows if v in r.allowed(d.key)]
            if not kept:
                legal = set().union(*(r.allowed(d.key) for r in rows))
                raise AtomError(self._illegal(d, v, legal, matched))
            rows = kept
            matched[d.key] = v
        return rows

    def _illegal(self, d: Dim, v: Any, legal: set, matched: dict[str, Any]) -> str:
        ctx = self.context(matched)
        where = f" for {ctx}" if ctx else ""
        if legal and all(isinstance(x, int) and not isinstance(x, bool) for x in legal):
            legal_text = describe_int_set(d.label, legal)
        else:
            legal_text = f"legal {d.label}: " + ", ".join(sorted(d.fmt(x) for x in legal))
        return f"{self.label}: {d.label}={_format(d, v)} is not legal{where}; {legal_text}"

    def resolve(self, values: Mapping[str, Any], target: str | None = None) -> Resolved:
        """Check shape, types and qualifiers, then the target; return the admitting row."""
        missing = [d.key for d in self.dims if d.key not in values]
        if missing:
            raise AtomError(f"{self.label}: missing {', '.join(missing)}")
        return self.resolve_partial(values, target)

    def resolve_partial(self, values: Mapping[str, Any], target: str | None = None) -> Resolved:
        """As resolve, with the dimensions absent from `values` left free (for a bare PTX spelling,
        which does not carry selectors, residencies or descriptor-borne shapes)."""
        return self.resolve_atom(self.make(values), target, frozenset(values))

    def resolve_atom(self, atom: Atom, target: str | None = None, keys: frozenset[str] | None = None) -> Resolved:
        """The row that admits `atom` (only the dimensions in `keys`, default all) on `target`: the one place an
        atom is checked against the rows, so an atom already built is never rebuilt to be resolved."""
        values = {k: v for k, v in atom.values if keys is None or k in keys}
        rows = self.match(values)
        targets = frozenset().union(*(r.targets for r in rows))
        if target is not None:
            chip(target)
            accepting = [r for r in rows if target in r.targets]
            if not accepting:
                raise AtomError(
                    f"{self.label}: target {target} does not support {self.spell(atom)}; "
                    f"it needs {format_targets(targets)}"
                )
            rows = accepting
        best = min(rows, key=lambda r: r.min_version)
        return Resolved(atom, best, targets, best.min_version)

    def atoms(self) -> Iterable[tuple[Atom, Row]]:
        """Every concrete atom of every row (dimensions that ptxas cannot see included)."""
        for r in self.rows:
            keys = [d.key for d in self.dims]
            pools = [sorted(r.allowed(k), key=sort_key) for k in keys]
            for combo in cartesian(*pools):
                yield self.make(dict(zip(keys, combo))), r


def _format(d: Dim, v: Any) -> str:
    """The received value as the dimension spells it, or as Python does when it is not even of the dimension's
    kind (an int where a pair of type names belongs: IR built by hand, or a mutated `mma.atom` attribute)."""
    try:
        return d.fmt(v)
    except (TypeError, ValueError):
        return repr(v)


def sort_key(x: Any) -> tuple:
    return (str(type(x)), x if not isinstance(x, (tuple, type(None))) else str(x))


def format_targets(targets: Iterable[str]) -> str:
    """`sm_80 or later` for a baseline feature, else the targets in order."""
    targets = frozenset(targets)
    for c in ALL_CHIPS:
        if c.variant == "" and targets == from_arch(c.arch):
            return f"{c.name} or later"
    listed = [t for t in ALL_TARGET_NAMES if t in targets]
    return listed[0] if len(listed) == 1 else "one of " + ", ".join(listed)


def version_text(v: tuple[int, int]) -> str:
    return format_versions(v)


__all__ = [
    "AtomError", "Atom", "Dim", "Family", "OperandSpec", "REGISTER", "Resolved", "Row", "SMEM_DESC",
    "TMEM", "describe_int_set", "format_targets", "row", "CHIPS_BY_NAME",
]
