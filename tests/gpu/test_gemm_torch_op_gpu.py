"""GPU (marker `gpu`): mmatom.gemm as a torch op -- torch.compile(fullgraph=True) of a two-layer MLP calling it
matches eager, and gradients through the backward GEMMs match torch.matmul's within bf16 rounding."""

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
