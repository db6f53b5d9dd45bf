"""The runtime and compile API without a GPU: PTX, parameters, cache keys and atomic writes, and a
clear error when no driver is present."""

import os
import threading

import numpy as np
import pytest

import mmatom
from mmatom.targets import ptxas, runtime
from mmatom.compiler import CompileError

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "m16n8k16_f16_kernel.mlir")


def test_compile_gives_ptx_that_ptxas_accepts():
    kernel = mmatom.compile(open(EXAMPLE).read())
    assert kernel.target == "sm_80"
    assert [p.kind for p in kernel.entries["atom"].params] == ["ptr"] * 4
    assert kernel.entries["atom"].bounds.threads == 32 and ".reqntid 32, 1, 1" in kernel.ptx
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in kernel.ptx
    assert ptxas.assemble(kernel.ptx, "sm_80").ok


def test_compile_reports_located_errors():
    bad = open(EXAMPLE).read().replace('layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C',
                                       'layout("(16,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<C')
    with pytest.raises(CompileError, match=r"<text>:\d+:\d+: error: 'mma.load_fragment' op .*covers 64 elements"):
        mmatom.compile(bad)


def test_cache_key_depends_on_ptx_chip_and_toolchain():
    k = runtime.cache_key("ptx", "sm_90", "driver-13000")
    assert k != runtime.cache_key("ptx2", "sm_90", "driver-13000")
    assert k != runtime.cache_key("ptx", "sm_80", "driver-13000")
    assert k != runtime.cache_key("ptx", "sm_90", "driver-12080")
    assert k == runtime.cache_key("ptx", "sm_90", "driver-13000")


def testatomic_writes_from_many_threads_leave_one_whole_file(tmp_path):
    path = tmp_path / "x.cubin"
    blobs = [bytes([i]) * 100_000 for i in range(8)]
    threads = [threading.Thread(target=runtime.atomic_write, args=(path, b)) for b in blobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert path.read_bytes() in blobs
    assert not list(tmp_path.glob("*.tmp"))


def test_calling_without_a_driver_says_so():
    try:
        runtime.Device.open()
    except runtime.NoDriverError as err:
        assert "driver" in str(err) or "cuda-python" in str(err)
    else:
        pytest.skip("a CUDA driver is present here")
    kernel = mmatom.compile(open(EXAMPLE).read())
    with pytest.raises(runtime.NoDriverError):
        kernel(*[np.zeros(256, np.float32)] * 4)
