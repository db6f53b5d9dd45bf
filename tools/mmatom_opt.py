"""mmatom-opt: parse .mlir, verify every op with a located diagnostic, run -p passes, print.

  mmatom-opt FILE [-p PIPELINE] [-o OUT] [--split-input-file] [--verify-diagnostics]

Diagnostics read `file:line:col: error: message`; bad input exits 1 and never prints a traceback.
`--verify-diagnostics` checks the emitted errors against `// expected-error {{...}}` comments (also
`expected-error@+N` / `@-N`), as mlir-opt does, and exits 0 only if they match exactly.
"""

from __future__ import annotations

import argparse
import re
import sys
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xdsl.universe import Universe

from mmatom.dialects.source import Diagnostic, LocatingParser, make_context, verify_located
from mmatom.targets.ptx_emitter import emit_ptx
from xdsl.utils.exceptions import DiagnosticException, ParseError


_EXPECTED = re.compile(r"//\s*expected-error(?:@([+-]\d+))?\s*\{\{(.*?)\}\}")


def expected_diagnostics(text: str, line_offset: int) -> list[Diagnostic]:
    out = []
    for i, line in enumerate(text.splitlines(), start=1):
        for m in _EXPECTED.finditer(line):
            target = i + (int(m.group(1)) if m.group(1) else 0)
            out.append(Diagnostic(target + line_offset, 0, m.group(2)))
    return out


def split_chunks(text: str, split: bool) -> list[tuple[str, int]]:
    if not split:
        return [(text, 0)]
    chunks, offset = [], 0
    for chunk in re.split(r"^// -----[ \t]*$", text, flags=re.M):
        chunks.append((chunk, offset))
        offset += chunk.count("\n")
    return chunks


def build_arg_parser(passes: list[str]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mmatom-opt", description="Parse, verify and transform mma-dialect IR.")
    p.add_argument("input_file", nargs="?", default="-", help="a .mlir file, or - for stdin")
    p.add_argument("-p", "--passes", default="", help=f"pass pipeline; available: {', '.join(passes)}")
    p.add_argument("-o", "--output-file", help="write the result here")
    p.add_argument("--split-input-file", action="store_true", help="process chunks separated by '// -----'")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check errors against '// expected-error {{...}}' comments")
    p.add_argument("--print-op-generic", action="store_true")
    p.add_argument("-t", "--target", default="mlir", choices=["mlir", "ptx"],
                   help="output: mlir (default) or ptx (an nvvm-level module, e.g. after -p lower-mma-to-nvvm)")
    return p


def main(argv: list[str] | None = None) -> int:
    universe = Universe.get_multiverse()
    args = build_arg_parser(sorted(universe.all_passes)).parse_args(argv)
    try:
        if args.input_file == "-":
            text, name = sys.stdin.read(), "<stdin>"
        else:
            with open(args.input_file, encoding="utf-8") as f:
                text, name = f.read(), args.input_file
    except OSError as err:
        print(f"mmatom-opt: error: cannot read {args.input_file}: {err.strerror}", file=sys.stderr)
        return 1
    try:
        pipeline = PassPipeline.parse_spec(universe.all_passes, args.passes) if args.passes else None
    except Exception as err:  # a bad pipeline is user input: report it, no traceback
        print(f"mmatom-opt: error: bad pass pipeline '{args.passes}': {err}", file=sys.stderr)
        return 1

    ctx = make_context()
    outputs: list[str] = []
    failed = False
    for chunk, offset in split_chunks(text, args.split_input_file):
        diags, printed = _process(ctx, chunk, name, offset, pipeline, args)
        if args.verify_diagnostics:
            failed |= not _match_expected(name, expected_diagnostics(chunk, offset), diags)
        else:
            for dg in diags:
                print(f"{name}:{dg.line}:{dg.col}: error: {dg.message}", file=sys.stderr)
            failed |= bool(diags)
        if printed is not None and not diags:
            outputs.append(printed)
    if not args.verify_diagnostics:
        result = "// -----\n".join(outputs)
        if args.output_file:
            with open(args.output_file, "w", encoding="utf-8") as f:
                f.write(result)
        else:
            sys.stdout.write(result)
    return 1 if failed else 0


def _process(ctx: Context, chunk: str, name: str, offset: int, pipeline, args) -> tuple[list[Diagnostic], str | None]:
    try:
        module = LocatingParser(ctx, chunk, name, offset).parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        return [Diagnostic(loc.line + offset, loc.col, err.msg)], None
    except Exception as err:  # malformed attribute bodies raise plain errors inside xDSL
        return [Diagnostic(offset + 1, 1, f"cannot parse: {err}")], None
    diags = verify_located(module)
    if diags:
        return diags, None
    try:
        if pipeline is not None:
            pipeline.apply(ctx, module)
            diags = verify_located(module)
            if diags:
                return diags, None
        if args.target == "ptx":
            return [], emit_ptx(module)
    except DiagnosticException as err:  # lowering and emission errors carry the op they are about
        line, col = _location(getattr(err, "op", None))
        return [Diagnostic(line, col, str(err).splitlines()[0])], None
    out = StringIO()
    Printer(stream=out, print_generic_format=args.print_op_generic).print_op(module)
    return [], out.getvalue() + "\n"


def _location(op) -> tuple[int, int]:
    loc = getattr(op, "location", None)
    if isinstance(loc, FileLineColLoc):
        return loc.line.data, loc.column.data
    return 0, 0


def _match_expected(name: str, expected: list[Diagnostic], got: list[Diagnostic]) -> bool:
    ok = True
    remaining = list(got)
    for e in expected:
        hit = next((g for g in remaining if g.line == e.line and e.message in g.message), None)
        if hit is None:
            print(f"{name}:{e.line}: error: expected error \"{e.message}\" was not produced", file=sys.stderr)
            near = [g for g in remaining if g.line == e.line]
            for g in near:
                print(f"{name}:{g.line}:{g.col}: note: produced instead: {g.message}", file=sys.stderr)
            ok = False
        else:
            remaining.remove(hit)
    for g in remaining:
        print(f"{name}:{g.line}:{g.col}: error: unexpected error: {g.message}", file=sys.stderr)
        ok = False
    for dg in got:
        if dg not in remaining:
            print(f"{name}:{dg.line}:{dg.col}: error: {dg.message}")
    return ok


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
