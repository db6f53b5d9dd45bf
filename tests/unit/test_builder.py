"""The Python builder creates the same op the parser does (a DSL embeds this API)."""

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.test import TestOp

from mmatom.dialects.mma import FragmentType, SyncOp, TargetAttr
from mmatom.tools.mmatom_opt import LocatingParser, make_context

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
