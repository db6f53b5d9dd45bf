"""mmatom.attention without a GPU (torch on the CPU; skipped without torch): every input the kernel does not take is
refused with an mmatom error before anything is compiled or launched; the launch's arguments (sizes, GQA group,
scale, grid) and the views TMA reads, on fake CUDA tensors; the empty cases; the float32 reference against torch's
SDPA; the torch op (schema, fake, opcheck, no backward, torch.compile fullgraph) with the kernel replaced by the
reference."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")

import mmatom  # noqa: E402
from mmatom.kernels.attention import default_config, host  # noqa: E402
from mmatom.kernels.attention.checks import Problem, check_inputs  # noqa: E402
from mmatom.kernels.attention.config import SPLIT_KV_CONFIGS, AttentionConfig, choose_tiles  # noqa: E402
from mmatom.kernels.attention.reference import attention_reference  # noqa: E402
from mmatom.kernels.attention.walk import groups_of, plan_walk  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402


class Reached(AssertionError):
    """A compile or a launch that a refused call must not reach."""


@pytest.fixture
def no_compile(monkeypatch):
    def refuse(*args, **kwargs):
        raise Reached("compiled or launched before the inputs were refused")
    monkeypatch.setattr(host, "attention_kernel", refuse)
    monkeypatch.setattr(host, "_launch", refuse)


@pytest.fixture
def launches(monkeypatch):
    """host._launch recorded instead of run: (Problem, causal, scale, config, pack) per call."""
    calls = []
    monkeypatch.setattr(host, "_launch", lambda torch, p, qkv, o, lse, causal, scale, config, pack:
                        calls.append((p, causal, scale, config, pack)))
    return calls


def qkv(b=2, sq=33, h=4, d=64, sk=None, hkv=None, dtype=torch.bfloat16, device="cpu"):
    sk, hkv = sk if sk is not None else sq, hkv if hkv is not None else h
    return (torch.randn(b, sq, h, d, device=device).to(dtype), torch.randn(b, sk, hkv, d, device=device).to(dtype),
            torch.randn(b, sk, hkv, d, device=device).to(dtype))


def _replace(inputs, index, value):
    out = list(inputs)
    out[index] = value
    return out


# --- one refusal per check, each before any compile -----------------------------------------------------------------

REFUSED = {
    "not a tensor": (lambda: _replace(qkv(), 0, [[1.0]]), {}, r"attention: q is a list; a torch tensor"),
    "rank": (lambda: _replace(qkv(), 1, torch.zeros(2, 33, 64, dtype=torch.bfloat16)), {},
             r"attention: k has shape \(2, 33, 64\); a 4-d tensor \(B, Sk, Hkv, D\)"),
    "dtype": (lambda: qkv(dtype=torch.float32), {}, r"attention: q is float32; one of bfloat16, float16"),
    "dtypes differ": (lambda: _replace(qkv(), 2, qkv()[2].half()), {},
                      r"q, k, v have different dtypes \(q bfloat16, k bfloat16, v float16\); one dtype"),
    "k and v differ": (lambda: _replace(qkv(), 2, qkv(sq=34)[2]), {},
                       r"k is \(2, 33, 4, 64\) and v \(2, 34, 4, 64\); both \(B, Sk, Hkv, D\), the same"),
    "batch": (lambda: [qkv(b=3)[0], *qkv(b=2)[1:]], {}, r"q has batch 3 and k, v 2; the batch sizes must match"),
    "head dims differ": (lambda: [qkv(d=128)[0], *qkv(d=64)[1:]], {},
                         r"q has head dim 128 and k, v 64; the head dims must match"),
    "head dim": (lambda: qkv(d=96), {}, r"attention: head dim 96; one of 64, 128, 256"),
    "H % Hkv": (lambda: qkv(h=6, hkv=4), {}, r"q has 6 heads and k, v 4; H must be a multiple of Hkv"),
    "no kv heads": (lambda: qkv(h=4, hkv=0), {}, r"q has 4 heads and k, v 0; H must be a multiple of Hkv"),
    "i32 sizes": (lambda: [x.expand(1, 2 ** 31, 1, 64) for x in qkv(b=1, sq=1, h=1)], {},
                  r"seqlen_q 2147483648, seqlen_k 2147483648 past the kernel's i32 sizes \(at most 2147483647\)"),
    "inner stride": (lambda: _replace(qkv(), 0, torch.zeros(2, 33, 4, 128, dtype=torch.bfloat16)[..., ::2]), {},
                     r"q's last dimension has stride 2; the kernel reads each head's 64 features contiguous"),
    "causal": (qkv, {"causal": 1}, r"attention: causal 1; True or False"),
    "scale nan": (qkv, {"softmax_scale": math.nan}, r"softmax_scale nan; a finite number \(default 1 / sqrt\(D\)\)"),
    "scale type": (qkv, {"softmax_scale": "0.1"}, r"softmax_scale '0.1'; a finite number"),
    "cpu": (qkv, {}, r"attention: q is on cpu; mmatom.attention runs on a CUDA device \(move it with .cuda\(\)\)"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_each_refusal_names_the_argument_before_compiling(no_compile, case):
    make, kwargs, message = REFUSED[case]
    with pytest.raises(mmatom.CompileError, match=message):
        mmatom.attention(*make(), **kwargs)


def test_tensors_on_different_gpus_are_refused(no_compile):
    with FakeTensorMode():
        q, k, v = qkv(device="cuda:0")
        with pytest.raises(mmatom.CompileError, match=r"q, k, v are on different devices \(q cuda:0, k cuda:1, v "
                                                      r"cuda:0\)"):
            host.forward(torch, q, k.to("cuda:1"), v, False, None)


def test_the_error_points_at_the_callers_line(no_compile):
    with pytest.raises(mmatom.CompileError) as err:
        mmatom.attention(*qkv(d=96))
    assert "test_attention_host.py" in str(err.value)


def test_attention_kernel_refuses_before_compiling(monkeypatch):
    monkeypatch.setattr(mmatom, "compile_generated", lambda *a, **kw: pytest.fail("compiled"))
    with pytest.raises(mmatom.CompileError, match=r"attention: dtype 'f32' is not one of bf16, f16"):
        mmatom.attention_kernel("f32", 128)
    with pytest.raises(mmatom.CompileError, match=r"attention: head dim 96 is not one of 64, 128, 256"):
        mmatom.attention_kernel("bf16", 96)
    with pytest.raises(mmatom.CompileError, match=r"config d64_128x128x2 is for head dim 64, not 128"):
        mmatom.attention_kernel("bf16", 128, config=default_config(64, causal=True))
    with pytest.raises(mmatom.CompileError, match=r"config d64_192x128x2 cannot pack 4 query heads into a tile: a "
                                                  r"tile's 192 rows split into 4 blocks of one of \(8, 16, 32, 64\)"):
        mmatom.attention_kernel("bf16", 64, config=default_config(64), pack=4)


def test_attention_kernel_is_compiled_once_by_its_parameters(monkeypatch):
    keys = []
    monkeypatch.setattr(mmatom, "compile_generated", lambda key, build: keys.append(key) or object())
    host.forget_kernels()
    first = mmatom.attention_kernel("f16", 256, causal=True)
    assert mmatom.attention_kernel("f16", 256, causal=True) is first and len(keys) == 1
    assert keys[0] == ["mmatom.kernels.attention", "f16", "sm_90a",
                       {"head_dim": 256, "block_n": 80, "stages": 2, "consumers": 2, "ex2_on_fma": 0}, True, False, 1]
    mmatom.attention_kernel("f16", 256, causal=False)
    mmatom.attention_kernel("f16", 256, causal=False, split_kv=True)  # the split-KV kernel: a kernel of its own
    mmatom.attention_kernel("f16", 256, causal=False, split_kv=True, pack=4)  # and the packed one
    mmatom.attention_kernel("f16", 64, pack=4)  # packed: the two-consumer tile of PACKED_CONFIGS by default
    assert len(keys) == 5 and keys[2][-2:] == [True, 1] and keys[3][-2:] == [True, 4]
    assert keys[4][3]["consumers"] == 2 and keys[4][-1] == 4
    host.forget_kernels()


# --- the launch's arguments, on fake CUDA tensors -------------------------------------------------------------------

@pytest.mark.parametrize("h, hkv, group", [(8, 8, 1), (32, 8, 4), (16, 1, 16)])
def test_the_launch_gets_the_sizes_the_group_and_the_scale(launches, h, hkv, group):
    with FakeTensorMode():
        q, k, v = qkv(b=3, sq=200, sk=77, h=h, hkv=hkv, d=128, device="cuda")
        o, lse = mmatom.attention(q, k, v, causal=True, return_lse=True)
    p, causal, scale, _, _ = launches[0]
    assert (p.batch, p.seqlen_q, p.seqlen_k, p.heads, p.kv_heads, p.head_dim, p.group) == (3, 200, 77, h, hkv, 128,
                                                                                            group)
    assert causal is True and scale == pytest.approx(1 / math.sqrt(128))
    assert (o.shape, o.dtype, lse.shape, lse.dtype) == ((3, 200, h, 128), torch.bfloat16, (3, h, 200), torch.float32)


def test_a_given_scale_and_f16_reach_the_launch(launches):
    with FakeTensorMode():
        o = mmatom.attention(*qkv(dtype=torch.float16, device="cuda"), softmax_scale=2)
    assert launches[0][0].dtype == "f16" and launches[0][2] == 2.0 and o.dtype == torch.float16


@pytest.mark.parametrize("shape", [dict(b=0), dict(sq=0), dict(h=0, hkv=0), dict(sk=0)])
def test_empty_problems_launch_nothing(launches, shape):
    with FakeTensorMode():
        q, k, v = qkv(device="cuda", **shape)
        o, lse = mmatom.attention(q, k, v, return_lse=True)
    assert launches == [] and tuple(o.shape) == tuple(q.shape) and tuple(lse.shape) == (q.shape[0], q.shape[2],
                                                                                        q.shape[1])


def test_the_grid_is_persistent():
    """A CTA per SM, or per tile where there are fewer -- unless the tiles' KV blocks are split over every SM."""
    plan = lambda b, h, sq, sk, sms, causal=False: plan_walk(b, h, sq, sk, 128, 128, sms, causal)  # noqa: E731
    assert plan(2, 16, 1000, 1000, 132).ctas == 132 and plan(2, 16, 1000, 1000, 300).ctas == 256  # 256 tiles
    assert plan(1, 3, 1, 256, 132).ctas == 3 and plan(1, 3, 1, 256, 132).slots == 0  # 2 blocks: not worth a split
    assert plan(1, 3, 1, 1000, 132, causal=True).ctas == 3  # causal tiles are not split
    split = plan(1, 3, 1, 32768, 132)  # 256 blocks a tile, 3 tiles: cut over every SM, ~44 parts a tile
    groups = len(groups_of(45))  # each tile's parts added up in two levels: a counter a group and one a tile
    assert split.ctas == 132 and split.counters == 3 * (groups + 1) and split.slots >= 128 + 3 * groups  # 6-block runs


