"""Optional dependencies: a missing one is a CompileError naming the extra, located at the caller's line."""

import sys
import types

import pytest

from mmatom import CompileError
from mmatom.optional import require_torch


def test_missing_torch_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # what `import torch` meets when it is not installed
    with pytest.raises(CompileError) as err:
        require_torch()
    assert "mmatom.gemm needs PyTorch" in str(err.value) and "pip install 'mmatom[torch]'" in str(err.value)
    assert err.value.diagnostics[0].file == __file__


def test_installed_torch_is_returned(monkeypatch):
    fake = types.ModuleType("torch")
    monkeypatch.setitem(sys.modules, "torch", fake)
    assert require_torch() is fake
