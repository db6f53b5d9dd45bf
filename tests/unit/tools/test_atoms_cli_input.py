"""mmatom-atoms on odd input (found by the 20,000-case fuzz campaign): a non-UTF-8 byte on stdin and a surrogate in
argv (a non-UTF-8 command line) are located errors, exit 1, not UnicodeDecodeError/UnicodeEncodeError tracebacks;
the largest atom's TV drawing (4.2M thread-value pairs, was 7 s: a fuzz 'hang' on a loaded machine) is drawn."""

import subprocess
import sys

CHECK = [sys.executable, "-P", "-m", "mmatom.tools.mmatom_atoms", "check", "--target", "sm_80"]
GOOD = b"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"


def test_a_byte_that_is_not_utf8_on_stdin_is_located():
    out = subprocess.run([*CHECK, "-"], input=GOOD + b"\xffmma\n", capture_output=True)
    assert out.returncode == 1 and b"Traceback" not in out.stderr
    assert b"mmatom-atoms: error: <stdin>:2:1: byte 0xff is not UTF-8" in out.stderr


def test_a_surrogate_in_argv_is_echoed_escaped():
    code = ("import sys; from mmatom.tools.mmatom_atoms import main; "
            "sys.exit(main(['check', '--target', 'sm_80', 'mma.sync.aligned.m16n8k16\\udcff']))")
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True)
    assert out.returncode == 1 and b"Traceback" not in out.stderr
    assert b"m16n8k16\\udcff" in out.stdout and b"is not ASCII" in out.stdout


def test_the_largest_tv_drawing(tmp_path):
    out = subprocess.run([sys.executable, "-P", "-m", "mmatom.tools.mmatom_atoms", "show",
                          "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc", "--svg", str(tmp_path / "x.svg")],
                         capture_output=True)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "x.svg").stat().st_size > 100_000
