"""The command-line tools: exact outputs, exit codes, and no tracebacks on bad input."""

import subprocess
import sys
from pathlib import Path

import pytest

from mmatom.tools import mmatom_atoms, mmatom_opt

ROOT = Path(__file__).parents[2]


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
    assert rc == 0 and text.startswith("<svg") and text.count("<rect") == 1 + 16 * 8 + 8 * 8 + 16 * 8
    assert ">T31<" in text and ">V3<" in text


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
