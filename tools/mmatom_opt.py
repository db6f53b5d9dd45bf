"""mmatom-opt: xDSL's opt driver (`xDSLOptMain`) with located, op-by-op diagnostics.

  mmatom-opt [FILE | -] [-p PIPELINE] [-t TARGET] [-o OUT] [--split-input-file] [--verify-diagnostics]

Dialects, passes (-p) and targets (-t) come from the `xdsl.universe` entry points, mmatom's included
(mmatom/universe.py), so `mmatom-opt` and plain `xdsl-opt` accept the same pipelines and targets.
What this driver adds to xdsl-opt: every op is located at parse time and verified on its own, so a diagnostic
reads `file:line:col: error: 'op' op message` at the op it is about; `--verify-diagnostics` checks those
diagnostics against `// expected-error {{...}}` comments (also `expected-error@+N` / `@-N`) as mlir-opt does.
Bad input (unreadable or non-UTF-8 file, malformed -p or -t spec, invalid IR) exits 1 and never prints a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import inspect
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, ShrinkException
from xdsl.xdsl_opt_main import xDSLOptMain

from mmatom.dialects.source import Diagnostic, LocatingParser, op_diagnostic, recursion_room, verify_located
from mmatom.universe import MMATOM_UNIVERSE

from .unix import restore_sigpipe

PROG = "mmatom-opt"
STDIN_NAME = "<stdin>"


class OptError(Exception):
    """A bad command line or an unreadable input or output: reported as one line, exit status 1."""


class _ListPasses(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(mmatom_section())
        parser.exit()


class PassBrokeIR(Exception):
    """A pass left IR that fails verification; carries the located diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} op(s) fail verification")
        self.diagnostics = diagnostics


@dataclass
class ChunkResult:
    diagnostics: list[Diagnostic]
    output: str | None  # the emitted program, when there was no diagnostic
    parse_failed: bool = False


_SPEC_LOCATION = re.compile(r"^[^:\n]*:\d+:(\d+)$")


def describe_spec_error(err: ArgSpecParseError) -> str:
    """One line from xDSL's multi-line spec error (heading, location, spec, carets, message):
    `'SPEC' at column N: message`."""
    lines = str(err).splitlines()
    at = next((i for i, line in enumerate(lines) if _SPEC_LOCATION.match(line)), None)
    if at is None or at + 2 >= len(lines):
        return " ".join(line.strip() for line in lines if line.strip())
    column = _SPEC_LOCATION.match(lines[at]).group(1)
    return f"'{lines[at + 1]}' at column {column}: {lines[-1].strip()}"


_EXPECTED = re.compile(r"//\s*expected-error(?:@([+-]\d+))?\s*\{\{(.*?)\}\}")


def expected_diagnostics(text: str, line_offset: int) -> list[Diagnostic]:
    """The `// expected-error[@+N] {{message}}` comments of a chunk, at the lines they point to."""
    out = []
    for i, line in enumerate(text.splitlines(), start=1):
        for m in _EXPECTED.finditer(line):
            target = i + (int(m.group(1)) if m.group(1) else 0)
            out.append(Diagnostic(target + line_offset, 0, m.group(2)))
    return out


def match_expected(name: str, expected: list[Diagnostic], got: list[Diagnostic]) -> int | None:
    """mlir-opt's rule: each expected error is produced at its line (message as a substring) and nothing else is.
    Mismatches go to stderr and give None; a match is silent (as in mlir-opt) and gives how many matched."""
    ok = True
    remaining = list(got)
    for e in expected:
        hit = next((g for g in remaining if g.line == e.line and e.message in g.message), None)
        if hit is None:
            print(f"{name}:{e.line}: error: expected error \"{e.message}\" was not produced", file=sys.stderr)
            for g in remaining:
                if g.line == e.line:
                    print(f"{name}:{g.line}:{g.col}: note: produced instead: {g.message}", file=sys.stderr)
            ok = False
        else:
            remaining.remove(hit)
    for g in remaining:
        print(f"{name}:{g.line}:{g.col}: error: unexpected error: {g.message}", file=sys.stderr)
        ok = False
    return len(expected) if ok else None


