"""GPU (marker `gpu`): mmatom.attention against a float32 reference with FlashAttention's conventions
(mmatom.kernels.attention.reference) -- every dtype, head dim and mask (one shape each, the shapes spanning tails,
Sq != Sk, Sq = 1, Sk = 1, GQA, MQA and batches), outputs poisoned with NaN before the kernel writes them, fresh
random inputs per case; the LSE; the empty and keyless cases; inputs read in place or copied; a side stream;
torch.compile(fullgraph=True). Twelve kernels are compiled (a cold cache: the whole file in well under a minute).

Tolerance (per output row): 2 eps(dtype) x the row's largest |reference| -- the kernel rounds P to the input type
for the P V product and O to it at the end; an emulation of exactly that on these shapes stays below 0.8 of the
bound, while a skipped or doubled key tile moves a row by about its own magnitude."""

from __future__ import annotations

import math

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

import mmatom  # noqa: E402
from mmatom.kernels.attention import host, walk  # noqa: E402
from mmatom.kernels.attention.config import COMBINE_BLOCKS, DECODE_CONFIGS, WALK_ENTRY  # noqa: E402
from mmatom.kernels.attention.reference import attention_reference  # noqa: E402

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}

# dtype, head dim, causal, B, Sq, Sk, H, Hkv: each (dtype, head dim, causal) once, so twelve kernels
CASES = [
    ("bf16", 128, False, 2, 1024, 1024, 8, 8),   # whole tiles
    ("bf16", 128, True, 2, 1000, 1000, 8, 8),    # tails on the diagonal
    ("bf16", 64, False, 3, 333, 517, 32, 8),     # GQA, Sq != Sk, both tails
    ("bf16", 64, True, 1, 517, 333, 16, 1),      # MQA, causal with Sq > Sk: the first 184 rows see no key
    ("bf16", 256, False, 2, 200, 700, 4, 4),
    ("bf16", 256, True, 2, 129, 1111, 8, 2),     # causal with Sq < Sk: every row sees 982 keys or more
    ("f16", 128, False, 1, 1, 1000, 8, 8),       # decode: one query
    ("f16", 128, True, 2, 1, 257, 32, 8),        # one query, causal: it sees every key
    ("f16", 64, False, 4, 128, 128, 4, 4),
    ("f16", 64, True, 2, 640, 640, 32, 8),
    ("f16", 256, False, 1, 1000, 80, 4, 1),      # one KV step of d = 256 (80 keys)
    ("f16", 256, True, 2, 384, 1, 4, 4),         # one key: only the last row sees it
]


@pytest.fixture
def poisoned(monkeypatch):
    """The outputs the host allocates, filled with NaN first: an element the kernel does not write stays NaN."""
    made = []

    def outputs(torch_, q, p):
        o, lse = torch.full(p.o_shape, math.nan, dtype=q.dtype, device=q.device), \
            torch.full(p.lse_shape, math.nan, device=q.device)
        made.append((o, lse))
        return o, lse
    monkeypatch.setattr(host, "outputs", outputs)
    return made


