"""GPU (marker `gpu`): mmatom.gemm as a torch op -- torch.compile(fullgraph=True) of a two-layer MLP calling it
matches eager, and gradients through the backward GEMMs match torch.matmul's within bf16 rounding; the same for
batches (L, M, K) with B per layer or shared, against float64 autograd, and a compiled batched module."""

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

import mmatom  # noqa: E402


class MLP(torch.nn.Module):
    def __init__(self, d_in: int, hidden: int, d_out: int):
        super().__init__()
        self.w1 = torch.nn.Parameter(torch.randn(hidden, d_in, device="cuda").to(torch.bfloat16) / d_in ** 0.5)
        self.w2 = torch.nn.Parameter(torch.randn(d_out, hidden, device="cuda").to(torch.bfloat16) / hidden ** 0.5)

    def forward(self, x):
        return mmatom.gemm(torch.relu(mmatom.gemm(x, self.w1)), self.w2)


def test_torch_compile_fullgraph_matches_eager():
    torch._dynamo.reset()
    model, x = MLP(512, 1024, 256), torch.randn(300, 512, device="cuda").to(torch.bfloat16)
    with torch.no_grad():
        eager = model(x)
        compiled = torch.compile(model, fullgraph=True)(x)
    torch.testing.assert_close(compiled, eager, rtol=2 ** -7, atol=2 ** -7)


def _relative_error(x, ref) -> float:
    return ((x.double() - ref.double()).norm() / ref.double().norm()).item()


@pytest.mark.parametrize("b_major", ["k", "n"])
def test_gradients_match_torch_matmul(b_major):
    m, n, k = 384, 320, 512
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16).requires_grad_()
    b = torch.randn(*((n, k) if b_major == "k" else (k, n)), device="cuda").to(torch.bfloat16).requires_grad_()
    grad = torch.randn(m, n, device="cuda").to(torch.bfloat16)
    mmatom.gemm(a, b, b_major=b_major).backward(grad)
    a_ref, b_ref = a.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
    torch.matmul(a_ref, b_ref.T if b_major == "k" else b_ref).backward(grad)
    assert _relative_error(a.grad, a_ref.grad) < 2 ** -7 and _relative_error(b.grad, b_ref.grad) < 2 ** -7


def test_compiled_training_step_gradients_match_eager():
    torch._dynamo.reset()
    model, x = MLP(256, 512, 128), torch.randn(64, 256, device="cuda").to(torch.bfloat16)
    model(x).float().square().sum().backward()
    eager = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    torch.compile(model, fullgraph=True)(x).float().square().sum().backward()
    for got, ref in zip((p.grad for p in model.parameters()), eager):
        assert _relative_error(got, ref) < 2 ** -7


BATCHES = {  # A (L, M, K), B by b_major: partial tiles, rows 16-byte multiples (read as stored, transposed views
    # M-/N-major), or (odd) rows that are not (copied K-major once)
    "per_layer": ((4, 296, 200), {"k": (4, 264, 200), "n": (4, 200, 264)}),
    "shared": ((4, 296, 200), {"k": (264, 200), "n": (200, 264)}),
    "per_layer_odd": ((2, 300, 203), {"k": (2, 261, 203), "n": (2, 203, 261)}),
}


@pytest.mark.parametrize("a_transposed", [False, True], ids=["a_k_major", "a_m_major"])
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("b_major", ["k", "n"])
def test_batched_gradients_match_float64_autograd(batch, b_major, a_transposed):
    """The batched op's dA and dB (batched GEMMs reading dD^T and A^T M-major; a shared B's dB one GEMM over L*M
    rows) against torch.matmul's autograd in float64 on the same bf16 values."""
    a_shape, b_shapes = BATCHES[batch]
    a = torch.randn(*a_shape, device="cuda").to(torch.bfloat16)
    if a_transposed:  # stored (L, K, M): read M-major in the forward, its gradient's transpose K-major
        a = torch.randn(a_shape[0], a_shape[2], a_shape[1], device="cuda").to(torch.bfloat16).transpose(1, 2)
    a = a.requires_grad_()
    b = torch.randn(*b_shapes[b_major], device="cuda").to(torch.bfloat16).requires_grad_()
    d = mmatom.gemm(a, b, b_major=b_major)
    grad = torch.randn_like(d)
    d.backward(grad)
    a_ref, b_ref = a.detach().double().requires_grad_(), b.detach().double().requires_grad_()
    d_ref = torch.matmul(a_ref, b_ref.mT if b_major == "k" else b_ref)
    d_ref.backward(grad.double())
    assert d.shape == d_ref.shape and a.grad.shape == a.shape and b.grad.shape == b.shape
    for got, ref in ((d, d_ref), (a.grad, a_ref.grad), (b.grad, b_ref.grad)):
        assert _relative_error(got, ref) < 2 ** -7


class BatchedBlock(torch.nn.Module):
    """The three batched forms: scores q . k^T per layer, their product with v read K x N, a shared projection."""
    def __init__(self, d: int):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(d, d, device="cuda").to(torch.bfloat16) / d ** 0.5)

    def forward(self, q, k, v):
        p = torch.relu(mmatom.gemm(q, k)) / q.shape[-1]
        return mmatom.gemm(mmatom.gemm(p, v, b_major="n"), self.w)


def test_torch_compile_fullgraph_of_a_batched_module_matches_eager():
    torch._dynamo.reset()
    model = BatchedBlock(128)
    q, k, v = (torch.randn(3, s, 128, device="cuda").to(torch.bfloat16) for s in (200, 136, 136))
    for x in (q, k, v):
        x.requires_grad_()
    eager = model(q, k, v)
    eager.float().square().sum().backward()
    eager_grads = [x.grad.clone() for x in (q, k, v, model.w)]
    for x in (q, k, v, model.w):
        x.grad = None
    compiled = torch.compile(model, fullgraph=True)(q, k, v)
    compiled.float().square().sum().backward()
    torch.testing.assert_close(compiled, eager, rtol=2 ** -7, atol=2 ** -7)
    for got, ref in zip((x.grad for x in (q, k, v, model.w)), eager_grads):
        assert _relative_error(got, ref) < 2 ** -7
