"""Mutation fuzzer for the tools: bad input must give a located diagnostic and exit 1, never a traceback, a hang,
or a diagnostic that quotes a Python exception.

    python -m mmatom.tools.fuzz --cases 20000 --jobs 2 --out fuzz-findings/

Seeds are the project's own .mlir files (tests/filecheck, examples). Each case is one seeded mutation (delete,
duplicate or swap a span, replace a token with a boundary value, insert a stray byte, nest, cut short) run through
`mmatom-opt` with one pipeline, in its own process with a time and memory limit. Findings are written as reproducers
(`<class>-<n>.mlir` with the command in a comment) and summarised by class.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

PIPELINES = ([], ["-p", "lower-mma-to-nvvm"], ["-p", "lower-mma-to-nvvm", "-t", "ptx"], ["-p", "cse,dce"])
BOUNDARY = ["0", "-1", "2147483648", "9223372036854775808", "1" + "0" * 40, "i99999999", "f99", "sm_7x", '""', "0x0",
            "(0,0):(0,0)", "(2147483648,16):(16,1)", "(128,64):(-64,1)", "nan", "inf", "1e999", "%undefined"]
PYTHON_EXCEPTION = re.compile(r"\b(\w+Error|\w+Exception|Traceback)\b(?!: )|cannot parse: ")
TIME_LIMIT_S = 10
MEMORY_LIMIT = 2 << 30


@dataclass(frozen=True)
class Finding:
    kind: str  # traceback, hang, python-text, exit-code
    pipeline: tuple[str, ...]
    text: str
    detail: str


def mutate(text: str, rng: random.Random) -> str:
    n = len(text)
    if n == 0:
        return text
    i, j = sorted(rng.randrange(n + 1) for _ in range(2))
    op = rng.randrange(7)
    if op == 0:
        return text[:i] + text[j:]                                   # delete a span
    if op == 1:
        return text[:j] + text[i:j] + text[j:]                       # duplicate a span
    if op == 2:
        tokens = list(re.finditer(r"[\w.%#!\"-]+", text))
        if tokens:
            t = rng.choice(tokens)
            return text[:t.start()] + rng.choice(BOUNDARY) + text[t.end():]
    if op == 3:
        return text[:i] + chr(rng.choice([0, 0xFF, 0x80, ord("{"), ord("}"), ord('"'), ord("<"), ord(">")])) + text[i:]
    if op == 4:
        depth = rng.choice([50, 200, 1000])
        return text[:i] + "(" * depth + text[i:j] + ")" * depth + text[j:]
    if op == 5:
        return text[:i]                                              # cut short
    k = rng.randrange(n + 1)
    return text[:k] + text[i:j] + text[k:]                           # move a copy


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case(path: Path, pipeline: tuple[str, ...]) -> Finding | None:
    cmd = [sys.executable, "-P", "-c", "import sys; from mmatom.tools.mmatom_opt import main; sys.exit(main(sys.argv[1:]))",
           str(path), *pipeline]
    text = path.read_bytes().decode("utf-8", "replace")
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=TIME_LIMIT_S, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        return Finding("hang", pipeline, text, f"over {TIME_LIMIT_S} s")
    err = proc.stderr.decode("utf-8", "replace")
    if "Traceback (most recent call last)" in err:
        return Finding("traceback", pipeline, text, err.strip().splitlines()[-1][:300])
    if proc.returncode not in (0, 1):
        return Finding("exit-code", pipeline, text, f"exit {proc.returncode}: {err[-300:]}")
    if proc.returncode == 1 and PYTHON_EXCEPTION.search(err):
        return Finding("python-text", pipeline, text, err.strip().splitlines()[0][:300])
    return None


def seeds(root: Path) -> list[str]:
    files = sorted((root / "tests" / "filecheck").rglob("*.mlir")) + sorted((root / "examples").glob("*.mlir"))
    chunks = []
    for f in files:
        chunks += [c for c in re.split(r"^// -----[ \t]*$", f.read_text(), flags=re.M) if "builtin.module" in c]
    return chunks


def campaign(cases: int, seed: int, jobs: int, out: Path, root: Path) -> Counter:
    rng = random.Random(seed)
    pool = seeds(root)
    out.mkdir(parents=True, exist_ok=True)
    work = []
    for n in range(cases):
        text = mutate(rng.choice(pool), rng)
        path = out / f"case-{n}.mlir"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        work.append((path, PIPELINES[n % len(PIPELINES)]))
    counts: Counter = Counter()
    with ThreadPoolExecutor(jobs) as ex:
        for (path, pipeline), finding in zip(work, ex.map(lambda w: run_case(*w), work)):
            if finding is None:
                path.unlink()
                continue
            counts[finding.kind] += 1
            path.rename(out / f"{finding.kind}-{path.stem}.mlir")
            (out / f"{finding.kind}-{path.stem}.txt").write_text(
                f"mmatom-opt {path.name} {' '.join(pipeline)}\n{finding.detail}\n")
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="mmatom-fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    p.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (its tests/filecheck and examples)")
    args = p.parse_args(argv)
    counts = campaign(args.cases, args.seed, args.jobs, args.out, args.root)
    print(f"{args.cases} cases: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no findings"))
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
