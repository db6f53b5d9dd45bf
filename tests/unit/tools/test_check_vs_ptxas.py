"""`mmatom-atoms check` against ptxas, both directions, on every catalogue spelling and on mutations
of them (swapped accumulators, layouts, types, shapes, qualifiers), and on hand-picked misspellings and
alternate orders: where ptxas accepts, check says legal; where it rejects, check says illegal. ptxas
assembles the exact spelling check judged (with the operands of the atom it names, or, where the
spelling does not parse, of the catalogue spelling it was made from). The only disagreements allowed
are the ones where ptxas is looser than the ISA and check follows the ISA: the reference's list, and the
PTX grammar's qualifier order, which ptxas does not enforce."""

import collections

import pytest

from mmatom.targets import ptxas, ptx_snippets
from mmatom.atoms.catalogue import AtomError, family, spell, spelled_forms
from mmatom.atoms.catalogue.spelling import SpellingError, parse
from mmatom.tools.atom_check import check_instruction

pytestmark = pytest.mark.ptxas

TARGETS = ["sm_75", "sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_100f", "sm_120", "sm_120a"]



def isa_stricter(spelling):
    """Spellings ptxas 13.5 accepts that the PTX ISA does not define; check follows the ISA.
    - m16n8k16 kind::f8f6f4 (reference E3, "Quirk");
    - m16n8k16 .tf32 (the ISA's tf32 shapes are m16n8k4 and m16n8k8; found by this test);
    - warp-level kind::mxf4 / mxf4nvf4 / mxf8f6f4 without .block_scale (the ISA requires it; found by
      this test)."""
    if spelling.startswith("mma.sync.aligned.m16n8k16.row.col.kind::f8f6f4."):
        return True
    if spelling == "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32":
        return True
    return spelling.startswith("mma") and ".kind::mx" in spelling and ".block_scale" not in spelling


def free_dims(fam_name, values):
    """Values for the dimensions a spelling does not carry: those of the first row that admits the
    spelled ones, else what the operand list of an illegal spelling would still need."""
    fam = family(fam_name)
    try:
        row = fam.match(values)[0]
        return {d.key: sorted(row.allowed(d.key), key=str)[0] for d in fam.dims if d.key not in values}
    except AtomError:
        floaty = values.get("a") in ("f16", "bf16", "tf32", "e4m3", "e5m2")
        return {"selector": 0, "a_residency": "smem_desc", "byte_id": 0, "thread_id_a": 0, "thread_id_b": 0,
                "trans_a": 0 if values.get("a") in ("f16", "bf16") else None,
                "trans_b": 0 if values.get("a") in ("f16", "bf16") else None,
                "scale_a": 1 if floaty else None, "scale_b": 1 if floaty else None,
                "m": 128, "n": 64, "k": 16, "scale_type": None, "a": "f16", "b": "f16", "d": "f32"}


def mutations(spelling):
    toks = spelling.split(".")
    out = set()
    swaps = [("f32", "f16"), ("f16", "f32"), ("f16", "bf16"), ("bf16", "f16"), ("s8", "s4"), ("u4", "u8"),
             ("e4m3", "e2m1"), ("e5m2", "e3m2"), ("row", "col"), ("col", "row"), ("tf32", "f16"),
             ("m16n8k16", "m16n8k32"), ("m16n8k32", "m16n8k16"), ("m16n8k8", "m16n8k16"), ("xor", "and"),
             ("and", "xor"), ("m64n64k16", "m64n40k16"), ("m64n48k32", "m64n40k32"), ("kind::f8f6f4", "kind::mxf4"),
             ("scale_vec::2X", "scale_vec::4X"), ("ue8m0", "ue4m3"), ("ue4m3", "ue8m0"), ("f64", "f32")]
    for i, t in enumerate(toks):
        for a, b in swaps:
            if t == a:
                out.add(".".join(toks[:i] + [b] + toks[i + 1:]))
    if "satfinite" not in toks and toks[0] == "mma" and "sync" in toks:
        j = toks.index("col") + 1 if "col" in toks else None
        if j:
            out.add(".".join(toks[:j] + ["satfinite"] + toks[j:]))
    return out


def _atom(spelling):
    fam_name, values = parse(spelling)
    fam = family(fam_name)
    vals = {**free_dims(fam_name, values), **values}
    return fam.make(vals)


