"""Mutation fuzzer for the tools and the API: bad input must give a located diagnostic and exit 1, never a traceback,
a hang, or a diagnostic that quotes a Python exception.

    python -P -m mmatom.tools.fuzz --cases 21000 --seed 7 --jobs 2 --out fuzz-findings/

Targets, picked round-robin by case number (SCHEDULE): `mmatom-opt` with each of its five pipelines on a mutated
project .mlir file (seeds: tests/filecheck, examples; without -p/-t its output, custom or generic form, must parse
back); a third of the .mlir mutations keep the text valid but for one thing (`mutate_structure`: two lines swapped,
an out-of-range or 5,000-digit number at a digit run, a deep nest of regions); `mmatom-atoms` `check`/`show`/`list`
on mutated catalogue PTX spellings, targets and families (`check -` reads them from stdin); `mmatom.compile` on mutated .mlir text and on a
few objects that are not text (None, bytes, int, ...; those must give a CompileError). Every case is a
`python -P -c CODE ARGS...` command line. By default it runs in a fork server: one worker process per job imports
mmatom once, then forks a child per case that runs CODE in-process as `python -c` would (stdout/stderr to files, a
10 s / 2 GiB limit; an uncaught exception prints its traceback and exits 1, SystemExit codes are honoured).
`--subprocess` runs every case as its own `python -P -c` process instead (slow, for confirming findings);
`--replay` re-runs saved reproducers (`<class>-case-<n>.json`, default in subprocess mode).

Findings are written to --out as reproducers: `<class>-case-<n>.json` (the exact case), the input
(`.mlir`, or `.stdin` for `mmatom-atoms check -`) and `<class>-case-<n>.txt` (the command to replay, the detail
and the end of stderr); `summary.txt` groups them by class and distinct detail. Classes: traceback, hang,
exit-code (not 0 or 1; argparse's usage error, exit 2 with `usage:`, is fine), python-text (exit 1 with a message
that quotes a Python exception), unlocated-python-text (the same in a `mmatom.compile` diagnostic at 0:0),
harness (the fuzzer itself failed on the case).
"""

from __future__ import annotations

import argparse
import builtins
import gc
import io
import json
import os
import queue
import random
import re
import resource
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# the fork server imports what the cases run once, before it forks (the targets' own imports then cost nothing)
import xdsl  # noqa: F401
from xdsl.dialects.builtin import ModuleOp  # noqa: F401

from mmatom.atoms.catalogue import FAMILIES, GROUPS, spelled_forms
from mmatom.atoms.chips import ALL_TARGET_NAMES
from mmatom.compiler import CompileError, compile as mmatom_compile  # noqa: F401
from mmatom.tools import mmatom_atoms, mmatom_opt  # noqa: F401

PIPELINES = ([], ["-p", "lower-mma-to-nvvm"], ["-p", "lower-mma-to-ptx", "-t", "ptx"], ["-p", "cse,dce"],
             ["--print-op-generic"])
# the target of case n is SCHEDULE[n % len(SCHEDULE)]: every mmatom-opt pipeline, mmatom-atoms, mmatom.compile
SCHEDULE = ("opt0", "atoms", "opt1", "api", "opt2", "atoms", "opt3", "api", "opt4")
# integers past the range of i8 ... i64 (and unsigned i64), for every place the parser converts one
OUT_OF_RANGE = ["128", "256", "32768", "65536", "2147483648", "4294967296", "36854775808", "13709551615",
                "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
                "340282366920938463463374607431768211456", "-1"]
HUGE_DIGITS = 5000  # past Python's 4300-digit limit on converting a decimal string
BOUNDARY = ["0", "-1", "2147483648", "9223372036854775808", "1" + "0" * 40, "i99999999", "f99", "sm_7x", '""', "0x0",
            "(0,0):(0,0)", "(2147483648,16):(16,1)", "(128,64):(-64,1)", "nan", "inf", "1e999", "%undefined"]
PYTHON_EXCEPTION = re.compile(
    r"(?<![\w.])([A-Z]\w*Error|[A-Z]\w*Exception|Traceback)\b(?!: )|cannot parse: |object has no attribute|invalid literal for"
    r"|index out of range|unhashable type|object is not (?:subscriptable|callable|iterable)|unsupported operand type"
    r"|positional argument|maximum recursion depth|codec can't (?:de|en)code")
