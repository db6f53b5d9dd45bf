"""tests/filecheck/update_checks.py: the CHECK lines it generates capture names (so a renumbering passes)
and still fail on a changed instruction or data flow (checked with the real filecheck)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "filecheck" / "update_checks.py"
spec = importlib.util.spec_from_file_location("update_checks", SCRIPT)
update_checks = importlib.util.module_from_spec(spec)
sys.modules["update_checks"] = update_checks  # dataclasses look their module up there
spec.loader.exec_module(update_checks)

# The RUN line prints the "tool output" stored next to the test, so the output is under the test's control.
MLIR_TEST = """\
// Hand-written comment, kept.
// RUN: cat %s.out | filecheck %s

// CHECK:      llvm.func @f(%p: i32) {
// CHECK-NEXT: %0 = arith.addi %p, %p : i32
// CHECK-NEXT: %1 = arith.muli %0, %p : i32
// CHECK-NEXT: llvm.return %1 : i32
"""
MLIR_OUTPUT = """\
  llvm.func @f(%p: i32) {
    %0 = arith.addi %p, %p : i32
    %1 = arith.muli %0, %p : i32
    llvm.return %1 : i32
  }
"""
PTX_TEST = """\
// RUN: cat %s.out | filecheck %s --check-prefix=PTX

// PTX-LABEL: .entry k(
// PTX: $L_for_1:
// PTX-NEXT: add.s32 %r5, %r5, %r1;
// PTX: st.global.b32 [%rd2], %r5;
"""
PTX_OUTPUT = """\
.version 8.0
.visible .entry k(
{
\t.reg .b32 \t%r<6>;
\tmov.u32 %r1, %laneid;
$L_for_1:
\tadd.s32 %r5, %r5, %r1;
\tbra.uni $L_for_1;
\tst.global.b32 [%rd2], %r5;
}
"""


def write(tmp_path: Path, name: str, test: str, output: str) -> Path:
    path = tmp_path / name
    path.write_text(test)
    Path(f"{path}.out").write_text(output)
    return path


def filecheck(test: Path, output: str, prefix: str = "CHECK") -> int:
    command = ["filecheck", str(test), f"--check-prefix={prefix}"]
    return subprocess.run(command, check=False, input=output, capture_output=True, text=True).returncode


def test_mlir_names_become_captures(tmp_path):
    test = write(tmp_path, "f.mlir", MLIR_TEST, MLIR_OUTPUT)
    text = update_checks.updated_text(test)
    assert "// Hand-written comment, kept." in text
    assert update_checks.NOTE in text
    assert "// CHECK:      llvm.func @f([[P:%[0-9A-Za-z_.$-]+]]: i32) {" in text
    assert "// CHECK-NEXT: [[V0:%[0-9A-Za-z_.$-]+]] = arith.addi [[P]], [[P]] : i32" in text
    assert "// CHECK-NEXT: [[V1:%[0-9A-Za-z_.$-]+]] = arith.muli [[V0]], [[P]] : i32" in text
    assert "// CHECK-NEXT: llvm.return [[V1]] : i32" in text
    test.write_text(text)
    assert filecheck(test, MLIR_OUTPUT) == 0
    renumbered = MLIR_OUTPUT.replace("%0", "%7").replace("%1", "%8").replace("%p", "%arg0")
    assert filecheck(test, renumbered) == 0
    changed_opcode = MLIR_OUTPUT.replace("arith.muli", "arith.subi")
    assert filecheck(test, changed_opcode) != 0
    swapped_operands = MLIR_OUTPUT.replace("arith.muli %0, %p", "arith.muli %p, %0")
    assert filecheck(test, swapped_operands) != 0


def test_ptx_registers_and_labels_become_captures(tmp_path):
    test = write(tmp_path, "k.mlir", PTX_TEST, PTX_OUTPUT)
    text = update_checks.updated_text(test)
    assert "// PTX-LABEL: .entry k(" in text
    assert r"// PTX: [[L_FOR_1:\$L_[0-9A-Za-z_]+]]:" in text
    assert "// PTX-NEXT: add.s32 [[R5:%r[0-9]+]], [[R5]], [[R1:%r[0-9]+]];" in text
    assert r"// PTX: st.global.b32 {{\[}}[[RD2:%rd[0-9]+]]], [[R5]];" in text
    test.write_text(text)
    assert filecheck(test, PTX_OUTPUT, "PTX") == 0
    assert filecheck(test, PTX_OUTPUT.replace("%r5", "%r9"), "PTX") == 0
    wrong_register_stored = PTX_OUTPUT.replace("[%rd2], %r5", "[%rd2], %r1")
    assert filecheck(test, wrong_register_stored, "PTX") != 0


def test_a_chain_is_rewritten_when_an_instruction_is_added(tmp_path):
    with_new_line = MLIR_OUTPUT.replace("    %1 =", "    %c = arith.constant 2 : i32\n    %1 =")
    test = write(tmp_path, "f.mlir", MLIR_TEST, with_new_line)
    lines = update_checks.updated_text(test).splitlines()
    start = lines.index("// CHECK-NEXT: [[V0:%[0-9A-Za-z_.$-]+]] = arith.addi [[P]], [[P]] : i32")
    assert lines[start + 1] == "// CHECK-NEXT: [[C:%[0-9A-Za-z_.$-]+]] = arith.constant 2 : i32"
    assert lines[start + 2] == "// CHECK-NEXT: [[V1:%[0-9A-Za-z_.$-]+]] = arith.muli [[V0]], [[P]] : i32"


def test_check_mode_reports_stale_files_and_writes_nothing(tmp_path, capsys):
    test = write(tmp_path, "f.mlir", MLIR_TEST, MLIR_OUTPUT)
    assert update_checks.main(["--check", str(test)]) == 1
    assert test.read_text() == MLIR_TEST
    assert update_checks.main([str(test)]) == 0
    assert update_checks.main(["--check", str(test)]) == 0


def test_a_line_missing_from_the_output_is_an_error(tmp_path):
    test = write(tmp_path, "f.mlir", MLIR_TEST, MLIR_OUTPUT.replace("llvm.func @f", "llvm.func @g"))
    with pytest.raises(update_checks.UpdateError, match="not in the output"):
        update_checks.updated_text(test)