def candidates():
    """(spelling, the atom whose operands ptxas gets with it)."""
    legal = [f.spelling for f in spelled_forms() if f.family != "wgmma" or f.atom.n in (8, 40, 48, 64, 256)]
    origin = {s: s for s in legal}
    for s in legal:
        for m in sorted(mutations(s)):
            origin.setdefault(m, s)
    out = []
    for s in sorted(origin):
        try:
            out.append((s, _atom(s)))
        except AtomError:  # the parser rejects it outright: ptxas gets its origin's operands
            out.append((s, _atom(origin[s])))
    return out


def probe_instruction(spelling, atom):
    """The exact `spelling` with `atom`'s operands (not the atom's own, canonical spelling)."""
    ins = ptx_snippets.instruction(atom)
    canonical = spell(atom)
    assert ins.startswith(canonical + " "), ins
    return spelling + ins[len(canonical):]


@pytest.mark.parametrize("target", TARGETS)
def test_check_agrees_with_ptxas(target):
    cands = candidates()
    assert len(cands) > 800
    tool = ptxas.for_target(target)
    groups = collections.defaultdict(list)
    for s, atom in cands:
        groups[atom.cta_group if atom.family == "tcgen05.mma" else 0].append((s, atom))
    disagreements = []
    n_legal = n_illegal = 0
    for items in groups.values():
        k = ptx_snippets.kernel([probe_instruction(s, a) for s, a in items], target, tool.max_version)
        r = ptxas.assemble(k.text, target)
        assert r.ok or r.error_lines, r.log[:2000]
        rejected = {line - k.first_line for line in r.error_lines}
        for i, (s, _) in enumerate(items):
            ours = check_instruction(s, target).legal
            theirs = i not in rejected
            n_legal += theirs
            n_illegal += not theirs
            if ours != theirs and not (theirs and isa_stricter(s)):
                disagreements.append((s, "check legal, ptxas rejects" if ours else "check illegal, ptxas accepts"))
    assert not disagreements, f"{len(disagreements)} on {target}: {disagreements[:8]}"
    assert n_illegal > 100 and n_legal > 0


# -- misspellings and alternate orders, one kernel each (an empty token is a fatal ptxas syntax error) --

MMA = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
MMA_INT = "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"
MMA_SP_INT = "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"
MMA_B1 = "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc"
MMA_F64 = "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn"
F8F6F4 = "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32"
F8F6F4_SP = "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32"
MXF8 = "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"
MXF4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"
NVF4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"
MXF8_SP = "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"
WG = "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16"
WG_INT = "wgmma.mma_async.sync.aligned.m64n64k32.satfinite.s32.s8.s8"
WG_SP = "wgmma.mma_async.sp.sync.aligned.m64n64k32.f32.f16.f16"
WG_B1 = "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc"
TC = "tcgen05.mma.cta_group::1.kind::f16"
TC_MX = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32"

