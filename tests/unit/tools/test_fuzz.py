"""A bounded fuzz run in CI: mutated project .mlir files through mmatom-opt with every pipeline, each case in its
own process under a time and memory limit, must give no traceback, no hang and no diagnostic that quotes a Python
exception. Longer campaigns: `python -P -m mmatom.tools.fuzz --cases 20000` (reproducers land in --out)."""

import random
from pathlib import Path

from mmatom.tools import fuzz

ROOT = Path(__file__).resolve().parents[3]


def test_mutations_give_located_errors(tmp_path):
    counts = fuzz.campaign(cases=300, seed=1, jobs=2, out=tmp_path, root=ROOT)
    findings = sorted(p.name for p in tmp_path.glob("*.txt"))
    details = "\n".join((tmp_path / f).read_text() for f in findings[:5])
    assert not counts, f"{dict(counts)}; first reproducers in {tmp_path}:\n{details}"


def test_the_mutator_changes_the_text_deterministically():
    text = fuzz.seeds(ROOT)[0]
    a = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    b = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    assert a == b and any(m != text for m in a)
