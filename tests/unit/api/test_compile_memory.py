"""A compile keeps nothing of the module it compiled (a process that compiles many kernels -- an autotuner -- must not
grow with them), and pauses Python's cyclic collector only while it runs."""

from __future__ import annotations

import gc
import weakref

import pytest

import mmatom
from mmatom.compiler import collector_paused


def _gemm_module():
    from mmatom.kernels.gemm.kernel import build_gemm  # noqa: PLC0415 - a real kernel's lowering (addresses, wgmma)

    return build_gemm("bf16")[0]


def test_a_compiled_module_is_freed():
    """The lowering's address analysis cached every SSA value it saw (passes/addresses.py): each compiled module,
    ~4,000 ops of an attention kernel, stayed alive for the process's life."""
    module = _gemm_module()
    alive = weakref.ref(module)
    mmatom.compile(module, options={"cache": False})
    built = _gemm_module()  # compile_generated lowers its module in place
    alive_generated = weakref.ref(built)
    mmatom.compile_generated(["test_compile_memory", id(built)], lambda: built, options={"cache": False})
    del module, built
    gc.collect()
    assert alive() is None and alive_generated() is None


def test_the_collector_is_paused_while_a_compile_runs_and_restored_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a failed compile")
    assert gc.isenabled()
    gc.disable()  # a caller that runs without the collector keeps it off
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