TIME_LIMIT_S = 10
MEMORY_LIMIT = 2 << 30
FILE_LIMIT = 256 << 20  # what one case may write (stdout, stderr, an SVG)
STDERR_KEPT = 1 << 20

# the command line of each target: `python -P -c CODE ARGS...` (the console scripts are `sys.exit(main())`)
OPT_CODE = "import sys; from mmatom.tools.mmatom_opt import main; sys.exit(main(sys.argv[1:]))"
# mmatom-opt without a pipeline, and its output parsed again: what it prints must parse back (exit 4 if not)
ROUNDTRIP_CODE = """import contextlib, io, os, sys, tempfile
from mmatom.tools.mmatom_opt import main
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    code = main(sys.argv[1:])
if code == 0 and printed.getvalue().strip():
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as again:
        again.write(printed.getvalue())
    with contextlib.redirect_stdout(io.StringIO()):
        reparsed = main([again.name])
    os.unlink(again.name)
    if reparsed != 0:
        sys.exit(print("round trip: mmatom-opt's output does not parse back", file=sys.stderr) or 4)
sys.stdout.write(printed.getvalue())
sys.exit(code)
"""
ATOMS_CODE = "import sys; from mmatom.tools.mmatom_atoms import main; sys.exit(main(sys.argv[1:]))"
# mmatom.compile: a CompileError is the expected failure (its message on stderr, exit 1); any other exception is a
# traceback; an object that is neither text nor a module must not compile (exit 3)
API_CODE = """import sys, mmatom
from xdsl.dialects.builtin import ModuleOp
obj = {expr}
try:
    mmatom.compile(obj)
except mmatom.CompileError as err:
    sys.exit(str(err) or "a CompileError without a message")
if not isinstance(obj, (str, ModuleOp)):
    sys.exit(print(f"mmatom.compile accepted a {{type(obj).__name__}}", file=sys.stderr) or 3)
"""
API_TEXT = "open(sys.argv[1], encoding='utf-8').read()"
API_OBJECTS = {"None": "None", "bytes": "open(sys.argv[1], 'rb').read()", "bytearray": "bytearray(b'module {}')",
               "int": "0", "negative-int": "-1", "float": "1.5", "list": "[]", "dict": "{}", "object": "object()",
               "tuple": "(open(sys.argv[1], encoding='utf-8').read(),)", "empty-module": "ModuleOp([])"}

# mmatom-atoms: what its arguments are made of
TARGET_BOUNDARY = ["sm_7x", "sm_999a", "", " ", "sm_", "sm", "sm_0", "sm_-1", "sm_+90", "sm_090", "sm_90 ", " sm_90",
                   "SM_90A", "sm_90A", "sm_9O", "sm_90aa", "sm_90af", "sm_90_a", "sm_1_00", "sm_1" + "0" * 40,
                   "compute_90a", "sm_90\n", "sm_90\u200b", "sm_\u0669\u0660", "sm_\U0001d7d7\U0001d7ce",
                   "\uff53\uff4d\uff3f\uff19\uff10\uff41", "sm_90\udcff", "sm_100f", "sm_121f", "sm_110", "-", "--help"]
NUMBER_BOUNDARY = ["0", "1", "3", "07", "-1", "+8", "2147483648", "9223372036854775808", "1" + "0" * 40, "1_6",
                   "\u0661\u0666", "\U0001d7cf\U0001d7d4", "8.0", "1e3", ""]
ODD_TEXT = ["", ";", " ", "\t", "\n", ".", "..", "::", ":", "\u200b", "\ufeff", "\u00e9", "\U0001f600", "\udcff",
            "\\", "'", '"', "%", "{", "(", "X", "_", "-"]


@dataclass
class Case:
    n: int
    target: str  # mmatom-opt, mmatom-atoms, mmatom.compile
    code: str  # run as `python -P -c code *args` (stdin from `stdin`, else /dev/null)
    args: list[str]
    stdin: str | None = None
    inputs: list[str] = field(default_factory=list)  # files this case wrote (its input, its stdin)

    def command(self) -> list[str]:
        return [sys.executable, "-P", "-c", self.code, *self.args]

    def cli(self) -> str:
        """The same run as a person types it."""
        redirect = f" < {shlex.quote(self.stdin)}" if self.stdin else ""
        if self.code in (OPT_CODE, ROUNDTRIP_CODE):
            return shlex.join(["mmatom-opt", *self.args]) + redirect
        if self.code == ATOMS_CODE:
            return shlex.join(["mmatom-atoms", *self.args]) + redirect
        expr = self.code.split("obj = ", 1)[1].split("\n", 1)[0]
        expr = expr.replace("sys.argv[1]", repr(self.args[0])) if self.args else expr
        imports = "from xdsl.dialects.builtin import ModuleOp; " if "ModuleOp" in expr else ""
        return shlex.join(["python", "-P", "-c", f"{imports}import mmatom; mmatom.compile({expr})"])


