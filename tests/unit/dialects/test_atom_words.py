"""The dialect's word attributes wrap the typed atoms' enums: each enum holds exactly the words the catalogue's rows
admit for its dimensions, in sorted order (so the legal words a diagnostic lists are the catalogue's)."""

from mmatom.atoms.catalogue import FAMILIES, family
from mmatom.atoms.catalogue.words import BitOp, Kind, OperandLayout, Rounding, ScaleVec
from mmatom.dialects.mma_types import catalogue_words


def test_each_word_enum_is_what_the_catalogue_admits():
    for enum, dims in ((OperandLayout, [("mma", "layout")]),
                       (Kind, [("mma", "kind"), ("mma.sp", "kind"), ("mma.block_scale", "kind"), ("tcgen05.mma", "kind")]),
                       (BitOp, [("mma", "bitop"), ("wgmma", "bitop")]),
                       (Rounding, [("mma", "rounding")]),
                       (ScaleVec, [("mma.block_scale", "scale_vec"), ("tcgen05.mma", "scale_vec")])):
        assert tuple(m.value for m in enum) == catalogue_words(*dims), enum.__name__


def test_every_catalogue_atom_is_typed():
    for name, fam in FAMILIES.items():
        atom, _ = next(iter(fam.atoms()))
        assert type(atom) is fam.atom_type and atom.family == name
        assert family(name).make(dict(atom.values)) == atom