# --help's one line per mmatom pass (each pass's module docstring says the rest)
PASS_SUMMARIES = {
    "lower-mma-to-nvvm": "the whole lowering, mma -> nvvm: the four verify-* checks, arith-div-strength-reduce, then the next four passes",
    "lower-mma-to-ptx": "lower-mma-to-nvvm, then mma-scf-to-branches: what -t ptx prints (mmatom.compile runs it)",
    "mma-fragments-to-registers": "a fragment crossing a region or function boundary becomes its registers",
    "convert-mma-to-nvvm": "every mma op -> nvvm + arith + llvm, one rewrite pattern per op",
    "mma-reconcile-casts": "drops the casts that hand a fragment across the partial conversion",
    "mma-finalize-nvvm": "checks nothing of the mma dialect is left; the chip stays #mma.target",
    "mma-scf-to-branches": "scf.for / scf.if / scf.while -> blocks and cf branches (the last step of lower-mma-to-ptx)",
    "arith-div-strength-reduce": "unsigned division / remainder by a constant -> shift / mask, or a high multiply and a shift",
    "verify-wgmma-lifecycle": "checks the wgmma fence / commit / wait protocol (Hopper)",
    "verify-tmem-lifecycle": "checks tensor memory alloc / dealloc / relinquish (Blackwell tcgen05)",
    "verify-pipeline": "checks the TMA -> mbarrier -> wgmma pipeline protocol",
    "verify-bulk-stores": "checks SMEM read by an async TMA store is not written before the store has read it",
}
TARGET_SUMMARIES = {"ptx": "PTX text for the module's chip (mma.target), ready for ptxas"}


def mmatom_section() -> str:
    """mmatom's own passes and targets, for --help and --list-passes (xDSL's ~130 passes are listed under -p)."""
    width = max(map(len, MMATOM_UNIVERSE.all_passes))
    lines = ["mmatom passes (-p NAME[,NAME...]):"]
    lines += [f"  {name:<{width}}  {PASS_SUMMARIES.get(name, '')}" for name in MMATOM_UNIVERSE.all_passes]
    lines += ["", "mmatom targets (-t NAME):"]
    lines += [f"  {name:<{width}}  {TARGET_SUMMARIES.get(name, '')}" for name in MMATOM_UNIVERSE.all_targets]
    return "\n".join(lines)


def version_line() -> str:
    return f"{PROG} (mmatom {importlib.metadata.version('mmatom')}, xDSL {importlib.metadata.version('xdsl')})"


