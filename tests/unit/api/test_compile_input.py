"""What `mmatom.compile` makes of its input: text that reads as a file path, a Path, and bad text (every failure a
located CompileError, never a bare Python exception)."""

from pathlib import Path

import pytest

import mmatom

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "m16n8k16_f16_kernel.mlir"


@pytest.mark.parametrize("text", ["x.mlir", str(EXAMPLE), " kernels/atom.mlir\n"])
def test_a_path_given_as_text_is_refused_with_the_hint(text):
    """Was 'Operation x.mlir is not registered' (or 'examples is not registered'): the path was parsed as IR."""
    with pytest.raises(mmatom.CompileError) as err:
        mmatom.compile(text)
    assert "reads as a file path, not .mlir text: pass pathlib.Path(" in str(err.value)
    assert err.value.diagnostics[0].file == __file__


@pytest.mark.parametrize("text", ["a" * 5000, "x\0y", "builtin.module"])
def test_one_line_that_is_no_path_is_parsed(text):
    """A line too long for a file name, or holding a NUL byte, was an OSError / ValueError from the path check."""
    with pytest.raises(mmatom.CompileError) as err:
        mmatom.compile(text)
    assert "<text>:1:" in str(err.value) and "file path" not in str(err.value)


def test_a_path_is_read_and_names_the_diagnostics(tmp_path):
    assert mmatom.compile(EXAMPLE, options={"cache": False}).name == "atom"
    bad = tmp_path / "bad.mlir"
    bad.write_text(EXAMPLE.read_text().replace("%d = mma.sync", "%d = mma.snyc"))
    with pytest.raises(mmatom.CompileError, match=rf"{bad}:10:10: error: Operation mma.snyc is not registered; "
                                                  rf"did you mean 'mma.sync'\?"):
        mmatom.compile(bad)
    with pytest.raises(mmatom.CompileError, match="cannot read .*no-such.mlir: No such file"):
        mmatom.compile(tmp_path / "no-such.mlir")


@pytest.mark.parametrize("line, message", [
    ("cf.switch %a : i32, [default: ^bb1, 36854775808: ^bb1]", "<text>:3:41: error: integer 36854775808 is out of "
                                                                "range for i32"),
    ("%x = arith.addi %y, %a : i32", "<text>:3:21: error: use of undeclared SSA value %y"),
])
def test_bad_text_is_a_located_compile_error(line, message):
    text = f"builtin.module {{\n  func.func @f(%a: i32) {{\n    {line}\n  ^bb1:\n    func.return\n  }}\n}}\n"
    with pytest.raises(mmatom.CompileError) as err:
        mmatom.compile(text)
    assert str(err.value).startswith(message), str(err.value)
