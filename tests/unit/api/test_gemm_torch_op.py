"""mmatom.gemm as a torch op without a GPU (torch on the CPU; skipped without torch): the op's schema, its fake
implementation's shape/dtype/device, torch.library.opcheck, torch.compile(fullgraph=True) tracing a model that
calls mmatom.gemm into torch.ops.mmatom.gemm with no graph break, the backward GEMMs, and the eager call that
needs no gradient not dispatching to the op -- for a matrix A and a batch (L, M, K), with B per layer or shared. The
kernel itself is replaced by a float64 CPU reference."""

import pytest

torch = pytest.importorskip("torch")

import mmatom  # noqa: E402
from mmatom.kernels.gemm import CONFIGS, GemmConfig, batched, host, torch_op  # noqa: E402


@pytest.fixture
def cpu_kernel(monkeypatch):
    """The kernel's launch replaced by a float64 reference of what it computes; the calls recorded."""
    calls = []

    def reference(a, b, scale_a, scale_b, b_major, out_dtype, config):
        calls.append((tuple(a.shape), tuple(b.shape), b_major))
        b_nk = b.double() if b_major == "k" else b.double().mT
        scale = 1.0 if scale_a is None else float(scale_a * scale_b)
        return (a.double() @ b_nk.mT * scale).to(torch_op.OUT_TORCH_DTYPES[out_dtype or "bf16"])
    monkeypatch.setattr(torch_op, "_eager", reference)
    return calls


def bf16(*shape, grad=False):
    return torch.randn(*shape, dtype=torch.float64).to(torch.bfloat16).requires_grad_(grad)


def test_the_schema_takes_host_gemms_arguments():
    schema = str(torch.ops.mmatom.gemm.default._schema)
    assert schema == ("mmatom::gemm(Tensor a, Tensor b, Tensor? scale_a=None, Tensor? scale_b=None, str b_major=\"k\", "
                      "str? out_dtype=None, str? config=None) -> Tensor")


@pytest.mark.parametrize("b_shape, b_major, out_dtype, expected", [
    ((48, 64), "k", None, ((32, 48), torch.bfloat16)),
    ((64, 48), "n", None, ((32, 48), torch.bfloat16)),
    ((48, 64), "k", "f32", ((32, 48), torch.float32)),
    ((3, 48, 64), "k", None, ((3, 32, 48), torch.bfloat16)),
    ((3, 64, 48), "n", "f32", ((3, 32, 48), torch.float32)),
    ((48, 64), "k", None, ((3, 32, 48), torch.bfloat16)),  # a B shared by the batch
    ((64, 48), "n", None, ((3, 32, 48), torch.bfloat16)),
])
def test_the_fake_gives_the_outputs_shape_dtype_and_device(b_shape, b_major, out_dtype, expected):
    from torch._subclasses.fake_tensor import FakeTensorMode
    a_shape = (3, 32, 64) if len(expected[0]) == 3 else (32, 64)
    with FakeTensorMode():
        a, b = torch.empty(*a_shape, dtype=torch.bfloat16, device="meta"), torch.empty(*b_shape, dtype=torch.bfloat16,
                                                                                       device="meta")
        d = torch.ops.mmatom.gemm(a, b, b_major=b_major, out_dtype=out_dtype)
    assert (tuple(d.shape), d.dtype, d.device.type) == (*expected, "meta")


@pytest.mark.parametrize("a_shape, b_shape, b_major, match", [
    ((4, 8), (4, 8), "m", r"gemm: b_major 'm'; 'k' \(B is N x K\) or 'n' \(B is K x N\)"),
    ((3, 4, 8), (2, 5, 8), "k", r"gemm: A has 3 layers and B 2; the batch sizes differ"),
    ((3, 4, 8), (3, 5, 9), "k", r"gemm: A is 4x8 and B is 5x9 \(N x K\); the K extents differ"),
    ((3, 4, 8), (3, 5, 8), "n", r"gemm: A is 4x8 and B is 8x5 \(N x K\); the K extents differ"),
    ((4, 8), (3, 5, 8), "k", r"gemm: a is \(4, 8\); b is .* a matrix for a matrix A; got \(3, 5, 8\)"),
    ((2, 3, 4, 8), (5, 8), "k", r"gemm: a has shape \(2, 3, 4, 8\); a matrix, or \(A\) a batch of them"),
], ids=["b_major", "batch_sizes", "k_batched", "k_batched_n_major", "batched_b_for_matrix_a", "rank4_a"])
def test_the_fake_refuses_what_the_kernel_refuses(a_shape, b_shape, b_major, match):
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode(), pytest.raises(mmatom.CompileError, match=match):
        torch.ops.mmatom.gemm(torch.empty(*a_shape, dtype=torch.bfloat16),
                              torch.empty(*b_shape, dtype=torch.bfloat16), b_major=b_major)