def random_qkv(dtype, b, sq, sk, h, hkv, d, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    t = DTYPES[dtype]
    return tuple(torch.randn(b, s, heads, d, device="cuda", generator=g).to(t)
                 for s, heads in ((sq, h), (sk, hkv), (sk, hkv)))


def assert_matches_reference(o, lse, q, k, v, causal, softmax_scale=None):
    ref, ref_lse = attention_reference(q, k, v, causal=causal, softmax_scale=softmax_scale)
    assert o.dtype == q.dtype and tuple(o.shape) == tuple(q.shape)
    assert not o.isnan().any(), "an output element the kernel did not write"
    eps = torch.finfo(q.dtype).eps
    row_err = (o.float() - ref).abs().amax(-1)
    bound = 2 * eps * ref.abs().amax(-1) + 1e-6
    worst = (row_err / bound).max().item()
    assert worst <= 1.0, f"a row's error is {worst:.2f}x its bound (2 eps x the row's max |ref|)"
    seen = torch.isfinite(ref_lse)
    assert torch.equal(lse == -math.inf, ~seen), "rows that see no key: LSE -inf, and only those"
    torch.testing.assert_close(lse[seen], ref_lse[seen], rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "{}-d{}-{}-b{}-{}x{}-h{}kv{}".format(
    c[0], c[1], "causal" if c[2] else "full", *c[3:]))
def test_matches_the_float32_reference(poisoned, case):
    dtype, d, causal, b, sq, sk, h, hkv = case
    q, k, v = random_qkv(dtype, b, sq, sk, h, hkv, d, seed=100 + CASES.index(case))
    o, lse = mmatom.attention(q, k, v, causal=causal, return_lse=True)
    assert poisoned and o is poisoned[-1][0] and lse is poisoned[-1][1]
    assert_matches_reference(o, lse, q, k, v, causal)


def test_a_given_scale_and_a_repeated_call(poisoned):
    q, k, v = random_qkv("bf16", 2, 300, 400, 8, 2, 128, seed=1)
    first, lse = mmatom.attention(q, k, v, softmax_scale=0.3, return_lse=True)
    assert_matches_reference(first, lse, q, k, v, False, softmax_scale=0.3)
    again = mmatom.attention(q, k, v, softmax_scale=0.3)  # the prepared launch replayed into new outputs
    assert torch.equal(again, first)


def test_empty_and_keyless_problems():
    q, k, v = random_qkv("bf16", 2, 5, 0, 4, 4, 64, seed=2)
    o, lse = mmatom.attention(q, k, v, return_lse=True)
    assert torch.equal(o, torch.zeros_like(o)) and torch.all(lse == -math.inf)
    for b, sq, h in ((0, 5, 4), (2, 0, 4)):
        q, k, v = random_qkv("bf16", b, sq, 7, h, h, 64, seed=3)
        o, lse = mmatom.attention(q, k, v, return_lse=True)
        assert tuple(o.shape) == (b, sq, h, 64) and tuple(lse.shape) == (b, h, sq)


def test_packed_and_transposed_inputs(poisoned):
    """q, k, v slices of one fused projection (read in place) and a (B, H, S, D) tensor transposed (copied once)."""
    g = torch.Generator(device="cuda").manual_seed(4)
    packed = torch.randn(2, 300, 3, 8, 128, device="cuda", generator=g).bfloat16()
    q, k, v = packed.unbind(2)
    o, lse = mmatom.attention(q, k, v, causal=True, return_lse=True)
    assert_matches_reference(o, lse, q, k, v, True)
    heads_first = torch.randn(2, 8, 300, 128, device="cuda", generator=g).bfloat16()
    o, lse = mmatom.attention(heads_first.transpose(1, 2), k, v, return_lse=True)
    assert_matches_reference(o, lse, heads_first.transpose(1, 2), k, v, False)


def test_runs_on_torchs_current_stream():
    q, k, v = random_qkv("f16", 2, 512, 512, 8, 8, 64, seed=5)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        o, lse = mmatom.attention(q, k, v, return_lse=True)
        o_next = o * 2  # ordered after the kernel on the same stream
    side.synchronize()
    assert_matches_reference(o, lse, q, k, v, False)
    assert torch.equal(o_next, o * 2)


class Block(torch.nn.Module):
    def forward(self, x, k, v):
        o = mmatom.attention(x * 0.5, k, v, causal=True)
        return (o.float() + x.float()).to(x.dtype)


def test_torch_compile_fullgraph_matches_eager():
    torch._dynamo.reset()
    q, k, v = random_qkv("bf16", 2, 256, 256, 8, 2, 128, seed=6)
    eager = Block()(q, k, v)
    compiled = torch.compile(Block(), fullgraph=True)(q, k, v)
    torch.testing.assert_close(compiled, eager)


@pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2, reason="one GPU")
def test_a_second_gpu(poisoned):
    q, k, v = (x.to("cuda:1") for x in random_qkv("bf16", 1, 200, 200, 4, 4, 128, seed=7))
    o, lse = mmatom.attention(q, k, v, return_lse=True)
    assert o.device == q.device and torch.cuda.current_device() == 0
    assert_matches_reference(o, lse, q, k, v, False)


# fewer tiles than SMs and long keys: the walk splits their KV blocks over the CTAs (walk.py), the split_kv kernel
# adds the parts up; tails in Sq and Sk, GQA, several query blocks a head
# (the last field: the levels the parts are added up in -- 2: in groups, then the groups, walk.groups_of)
SPLIT_CASES = [
    ("bf16", 128, 1, 200, 5000, 2, 1, 2),
    ("f16", 64, 2, 100, 3001, 4, 2, 2),
    ("bf16", 256, 1, 129, 2000, 2, 2, 2),
    ("bf16", 128, 1, 1000, 20000, 3, 3, 1),
    ("bf16", 256, 1, 60, 30000, 1, 1, 2),
    ("f16", 64, 1, 7, 70001, 2, 1, 2),
]