@dataclass
class Result:
    rc: int | None  # None: it hung; negative: killed by that signal
    stderr: str
    stdout: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class Finding:
    kind: str  # traceback, hang, exit-code, python-text, unlocated-python-text
    detail: str  # one line
    key: str  # what makes two findings the same: the detail without its numbers and quoted values


# -- mutators -------------------------------------------------------------------------------------------------------

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


def mutate_structure(text: str, rng: random.Random) -> str:
    """The mutations that keep the text valid but for one thing: two lines of a body swapped (a use before its
    definition, a value used outside the region that defines it), an out-of-range integer at an integer position
    (attributes, positions, case values, indices, shapes, layouts: any digit run, in words and strings too), a
    5,000-digit number there, or a deep nest of regions (printed back in the generic form by the opt4 pipeline)."""
    kind = rng.randrange(4)
    if kind == 0:
        lines = text.split("\n")
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    numbers = list(re.finditer(r"\d+", text))
    if kind in (1, 2) and numbers:
        m = rng.choice(numbers)
        number = rng.choice(OUT_OF_RANGE) if kind == 1 else "1" + "0" * (HUGE_DIGITS - 1)
        return text[:m.start()] + number + text[m.end():]
    ops = [m.end() for m in re.finditer(r"^\s*(?:%[\w.]+ = )?[a-z_]+\.[\w.]+[^\n]*\n", text, flags=re.MULTILINE)]
    if not ops:
        return text
    at, depth = rng.choice(ops), rng.choice([30, 50, 99, 101, 150])
    nest = "scf.execute_region {\n" * depth + "scf.yield\n}\n" * depth
    return text[:at] + nest + text[at:]


def mutate_spelling(spelling: str, rng: random.Random, vocabulary: list[str]) -> str:
    """One to three edits of a PTX spelling: qualifiers dropped, repeated, swapped or borrowed from another
    spelling, numbers at their boundaries, stray characters, case, `::` groups broken."""
    for _ in range(rng.choice([1, 1, 2, 3])):
        parts = spelling.split(".")
        op = rng.randrange(10)
        i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
        if op == 0 and len(parts) > 1:
            del parts[i]
        elif op == 1:
            parts.insert(j, parts[i])
        elif op == 2:
            parts[i], parts[j] = parts[j], parts[i]
        elif op == 3:
            parts[i] = rng.choice(vocabulary)
        elif op == 4:
            parts.insert(j, rng.choice(vocabulary))
        elif op == 5:
            numbers = list(re.finditer(r"\d+", spelling))
            if numbers:
                m = rng.choice(numbers)
                spelling = spelling[:m.start()] + rng.choice(NUMBER_BOUNDARY) + spelling[m.end():]
                continue
        elif op == 6:
            k = rng.randrange(len(spelling) + 1)
            spelling = spelling[:k] + rng.choice(ODD_TEXT) + spelling[k:]
            continue
        elif op == 7:
            spelling = rng.choice([spelling.upper(), spelling.replace("::", ":"), spelling.replace("::", "::::"),
                                   spelling + ";", spelling + " ;", "  " + spelling, spelling.replace(".", ". ")])
            continue
        elif op == 8:
            spelling = mutate(spelling, rng)
            continue
        else:
            parts = parts * rng.choice([2, 50, 500]) if rng.random() < 0.3 else parts[:i]
        spelling = ".".join(parts)
    return spelling