@pytest.mark.parametrize("b_major, out_dtype", [("k", None), ("n", None), ("k", "f32")])
def test_opcheck_passes(cpu_kernel, b_major, out_dtype):
    a, b = bf16(16, 32, grad=True), bf16(*((24, 32) if b_major == "k" else (32, 24)), grad=True)
    torch.library.opcheck(torch.ops.mmatom.gemm.default, (a, b, None, None, b_major, out_dtype, None))


BATCHES = {  # A's shape, B's by b_major, D's
    "per_layer": ((3, 16, 32), {"k": (3, 24, 32), "n": (3, 32, 24)}, (3, 16, 24)),
    "shared": ((3, 16, 32), {"k": (24, 32), "n": (32, 24)}, (3, 16, 24)),
}


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("b_major", ["k", "n"])
def test_opcheck_passes_for_a_batch(cpu_kernel, batch, b_major):
    a_shape, b_shapes, _ = BATCHES[batch]
    a, b = bf16(*a_shape, grad=True), bf16(*b_shapes[b_major], grad=True)
    torch.library.opcheck(torch.ops.mmatom.gemm.default, (a, b, None, None, b_major, None, None))


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("b_major", ["k", "n"])
def test_a_batchs_gradients_are_batched_gemms(cpu_kernel, batch, b_major):
    """dA and dB of a batch match float64 autograd through torch.matmul; each is one call of the op (a shared B's
    dB over the batch folded into M: L*M = 48 rows summed in one GEMM)."""
    a_shape, b_shapes, d_shape = BATCHES[batch]
    a, b = bf16(*a_shape, grad=True), bf16(*b_shapes[b_major], grad=True)
    grad = bf16(*d_shape)
    mmatom.gemm(a, b, b_major=b_major).backward(grad)
    ref_a, ref_b = a.detach().double().requires_grad_(), b.detach().double().requires_grad_()
    (ref_a @ (ref_b.mT if b_major == "k" else ref_b)).backward(grad.double())
    torch.testing.assert_close(a.grad.double(), ref_a.grad, rtol=2 ** -7, atol=1e-2)
    torch.testing.assert_close(b.grad.double(), ref_b.grad, rtol=2 ** -7, atol=1e-2)
    forward, grad_a, grad_b = cpu_kernel
    assert forward[0] == a_shape and grad_a[0] == d_shape
    assert grad_b[0] == ((24, 48) if b_major == "k" else (32, 48)) if batch == "shared" else len(grad_b[0]) == 3


@pytest.mark.parametrize("b_major", ["k", "n"])
def test_the_gradients_are_the_two_backward_gemms(cpu_kernel, b_major):
    a, b = bf16(16, 32, grad=True), bf16(*((24, 32) if b_major == "k" else (32, 24)), grad=True)
    grad = bf16(16, 24)
    mmatom.gemm(a, b, b_major=b_major).backward(grad)
    ref_a, ref_b = a.detach().double().requires_grad_(), b.detach().double().requires_grad_()
    (ref_a @ (ref_b.t() if b_major == "k" else ref_b)).backward(grad.double())
    torch.testing.assert_close(a.grad.double(), ref_a.grad, rtol=2 ** -7, atol=1e-2)
    torch.testing.assert_close(b.grad.double(), ref_b.grad, rtol=2 ** -7, atol=1e-2)
    assert len(cpu_kernel) == 3  # the forward and the two backward GEMMs, each through the kernel


def test_out_is_written_through_the_op_when_a_gradient_is_wanted(cpu_kernel):
    a, b = bf16(8, 16, grad=True), bf16(12, 16)
    out = torch.empty(8, 12, dtype=torch.float32)
    assert mmatom.gemm(a, b, out=out) is out and out.grad_fn is not None and out.dtype == torch.float32
    torch.testing.assert_close(out.double(), a.detach().double() @ b.double().t())


