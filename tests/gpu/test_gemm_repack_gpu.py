"""GPU: the repack kernel (kernels/gemm/repack.py) copies rows at every alignment -- base addresses at many offsets
mod 16, each row pitch mod 16, 1- and 2-byte elements, one matrix or two in one launch -- byte for byte into rows 128 bytes
apart; and mmatom.gemm on operands it copies, the first call and its replay after the sources change in place,
gives the float64 reference's D (marker `gpu`; destinations poisoned, inputs fresh random)."""

import pytest

pytestmark = pytest.mark.gpu


def _rows_at(torch, rows, cols, dtype, base_skew, pitch):
    """rows x cols of `dtype`, rows `pitch` elements apart, the first element `base_skew` elements past an aligned
    address; random bytes (every bit pattern: the copy moves bytes, not values)."""
    size = torch.empty(0, dtype=dtype).element_size()
    raw = torch.randint(0, 256, ((base_skew + rows * pitch + 64) * size,), dtype=torch.uint8, device="cuda")
    flat = raw.view(dtype)
    return flat[base_skew:base_skew + rows * pitch].view(rows, pitch)[:, :cols]


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "bfloat16"])
@pytest.mark.parametrize("base_skew", [0, 1, 2, 3, 5, 8, 13, 15])
def test_every_alignment_is_copied_byte_for_byte(dtype, base_skew):
    import torch

    from mmatom.kernels.gemm import host
    t = getattr(torch, dtype)
    for cols in (1, 3, 37, 129, 1001, 4095):  # row bytes of every residue mod 4, a row shorter than a word
        for extra in (0, 5):  # contiguous rows, and rows further apart than their elements
            src = _rows_at(torch, 7, cols, t, base_skew, cols + extra)
            if src.data_ptr() % src.element_size():
                continue
            dst = host._padded_like(torch, src)
            dst.view(torch.uint8 if t.itemsize == 1 else torch.int16).fill_(-1 if t.itemsize == 2 else 255)
            host.row_copier(torch, [(dst, src)])(torch.cuda.current_stream().cuda_stream)
            torch.cuda.synchronize()
            view = torch.uint8 if src.element_size() == 1 else torch.int16
            assert torch.equal(dst.view(view), src.view(view)), (cols, extra, base_skew)


def test_two_matrices_in_one_launch():
    import torch

    from mmatom.kernels.gemm import host
    a, b = _rows_at(torch, 300, 4095, torch.uint8, 1, 4095), _rows_at(torch, 5000, 4095, torch.uint8, 3, 4100)
    pairs = [(host._padded_like(torch, x), x) for x in (a, b)]
    copier = host.row_copier(torch, pairs)
    assert len(host._repack_groups(pairs)) == 1
    copier(torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    assert all(torch.equal(d, s) for d, s in pairs)


@pytest.mark.parametrize("dtype", ["bf16", "e4m3"])
def test_gemm_on_repacked_operands_and_its_replay(dtype):
    import torch

    import mmatom
    t = {"bf16": torch.bfloat16, "e4m3": torch.float8_e4m3fn}[dtype]
    m, n, k = 333, 1001, 4095  # rows of 4095 (or 8190) bytes: copied
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(n, k, device="cuda").to(t)
    scales = {"scale_a": torch.ones(1, device="cuda"), "scale_b": torch.ones(1, device="cuda")} \
        if dtype == "e4m3" else {}
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    for step in range(2):  # the first call, then the replay (the copies made again from the changed sources)
        if step:
            a.copy_(torch.randn(m, k, device="cuda").to(t))
            out.fill_(float("nan"))
        mmatom.gemm(a, b, out=out, **scales)
        torch.cuda.synchronize()
        ref = a.double() @ b.double().T
        bound = (2.0 ** -10 if dtype == "e4m3" else k * 2.0 ** -23) * (a.double().abs() @ b.double().abs().T).max() \
            + ref.abs() * 2.0 ** -7
        assert torch.isfinite(out).all() and bool(((out.double() - ref).abs() <= bound).all()), step