class MmatomOptMain(xDSLOptMain):
    version_format = version_line().replace("{", "{{").replace("}", "}}")

    def __init__(self, args: Sequence[str] | None = None):
        try:
            super().__init__(description="Parse, verify and transform mma-dialect IR; print it as MLIR or PTX.",
                             args=args)
        except ArgSpecParseError as err:  # -t: xDSLOptMain parses it before setup_pipeline sees -p
            raise OptError(f"bad target {describe_spec_error(err)}") from None
        self.check_target_arguments()

    def register_all_dialects(self) -> None:
        """xDSL's lazily loaded dialects, with nvvm loaded up front: it declares the upstream LLVM ops xDSL's llvm
        dialect lacks (llvm.extractelement, llvm.intr.fshr), which the parser must find by their llvm.* names."""
        super().register_all_dialects()
        self.ctx.load_registered_dialect("nvvm")

    def check_target_arguments(self) -> None:
        """Build the -t target once before any input is read, so `-t ptx{bogus=1}` is a usage error rather than
        a traceback from the first chunk's emission."""
        spec = parse_spec(self.args.target)
        factory = self.available_targets[spec.name]
        if inspect.signature(factory).parameters:
            return  # an old-style target function: it takes no arguments to check
        try:
            factory().from_spec(spec)
        except Exception as err:
            raise OptError(f"bad target '{self.args.target}': {str(err).strip().splitlines()[0]}") from None

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.prog = PROG  # xDSLOptMain builds the parser unnamed; usage and errors would say `python -c`
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.epilog = mmatom_section()
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument("--list-passes", action=_ListPasses, help="list mmatom's passes and targets and exit")

    def setup_pipeline(self) -> None:
        """xDSL's pipeline, with a malformed -p turned into a one-line error, and op-by-op located verification
        after every pass ahead of xDSL's own (whose error carries no file:line:col)."""
        try:
            super().setup_pipeline()
        except ArgSpecParseError as err:  # a BaseException in xDSL, so `except Exception` would miss it
            raise OptError(f"bad pass pipeline {describe_spec_error(err)}") from None
        except Exception as err:  # unknown pass name, bad pass argument
            raise OptError(f"bad pass pipeline '{self.args.passes}': {str(err).strip().splitlines()[0]}") from None
        xdsl_callback = self.pipeline.callback

        def verify_located_then_xdsl(previous: ModulePass | None, module: ModuleOp, following: ModulePass | None):
            if previous is not None and not self.args.disable_verify:
                diagnostics = verify_located(module)
                if diagnostics:
                    raise PassBrokeIR(diagnostics)
            if xdsl_callback is not None:
                xdsl_callback(previous, module, following)

        self.pipeline = dataclasses.replace(self.pipeline, callback=verify_located_then_xdsl)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """`-` (or no file) is stdin; a file of any extension is MLIR text unless a frontend claims it."""
        path = self.args.input_file
        if path in (None, "-"):
            return sys.stdin.buffer, "mlir"
        try:
            stream = open(path, "rb")  # noqa: SIM115 - xDSLOptMain closes the chunks it makes from it
        except OSError as err:
            raise OptError(f"cannot read {path}: {err.strerror}") from None
        extension = Path(path).suffix.removeprefix(".")
        return stream, extension if extension in self.available_frontends else "mlir"

    def get_input_name(self) -> str:
        return STDIN_NAME if self.args.input_file in (None, "-") else self.args.input_file

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp:
        """Every op located at its line:col in the whole file (the chunk starts `start_offset` lines in)."""
        parser = LocatingParser(self.ctx, chunk.read(), self.get_input_name(), start_offset)
        return parser.parse_module(not self.args.no_implicit_module)

    def run(self) -> int:
        """Each chunk: parse, verify, run the pipeline, emit; diagnostics printed or matched. Exit status 1 if any
        chunk has an unexpected (or lacks an expected) diagnostic."""
        name = self.get_input_name()
        chunks, _ = self.prepare_input()
        outputs: list[str] = []
        failed = False
        cases = matched = 0
        for chunk, offset in chunks:
            with chunk:
                data = chunk.read()
            try:
                result = self.process_chunk(data, offset)
            except ShrinkException:  # a pass says the input still shows the bug shrinkray is reducing
                if not self.args.shrink:
                    raise
                print("Success, can shrink")
                return 0
            if self.args.verify_diagnostics:
                text = data.decode("utf-8", errors="replace")
                count = match_expected(name, expected_diagnostics(text, offset), result.diagnostics)
                cases, matched, failed = cases + 1, matched + (count or 0), failed or count is None
            elif result.parse_failed and self.args.parsing_diagnostics:
                for dg in result.diagnostics:
                    print(dg.render(name))
            else:
                for dg in result.diagnostics:
                    print(dg.render(name), file=sys.stderr)
                failed |= bool(result.diagnostics)
            if result.output is not None:
                outputs.append(result.output)
        if not self.args.verify_diagnostics:
            self.write_output("// -----\n".join(outputs))
        elif not failed:
            print(f"{name}: {cases} case{'s' * (cases != 1)}, {matched} expected diagnostic{'s' * (matched != 1)} "
                  f"matched")
        if self.args.shrink:
            print("Failure, can't shrink")
            return 1
        return 1 if failed else 0

    def process_chunk(self, data: bytes, offset: int) -> ChunkResult:
        with recursion_room():  # IR nested as deep as the parser reads it is verified, transformed and printed
            return self._process_chunk(data, offset)

    def _process_chunk(self, data: bytes, offset: int) -> ChunkResult:
        try:
            module = self.parse_chunk(BytesIO(data), "mlir", offset)
        except ParseError as err:
            loc = err.span.get_location()
            return ChunkResult([Diagnostic(loc.line + offset, loc.col, err.msg)], None, parse_failed=True)
        except Exception as err:  # malformed attribute bodies raise plain errors inside xDSL
            return ChunkResult([Diagnostic(offset + 1, 1, f"cannot parse: {err}")], None, parse_failed=True)
        if not self.args.disable_verify:
            diagnostics = verify_located(module)
            if diagnostics:
                return ChunkResult(diagnostics, None)
        try:
            self.apply_passes(module)
            return ChunkResult([], self.output_resulting_program(module))
        except PassBrokeIR as err:
            return ChunkResult(err.diagnostics, None)
        except DiagnosticException as err:  # lowering and emission errors carry the op they are about
            return ChunkResult([op_diagnostic(getattr(err, "op", None), str(err).splitlines()[0])], None)

    def write_output(self, text: str) -> None:
        try:
            stream = self.prepare_output()
        except OSError as err:
            raise OptError(f"cannot write {self.args.output_file}: {err.strerror}") from None
        try:
            stream.write(text)
        finally:
            if stream is not sys.stdout:
                stream.close()


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # echo odd input (a surrogate from a non-UTF-8 argv) escaped, not crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return MmatomOptMain(argv).run()
    except OptError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1


def entry() -> None:
    restore_sigpipe()
    sys.exit(main())


if __name__ == "__main__":
    entry()
