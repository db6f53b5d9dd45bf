"""mmatom.compile at the API boundary: any input gives a Kernel or a located CompileError, never another
exception; the caller's module is not changed."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

import mmatom
from mmatom.dialects.source import LocatingParser, make_context

ROOT = Path(__file__).resolve().parents[3]
KERNEL = (ROOT / "examples" / "m16n8k16_f16_kernel.mlir").read_text()


@pytest.mark.parametrize("bad", [None, b"builtin.module {}", 3, ["builtin.module {}"]])
def test_not_a_module_is_a_compile_error(bad):
    with pytest.raises(mmatom.CompileError, match=f"takes a builtin.module .* not {type(bad).__name__}"):
        mmatom.compile(bad)


def test_parse_error_is_located():
    with pytest.raises(mmatom.CompileError) as info:
        mmatom.compile('builtin.module {\n  %x = "mma.nope"() : () -> ()\n}')
    (d,) = info.value.diagnostics
    assert d.line == 2 and "mma.nope is not registered" in d.message


def test_lowering_error_keeps_the_dsl_location():
    """A module built by a DSL carries the DSL's own file:line:col; the lowering error is reported there."""
    text = (ROOT / "tests" / "filecheck" / "lowering" / "invalid.mlir").read_text().split("// -----")[0]
    module = LocatingParser(make_context(), text, "x.mlir", 0).parse_module()
    sync = next(op for op in module.walk() if op.name == "mma.sync")
    sync.location = FileLineColLoc(StringAttr("my_dsl.py"), IntAttr(42), IntAttr(7))
    with pytest.raises(mmatom.CompileError) as info:
        mmatom.compile(module)
    assert str(info.value).startswith("my_dsl.py:42:7: error: mma.sync: fragment operand %a is not produced")


def test_compile_does_not_change_the_callers_module():
    module = LocatingParser(make_context(), KERNEL, "k.mlir", 0).parse_module()
    before = str(module)
    kernel = mmatom.compile(module)
    assert "mma.sync.aligned.m16n8k16" in kernel.ptx
    assert str(module) == before
