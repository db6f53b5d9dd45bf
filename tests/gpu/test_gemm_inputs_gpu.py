"""GPU: what mmatom.gemm takes besides bf16 x bf16 -> bf16 (float16 in and out, mixed fp8 kinds, f16 / f32 out) and
what it does with every input it cannot or need not compute: a clear mmatom error, or the right answer (an empty D,
zeros for K = 0, a copy for a base TMA cannot address). Outputs are NaN-poisoned, inputs fresh random, the reference
float64 (marker `gpu`)."""

import pytest

pytestmark = pytest.mark.gpu


def _ref(a, b, scale=1.0):
    return (a.double() @ b.double().T) * scale


def _assert_close(d, ref, k, rel_out):
    import torch

    assert torch.isfinite(d).all(), "some of D was never written (still NaN)"
    bound = k * 2.0 ** -23 * ref.abs().max() + ref.abs() * rel_out + 1e-30
    err = (d.double() - ref).abs()
    assert bool((err <= bound).all()), f"max error {err.max().item():.3g}"


@pytest.mark.parametrize("m, n, k", [(256, 512, 192), (300, 520, 200), (2304, 2048, 320)])
@pytest.mark.parametrize("out_dtype", ["f16", "f32", "bf16"])
def test_float16_inputs(m, n, k, out_dtype):
    import torch

    import mmatom
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(n, k, device="cuda", dtype=torch.float16)
    torch_out = {"f16": torch.float16, "f32": torch.float32, "bf16": torch.bfloat16}[out_dtype]
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch_out)
    mmatom.gemm(a, b, out=d)
    torch.cuda.synchronize()
    _assert_close(d, _ref(a, b), k, {"f16": 2.0 ** -11, "f32": 2.0 ** -23, "bf16": 2.0 ** -8}[out_dtype])
    assert mmatom.gemm(a, b).dtype == torch.float16  # D's default: A's 16-bit type


@pytest.mark.parametrize("kinds", [("e4m3", "e5m2"), ("e5m2", "e4m3")])
def test_mixed_fp8_kinds(kinds):
    import torch

    import mmatom
    names = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
    m, n, k = 300, 520, 256
    a = torch.randn(m, k, device="cuda").to(names[kinds[0]])
    b = torch.randn(n, k, device="cuda").to(names[kinds[1]])
    sa, sb = torch.tensor([0.5], device="cuda"), torch.tensor([2.0], device="cuda")
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    mmatom.gemm(a, b, out=d, scale_a=sa, scale_b=sb)
    torch.cuda.synchronize()
    ref = _ref(a, b)
    assert torch.isfinite(d).all()
    assert (d.double() - ref).abs().max().item() <= 2.0 ** -10 * (a.double().abs() @ b.double().abs().T).max().item()


def test_empty_and_k_zero():
    import torch

    import mmatom
    a0, b = torch.randn(0, 64, device="cuda", dtype=torch.bfloat16), torch.randn(96, 64, device="cuda",
                                                                                dtype=torch.bfloat16)
    assert mmatom.gemm(a0, b).shape == (0, 96)
    assert mmatom.gemm(b, torch.randn(0, 64, device="cuda", dtype=torch.bfloat16)).shape == (96, 0)
    ak, bk = torch.randn(40, 0, device="cuda", dtype=torch.bfloat16), torch.randn(24, 0, device="cuda",
                                                                                 dtype=torch.bfloat16)
    out = torch.full((40, 24), float("nan"), device="cuda", dtype=torch.bfloat16)
    assert mmatom.gemm(ak, bk, out=out) is out and bool((out == 0).all())  # like torch.matmul: a sum of nothing


def test_unaligned_and_transposed_operands():
    import torch

    import mmatom
    base = torch.randn(257 * 64 + 1, device="cuda", dtype=torch.bfloat16)
    a = base[1:].view(257, 64)  # 2 bytes past a 16-byte boundary: TMA cannot take its base
    b = torch.randn(64, 96, device="cuda", dtype=torch.bfloat16).t()  # 96 x 64 stored K x N: read N-major
    d = mmatom.gemm(a, b)
    torch.cuda.synchronize()
    _assert_close(d, _ref(a, b), 64, 2.0 ** -8)


