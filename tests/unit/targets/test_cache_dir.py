"""One cache-directory rule: every kind under one root ($MMATOM_CACHE_DIR, else $XDG_CACHE_HOME/mmatom, else
~/.cache/mmatom), and the cubin cache, the compile cache and the GEMM tuning file all follow it."""

from pathlib import Path

import pytest

from mmatom import compile_cache
from mmatom.kernels.gemm import choices as gemm_choices
from mmatom.targets import cache_dir as cache


@pytest.mark.parametrize("env, root", [
    ({"MMATOM_CACHE_DIR": "/m", "XDG_CACHE_HOME": "/x"}, Path("/m")),
    ({"XDG_CACHE_HOME": "/x"}, Path("/x/mmatom")),
    ({}, Path.home() / ".cache" / "mmatom"),
])
def test_the_root_is_the_variable_then_xdg_then_home(env, root, monkeypatch):
    for name in ("MMATOM_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cache.cache_root() == root
    assert [cache.cache_dir(kind) for kind in cache.KINDS] == [root / kind for kind in cache.KINDS]


def test_every_cache_of_mmatom_lives_under_the_one_root(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    assert compile_cache.cache_dir() == tmp_path / "compile"
    assert gemm_choices.tuning_file() == tmp_path / "tuning" / "gemm_tuning.json"


def test_an_unknown_kind_is_refused_naming_the_kinds():
    with pytest.raises(ValueError, match=r"no cache kind 'cubins'; one of cubin, compile, tuning"):
        cache.cache_dir("cubins")


def test_an_atomic_write_makes_its_folder_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "a" / "b.json"
    cache.atomic_write(path, b"{}")
    assert path.read_bytes() == b"{}" and [p.name for p in path.parent.iterdir()] == ["b.json"]


def test_the_toolchain_hashes_the_kernels_sources_too():
    """A kernel generator's cache key (compile_generated) names its parameters, not its code: the toolchain hash
    covers the kernels' sources (an edited GEMM kernel once got the previous one's cubin), whether imported or
    not, and every layer's, each file once."""
    from mmatom import compile_cache
    files = [p.as_posix() for p in compile_cache.source_files()]
    for needed in ("mmatom/kernels/gemm/kernel.py", "mmatom/kernels/gemm/realigned_loads.py",
                   "mmatom/kernels/attention/kernel.py", "passes/pipeline_protocol.py", "dialects/nvvm.py"):
        assert any(f.endswith(needed) for f in files), needed
    assert len(files) == len(set(files))
