"""The command-line tools: exact outputs, exit codes, and no tracebacks on bad input."""

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.universe import Universe

from mmatom.tools import mmatom_atoms, mmatom_opt

ROOT = Path(__file__).parents[3]


def run_atoms(capsys, *argv):
    rc = mmatom_atoms.main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_show_prints_the_reference_layouts(capsys):
    rc, out, _ = run_atoms(capsys, "show", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
    assert rc == 0
    assert "A    ((4,8),(2,2,2)):((32,1),(16,8,128))" in out
    assert "B    ((4,8),(2,2)):((16,1),(8,64))" in out
    assert "C    ((4,8),(2,2)):((32,1),(16,8))" in out
    rc, out, _ = run_atoms(capsys, "show", "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16")
    assert "C    ((4,8,4),(2,2,16)):((128,1,16),(64,8,512))" in out


def test_show_svg(tmp_path, capsys):
    svg = tmp_path / "a.svg"
    rc, _, _ = run_atoms(capsys, "show", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "--svg", str(svg))
    text = svg.read_text()
    assert rc == 0 and text.startswith("<svg") and text.count("<use ") == 16 * 8 + 8 * 8 + 16 * 8
    assert ">T31<" in text and ">V3<" in text


def test_the_readme_tv_drawing_is_compact(tmp_path, capsys):
    """README's tour draws this atom (11,264 cells): 2.7 MB when every cell spelled its own attributes."""
    svg = tmp_path / "tv.svg"
    rc, _, _ = run_atoms(capsys, "show", "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "--svg", str(svg))
    text = svg.read_text()
    assert rc == 0 and text.count("<use ") == 64 * 16 + 128 * 16 + 64 * 128
    assert len(text) < 1_000_000, len(text)


@pytest.mark.parametrize("tool", ["mmatom_atoms", "mmatom_opt"])
def test_a_closed_pipe_ends_the_tool_quietly(tool, tmp_path):
    """`mmatom-atoms list | head` printed `[Errno 32] Broken pipe` and exited 1: now SIGPIPE, as Unix tools do.
    Each prints more than a pipe holds (88 KB of atoms; 4000 constants), so it is still writing when the pipe closes."""
    big = tmp_path / "big.mlir"
    big.write_text("func.func @f() {\n" + "".join(f"  %c{i} = arith.constant {i} : i32\n" for i in range(4000))
                   + "  func.return\n}\n")
    argv = ["list"] if tool == "mmatom_atoms" else [str(big)]
    code = f"import sys; sys.argv[1:] = {argv!r}; from mmatom.tools.{tool} import entry; entry()"
    proc = subprocess.Popen([sys.executable, "-P", "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=60) == -13 and proc.stderr.read() == b""


def test_check_exit_codes_and_stdin(capsys, monkeypatch):
    rc, out, _ = run_atoms(capsys, "check", "--target", "sm_89", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32")
    assert rc == 0 and out.startswith("legal ") and ".version 8.4" in out
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\nwgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16\n"))
    rc, out, _ = run_atoms(capsys, "check", "--target", "sm_80", "-")
    lines = out.splitlines()
    assert rc == 1 and lines[0].startswith("legal") and lines[1].startswith("illegal")


@pytest.mark.parametrize("argv", [
    ["show", "no.such.atom"], ["list", "--target", "sm_99"], ["check", "--target", "sm_42", "mma"],
    ["check", "--target", "sm_90a", "garbage"], ["check", "--target", "sm_90a", "mma.sync.aligned.m16n8k16"],
    ["list", "--family", "nope"], ["check", "--target", "sm_90a", "tcgen05.mma.kind::f16"],
])
def test_atoms_bad_input_is_a_message_not_a_traceback(argv, capsys):
    rc, out, err = run_atoms(capsys, *argv)
    assert "Traceback" not in out + err
    if argv[0] == "check" and "--target" in argv and argv[2].startswith("sm_9"):
        assert rc == 1 and out.startswith("illegal")
    else:
        assert rc == 1 and err.startswith("mmatom-atoms: error:")


@pytest.mark.parametrize("text", [
    "builtin.module {", "%x = ", "builtin.module { %a = \"mma.nope\"() : () -> () }",
    "builtin.module attributes {mma.target = #mma.target<sm_99>} {}",
    'builtin.module { %a = "test.op"() : () -> !mma.frag<Q, f16, "1:1"> }',
    'builtin.module { %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw7, "1:1"> }',
    'builtin.module { %a = "test.op"() : () -> !mma.frag<A, f99, "1:1"> }',
    "\x00\x01", "",
])
def test_opt_bad_input_is_located_not_a_traceback(text, tmp_path):
    f = tmp_path / "bad.mlir"
    f.write_text(text)
    proc = subprocess.run([sys.executable, "-c", "import sys; from mmatom.tools.mmatom_opt import main; sys.exit(main(sys.argv[1:]))", str(f)],
                          capture_output=True, text=True)
    assert "Traceback" not in proc.stderr
    if text:
        assert proc.returncode == 1
        assert proc.stderr.startswith(f"{f}:"), proc.stderr


def test_opt_example_round_trips(capsys):
    rc = mmatom_opt.main([str(ROOT / "examples" / "m16n8k16_f16.mlir")])
    out = capsys.readouterr().out
    assert rc == 0 and "mma.sync <m16n8k16>" in out


def test_opt_missing_file(capsys):
    assert mmatom_opt.main(["/nonexistent.mlir"]) == 1
    assert "cannot read" in capsys.readouterr().err


EXAMPLE = ROOT / "examples" / "m16n8k16_f16.mlir"
KERNEL = ROOT / "examples" / "m16n8k16_f16_kernel.mlir"
OPT = [sys.executable, "-c", "import sys; from mmatom.tools.mmatom_opt import main; sys.exit(main(sys.argv[1:]))"]


def run_opt(capsys, *argv):
    rc = mmatom_opt.main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_opt_non_utf8_byte_is_located(tmp_path):
    """Was a UnicodeDecodeError traceback: the byte is now an error at its own line:col (columns in characters)."""
    f = tmp_path / "latin1.mlir"
    f.write_bytes(b"builtin.module {\n // caf\xc3\xa9 \xff\n}\n")
    for argv, stdin, name in (([str(f)], None, str(f)), (["-"], f.read_bytes(), "<stdin>")):
        proc = subprocess.run(OPT + argv, input=stdin, capture_output=True)
        assert proc.returncode == 1 and proc.stdout == b""
        assert proc.stderr.decode() == f"{name}:2:10: error: invalid UTF-8 byte 0xff: the source must be UTF-8 text\n"


@pytest.mark.parametrize("spec, message", [
    (",", "bad pass pipeline ',' at column 1: Expected pass name here"),
    ("{", "bad pass pipeline '{' at column 1: Expected pass name here"),
    ("lower-mma-to-nvvm,,", "bad pass pipeline 'lower-mma-to-nvvm,,' at column 19: Expected pass name here"),
    ("no-such-pass", "bad pass pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']"),
    ("lower-mma-to-nvvm{bogus=1}", "bad pass pipeline 'lower-mma-to-nvvm{bogus=1}': Provided arguments"),
])
def test_opt_malformed_pipeline_is_one_line(spec, message, capsys):
    """xDSL's ArgSpecParseError is a BaseException: it used to escape `except Exception` as a traceback."""
    rc, out, err = run_opt(capsys, EXAMPLE, "-p", spec)
    assert rc == 1 and out == ""
    assert err.startswith(f"mmatom-opt: error: {message}") and err.count("\n") == 1, err


@pytest.mark.parametrize("target, message", [
    ("{", "bad target '{' at column 1: Expected pass name here"),
    ("ptx{bogus=1}", "bad target 'ptx{bogus=1}': Provided arguments"),
])
def test_opt_malformed_target_is_one_line(target, message, capsys):
    rc, out, err = run_opt(capsys, EXAMPLE, "-t", target)
    assert rc == 1 and out == ""
    assert err.startswith(f"mmatom-opt: error: {message}") and err.count("\n") == 1, err


def test_opt_help_lists_the_universe_targets_and_passes(capsys):
    with pytest.raises(SystemExit) as exit_:
        mmatom_opt.main(["--help"])
    assert exit_.value.code == 0
    help_text = "".join(capsys.readouterr().out.split())  # argparse wraps lines, also inside hyphenated names
    universe = Universe.get_multiverse()
    assert {"ptx", "mlir"} <= set(universe.all_targets)
    assert {"lower-mma-to-nvvm", "verify-wgmma-lifecycle", "verify-tmem-lifecycle"} <= set(universe.all_passes)
    assert "Availabletargetsare:" + ",".join(universe.all_targets) in help_text
    assert "Availablepassesare:" + ",".join(universe.all_passes) in help_text
    with pytest.raises(SystemExit) as exit_:
        mmatom_opt.main([str(EXAMPLE), "-t", "no-such-target"])
    assert exit_.value.code == 2
    assert f"invalid choice: 'no-such-target' (choose from {', '.join(universe.all_targets)})" in capsys.readouterr().err


def test_opt_stdin_and_output_file_match_the_file_run(tmp_path, capsys):
    rc, by_file, _ = run_opt(capsys, KERNEL, "-p", "lower-mma-to-nvvm", "-t", "ptx")
    assert rc == 0 and ".target sm_80" in by_file
    proc = subprocess.run(OPT + ["-", "-p", "lower-mma-to-nvvm", "-t", "ptx"], input=KERNEL.read_bytes(),
                          capture_output=True)
    assert proc.returncode == 0 and proc.stdout.decode() == by_file
    out_file = tmp_path / "kernel.ptx"
    rc, out, _ = run_opt(capsys, KERNEL, "-p", "lower-mma-to-nvvm", "-t", "ptx", "-o", out_file)
    assert rc == 0 and out == "" and out_file.read_text() == by_file
    rc, _, err = run_opt(capsys, KERNEL, "-o", tmp_path / "no" / "such" / "dir.mlir")
    assert rc == 1 and err.startswith("mmatom-opt: error: cannot write")


def test_plain_xdsl_opt_loads_mmatom_from_the_universe(capsys):
    xdsl_opt = shutil.which("xdsl-opt", path=str(Path(sys.executable).parent))
    proc = subprocess.run([xdsl_opt, str(KERNEL), "-p", "lower-mma-to-nvvm", "-t", "ptx"], capture_output=True, text=True)
    rc, ours, _ = run_opt(capsys, KERNEL, "-p", "lower-mma-to-nvvm", "-t", "ptx")
    assert proc.returncode == 0 and rc == 0 and proc.stdout == ours


def test_opt_generic_form_round_trips(capsys):
    rc, generic, _ = run_opt(capsys, EXAMPLE, "--print-op-generic")
    assert rc == 0 and '"mma.sync"' in generic


SPLIT_CASES = """\
builtin.module attributes {mma.target = #mma.target<sm_75>} {
  func.func @atom(%a: !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, %b: !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, %c: !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) {
    // expected-error@+1 {{'mma.sync' op mma.sync: target sm_75 does not support}}
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return
  }
}

// -----

builtin.module {
  "test.op"() : () -> () // expected-error {{expected}}
  %x = "test.op"() : () -> !mma.frag<Q, f16, "1:1">
}
"""


def test_opt_split_input_locates_each_op_and_verifies_diagnostics(tmp_path, capsys):
    f = tmp_path / "cases.mlir"
    f.write_text(SPLIT_CASES)
    rc, out, err = run_opt(capsys, "--split-input-file", f)
    assert rc == 1 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"{f}:4:5: error: 'mma.sync' op mma.sync: target sm_75 does not support"), lines
    # the second chunk's bad type, at its own line:col in the whole file (not at the token after it)
    assert lines[1] == f"{f}:13:28: error: fragment role 'Q' is not one of A, B, C, D, E, SFA, SFB", lines
    assert len(lines) == 2
    # the first chunk's expectation matches, the second's is on the wrong line: exactly one mismatch reported
    rc, out, err = run_opt(capsys, "--split-input-file", "--verify-diagnostics", f)
    assert rc == 1
    assert out == "" and "'mma.sync' op" not in err  # a matched diagnostic is not printed as an error
    assert f"{f}:12: error: expected error \"expected\" was not produced" in err
    assert f"{f}:13:28: error: unexpected error: fragment role 'Q'" in err
    f.write_text(SPLIT_CASES.replace("// expected-error {{expected}}", "// expected-error@+1 {{fragment role 'Q' is not one of}}"))
    rc, out, err = run_opt(capsys, "--split-input-file", "--verify-diagnostics", f)
    assert (rc, out, err) == (0, f"{f}: 2 cases, 2 expected diagnostics matched\n", "")


def test_opt_lists_mmatom_passes_and_its_version(capsys):
    from mmatom.universe import MMATOM_UNIVERSE
    with pytest.raises(SystemExit) as exit_:
        mmatom_opt.main(["--list-passes"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and out.startswith("mmatom passes (-p NAME[,NAME...]):\n")
    for name in (*MMATOM_UNIVERSE.all_passes, *MMATOM_UNIVERSE.all_targets):  # each with its one line
        assert any(line.split() and line.split()[0] == name and len(line.split()) > 3 for line in out.splitlines()), name
    assert "riscv" not in out
    with pytest.raises(SystemExit):
        mmatom_opt.main(["--help"])
    assert "mmatom passes (-p NAME[,NAME...]):\n  lower-mma-to-nvvm " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        mmatom_opt.main(["-v"])
    assert re.fullmatch(r"mmatom-opt \(mmatom \d+\.\d+\.\d+\S*, xDSL \d+\.\d+\.\d+\S*\)\n", capsys.readouterr().out)


def test_opt_parsing_diagnostics_report_on_stdout(tmp_path, capsys):
    f = tmp_path / "bad.mlir"
    f.write_text("builtin.module {")
    rc, out, err = run_opt(capsys, "--parsing-diagnostics", f)
    assert rc == 0 and err == "" and out.startswith(f"{f}:1:")


@dataclass(frozen=True)
class RetargetToSm75(ModulePass):
    """Breaks the IR the way a buggy pass would: the module's chip no longer supports its mma.sync."""

    name = "retarget-to-sm75"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes["mma.target"] = Parser(ctx, "#mma.target<sm_75>").parse_attribute()


def test_opt_ir_broken_by_a_pass_is_reported_at_the_failing_op(capsys, monkeypatch):
    register_all_passes = mmatom_opt.MmatomOptMain.register_all_passes

    def with_retarget(self):
        register_all_passes(self)
        self.register_pass(RetargetToSm75.name, lambda: RetargetToSm75)

    monkeypatch.setattr(mmatom_opt.MmatomOptMain, "register_all_passes", with_retarget)
    rc, out, err = run_opt(capsys, EXAMPLE, "-p", "retarget-to-sm75")
    assert rc == 1 and out == ""
    assert err.startswith(f"{EXAMPLE}:6:5: error: 'mma.sync' op mma.sync: target sm_75 does not support"), err
