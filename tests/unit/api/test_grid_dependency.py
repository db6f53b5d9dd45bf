"""Programmatic dependent launch's two instructions on the builder (kb.sync.wait_prior_grids, launch_dependents):
where the kernel puts them in the PTX ptxas takes, and refused at the op on a chip before sm_90."""

import pytest

import mmatom


def _dependent(target: str) -> mmatom.KernelBuilder:
    kb = mmatom.KernelBuilder("dependent", [("x", "ptr"), ("y", "ptr")], target, threads=128)
    kb.sync.wait_prior_grids()
    x = kb.load_scalar(kb.param("x"), "f32", kb.tid())
    kb.sync.launch_dependents()
    kb.store_scalar(x + 1.0, kb.param("y"), kb.tid())
    return kb


def test_the_wait_comes_before_the_reads_and_ptxas_takes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    kernel = mmatom.compile(_dependent("sm_90a").finish()[0])
    lines = [line.strip() for line in kernel.ptx.splitlines()]
    wait, load = lines.index("griddepcontrol.wait;"), next(i for i, x in enumerate(lines) if x.startswith("ld.global"))
    launch = lines.index("griddepcontrol.launch_dependents;")
    store = next(i for i, x in enumerate(lines) if x.startswith("st.global"))
    assert wait < load < launch < store
    assert kernel.cubin and kernel.metadata.warnings == ()


@pytest.mark.parametrize("target", ["sm_80", "sm_89"])
def test_refused_before_sm90_at_the_op(target):
    with pytest.raises(mmatom.CompileError) as err:
        mmatom.compile(_dependent(target).finish()[0])
    text = str(err.value)
    assert "test_grid_dependency.py" in text  # located at the DSL's line
    for op in ("nvvm.griddepcontrol.wait", "nvvm.griddepcontrol.launch.dependents"):
        assert f"'{op}' op {op}: programmatic dependent launch (griddepcontrol) needs sm_90 or later; the module " \
               f"targets {target}" in text