def test_flops_halve_for_causal():
    p = Problem("bf16", 4, 4096, 4096, 16, 16, 128)
    assert p.flops(False) == 4 * 4 * 16 * 4096 * 4096 * 128 == 2 * p.flops(True)


# --- the views TMA reads: no copy where TMA can address the input ------------------------------------------------------

def test_contiguous_and_packed_qkv_inputs_are_read_in_place():
    q = torch.randn(2, 40, 4, 64).bfloat16()
    view, copied = host.tma_view(q)
    assert not copied and view.data_ptr() == q.data_ptr() and tuple(view.shape) == (2, 40, 256)
    packed = torch.randn(2, 40, 3, 4, 64).bfloat16()  # a fused qkv projection's output
    view, copied = host.tma_view(packed[:, :, 1])
    assert not copied and view.data_ptr() == packed[:, :, 1].data_ptr() and view.stride() == (40 * 768, 768, 1)


@pytest.mark.parametrize("make", [
    lambda: torch.randn(2, 4, 40, 64).bfloat16().transpose(1, 2),        # (B, H, S, D) storage: heads apart
    lambda: torch.randn(2 * 40 * 4 * 64 + 1).bfloat16()[1:].view(2, 40, 4, 64),  # a base 2 bytes off
    lambda: torch.randn(2, 40, 4, 68).bfloat16()[..., :64],              # rows 136 bytes apart
], ids=["heads apart", "misaligned", "rows unaligned"])
def test_inputs_tma_cannot_address_are_copied_once(make):
    x = make()
    view, copied = host.tma_view(x)
    assert copied and view.is_contiguous() and view.data_ptr() % 16 == 0
    assert torch.equal(view.unflatten(2, (4, 64)), x)


