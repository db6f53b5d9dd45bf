"""`mmatom-atoms check` judges the exact PTX spelling: every token in its grammar's place, each at most
once, no empty token; a misspelling is illegal with a message naming the token and its position (the
opcode is token 1). Every catalogue spelling still passes, and the alternate orders NVIDIA writes
(CUTLASS, the ISA's examples) read as the same atom. ptxas's view of the same spellings:
test_check_vs_ptxas.py."""

import pytest

from mmatom.atoms.catalogue import family, spell, spelled_forms
from mmatom.atoms.catalogue.spelling import SpellingError, parse
from mmatom.tools.atom_check import check_instruction


def rejected(spelling, target, message):
    with pytest.raises(SpellingError) as err:
        parse(spelling)
    assert message in str(err.value)
    verdict = check_instruction(spelling, target)
    assert not verdict.legal and message in verdict.detail
    return verdict


# -- one test per misspelling class ------------------------------------------------------------------

def test_a_duplicated_qualifier_is_named_with_both_places():
    rejected("wgmma.mma_async.sync.sync.aligned.m64n128k16.f32.bf16.bf16", "sm_90a",
             "'.sync' appears twice (tokens 3 and 4)")
    rejected("mma.sync.aligned.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a",
             "'.aligned' appears twice (tokens 3 and 4)")


def test_a_duplicated_shape():
    rejected("wgmma.mma_async.sync.aligned.m64n192k16.m64n192k16.f32.bf16.bf16", "sm_90a",
             "'.m64n192k16' appears twice (tokens 5 and 6)")
    rejected("mma.sync.aligned.m16n8k16.m16n8k8.row.col.f32.bf16.bf16.f32", "sm_90a",
             "'.m16n8k8' (token 5) is a second shape, after '.m16n8k16' (token 4)")


def test_tokens_out_of_order():
    rejected("mma.aligned.sync.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a",
             "'.aligned' (token 2) must come after '.sync' (token 3)")
    rejected("mma.sync.aligned.row.col.m16n8k16.f32.bf16.bf16.f32", "sm_90a",
             "'.row' (token 4) must come after '.m16n8k16' (token 6)")
    rejected("mma.sync.aligned.m16n8k16.f32.bf16.bf16.f32.row.col", "sm_90a",
             "'.f32' (token 5) must come after '.row' (token 9)")
    rejected("tcgen05.mma.kind::f16.cta_group::1", "sm_100a",
             "'.kind::f16' (token 3) must come after '.cta_group::1' (token 4)")
    rejected("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.popc.xor", "sm_80",
             "'.popc' (token 11) must come after '.xor' (token 12)")
    rejected("wgmma.mma_async.sync.aligned.sp.m64n64k32.f32.f16.f16", "sm_90a",
             "'.sync' (token 3) must come after '.sp' (token 5)")


def test_an_empty_token():
    rejected("mma.sync..aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a",
             "empty token after 'mma.sync' (token 3)")
    rejected("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32.", "sm_90a",
             "empty token after 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32' (token 11)")
    rejected(".mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a", "empty token at the start (token 1)")
    rejected("tcgen05..mma.cta_group::1.kind::f16", "sm_100a", "empty token after 'tcgen05' (token 2)")


def test_a_duplicated_trailing_block_scale_qualifier():
    rejected("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.block32", "sm_100a",
             "'.block32' appears twice (tokens 6 and 7)")
    rejected("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X.block32", "sm_100a",
             "'.block32' (token 7) is a second scale-vector qualifier, after '.scale_vec::1X' (token 6)")
    rejected("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0.ue8m0",
             "sm_120a", "'.ue8m0' (token 15) is a sixth type")
    rejected("mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0",
             "sm_120a", "'.scale_vec::1X' appears twice (tokens 6 and 7)")


# -- the rest of the grammar ------------------------------------------------------------------------