def mutate_target(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.65:
        return rng.choice(ALL_TARGET_NAMES)
    if r < 0.9:
        return rng.choice(TARGET_BOUNDARY)
    return mutate_spelling(rng.choice(ALL_TARGET_NAMES), rng, list(ALL_TARGET_NAMES) + ["sm", "90a", "100", "f"])


def _argv_safe(s: str) -> str:
    """A command-line argument holds no NUL byte and at most 128 KiB (MAX_ARG_STRLEN)."""
    return s.replace("\0", "")[:30000]


# -- cases ----------------------------------------------------------------------------------------------------------

@dataclass
class Pools:
    seeds: list[str]  # .mlir modules
    spellings: list[str]  # the catalogue's PTX spellings
    ids: list[str]  # and their short ids (`mmatom-atoms show` takes either)
    vocabulary: list[str]  # every qualifier of those
    families: list[str]

    @classmethod
    def load(cls, root: Path) -> Pools:
        forms = spelled_forms()
        spellings = [f.spelling for f in forms]
        ids = [mmatom_atoms.atom_id(f) for f in forms]
        vocabulary = sorted({q for s in spellings + ids for q in s.split(".")})
        return cls(seeds(root), spellings, ids, vocabulary, list(GROUPS) + list(FAMILIES))


def seeds(root: Path) -> list[str]:
    files = sorted((root / "tests" / "filecheck").rglob("*.mlir")) + sorted((root / "examples").glob("*.mlir"))
    chunks = []
    for f in files:
        chunks += [c for c in re.split(r"^// -----[ \t]*$", f.read_text(), flags=re.MULTILINE) if "builtin.module" in c]
    return chunks


def make_case(n: int, seed: int, pools: Pools, out: Path) -> Case:
    """Case n of the campaign with this seed: its own random stream, so one case can be made again alone."""
    rng = random.Random(f"mmatom-fuzz:{seed}:{n}")
    slot = SCHEDULE[n % len(SCHEDULE)]
    if slot.startswith("opt"):
        path = _write(out / f"case-{n}.mlir", _mutated(rng.choice(pools.seeds), rng))
        pipeline = PIPELINES[int(slot[3:])]
        roundtrip = "-p" not in pipeline and "-t" not in pipeline  # what it prints must parse back
        return Case(n, "mmatom-opt", ROUNDTRIP_CODE if roundtrip else OPT_CODE, [path, *pipeline], inputs=[path])
    if slot == "api":
        text = rng.choice(pools.seeds)
        if rng.random() < 0.1:
            path = _write(out / f"case-{n}.mlir", text)
            return Case(n, "mmatom.compile", API_CODE.format(expr=API_OBJECTS[rng.choice(sorted(API_OBJECTS))]), [path],
                        inputs=[path])
        path = _write(out / f"case-{n}.mlir", _mutated(text, rng))
        return Case(n, "mmatom.compile", API_CODE.format(expr=API_TEXT), [path], inputs=[path])
    return _atoms_case(n, rng, pools, out)


def _mutated(text: str, rng: random.Random) -> str:
    return mutate_structure(text, rng) if rng.random() < 0.35 else mutate(text, rng)


def _atoms_case(n: int, rng: random.Random, pools: Pools, out: Path) -> Case:
    def spelling(exact: float = 0.1, ids: bool = False) -> str:
        s = rng.choice(pools.ids if ids and rng.random() < 0.5 else pools.spellings)
        return s if rng.random() < exact else _argv_safe(mutate_spelling(s, rng, pools.vocabulary))

    command = rng.choices(["check", "check-stdin", "show", "list"], weights=[6, 2, 3, 1])[0]
    if command == "check":
        return Case(n, "mmatom-atoms", ATOMS_CODE,
                    ["check", "--target", _argv_safe(mutate_target(rng)),
                     *(spelling() for _ in range(rng.choice([1, 1, 1, 2, 3])))])
    if command == "check-stdin":
        lines = []
        for _ in range(rng.choice([0, 1, 1, 2, 5])):
            lines.append(rng.choice([spelling(), spelling(), "// " + spelling(), "", "   ", spelling() + ";"]))
        data = rng.choice(["\n", "\r\n"]).join(lines).encode("utf-8", "surrogateescape")
        if rng.random() < 0.3:
            k = rng.randrange(len(data) + 1)
            data = data[:k] + rng.choice([b"\xff", b"\x80", b"\0", b"\xef\xbb\xbf", b"\xc3", b"\r"]) + data[k:]
        path = out / f"case-{n}.stdin"
        path.write_bytes(data)
        return Case(n, "mmatom-atoms", ATOMS_CODE, ["check", "--target", _argv_safe(mutate_target(rng)), "-"],
                    stdin=str(path), inputs=[str(path)])
    if command == "show":
        args = ["show", spelling(exact=0.5, ids=True)]
        if rng.random() < 0.2:
            args += ["--svg", rng.choice([os.devnull, str(out / "no-such-folder" / "tv.svg")])]
        return Case(n, "mmatom-atoms", ATOMS_CODE, args)
    args = ["list"]
    if rng.random() < 0.6:
        args += ["--target", _argv_safe(mutate_target(rng))]
    if rng.random() < 0.6:
        fam = rng.choice(pools.families)
        args += ["--family", fam if rng.random() < 0.3 else _argv_safe(mutate_spelling(fam, rng, pools.families))]
    return Case(n, "mmatom-atoms", ATOMS_CODE, args)


def _write(path: Path, text: str) -> str:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return str(path)


# -- verdicts -------------------------------------------------------------------------------------------------------

_FRAME = re.compile(r'^\s*File "(.*)", line (\d+), in (.*)$', re.MULTILINE)
_USAGE = re.compile(r"\Ausage: .*^[^\n]*: error: ", re.MULTILINE | re.DOTALL)  # argparse's parser.error


def classify(case: Case, result: Result) -> Finding | None:
    err = result.stderr
    if result.rc is None:
        return Finding("hang", f"over {TIME_LIMIT_S} s", f"hang {case.target}")
    if "Traceback (most recent call last)" in err:
        last = err[err.rindex("Traceback (most recent call last)"):].splitlines()[1:]
        exc = next((line for line in last if line and not line.startswith(" ")), "?")[:300]
        frames = _FRAME.findall(err[err.rindex("Traceback (most recent call last)"):])
        ours = [f for f in frames if "/site-packages/" not in f[0] and f[0] != "<string>"]
        where = "".join(f"  [{_short(file)}:{line} in {func}]" for file, line, func in
                        dict.fromkeys(x for x in (frames[-1:] + ours[-1:])))
        return Finding("traceback", exc + where, f"traceback {exc.split(':')[0]}{where}")
    if result.rc == 2 and _USAGE.search(err):
        return None  # argparse: a usage error
    if result.rc not in (0, 1):
        how = f"killed by {signal.Signals(-result.rc).name}" if result.rc < 0 else f"exit {result.rc}"
        last = err.strip().splitlines()[-1][:300] if err.strip() else "(no stderr)"
        return Finding("exit-code", f"{how}: {last}", f"exit-code {how} {_normal(last)}")
    if result.rc == 1:
        texts = err.splitlines()
        if case.target == "mmatom-atoms":  # check's verdicts are diagnostics too
            texts += [line for line in result.stdout.splitlines() if line.startswith("illegal ")]
        for line in texts:
            if PYTHON_EXCEPTION.search(line):
                kind = "unlocated-python-text" if case.target == "mmatom.compile" and ":0:0: error:" in line \
                    else "python-text"
                return Finding(kind, line.strip()[:300], f"{kind} {case.target} {_normal(line)}")
    return None


def _short(file: str) -> str:
    for marker in ("/site-packages/", "/work/main/"):
        if marker in file:
            return file.split(marker, 1)[1]
    return file


def _normal(line: str) -> str:
    line = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", line)
    line = re.sub(r"^\S*:\d+:\d+:", "FILE:L:C:", line)
    return re.sub(r"\d+", "N", line)[:200]


# -- running a case: a subprocess, or a child forked by a fork server ------------------------------------------------

def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_subprocess(case: Case) -> Result:
    start = time.monotonic()
    stdin = open(case.stdin, "rb") if case.stdin else subprocess.DEVNULL
    try:
        proc = subprocess.run(case.command(), stdin=stdin, capture_output=True, timeout=TIME_LIMIT_S,
                              preexec_fn=_limits)
    except subprocess.TimeoutExpired as exc:
        return Result(None, (exc.stderr or b"").decode("utf-8", "replace"), seconds=time.monotonic() - start)
    finally:
        if case.stdin:
            stdin.close()
    return Result(proc.returncode, proc.stderr[-STDERR_KEPT:].decode("utf-8", "replace"),
                  proc.stdout[:STDERR_KEPT].decode("utf-8", "replace"), time.monotonic() - start)


class ForkServer:
    """A worker process (`serve`) that has imported mmatom and forks one child per case; the campaign talks to it
    in JSON lines over its stdin and stdout."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-P", "-c", "from mmatom.tools.fuzz import serve; serve()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, case: Case) -> Result:
        request = {"code": case.code, "args": case.args, "stdin": case.stdin, "limit": TIME_LIMIT_S}
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ChildProcessError(f"the fork server died (exit {self.proc.wait()})")
        reply = json.loads(line)
        return Result(reply["rc"], reply["stderr"], reply["stdout"], reply["seconds"])

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=TIME_LIMIT_S + 5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def serve() -> None:
    """The fork server's loop: read a case, fork, run it in the child, wait (killing it after TIME_LIMIT_S), reply."""
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # a stray print of the server's own goes to stderr, never into the replies
    requests = os.fdopen(os.dup(0), "rb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    streams = {"in": (sys.stdin.encoding, sys.stdin.errors), "out": (sys.stdout.encoding, sys.stdout.errors)}
    out_file, err_file = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    _warm_up()
    gc.collect()
    gc.freeze()  # the children leave the server's objects alone: fewer pages copied on write
    for line in requests:
        req = json.loads(line)
        for f in (out_file, err_file):
            f.seek(0)
            f.truncate()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(req["code"], req["args"], req["stdin"], out_file.fileno(), err_file.fileno(), streams,
                   (replies.fileno(), requests.fileno()))
        rc = _wait(pid, req["limit"])
        seconds = time.monotonic() - start
        err_file.seek(max(0, err_file.seek(0, os.SEEK_END) - STDERR_KEPT))
        stderr = err_file.read().decode("utf-8", "replace")
        out_file.seek(0)
        stdout = out_file.read(STDERR_KEPT).decode("utf-8", "replace")
        replies.write(json.dumps({"rc": rc, "stderr": stderr, "stdout": stdout, "seconds": seconds}).encode() + b"\n")


def _wait(pid: int, limit: float) -> int | None:
    """The child's exit status as subprocess reports it (negative: the signal), or None after `limit` seconds
    (then the child is killed)."""
    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], limit)
    finally:
        os.close(fd)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return None
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _child(code: str, args: list[str], stdin: str | None, out_fd: int, err_fd: int,
           streams: dict[str, tuple[str, str]], server_fds: tuple[int, ...]) -> None:
    """In the forked child: become `python -P -c code *args` with its limits and standard streams, run, exit. Never
    returns into the server's loop. Exit status 70 (EX_SOFTWARE): the child could not be set up."""
    status = 70
    try:
        _limits()
        os.dup2(os.open(stdin or os.devnull, os.O_RDONLY), 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        for fd in server_fds:
            os.close(fd)
        sys.stdin = sys.__stdin__ = io.TextIOWrapper(open(0, "rb", closefd=False), *streams["in"])
        sys.stdout = sys.__stdout__ = io.TextIOWrapper(open(1, "wb", closefd=False), *streams["out"])
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(open(2, "wb", closefd=False), streams["out"][0],
                                                       "backslashreplace", line_buffering=True)
        sys.argv = ["-c", *args]
        program = builtins.compile(code, "<string>", "exec")
        status = _run_main(program)
        try:
            sys.stdout.flush()
        except Exception:  # Python's own exit: a failed flush of stdout is exit status 120
            status = 120
        try:
            sys.stderr.flush()
        except Exception:
            pass
    finally:
        os._exit(status)


def _run_main(program) -> int:
    """Run a compiled `-c` program in a fresh __main__ namespace; the exit status Python would give it."""
    # the program's frames count against the recursion limit from here, as from the top of a fresh process
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    sys.setrecursionlimit(sys.getrecursionlimit() + depth + 1)  # + 1: exec()
    try:
        exec(program, {"__name__": "__main__", "__builtins__": builtins, "__doc__": None})
        return 0
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    except BaseException as exc:  # noqa: BLE001 - an uncaught exception: its traceback, exit 1, as Python does
        tb = exc.__traceback__
        if tb is not None and tb.tb_frame.f_code is _run_main.__code__:
            tb = tb.tb_next  # the traceback starts at `<string>`, as in `python -c`
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        return 1


def _warm_up() -> None:
    """Run each target once in the server on a known good input, so that what they load lazily (the xDSL universe,
    catalogue tables) is loaded once rather than in every child. Output goes to /dev/null; failures are ignored."""
    saved = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    example = next(iter(sorted(Path(__file__).resolve().parents[1].glob("examples/*.mlir"))), None)
    runs = [(ATOMS_CODE, ["check", "--target", "sm_90a", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"]),
            (ATOMS_CODE, ["show", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"])]
    if example is not None:
        runs += [(OPT_CODE, [str(example), *pipeline]) for pipeline in PIPELINES]
        runs += [(API_CODE.format(expr=API_TEXT), [str(example)])]
    argv = sys.argv
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        for code, args in runs:
            sys.argv = ["-c", *args]
            try:
                exec(builtins.compile(code, "<string>", "exec"), {"__name__": "__main__", "__builtins__": builtins})
            except BaseException:  # noqa: BLE001
                pass
            sys.stdout.flush()
            sys.stderr.flush()
    finally:
        sys.argv = argv
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


# -- the campaign ---------------------------------------------------------------------------------------------------

def campaign(cases: int, seed: int, jobs: int, out: Path, root: Path, subprocess_mode: bool = False,
             only: set[int] | None = None, progress=None) -> Counter:
    """Run cases 0..cases-1 (or those in `only`); write the findings' reproducers into `out`; counts by class."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    run = _Campaign(Pools.load(root), seed, out, subprocess_mode, progress)
    for n in range(cases):
        if only is None or n in only:
            run.todo.put(n)
    threads = [threading.Thread(target=run.work, daemon=True) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    write_summary(run.findings, out)
    return Counter(f.kind for _, f in run.findings.values())


class _Campaign:
    """The cases to run (`todo`), shared by the jobs' threads, and what they found (`findings`, under `lock`)."""

    def __init__(self, pools: Pools, seed: int, out: Path, subprocess_mode: bool, progress):
        self.pools, self.seed, self.out = pools, seed, out
        self.subprocess_mode, self.progress = subprocess_mode, progress
        self.todo: queue.Queue[int] = queue.Queue()
        self.findings: dict[int, tuple[Case, Finding]] = {}
        self.lock = threading.Lock()
        self.done = 0

    def work(self) -> None:
        """One job: cases off the queue until it is empty, through a fork server of its own (or subprocesses)."""
        job = _Job(None if self.subprocess_mode else ForkServer())
        try:
            while True:
                try:
                    n = self.todo.get_nowait()
                except queue.Empty:
                    return
                case = make_case(n, self.seed, self.pools, self.out)
                self.record(n, case, *job.classified(n, case))
        finally:
            if job.server is not None:
                job.server.close()

    def record(self, n: int, case: Case, result: Result, finding: Finding | None) -> None:
        with self.lock:
            self.done += 1
            if finding is not None:
                self.findings[n] = (case, save(case, finding, result, self.out))
            if self.progress:
                self.progress(self.done, n, self.findings.get(n, (None, None))[1])
        if finding is None:
            for path in case.inputs:
                Path(path).unlink(missing_ok=True)


class _Job:
    """One job's way of running cases: its fork server (None: subprocesses) and how often it was restarted."""

    def __init__(self, server: ForkServer | None):
        self.server, self.restarts = server, 0

    def classified(self, n: int, case: Case) -> tuple[Result, Finding | None]:
        """The case run and classified; a fork server that fails is restarted (three times, then subprocesses)."""
        try:
            if self.server is None:
                result = run_subprocess(case)
            else:
                try:
                    result = self.server.run(case)
                except (ChildProcessError, OSError, ValueError) as exc:
                    self.server.close()
                    self.restarts += 1
                    self.server = ForkServer() if self.restarts <= 3 else None
                    print(f"fuzz: case {n}: {exc}; running it in a subprocess, "
                          + ("restarting the fork server" if self.server else "and all this job's next cases"),
                          file=sys.stderr)
                    result = run_subprocess(case)
            return result, classify(case, result)
        except Exception as exc:  # noqa: BLE001 - the fuzzer's own failure: reported, not lost
            return Result(1, f"{type(exc).__name__}: {exc}"), Finding(
                "harness", f"the fuzzer failed on this case: {type(exc).__name__}: {exc}"[:300],
                f"harness {type(exc).__name__}")


def save(case: Case, finding: Finding, result: Result, out: Path) -> Finding:
    """Rename the case's inputs to `<class>-case-<n>.*` and write its .json (the exact case) and .txt (how to
    replay it, the detail, the end of stderr)."""
    stem = f"{finding.kind}-case-{case.n}"
    for old in list(case.inputs):
        new = str(out / (stem + Path(old).suffix))
        os.replace(old, new)
        case.args = [new if a == old else a for a in case.args]
        case.stdin = new if case.stdin == old else case.stdin
        case.inputs[case.inputs.index(old)] = new
    spec = {"case": case.n, "target": case.target, "code": case.code, "args": case.args, "stdin": case.stdin,
            "kind": finding.kind, "detail": finding.detail}
    (out / f"{stem}.json").write_text(json.dumps(spec, indent=1) + "\n")
    redirect = f" < {shlex.quote(case.stdin)}" if case.stdin else ""
    err = result.stderr.rstrip()
    at = err.find("Traceback (most recent call last)")
    tail = "\n".join(err[at:].splitlines()[:150] if at >= 0 else err.splitlines()[-40:])
    with open(out / f"{stem}.txt", "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(f"{case.cli()}\n{finding.detail}\n\n# the exact command ({case.target}, case {case.n}):\n"
                f"{shlex.join(case.command())}{redirect}\n"
                f"# or: python -P -m mmatom.tools.fuzz --replay {shlex.quote(str(out / (stem + '.json')))}\n"
                f"\n# stderr{' (from the traceback)' if at >= 0 else ' (end)'}:\n{tail}\n")
    return finding


def write_summary(findings: dict[int, tuple[Case, Finding]], out: Path) -> str:
    groups: dict[tuple[str, str], list[tuple[Case, Finding]]] = defaultdict(list)
    for n in sorted(findings):
        case, f = findings[n]
        groups[(f.kind, f.key)].append((case, f))
    lines = []
    for (kind, _), items in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        case, f = items[0]
        lines.append(f"{kind} x{len(items)} ({case.target}): {f.detail}")
        lines.append(f"    e.g. {out / f'{kind}-case-{case.n}.txt'}"
                     + (f" (+ cases {', '.join(str(c.n) for c, _ in items[1:6])}{' ...' if len(items) > 6 else ''})"
                        if len(items) > 1 else ""))
    text = "\n".join(lines) + ("\n" if lines else "")
    (out / "summary.txt").write_text(text, encoding="utf-8", errors="surrogateescape")
    return text


def replay(paths: list[Path], subprocess_mode: bool) -> int:
    """Run saved reproducers again; 1 if any still gives a finding."""
    files = [q for p in paths for q in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    server = None if subprocess_mode else ForkServer()
    still = 0
    try:
        for path in files:
            spec = json.loads(path.read_text())
            case = Case(spec["case"], spec["target"], spec["code"], spec["args"], spec["stdin"])
            result = run_subprocess(case) if server is None else server.run(case)
            finding = classify(case, result)
            still += finding is not None
            print(f"{path.name}: " + (f"{finding.kind}: {finding.detail}" if finding else
                                      f"no longer a finding (exit {result.rc})"))
    finally:
        if server is not None:
            server.close()
    return 1 if still else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="mmatom-fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    p.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (its tests/filecheck and examples)")
    p.add_argument("--subprocess", action="store_true",
                   help="run every case in its own `python -P -c` process (slow; the fork server's results confirmed)")
    p.add_argument("--only", help="run only these case numbers (comma-separated) of the campaign")
    p.add_argument("--replay", type=Path, nargs="+", metavar="JSON",
                   help="run saved reproducers (.json files, or folders of them) again, in subprocesses unless "
                        "--fork-server")
    p.add_argument("--fork-server", action="store_true", help="with --replay: run them in the fork server")
    p.add_argument("--quiet", action="store_true", help="no line per finding while it runs")
    args = p.parse_args(argv)
    if args.replay:
        return replay(args.replay, not args.fork_server)
    only = {int(x) for x in args.only.split(",")} if args.only else None

    def progress(done: int, n: int, finding: Finding | None) -> None:
        if finding is not None and not args.quiet:
            print(f"case {n}: {finding.kind}: {finding.detail}", file=sys.stderr)

    start = time.monotonic()
    counts = campaign(args.cases, args.seed, args.jobs, args.out, args.root, args.subprocess, only, progress)
    total = len(only) if only is not None else args.cases
    seconds = time.monotonic() - start
    print((args.out / "summary.txt").read_text(encoding="utf-8", errors="replace"), end="")
    print(f"{total} cases in {seconds:.1f} s ({total / max(seconds, 1e-9):.1f}/s): "
          + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no findings"))
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
