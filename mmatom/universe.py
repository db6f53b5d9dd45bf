"""Registers mmatom's dialects and passes with xDSL, so plain `xdsl-opt` loads them too."""

from xdsl.universe import Universe


def _mma():
    from mmatom.dialects.mma import MMA

    return MMA


MMATOM_UNIVERSE = Universe(all_dialects={"mma": _mma})
