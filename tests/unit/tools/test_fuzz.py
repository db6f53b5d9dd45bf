"""A bounded fuzz run in CI: 1000 mutated cases through all three targets (mmatom-opt with every pipeline on project
.mlir files, mmatom-atoms on mutated catalogue spellings and targets, mmatom.compile on mutated text and non-text
objects), each in a child forked from a fork server under a time and memory limit, must give no traceback, no hang
and no diagnostic that quotes a Python exception. Longer campaigns:
`python -P -m mmatom.tools.fuzz --cases 21000 --seed 7 --out fuzz-findings` (reproducers land in --out)."""

import random
from pathlib import Path

from mmatom.tools import fuzz

ROOT = Path(__file__).resolve().parents[3]


def test_mutations_give_located_errors(tmp_path):
    counts = fuzz.campaign(cases=1000, seed=1, jobs=2, out=tmp_path, root=ROOT)
    summary = (tmp_path / "summary.txt").read_text()
    assert not counts, f"{dict(counts)}; reproducers in {tmp_path}:\n{summary}"
    assert not list(tmp_path.glob("case-*")), "the inputs of cases without a finding are removed"


def test_the_mutator_changes_the_text_deterministically():
    text = fuzz.seeds(ROOT)[0]
    a = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    b = [fuzz.mutate(text, random.Random(7)) for _ in range(3)]
    assert a == b and any(m != text for m in a)


def test_cases_cover_every_target_and_are_made_again_alone(tmp_path):
    pools = fuzz.Pools.load(ROOT)
    cases = [fuzz.make_case(n, 7, pools, tmp_path) for n in range(len(fuzz.SCHEDULE))]
    assert {c.target for c in cases} == {"mmatom-opt", "mmatom-atoms", "mmatom.compile"}
    assert {tuple(c.args[1:]) for c in cases if c.target == "mmatom-opt"} == {tuple(p) for p in fuzz.PIPELINES}
    again = fuzz.make_case(5, 7, pools, tmp_path)
    assert (again.code, again.args, again.stdin) == (cases[5].code, cases[5].args, cases[5].stdin)


def test_a_forked_child_ends_as_a_python_process_would(monkeypatch):
    """The fork server's verdicts are the subprocess's: a traceback and exit 1 for an uncaught exception,
    SystemExit's code or message, a signal, a hang."""
    monkeypatch.setattr(fuzz, "TIME_LIMIT_S", 1)
    programs = {
        "import sys\ndef f():\n    raise KeyError('x')\nf()": "traceback",
        "import sys; sys.exit('a message')": None,
        "import sys; sys.exit(3)": "exit-code",
        "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)": "exit-code",
        "print('KeyError(1)', __import__('sys').argv[1:])": None,
        "import sys; print('x: invalid literal for int()', file=sys.stderr); sys.exit(1)": "python-text",
        "while True: pass": "hang",
    }
    server = fuzz.ForkServer()
    try:
        for code, kind in programs.items():
            case = fuzz.Case(0, "mmatom-opt", code, ["a", "b"])
            forked, spawned = server.run(case), fuzz.run_subprocess(case)
            assert (forked.rc, forked.stderr, forked.stdout) == (spawned.rc, spawned.stderr, spawned.stdout), code
            finding = fuzz.classify(case, forked)
            assert (finding.kind if finding else None) == kind, (code, finding)
    finally:
        server.close()