@pytest.mark.parametrize("dtype", ["bf16", "f16", "e4m3"])
def test_odd_rows_are_copied_once_and_d_is_bit_equal_to_zero_padding(dtype):
    """Rows that are not 16-byte multiples: A and B copied once into rows padded apart, the pad never written (TMA
    reads zeros past the map's extent), so D is bit-equal to the product of zero-padded operands; an `out` that is
    a column slice of an aligned matrix keeps its neighbours untouched (TMA's stores clip at 16-byte granules: a
    slice whose rows do not end on one is stored through its pointer); without `out`, D's rows are padded 128
    bytes apart."""
    import torch

    import mmatom
    from mmatom.kernels.gemm import GemmConfig
    t = {"bf16": torch.bfloat16, "f16": torch.float16, "e4m3": torch.float8_e4m3fn}[dtype]
    t_out = torch.float16 if dtype == "f16" else torch.bfloat16
    m, n, k = 9, 470, 322
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(n, k, device="cuda").to(t)
    one = torch.ones(1, device="cuda")
    scales = {"scale_a": one, "scale_b": one} if dtype == "e4m3" else {}
    kp = -(-k // 64) * 64
    a_pad, b_pad = torch.zeros(m, kp, device="cuda", dtype=t), torch.zeros(n, kp, device="cuda", dtype=t)
    a_pad[:, :k], b_pad[:, :k] = a, b
    config = GemmConfig()
    wide = torch.full((m, 480), float("nan"), device="cuda", dtype=t_out)
    assert mmatom.gemm(a, b, out=wide[:, :n], config=config, **scales).data_ptr() == wide.data_ptr()
    d = mmatom.gemm(a, b, config=config, **scales)
    ref = mmatom.gemm(a_pad, b_pad, config=config, **scales)
    torch.cuda.synchronize()
    assert torch.equal(wide[:, :n], ref) and torch.equal(d, ref) and bool(wide[:, n:].isnan().all())
    assert d.stride() == (512, 1)


@pytest.mark.parametrize("case, match", [
    ("cpu", r"a is on cpu; mmatom.gemm runs on a CUDA device"),
    ("rank3", r"a is batched \(2, 8, 16\); b is \(L, N, K\), \(L, K, N\) or a shared"),
    ("k_mismatch", r"A is 8x16 and B is 8x32 \(N x K\); the K extents differ"),
    ("dtypes", r"A is torch.bfloat16 and B torch.float16; both bfloat16, both float16"),
    ("float32_in", r"A is torch.float32 and B torch.float32"),
    ("out_shape", r"out is \(8, 9\) torch.bfloat16 on cuda:0; expected \(8, 8\) torch.bfloat16"),
    ("out_dtype", r"D of type 'f64'; one of bf16, f16, f32"),
    ("scale_missing", r"fp8 inputs take scale_b as a float32 tensor on cuda:0 \(one element, or rowwise N"),
    ("scale_on_16bit", r"scale_a given for 16-bit inputs"),
    ("not_a_tensor", r"a is a list; a torch tensor"),
    ("b_major", r"b_major 'x'; 'k' \(B is N x K\) or 'n'"),
])
def test_bad_input_is_a_clear_error(case, match):
    import torch

    import mmatom
    cuda = {"device": "cuda", "dtype": torch.bfloat16}
    a, b = torch.randn(8, 16, **cuda), torch.randn(8, 16, **cuda)
    fp8 = torch.randn(8, 16, device="cuda").to(torch.float8_e4m3fn)
    calls = {
        "cpu": lambda: mmatom.gemm(a.cpu(), b),
        "rank3": lambda: mmatom.gemm(torch.randn(2, 8, 16, **cuda), torch.randn(2, 2, 8, 16, **cuda)),
        "k_mismatch": lambda: mmatom.gemm(a, torch.randn(8, 32, **cuda)),
        "dtypes": lambda: mmatom.gemm(a, b.half()),
        "float32_in": lambda: mmatom.gemm(a.float(), b.float()),
        "out_shape": lambda: mmatom.gemm(a, b, out=torch.empty(8, 9, **cuda)),
        "out_dtype": lambda: mmatom.gemm(a, b, out_dtype="f64"),
        "scale_missing": lambda: mmatom.gemm(fp8, fp8, scale_a=torch.ones(1, device="cuda")),
        "scale_on_16bit": lambda: mmatom.gemm(a, b, scale_a=torch.ones(1, device="cuda")),
        "not_a_tensor": lambda: mmatom.gemm([[1.0]], b),
        "b_major": lambda: mmatom.gemm(a, b, b_major="x"),
    }
    with pytest.raises(mmatom.CompileError, match=match):
        calls[case]()


@pytest.mark.parametrize("m, n, k", [(256, 512, 192), (300, 520, 200), (2304, 2048, 320), (64, 4096, 1024)])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_b_given_k_by_n_is_read_as_it_is(m, n, k, dtype):
    """`a @ b`'s layout: B is K x N (N contiguous); 16-bit types are read from MN-major tiles, no copy of B."""
    import torch

    import mmatom
    t = torch.bfloat16 if dtype == "bf16" else torch.float16
    a, b = torch.randn(m, k, device="cuda", dtype=t), torch.randn(k, n, device="cuda", dtype=t)
    d = torch.full((m, n), float("nan"), device="cuda", dtype=t)
    mmatom.gemm(a, b, out=d, b_major="n")
    torch.cuda.synchronize()
    _assert_close(d, a.double() @ b.double(), k, 2.0 ** -8)


@pytest.mark.parametrize("name", ["128x256x4", "128x128x6w1", "128x192x4w1", "128x64x8", "256x128x4c1x2",
                                  "128x128x6w1p", "64x128x8w1p"])
def test_every_n_major_config(name):
    import torch

    import mmatom
    config = mmatom.GemmConfig.from_name(name)
    a = torch.randn(2304, 320, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(320, 2056, device="cuda", dtype=torch.bfloat16)
    d = mmatom.gemm(a, b, b_major="n", config=config)
    torch.cuda.synchronize()
    _assert_close(d, a.double() @ b.double(), 320, 2.0 ** -8)
    with pytest.raises(mmatom.CompileError, match="an MN-major B takes 16-bit types and no cluster multicasting it"):
        mmatom.gemm(a, b, b_major="n", config=mmatom.GemmConfig(cluster_m=2))


@pytest.mark.parametrize("m, n, k", [(9, 470, 322), (1, 4096, 4095), (128, 4097, 4096)])
def test_a_replayed_call_that_copies_reads_the_operands_values_now(m, n, k):
    """Odd rows (A and B copied into padded rows) or an odd N (D copied into out): the second call with the same
    tensors is a replay that copies again -- new values written into A and B in place between the calls are what
    it multiplies, and out is rewritten (poisoned between)."""
    import torch

    import mmatom
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    mmatom.gemm(a, b, out=d)
    a.copy_(torch.randn(m, k, device="cuda"))
    b.copy_(torch.randn(n, k, device="cuda"))
    d.fill_(float("nan"))
    mmatom.gemm(a, b, out=d)
    torch.cuda.synchronize()
    _assert_close(d, _ref(a, b), k, 2.0 ** -8)