@pytest.mark.parametrize("case", SPLIT_CASES, ids=lambda c: "{}-d{}-b{}-{}x{}-h{}kv{}-levels{}".format(*c))
def test_split_tiles_add_up(poisoned, case):
    dtype, d, b, sq, sk, h, hkv, levels = case
    config = host.default_config(d, False, sk)
    plan = walk.plan_walk(b, h, sq, sk, config.block_m, config.block_n,
                          torch.cuda.get_device_properties(0).multi_processor_count, False, COMBINE_BLOCKS[d])
    entries = plan.table[plan.ctas + 1:].reshape(-1, walk.ENTRY_WORDS)
    assert plan.counters > 0, "the case must split tiles"
    assert (entries[:, WALK_ENTRY.index("groups")].max() > 1) == (levels == 2)
    q, k, v = random_qkv(dtype, b, sq, sk, h, hkv, d, seed=300 + SPLIT_CASES.index(case))
    o, lse = mmatom.attention(q, k, v, return_lse=True)
    assert o is poisoned[-1][0]
    assert_matches_reference(o, lse, q, k, v, False)
    again = mmatom.attention(q, k, v)  # the parts added up in slot order: the same bits
    assert torch.equal(again, o)


# a GQA group's query heads packed into one tile's rows (config.choose_tiles: decoding, short queries, tails), forced
# here -- pack=1 too, the same shapes unpacked, and "decode": the one-consumer 64-row tiles (DECODE_CONFIGS) where a
# head's queries fit them; causal with Sq < Sk (a packed row's position decides its mask), MQA's 16 heads in 8-row
# blocks, few tiles (split KV and packing at once)
PACK_CASES = [
    ("bf16", 128, False, 2, 1, 5000, 32, 8),
    ("f16", 64, True, 2, 3, 300, 16, 2),
    ("bf16", 256, False, 1, 37, 1000, 8, 4),
    ("bf16", 128, True, 1, 100, 100, 16, 1),
    ("f16", 128, False, 3, 70, 129, 8, 2),
    ("bf16", 256, True, 2, 20, 700, 16, 2),
    ("bf16", 256, False, 2, 5, 3000, 16, 4),
]


@pytest.mark.parametrize("pack", ["group", 1, "decode"])
@pytest.mark.parametrize("case", PACK_CASES, ids=lambda c: "{}-d{}-{}-b{}-{}x{}-h{}kv{}".format(
    c[0], c[1], "causal" if c[2] else "full", *c[3:]))
def test_packed_heads_match_the_reference(poisoned, case, pack):
    dtype, d, causal, b, sq, sk, h, hkv = case
    group, config = h // hkv, DECODE_CONFIGS[d] if pack == "decode" else None
    if config is not None and not (config.packs(group) and sq <= config.block_m // group):
        pytest.skip(f"a group of {group} heads with {sq} queries each does not fit a 64-row tile")
    q, k, v = random_qkv(dtype, b, sq, sk, h, hkv, d, seed=400 + PACK_CASES.index(case))
    o, lse = host.forward(torch, q, k, v, causal, None, config=config, pack=1 if pack == 1 else group)
    assert o is poisoned[-1][0]
    assert_matches_reference(o, lse, q, k, v, causal)


def test_decoding_packs_the_group_and_splits_the_keys(poisoned):
    """One query of 32 heads over 8 KV heads against 20000 keys: choose_tiles packs the 4 heads of a group into a
    tile (8 tiles), the walk splits each over ~16 SMs, its parts added up in two levels (groups of parts, then the
    groups: a counter per group and one per tile); the same bits twice (the parts added up in slot order)."""
    config, pack = host.choose_tiles(128, False, 1, 20000, 4)
    plan = walk.plan_walk(1, 8, 1, 20000, config.block_m // pack, config.block_n,
                          torch.cuda.get_device_properties(0).multi_processor_count, False, COMBINE_BLOCKS[128])
    assert pack == 4 and plan.counters > 8 and plan.slots > plan.ctas, (pack, plan.counters, plan.slots)
    q, k, v = random_qkv("bf16", 1, 1, 20000, 32, 8, 128, seed=9)
    o, lse = mmatom.attention(q, k, v, return_lse=True)
    assert_matches_reference(o, lse, q, k, v, False)
    assert torch.equal(mmatom.attention(q, k, v), o)