# --- the reference, against torch's SDPA on the CPU -----------------------------------------------------------------

def _sdpa_bottom_right(q, k, v, causal, scale):
    """torch's SDPA (float64) with FlashAttention's bottom-right causal mask written out (SDPA's is_causal is
    top-left)."""
    sq, sk, group = q.shape[1], k.shape[1], q.shape[2] // k.shape[2]
    qh, kh, vh = (x.double().repeat_interleave(g, 2).transpose(1, 2) for x, g in ((q, 1), (k, group), (v, group)))
    mask = None
    if causal:
        mask = torch.arange(sk)[None, :] <= torch.arange(sq)[:, None] + sk - sq
    return torch.nn.functional.scaled_dot_product_attention(qh, kh, vh, attn_mask=mask, scale=scale).transpose(1, 2)


@pytest.mark.parametrize("sq, sk, h, hkv, causal", [(33, 33, 4, 4, False), (20, 50, 8, 2, True),
                                                    (50, 20, 4, 1, True), (1, 7, 2, 2, True)])
def test_the_reference_is_sdpa_with_flashattentions_mask(sq, sk, h, hkv, causal):
    q, k, v = qkv(b=2, sq=sq, sk=sk, h=h, hkv=hkv, d=64)
    o, lse = attention_reference(q, k, v, causal=causal, softmax_scale=0.2, chunk_bytes=4096)
    seen = torch.arange(sq) + sk - sq >= 0 if causal else torch.ones(sq, dtype=torch.bool)
    expected = _sdpa_bottom_right(q, k, v, causal, 0.2)
    torch.testing.assert_close(o[:, seen].double(), expected[:, seen], rtol=1e-5, atol=1e-5)
    assert torch.all(o[:, ~seen] == 0) and torch.all(lse[..., ~seen] == -math.inf)
    s = (q.double().transpose(1, 2) @ k.double().repeat_interleave(h // hkv, 2).permute(0, 2, 3, 1)) * 0.2
    if causal:
        s = s.masked_fill(torch.arange(sk)[None, :] > torch.arange(sq)[:, None] + sk - sq, -math.inf)
    torch.testing.assert_close(lse[..., seen].double(), torch.logsumexp(s, -1)[..., seen], rtol=1e-5, atol=1e-5)


def test_the_reference_without_keys_is_zero_and_minus_infinity():
    q, k, v = qkv(sq=5, sk=0)
    o, lse = attention_reference(q, k, v)
    assert tuple(o.shape) == (2, 5, 4, 64) and torch.all(o == 0) and torch.all(lse == -math.inf)


# --- the torch op ----------------------------------------------------------------------------------------------------

@pytest.fixture
def cpu_kernel(monkeypatch):
    """The op's computation replaced by the float64 reference (cast as the kernel casts); the calls recorded."""
    from mmatom.kernels.attention import torch_op
    calls = []

    def reference(q, k, v, causal, softmax_scale):
        check_inputs(torch, q, k, v, causal, softmax_scale)
        calls.append((tuple(q.shape), causal))
        o, lse = attention_reference(q.detach(), k.detach(), v.detach(), causal=causal, softmax_scale=softmax_scale,
                                     dtype=torch.float64)
        return o.to(q.dtype), lse.float()
    monkeypatch.setattr(torch_op, "_eager", reference)
    return calls


def test_the_schema():
    from mmatom.kernels.attention import torch_op  # noqa: F401 - registers the op
    assert str(torch.ops.mmatom.attention.default._schema) == (
        "mmatom::attention(Tensor q, Tensor k, Tensor v, bool causal=False, float? softmax_scale=None) -> "
        "(Tensor, Tensor)")


def test_the_fake_gives_shapes_and_refuses_what_the_kernel_refuses():
    from mmatom.kernels.attention import torch_op  # noqa: F401
    with FakeTensorMode():
        o, lse = torch.ops.mmatom.attention(*qkv(b=2, sq=9, sk=70, h=8, hkv=2, d=256, device="cuda"))
        assert (tuple(o.shape), o.dtype, o.device.type) == ((2, 9, 8, 256), torch.bfloat16, "cuda")
        assert (tuple(lse.shape), lse.dtype) == ((2, 8, 9), torch.float32)
        with pytest.raises(mmatom.CompileError, match=r"head dim 32; one of 64, 128, 256"):
            torch.ops.mmatom.attention(*qkv(d=32, device="cuda"))


def test_opcheck_passes(cpu_kernel):
    q, k, v = qkv(b=1, sq=9, sk=12, h=4, hkv=2)
    torch.library.opcheck(torch.ops.mmatom.attention.default, (q, k, v, True, 0.3))


def test_eager_calls_without_a_gradient_do_not_dispatch_to_the_op(cpu_kernel, monkeypatch):
    direct = []
    monkeypatch.setattr(host, "forward", lambda *args: direct.append(args) or (None, None))
    mmatom.attention(*qkv())
    with torch.no_grad():
        mmatom.attention(*(x.requires_grad_() for x in qkv()))
    assert len(direct) == 2 and cpu_kernel == []


def test_a_gradient_goes_through_the_op_whose_backward_refuses(cpu_kernel):
    q, k, v = (x.requires_grad_() for x in qkv(sq=8))
    o = mmatom.attention(q, k, v, causal=True)
    assert o.grad_fn is not None and cpu_kernel == [((2, 8, 4, 64), True)]
    with pytest.raises(mmatom.CompileError, match=r"mmatom.attention is forward only \(no backward kernel\)"):
        o.float().sum().backward()


class Block(torch.nn.Module):
    def forward(self, q, k, v):
        o, lse = mmatom.attention(q * 2, k, v, causal=True, return_lse=True)
        return o.relu(), lse


def test_torch_compile_fullgraph_traces_the_op(cpu_kernel):
    from torch._dynamo.testing import CompileCounterWithBackend
    torch._dynamo.reset()
    q, k, v = qkv(b=1, sq=16, sk=24, h=4, hkv=2)
    counter = CompileCounterWithBackend("aot_eager")
    o, lse = torch.compile(Block(), fullgraph=True, backend=counter)(q, k, v)
    assert counter.frame_count == 1 and str(counter.graphs[0].code).count("torch.ops.mmatom.attention.default") == 1
    ref, ref_lse = attention_reference(q * 2, k, v, causal=True, dtype=torch.float64)
    torch.testing.assert_close(o.double(), ref.to(q.dtype).relu().double())
    torch.testing.assert_close(lse.double(), ref_lse, rtol=1e-5, atol=1e-5)


def test_import_mmatom_loads_attention_on_first_use():
    probe = ("import sys, mmatom; assert not [m for m in sys.modules if m.startswith('mmatom.kernels')]; "
             "mmatom.attention; assert 'mmatom.kernels.attention' in sys.modules; "
             "assert 'mmatom.kernels.attention.torch_op' not in sys.modules; "
             "assert 'mmatom.kernels.gemm' not in sys.modules; print('ok')")
    root = str(Path(mmatom.__file__).resolve().parents[1])  # the mmatom under test, wherever it is installed
    result = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": root})
    assert result.stdout.strip() == "ok", result.stderr
    assert mmatom.attention is host.attention and mmatom.attention_kernel is host.attention_kernel


def test_the_launch_gets_the_config_of_its_key_count(monkeypatch):
    got = []
    monkeypatch.setattr(host, "_launch", lambda *args: got.append(args[-2]))
    with FakeTensorMode():
        for seqlen in (1024, 4096):
            mmatom.attention(*qkv(b=1, sq=8, sk=seqlen, h=2, d=128, device="cuda"))
    assert [c.block_n for c in got] == [128, 144]


# --- a GQA group's heads packed into a tile (config.choose_tiles) ---------------------------------------------------

@pytest.mark.parametrize("d, causal, sq, sk, group, pack, block_n, consumers", [
    (128, False, 1, 65536, 4, 4, 128, 1),      # decoding: one query, a 64-row tile of 4 heads x 16 positions
    (128, False, 16, 4096, 4, 4, 128, 1),      # each head's 16 queries fill its 16 rows of the 64
    (128, False, 17, 4096, 4, 4, 128, 2),      # 17 do not: the 128-row tile of 4 x 32
    (128, False, 1, 65536, 1, 1, 144, 2),      # no group: the shipped config of the key count
    (128, False, 4096, 4096, 4, 1, 144, 2),    # as many padded rows either way: a tile per head
    (128, True, 200, 4096, 8, 8, 128, 2),      # 13 tiles of 16 positions x 8 heads against 2 x 8 per-head tiles
    (64, False, 1, 8192, 4, 4, 128, 1),        # d 64's three-consumer tile cannot hold 4 heads: a packed one
    (64, False, 1, 8192, 3, 1, 128, 3),        # 128 rows do not split into 3 blocks
    (256, False, 5, 1000, 32, 1, 80, 2),       # 32 blocks of 4 rows: under a swizzle period
    (256, False, 5, 1000, 16, 16, 80, 2),      # 64 rows of 16 heads: 4 each, too few; 128 rows: 8
])
def test_a_group_packs_where_it_pads_fewer_rows(d, causal, sq, sk, group, pack, block_n, consumers):
    config, chosen = choose_tiles(d, causal, sq, sk, group)
    assert (chosen, config.block_n, config.consumers) == (pack, block_n, consumers)
    assert chosen == 1 or config.block_m % chosen == 0 and config.block_m // chosen >= 8


def test_a_packed_call_launches_the_groups_config(launches):
    with FakeTensorMode():
        mmatom.attention(*qkv(b=2, sq=1, sk=4096, h=32, hkv=8, d=128, device="cuda"))
        mmatom.attention(*qkv(b=2, sq=1, sk=4096, h=32, hkv=32, d=128, device="cuda"))
    (_, _, _, config, pack), (_, _, _, plain, unpacked) = launches
    assert (config.block_m, pack, unpacked) == (64, 4, 1) and config.boxes(pack)["q"] == (16, 64)
    assert config.boxes(pack)["o"] == (16, 64) and plain.boxes()["o"] == (64, 64)


def test_a_forced_pack_must_be_the_group(launches):
    with FakeTensorMode():
        q, k, v = qkv(b=1, sq=1, sk=512, h=8, hkv=2, d=128, device="cuda")
        with pytest.raises(mmatom.CompileError, match=r"pack=2 query heads a tile; 1 or the GQA group, 4"):
            host.forward(torch, q, k, v, False, None, pack=2)
        host.forward(torch, q, k, v, False, None, pack=1)
    assert launches[0][4] == 1


def test_a_walk_that_splits_keys_runs_the_split_kv_stand_in():
    """d 64 without a mask ships 192 x 128 x 2, whose split-KV kernel spills; a walk that splits keys (fewer tiles
    than SMs) runs SPLIT_KV_CONFIGS' 192 x 112 x 3 instead, planned for its own tiles; one that does not, the
    shipped one."""
    shipped = default_config(64, False)
    short = SimpleNamespace(batch=1, heads=4, seqlen_q=1000, seqlen_k=8192, head_dim=64)  # 24 tiles on 132 SMs
    config, plan = host._walk(short, False, shipped, 1, 132)
    assert config == SPLIT_KV_CONFIGS[shipped] == AttentionConfig(64, 112, 3, consumers=3) and plan.counters > 0
    long = SimpleNamespace(batch=4, heads=32, seqlen_q=4096, seqlen_k=4096, head_dim=64)
    config, plan = host._walk(long, False, shipped, 1, 132)
    assert config == shipped and plan.counters == 0
