"""Reading IR text (dialects/source.py): malformed input ends in a located error quickly, never a hang."""

import subprocess
import sys

import pytest

UNCLOSED = 'builtin.module {\n  %a = "test.op"() : () -> !mma.frag<A, f16, "' + "((4,8),(2,2,2)):((32,1),(16,8,128))" * 6


@pytest.mark.parametrize("length", [24, 200])
def test_unclosed_string_is_a_located_error_not_a_hang(tmp_path, length):
    """xDSL's string-literal regex backtracks exponentially on an unclosed string (24 characters: 0.75 s, x4 for
    every 2 more); with the linear rule 200 characters take as long as 24. The limit catches a hang, not speed."""
    f = tmp_path / "unclosed.mlir"
    f.write_text(UNCLOSED[:UNCLOSED.index('"((') + 1 + length] + "\n")
    proc = subprocess.run([sys.executable, "-c", "import sys; from mmatom.tools.mmatom_opt import main; "
                           "sys.exit(main(sys.argv[1:]))", str(f)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"{f}:2:") and "End of file reached before closing string literal" in proc.stderr
    assert "Traceback" not in proc.stderr
