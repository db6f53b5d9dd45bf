"""ptxas's release is remembered on disk by the binary's path, size and mtime (targets/ptxas.py): a fresh process
finds it without running `ptxas --version`, and a binary that changed is asked again."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest

from mmatom.targets import ptxas


def _fake_ptxas(path, release: str):
    path.write_text(f"#!/bin/sh\necho 'Cuda compilation tools, release {release}, V{release}.1'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ptxas"


def test_the_release_is_read_once_then_remembered(tmp_path, cache, monkeypatch):
    tool = tmp_path / "ptxas"
    _fake_ptxas(tool, "12.9")
    assert ptxas._release(tool) == (12, 9) and len(list(cache.iterdir())) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("ran ptxas although its release was remembered")
    monkeypatch.setattr(subprocess, "run", refuse)
    assert ptxas._release(tool) == (12, 9)


def test_a_changed_binary_is_asked_again(tmp_path, cache):
    tool = tmp_path / "ptxas"
    _fake_ptxas(tool, "12.9")
    assert ptxas._release(tool) == (12, 9)
    _fake_ptxas(tool, "13.50")  # another size
    os.utime(tool, ns=(tool.stat().st_atime_ns, tool.stat().st_mtime_ns + 10**9))
    assert ptxas._release(tool) == (13, 50) and len(list(cache.iterdir())) == 2


def test_an_unwritable_cache_only_costs_the_probe(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(blocked))  # a file: no folder can be made under it
    tool = tmp_path / "ptxas"
    _fake_ptxas(tool, "13.0")
    assert ptxas._release(tool) == (13, 0)