# (target, the catalogue spelling whose operands ptxas gets, the spelling judged): ptxas and check both reject
MISSPELLINGS = [
    ("sm_90a", WG, "wgmma.mma_async.sync.aligned.m64n192k16.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG, "wgmma.mma_async.sync.aligned.aligned.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG, "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16.bf16"),
    ("sm_90a", WG, "wgmma.mma_async.sync..aligned.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG_SP, "wgmma.mma_async.sp.sp.sync.aligned.m64n64k32.f32.f16.f16"),
    ("sm_90a", WG_B1, "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.and.popc"),
    ("sm_90a", WG_B1, "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc.popc"),
    ("sm_90a", MMA, "mma.sync..aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32."),
    ("sm_90a", MMA, "mma..sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.m16n8k8.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.row.col.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32.f32"),
    ("sm_90a", MMA_SP_INT, "mma.sp::ordered_metadata.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
    ("sm_90a", MMA_B1, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.xor.popc"),
    ("sm_90a", MMA_B1, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc.popc"),
    ("sm_90a", MMA_F64, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn.rn"),
    ("sm_90a", MMA_F64, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64.rn.rz"),
    ("sm_120a", F8F6F4, "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.kind::f8f6f4.f32.e2m1.e2m1.f32"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0.ue8m0"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0."),
    ("sm_120a", MXF8, "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF4, "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.satfinite.f32.e2m1.e2m1.f32.ue8m0"),
    ("sm_120a", NVF4, "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.scale_vec::2X.f32.e2m1.e2m1.f32.ue4m3"),
    ("sm_120a", NVF4, "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3"),
    ("sm_120a", MXF8_SP, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0.ue8m0"),
    ("sm_100a", TC_MX, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32.block32"),
    ("sm_100a", TC_MX, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X.block32"),
    ("sm_100a", TC_MX, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block_scale.block32"),
    ("sm_100a", TC_MX, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.block32."),
    ("sm_100a", TC, "tcgen05.mma.cta_group::1.cta_group::1.kind::f16"),
    ("sm_100a", TC, "tcgen05.mma.cta_group::1.kind::f16.kind::f16"),
    ("sm_100a", TC, "tcgen05.mma..cta_group::1.kind::f16"),
]

# the grammar's other orders that NVIDIA writes (CUTLASS, the ISA's examples): ptxas and check both accept
ALTERNATES = [
    ("sm_80", MMA_INT, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite"),
    ("sm_80", MMA_SP_INT, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite"),
    ("sm_90a", WG_INT, "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8.satfinite"),
    ("sm_120a", F8F6F4, "mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e2m1.f32"),
    ("sm_120a", F8F6F4_SP, "mma.sp::ordered_metadata.sync.aligned.kind::f8f6f4.m16n8k64.row.col.f32.e2m1.e2m1.f32"),
    ("sm_120a", MXF8, "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF8, "mma.sync.aligned.kind::mxf8f6f4.block_scale.m16n8k32.row.col.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", MXF4, "mma.sync.aligned.kind::mxf4.block_scale.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue8m0"),
    ("sm_120a", NVF4, "mma.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue4m3"),
    ("sm_120a", MXF8_SP, "mma.sp::ordered_metadata.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k64.row.col.f32.e4m3.e4m3.f32.ue8m0"),
]

# ptxas reads the qualifiers as a set, takes a repeated .sync or .satfinite and a wgmma without .aligned
# (which the ISA calls mandatory); check holds the spelling to the grammar: it rejects, ptxas accepts
GRAMMAR_STRICTER = [
    ("sm_90a", MMA, "mma.aligned.sync.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.row.col.m16n8k16.f32.bf16.bf16.f32"),
    ("sm_90a", MMA, "mma.sync.aligned.m16n8k16.f32.bf16.bf16.f32.row.col"),
    ("sm_90a", MMA, "mma.m16n8k16.sync.aligned.row.col.f32.bf16.bf16.f32"),
    ("sm_80", MMA_INT, "mma.sync.aligned.m16n8k32.satfinite.row.col.s32.s8.s8.s32"),
    ("sm_80", MMA_INT, "mma.sync.aligned.m16n8k32.row.col.satfinite.satfinite.s32.s8.s8.s32"),
    ("sm_90a", MMA_B1, "mma.sync.aligned.m16n8k128.row.col.xor.popc.s32.b1.b1.s32"),
    ("sm_90a", MMA_F64, "mma.sync.aligned.m16n8k8.row.col.rn.f64.f64.f64.f64"),
    ("sm_90a", WG, "wgmma.mma_async.sync.sync.aligned.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG, "wgmma.mma_async.aligned.sync.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG, "wgmma.mma_async.sync.m64n192k16.f32.bf16.bf16"),
    ("sm_90a", WG_SP, "wgmma.mma_async.sync.aligned.sp.m64n64k32.f32.f16.f16"),
    ("sm_120a", MXF8, "mma.sync.aligned.m16n8k32.row.col.block_scale.kind::mxf8f6f4.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"),
    ("sm_120a", NVF4, "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue4m3.scale_vec::4X"),
    ("sm_120a", NVF4, "mma.sync.aligned.kind::mxf4nvf4.m16n8k64.row.col.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"),
    ("sm_100a", TC, "tcgen05.mma.kind::f16.cta_group::1"),
    ("sm_100a", TC_MX, "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block32.block_scale"),
]


def assembles(spelling, base, target):
    atom = next(f.atom for f in spelled_forms() if f.spelling == base)
    tool = ptxas.for_target(target)
    k = ptx_snippets.kernel([probe_instruction(spelling, atom)], target, tool.max_version)
    return ptxas.assemble(k.text, target).ok


@pytest.mark.parametrize("target, base, spelling", MISSPELLINGS + ALTERNATES + GRAMMAR_STRICTER)
def test_misspellings_and_alternate_orders_against_ptxas(target, base, spelling):
    assert check_instruction(base, target).legal and assembles(base, base, target)  # the probe itself is sound
    ours = check_instruction(spelling, target)
    theirs = assembles(spelling, base, target)
    if (target, base, spelling) in GRAMMAR_STRICTER:
        assert (ours.legal, theirs) == (False, True), ours.line()
    else:
        assert ours.legal == theirs == ((target, base, spelling) in ALTERNATES), ours.line()