def test_eager_calls_without_a_gradient_do_not_dispatch_to_the_op(cpu_kernel, monkeypatch):
    class FastPath(Exception):
        pass

    def problem(*_args):
        raise FastPath
    monkeypatch.setattr(host, "_problem", problem)  # host.gemm's first step past the op's routing
    with pytest.raises(FastPath):
        mmatom.gemm(bf16(8, 16), bf16(12, 16))
    with torch.no_grad(), pytest.raises(FastPath):
        mmatom.gemm(bf16(8, 16, grad=True), bf16(12, 16))
    assert cpu_kernel == []


def test_eager_batched_calls_without_a_gradient_do_not_dispatch_to_the_op(cpu_kernel, monkeypatch):
    class FastPath(Exception):
        pass

    def batched_gemm(*_args, **_kwargs):
        raise FastPath
    monkeypatch.setattr(batched, "batched_gemm", batched_gemm)
    with pytest.raises(FastPath):
        mmatom.gemm(bf16(2, 8, 16), bf16(2, 12, 16))
    with torch.no_grad(), pytest.raises(FastPath):
        mmatom.gemm(bf16(2, 8, 16, grad=True), bf16(12, 16))
    assert cpu_kernel == []


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = torch.nn.Parameter(bf16(64, 32))
        self.w2 = torch.nn.Parameter(bf16(16, 64))

    def forward(self, x):
        return mmatom.gemm(torch.relu(mmatom.gemm(x, self.w1)), self.w2)


def test_torch_compile_fullgraph_traces_the_op_and_its_backward(cpu_kernel):
    from torch._dynamo.testing import CompileCounterWithBackend
    torch._dynamo.reset()
    model, x = MLP(), bf16(8, 32)
    counter = CompileCounterWithBackend("aot_eager")
    y = torch.compile(model, fullgraph=True, backend=counter)(x)
    assert counter.frame_count == 1 and str(counter.graphs[0].code).count("torch.ops.mmatom.gemm.default") == 2
    h = (x.double() @ model.w1.detach().double().t()).bfloat16().relu()
    torch.testing.assert_close(y.double(), h.double() @ model.w2.detach().double().t(), rtol=2 ** -7, atol=1e-2)
    y.float().sum().backward()
    assert model.w1.grad.shape == (64, 32) and model.w2.grad.shape == (16, 64)
    assert len(cpu_kernel) == 2 + 3  # two forward GEMMs; w2's two backward GEMMs and w1's (x needs none)


class BatchedAttentionScores(torch.nn.Module):
    """Per-layer B (q . k^T, then . v read K x N) and a shared projection: the three batched forms."""
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(bf16(32, 32))

    def forward(self, q, k, v):
        p = mmatom.gemm(q, k).relu()                      # (L, M, K) . (L, N, K)^T
        return mmatom.gemm(mmatom.gemm(p, v, b_major="n"), self.w)  # . (L, N, K) as K x N, then a shared w


def test_torch_compile_fullgraph_traces_a_batched_module_and_its_backward(cpu_kernel):
    from torch._dynamo.testing import CompileCounterWithBackend
    torch._dynamo.reset()
    model = BatchedAttentionScores()
    q, k, v = bf16(4, 8, 32, grad=True), bf16(4, 16, 32), bf16(4, 16, 32)
    counter = CompileCounterWithBackend("aot_eager")
    y = torch.compile(model, fullgraph=True, backend=counter)(q, k, v)
    assert counter.frame_count == 1 and str(counter.graphs[0].code).count("torch.ops.mmatom.gemm.default") == 3
    p = (q.detach().double() @ k.double().mT).bfloat16().relu().double()
    ref = (p @ v.double()).bfloat16().double() @ model.w.detach().double().t()
    torch.testing.assert_close(y.double(), ref, rtol=2 ** -6, atol=2e-2)
    y.float().sum().backward()
    assert q.grad.shape == (4, 8, 32) and model.w.grad.shape == (32, 32)
    assert len(cpu_kernel) == 3 + 2 + 1 + 1  # forward; w's dA, dB; p's dA (v needs none); q's dA (k needs none)


def test_every_shipped_config_reaches_the_op_by_its_name():
    assert all(GemmConfig.from_name(c.name) == c for c in CONFIGS + (GemmConfig(128, 128, 6, group_m=8),))
