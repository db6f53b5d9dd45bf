"""The repack kernel without a GPU: it assembles clean (ptxas, sm_90a) with aligned 16-byte accesses only; its
arguments for one or two matrices; which copies the host gives it and which it leaves to torch (CPU tensors stand
in for CUDA's where only shapes, strides and addresses are read). Its copies: tests/gpu/test_gemm_repack_gpu.py."""

import pytest

import mmatom
from mmatom.kernels.gemm.repack import CHUNKS_PER_LANE, PER_OPERAND, build_repack


@pytest.mark.ptxas
def test_the_repack_kernel_assembles_with_aligned_chunk_accesses():
    module, launch = build_repack()
    kernel = mmatom.compile(module, options={"cache": False})
    assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == ()
    assert launch.block == (256, 1, 1) and launch.shared_bytes == 0
    ptx = kernel.ptx
    # per chunk of a lane's segment, the two aligned chunks it straddles and one store; nothing narrower
    assert ptx.count("ld.global.v4.b32") == 2 * CHUNKS_PER_LANE and ptx.count("st.global.v4.b32") == CHUNKS_PER_LANE
    assert ptx.count("ld.global") == 2 * CHUNKS_PER_LANE and ptx.count("st.global") == CHUNKS_PER_LANE
    # all of a segment's loads come before its first store
    assert ptx.rindex("ld.global") < ptx.index("st.global")


torch = pytest.importorskip("torch")

from mmatom.kernels.gemm import host  # noqa: E402
from mmatom.kernels.gemm.repack import repack_arguments  # noqa: E402


def _at(rows, cols, pitch, skew=0, dtype=torch.uint8):
    return torch.zeros(skew + rows * pitch, dtype=dtype)[skew:].view(rows, pitch)[:, :cols]


def test_arguments_of_two_matrices():
    a, b = _at(5, 4095, 4095, skew=1), _at(9, 4095, 4101, skew=3)
    pairs = [(host._padded_like(torch, x), x) for x in (a, b)]
    args, units = repack_arguments(pairs)
    fields = [name for name, _ in PER_OPERAND]
    for i, x in enumerate((a, b)):
        got = dict(zip(fields, args[i * len(fields):(i + 1) * len(fields)]))
        assert got["src"] is x and got["rows"] == x.shape[0] and got["src_pitch"] == x.stride(0)
        assert got["src_pitch_mod16"] == x.stride(0) % 16 and got["src_base_mod16"] == x.data_ptr() % 16
        assert got["dst_pitch"] == 4096  # 4095 bytes padded to 128-byte rows
    assert args[-1] == 4095 and units == (5 + 9) * 2  # rows x 2048-byte segments


def test_one_matrix_leaves_b_without_rows():
    a = _at(7, 1001, 1001, dtype=torch.bfloat16)
    args, units = repack_arguments([(host._padded_like(torch, a), a)])
    width = len(PER_OPERAND)
    assert args[2] == 7 and args[width + 2] == 0 and args[-1] == 2002 and units == 7 * 1


def test_launches_pair_matrices_of_equal_row_bytes():
    same = [(None, _at(3, 100, 100)), (None, _at(4, 100, 104)), (None, _at(5, 100, 100))]
    assert [len(g) for g in host._repack_groups(same)] == [2, 1]
    bytes_alike = [(None, _at(3, 100, 100)), (None, _at(3, 50, 100, dtype=torch.bfloat16))]  # 100 bytes each
    assert [len(g) for g in host._repack_groups(bytes_alike)] == [2]
    other = [(None, _at(3, 100, 100)), (None, _at(3, 51, 100, dtype=torch.bfloat16))]
    assert [len(g) for g in host._repack_groups(other)] == [1, 1]
    pair = [(host._padded_like(torch, x), x) for _, x in bytes_alike]
    args, _ = repack_arguments(pair)
    width = len(PER_OPERAND)
    assert args[width + 3] == 200 and args[width + 6] == 128  # B's pitches in its own 2-byte elements' bytes


def test_copies_off_the_gpu_are_torchs():
    """CPU tensors (and batches, transposed views) are not the kernel's: torch copies them, as words."""
    x = torch.randint(0, 100, (6, 37), dtype=torch.int16).view(torch.bfloat16)
    dst = host._padded_like(torch, x)
    host.row_copier(torch, [(dst, x)])(0)
    assert torch.equal(dst.view(torch.int16), x.view(torch.int16)) and dst.stride(0) == 64