@pytest.mark.parametrize("spelling, target, message", [
    ("mma.sync.aligned.m16n8k16.row.col.col.f32.bf16.bf16.f32", "sm_90a", "'.col' (token 7) is a third layout"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32.f32", "sm_90a",
     "'.f32' (token 11) is a fifth type; mma takes four"),
    ("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.f32.e4m3.e4m3.f32.ue8m0", "sm_120a",
     "'.ue8m0' (token 12): a scale type needs .block_scale"),
    ("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.f32", "sm_120a",
     "'.f32' (token 13) is not a scale type"),
    ("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.satfinite.f32.e2m1.e2m1.f32.ue8m0",
     "sm_120a", "'.satfinite' (token 10) is not a qualifier of block-scaled mma"),
    ("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0.satfinite",
     "sm_120a", "'.satfinite' (token 15) is not a qualifier of block-scaled mma"),
    ("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor", "sm_80", "'.xor' (token 11) needs '.popc' after it"),
    ("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.popc", "sm_80", "'.popc' (token 11) needs '.xor' or '.and'"),
    ("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn.rz", "sm_90a",
     "'.rz' (token 12) is a second rounding modifier, after '.rn' (token 11)"),
    ("mma.sp.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_90a",
     "'.sp::ordered_metadata' (token 3) is a second sparsity qualifier, after '.sp' (token 2)"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.wide", "sm_90a", "unknown qualifier '.wide' for mma (token 11)"),
    ("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16.f16", "sm_90a", "'.f16' (token 9) is a fourth type"),
    ("wgmma.mma_async.sync.aligned.satfinite.m64n8k32.s32.s8.s8", "sm_90a",
     "'.satfinite' (token 5) must come after '.m64n8k32' (token 6)"),
    ("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.and.popc", "sm_90a", "'.and' appears twice (tokens 9 and 10)"),
    ("tcgen05.mma.cta_group::1.cta_group::2.kind::f16", "sm_100a",
     "'.cta_group::2' (token 4) is a second .cta_group, after '.cta_group::1' (token 3)"),
    ("tcgen05.mma.cta_group::1.kind::mxf4.block32", "sm_100a", "'.block32' (token 5) without .block_scale"),
    ("tcgen05.sp.mma.cta_group::1.kind::f16", "sm_100a", "'.sp' (token 2) must come after '.mma' (token 3)"),
])
def test_grammar_errors_name_the_token(spelling, target, message):
    rejected(spelling, target, message)


def test_a_missing_qualifier_is_still_named():
    rejected("mma.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90a", ".sync is required")
    rejected("wgmma.mma_async.sync.m64n8k16.f32.f16.f16", "sm_90a", ".aligned is required")


# -- what still passes ------------------------------------------------------------------------------

def test_every_catalogue_spelling_reads_back_as_its_atom_and_is_legal_on_its_targets():
    forms = spelled_forms()
    assert len(forms) > 1000
    for f in forms:
        fam, values = parse(f.spelling)
        assert fam == f.family, f.spelling
        named = dict(f.atom.values)
        assert family(fam).make(values) == family(fam).make({k: named[k] for k in values}), f.spelling
        assert spell(family(fam).make({**named, **values})) == f.spelling
        for target in sorted(f.targets):
            assert check_instruction(f.spelling, target).legal, (f.spelling, target)


# (alternate order, the catalogue's own spelling of the same atom)
ALTERNATES = [
    ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
    ("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite",
     "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
    ("wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8.satfinite", "wgmma.mma_async.sync.aligned.m64n64k32.satfinite.s32.s8.s8"),
    ("mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e2m1.f32", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32"),
    ("mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0",
     "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"),
    ("mma.sync.aligned.kind::mxf8f6f4.block_scale.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0",
     "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"),
    ("mma.sp::ordered_metadata.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k128.row.col.f32.e2m1.e2m1.f32.ue4m3",
     "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"),
]


@pytest.mark.parametrize("alternate, canonical", ALTERNATES)
def test_alternate_orders_read_as_the_same_atom(alternate, canonical):
    assert parse(alternate) == parse(canonical)
    form = next(f for f in spelled_forms() if f.spelling == canonical)
    for target in sorted(form.targets):
        assert check_instruction(alternate, target).legal


def _tokens(spelling):
    return spelling.split(".")


def test_no_catalogue_spelling_survives_a_repeated_or_empty_token():
    for f in spelled_forms():
        toks = _tokens(f.spelling)
        for i in range(len(toks)):
            dup = ".".join(toks[:i + 1] + toks[i:])
            with pytest.raises(SpellingError, match=r"appears twice|is a (second|third|fifth|sixth|fourth)"):
                parse(dup)
            if i:
                with pytest.raises(SpellingError, match="empty token"):
                    parse(".".join(toks[:i] + [""] + toks[i:]))


def test_a_moved_qualifier_is_rejected_unless_the_grammar_has_that_order():
    """Moving one qualifier (not a layout or type, which fill their slots in turn) anywhere else either
    is rejected or reads as the same atom: one of the grammar's alternate orders."""
    seen = set()
    for f in spelled_forms():
        toks = _tokens(f.spelling)
        skeleton = tuple(t if t in ("sync", "aligned", "satfinite", "block_scale", "popc") else t.split("::")[0][:2]
                         for t in toks)
        if skeleton in seen:
            continue
        seen.add(skeleton)
        first = 2 if toks[0] in ("wgmma", "tcgen05") else 1
        want = parse(f.spelling)
        for i in range(first, len(toks)):
            if toks[i] in ("row", "col") or toks[i] in ("f16", "f32", "bf16", "tf32", "f64", "s32", "s8", "u8", "s4",
                                                         "u4", "b1", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1",
                                                         "ue8m0", "ue4m3"):
                continue
            rest = toks[:i] + toks[i + 1:]
            for j in range(first, len(rest) + 1):
                if j == i:
                    continue
                moved = ".".join(rest[:j] + [toks[i]] + rest[j:])
                try:
                    got = parse(moved)
                except SpellingError:
                    continue
                assert got == want, (f.spelling, moved)
                assert toks[i] == "satfinite" or toks[i].startswith(("kind::", "block_scale", "scale_vec::")), moved


def test_an_alternate_order_is_legal_and_names_the_catalogue_spelling():
    alternate, canonical = ALTERNATES[0]
    verdict = check_instruction(alternate, "sm_80")
    assert verdict.legal and verdict.detail.endswith(f"; the catalogue spells it {canonical}")
    assert check_instruction(canonical, "sm_80").detail == "sm_80, needs PTX .version 7.0"


@pytest.mark.parametrize("spelling, target", [("mma.sync.aligned.m16n8k\u0661\u0666.row.col.f32.f16.f16.f32", "sm_90a"),
                                              ("mma.sync.aligned.m16n8k\U0001d7cf\U0001d7d4.row.col.f32.f16.f16.f32", "sm_90a"),
                                              ("tcgen05.mma.cta_group::\u0661.kind::f16", "sm_100a")])
def test_non_ascii_digits_are_not_digits(spelling, target):
    """Python's int() reads Arabic-Indic or mathematical digits; ptxas reads ASCII (found by fuzzing)."""
    verdict = check_instruction(spelling, target)
    assert not verdict.legal and "is not ASCII; PTX is spelled in ASCII" in verdict.detail
