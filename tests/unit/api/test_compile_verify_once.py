"""A module KernelBuilder.finish() has just verified is not verified again when compile_generated lowers it in place
(~9% of a large kernel's cold compile); one whose ops changed since, or that is compiled for a chip it did not name,
is -- an op made illegal after finish() is still a located CompileError."""

import pytest

import mmatom
from mmatom import compiler
from mmatom.dialects import source


def _module():
    kb = mmatom.KernelBuilder("k", [("p", "ptr")], "sm_90a", threads=32)
    kb.store_scalar(kb.load_scalar(kb.param("p"), "f32") * 2.0, kb.param("p"))
    return kb.finish()[0]


def _counting(monkeypatch) -> list:
    calls = []
    real = compiler.verify_located

    def counted(module):
        calls.append(module)
        return real(module)
    monkeypatch.setattr(compiler, "verify_located", counted)
    return calls


def test_a_built_module_is_verified_once(monkeypatch):
    """Lowered in place, the module is verified once more after lowering; its input verification is skipped --
    unless the record of finish()'s verification is gone."""
    calls = _counting(monkeypatch)
    counts = []
    for forget in (False, True):
        module = _module()
        assert source.verified_as_is(module)
        if forget:
            source._VERIFIED.pop(module)
        calls.clear()
        kernel = compiler._compile(module, None, {"cache": False}, owned=True)
        assert "ld.global.f32" in kernel.ptx
        counts.append(len(calls))
    assert counts[0] == counts[1] - 1, counts


def test_a_module_changed_after_finish_is_verified_again(monkeypatch):
    module = _module()
    func = next(op for op in module.walk() if op.name == "llvm.func")
    mul = next(op for op in func.walk() if op.name == "arith.mulf")
    bad = mul.clone()  # a second multiply of the loaded value, placed before the load
    func.body.blocks[0].insert_op_before(bad, func.body.blocks[0].first_op)
    assert not source.verified_as_is(module)
    with pytest.raises(mmatom.CompileError, match="used before its definition"):
        compiler._compile(module, None, {"cache": False}, owned=True)
