"""NVIDIA compute targets from sm_70 to sm_121f, as ptxas names them.

`sm_XYa` targets are exact: code for sm_120a runs on sm_120 only (ptxas: "Program with .target
'sm_120a' cannot be compiled to future architecture" for -arch=sm_121a). `sm_XYf` targets name a family:
sm_100f code runs on sm_100 and sm_103 parts, sm_120f on sm_120 and sm_121. Plain targets run on their
arch and every later one (PTX is forward compatible), but lack the a/f-only features.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering


@total_ordering
@dataclass(frozen=True)
class Chip:
    name: str  # "sm_90a"
    arch: int  # 90
    variant: str  # "", "a" or "f"
    min_ptx_version: tuple[int, int]  # the first .version that accepts .target <name> (ptxas 13.5)

    def __lt__(self, other: "Chip") -> bool:
        return (self.arch, self.variant) < (other.arch, other.variant)

    def __str__(self) -> str:
        return self.name


_VERSIONS = {
    "sm_70": (6, 0), "sm_75": (6, 3), "sm_80": (7, 0), "sm_86": (7, 1), "sm_87": (7, 4),
    "sm_89": (7, 8), "sm_90": (7, 8), "sm_90a": (8, 0),
    "sm_100": (8, 6), "sm_100a": (8, 6), "sm_100f": (8, 8),
    "sm_103": (8, 8), "sm_103a": (8, 8), "sm_103f": (8, 8),
    "sm_110": (9, 0), "sm_110a": (9, 0), "sm_110f": (9, 0),
    "sm_120": (8, 7), "sm_120a": (8, 7), "sm_120f": (8, 8),
    "sm_121": (8, 8), "sm_121a": (8, 8), "sm_121f": (8, 8),
}


def _make(name: str) -> Chip:
    digits = name[3:].rstrip("af")
    return Chip(name, int(digits), name[3 + len(digits):], _VERSIONS[name])


ALL_CHIPS: tuple[Chip, ...] = tuple(_make(n) for n in _VERSIONS)
CHIPS_BY_NAME: dict[str, Chip] = {c.name: c for c in ALL_CHIPS}
ALL_TARGET_NAMES: tuple[str, ...] = tuple(c.name for c in ALL_CHIPS)


class UnknownChip(ValueError):
    pass


def chip(name: str) -> Chip:
    try:
        return CHIPS_BY_NAME[name]
    except KeyError:
        raise UnknownChip(
            f"unknown target '{name}'; known targets: {', '.join(ALL_TARGET_NAMES)}"
        ) from None


# -- target sets, the vocabulary of the catalogue's acceptance columns ----------------------------

def from_arch(arch: int) -> frozenset[str]:
    """Every target at or after `arch` (a baseline feature: plain, a and f variants alike)."""
    return frozenset(c.name for c in ALL_CHIPS if c.arch >= arch)


def only(*names: str) -> frozenset[str]:
    for n in names:
        chip(n)
    return frozenset(names)


def format_versions(v: tuple[int, int]) -> str:
    return f"{v[0]}.{v[1]}"
