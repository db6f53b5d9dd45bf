"""The Python builder creates the same op the parser does (a DSL embeds this API)."""

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.test import TestOp
from xdsl.utils.exceptions import VerifyException

from mmatom.atoms.catalogue import spelled_forms
from mmatom.dialects.mma import BlockScaleOp, FragmentType, SyncOp, TargetAttr, fragment_type
from mmatom.dialects.source import LocatingParser, make_context

A = FragmentType("A", "f16", "((4,8),(2,2,2)):((32,1),(16,8,128))")
B = FragmentType("B", "f16", "((4,8),(2,2)):((16,1),(8,64))")
C = FragmentType("C", "f32", "((4,8),(2,2)):((32,1),(16,8))")
D = FragmentType("D", "f32", "((4,8),(2,2)):((32,1),(16,8))")


def test_builder_matches_parser():
    a, b, c = TestOp(result_types=[A]), TestOp(result_types=[B]), TestOp(result_types=[C])
    mma = SyncOp((16, 8, 16), a.res[0], b.res[0], c.res[0], D)
    built = ModuleOp([a, b, c, mma], attributes={"mma.target": TargetAttr("sm_80")})
    built.verify()
    parsed = LocatingParser(make_context(), str(built), "built", 0).parse_module()
    assert str(parsed) == str(built)
    assert isinstance(parsed.body.block.last_op, SyncOp)


def test_builder_ops_are_verified_by_the_same_rules():
    a, b, c = TestOp(result_types=[A]), TestOp(result_types=[B]), TestOp(result_types=[C])
    mma = SyncOp((16, 8, 16), a.res[0], b.res[0], c.res[0], D, satfinite=True)
    module = ModuleOp([a, b, c, mma], attributes={"mma.target": TargetAttr("sm_80")})
    try:
        module.verify()
    except Exception as err:  # VerifyException with the catalogue's message
        assert "satfinite=yes is not legal for m16n8k16 f16" in str(err)
    else:
        raise AssertionError("an illegal satfinite on f16 verified")


def test_every_atom_op_builder_matches_the_parser():
    """SparseOp and WgmmaOp (and, through the conformance builder, load/store_fragment) built from
    Python print, parse back identically and verify."""
    from mmatom.dialects.mma import SparseOp, WgmmaOp, fragment_type
    from mmatom.atoms.catalogue import spelled_forms

    sp = next(f.atom for f in spelled_forms("mma.sp") if f.spelling.startswith("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16"))
    types = [fragment_type(sp, r) for r in ("A", "B", "C")] + [FragmentType("E", "b32", "(32,1):(1,0)")]
    srcs = [TestOp(result_types=[t]) for t in types]
    sparse = SparseOp((16, 8, 16), *(s.res[0] for s in srcs), fragment_type(sp, "D"), selector=1)
    wg_a = TestOp(result_types=[FragmentType("A", "f16", "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))")])
    from mmatom.dialects.mma import SmemDescType
    from mmatom.atoms.descriptors import SmemOperand, canonical_layout

    b_layout = str(canonical_layout(SmemOperand(8, 16, 16, "k", "none"), 128, 256))
    wg_b = TestOp(result_types=[SmemDescType("B", "f16", "k", "none", b_layout)])
    wg_c = TestOp(result_types=[FragmentType("C", "f32", "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))")])
    wg = WgmmaOp((64, 8, 16), wg_a.res[0], wg_b.res[0], wg_c.res[0],
                 FragmentType("D", "f32", "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))"))
    for ops, target in ((srcs + [sparse], "sm_80"), ([wg_a, wg_b, wg_c, wg], "sm_90a")):
        built = ModuleOp(ops, attributes={"mma.target": TargetAttr(target)})
        parsed = LocatingParser(make_context(), str(built), "built", 0).parse_module()
        assert str(parsed) == str(built)
        try:
            built.verify()
        except Exception as err:  # the builder must hand the verifier what the parser would
            raise AssertionError(f"{target}: {err}") from None


def _atom(family: str, spelling_prefix: str):
    return next(f.atom for f in spelled_forms(family) if f.spelling.startswith(spelling_prefix))


def test_word_properties_built_from_strings_print_as_enum_attributes():
    """The builders take plain words; the ops hold them as mma enum attributes, which print as
    `#mma.layout<col>` in an attribute dictionary and as the bare (or, for 2X, quoted) word inline."""
    col_row = _atom("mma", "mma.sync.aligned.m8n8k4.col.row.f16")
    srcs = [TestOp(result_types=[fragment_type(col_row, r)]) for r in ("A", "B", "C")]
    sync = SyncOp((8, 8, 4), *(s.res[0] for s in srcs), fragment_type(col_row, "D"), layout=("col", "row"))
    scaled = _atom("mma.block_scale", "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X")
    scale_srcs = [TestOp(result_types=[fragment_type(scaled, r)]) for r in ("A", "B", "C", "SFA", "SFB")]
    block = BlockScaleOp((16, 8, 64), "mxf4nvf4", "2X", *(s.res[0] for s in scale_srcs), fragment_type(scaled, "D"))
    for ops, target, text in ((srcs + [sync], "sm_70", "{layout_a = #mma.layout<col>, layout_b = #mma.layout<row>}"),
                              (scale_srcs + [block], "sm_120a", 'mma.block_scale <m16n8k64> mxf4nvf4 "2X" %')):
        built = ModuleOp(ops, attributes={"mma.target": TargetAttr(target)})
        built.verify()
        assert text in str(built)
        parsed = LocatingParser(make_context(), str(built), "built", 0).parse_module()
        assert str(parsed) == str(built)
    assert sync.layout_a.word == "col" and block.scale_vec.word == "2X"


def test_a_word_no_catalogue_row_takes_is_refused_by_the_builder():
    a, b, c = TestOp(result_types=[A]), TestOp(result_types=[B]), TestOp(result_types=[C])
    with pytest.raises(VerifyException, match="bit operation 'or' is not one of and, xor"):
        SyncOp((16, 8, 256), a.res[0], b.res[0], c.res[0], D, bitop="or")
