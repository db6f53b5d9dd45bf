"""`mmatom-atoms check` against ptxas, both directions, on every catalogue spelling and on mutations
of them (swapped accumulators, layouts, types, shapes, qualifiers): where ptxas accepts, check says
legal; where it rejects, check says illegal. The only disagreements allowed are the ones where the
reference lists ptxas as looser than the ISA, and check follows the ISA."""

import collections

import pytest

from mmatom.targets import ptxas, ptx_snippets
from mmatom.atoms.catalogue import Atom, AtomError, family, spelled_forms
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
    return Atom(fam_name, tuple((d.key, vals[d.key]) for d in fam.dims))


def candidates():
    legal = [f.spelling for f in spelled_forms() if f.family != "wgmma" or f.atom["n"] in (8, 40, 48, 64, 256)]
    pool = set(legal)
    for s in legal:
        pool |= mutations(s)
    out = []
    for s in sorted(pool):
        try:
            out.append((s, _atom(s)))
        except AtomError:  # spellings the parser rejects outright (SpellingError is one)
            continue
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_check_agrees_with_ptxas(target):
    cands = candidates()
    assert len(cands) > 800
    tool = ptxas.for_target(target)
    groups = collections.defaultdict(list)
    for s, atom in cands:
        groups[atom.get("cta_group") if atom.family == "tcgen05.mma" else 0].append((s, atom))
    disagreements = []
    n_legal = n_illegal = 0
    for items in groups.values():
        k = ptx_snippets.kernel([ptx_snippets.instruction(a) for _, a in items], target, tool.max_version)
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
