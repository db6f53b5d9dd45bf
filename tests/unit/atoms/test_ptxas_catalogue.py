"""Every catalogue form against ptxas, both directions: each spelling assembles for every target the
catalogue claims and is rejected by every target it does not claim (all 23 targets, batched into one
kernel per target); and the minimum .version the catalogue records is the one ptxas enforces."""

import collections

import pytest

from mmatom.targets import ptxas, ptx_snippets
from mmatom.atoms.catalogue import spelled_forms
from mmatom.atoms.chips import ALL_TARGET_NAMES, chip

pytestmark = pytest.mark.ptxas

VERSIONS = [(6, 0), (6, 3), (6, 4), (6, 5), (7, 0), (7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 6), (7, 7), (7, 8),
            (8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7), (8, 8), (9, 0), (9, 1), (9, 2)]


def _accepted(forms, target):
    """Indices of `forms` that ptxas accepts on `target` at its newest .version (tcgen05 kernels
    must not mix cta_group::1 and ::2, so those go in separate kernels)."""
    tool = ptxas.for_target(target)
    groups = collections.defaultdict(list)
    for i, f in enumerate(forms):
        groups[f.atom.cta_group if f.family == "tcgen05.mma" else 0].append(i)
    accepted = set()
    for idxs in groups.values():
        k = ptx_snippets.kernel([ptx_snippets.instruction(forms[i].atom) for i in idxs], target, tool.max_version)
        r = ptxas.assemble(k.text, target)
        assert r.ok or r.error_lines, f"ptxas failed without naming a line:\n{r.log}"
        bad = {line - k.first_line for line in r.error_lines}
        accepted |= {idxs[j] for j in range(len(idxs)) if j not in bad}
    return accepted


@pytest.mark.parametrize("target", ALL_TARGET_NAMES)
def test_catalogue_agrees_with_ptxas_on_every_target(target):
    forms = spelled_forms()
    accepted = _accepted(forms, target)
    wrong = [(f.spelling, "claimed but rejected" if target in f.targets else "unclaimed but accepted")
             for i, f in enumerate(forms) if (target in f.targets) != (i in accepted)]
    assert not wrong, f"{len(wrong)} disagreements on {target}: {wrong[:10]}"
    assert sum(target in f.targets for f in forms) == len(accepted)


def test_minimum_versions_are_the_ones_ptxas_enforces():
    # every 5th form, at its earliest target: accepted at the recorded minimum, rejected one below
    checked = 0
    for f in spelled_forms()[::5]:
        target = min(f.targets, key=chip)
        need = max(f.min_version(target), chip(target).min_ptx_version)
        ins = [ptx_snippets.instruction(f.atom)]
        ok = ptxas.assemble(ptx_snippets.kernel(ins, target, need).text, target)
        assert ok.ok, f"{f.spelling} on {target} at .version {need}: {ok.log}"
        below = VERSIONS[VERSIONS.index(need) - 1]
        if below >= chip(target).min_ptx_version:
            r = ptxas.assemble(ptx_snippets.kernel(ins, target, below).text, target)
            assert not r.ok, f"{f.spelling} on {target} also assembles at .version {below}"
        checked += 1
    assert checked > 250
