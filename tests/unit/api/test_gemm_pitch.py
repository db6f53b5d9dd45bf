"""mmatom.gemm's odd row pitches without a GPU (torch on the CPU; skipped without torch): which operands the host
repacks into rows 128 bytes apart for which shapes (the copy paying for itself by choices.pitch_plan's model), that a
repacked operand holds the same values, batches too, and the prior pricing the repack. The kernel: tests/gpu."""

import pytest

torch = pytest.importorskip("torch")

from mmatom.kernels.gemm import SWAP_AB_CONFIGS, GemmConfig, batched, host  # noqa: E402
from mmatom.kernels.gemm import choices as gemm_choices  # noqa: E402

E4M3 = getattr(torch, "float8_e4m3fn", None)
BANDWIDTH = 3.35e6  # the H100's HBM3, bytes/us


@pytest.fixture
def h100(tmp_path, monkeypatch):
    """No stored choices, the H100's SMs and bandwidth; CPU tensors stand in for CUDA's."""
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(gemm_choices, "gpu_name", lambda: "NVIDIA H100 80GB HBM3 (132 SMs)")
    monkeypatch.setattr(gemm_choices, "sm_count", lambda: 132)
    monkeypatch.setattr(batched, "sm_count", lambda: 132)
    monkeypatch.setattr(gemm_choices, "dram_bytes_per_us", lambda: BANDWIDTH)
    monkeypatch.setattr(host, "_check_tensors", lambda *_args, **_kwargs: None)
    gemm_choices.forget()
    yield
    gemm_choices.forget()


def _operand(rows, k, dtype, transposed=False):
    """rows x K, uninitialised (the choice reads shapes and strides only), or the transpose of a K x rows tensor."""
    t = {"bf16": torch.bfloat16, "f16": torch.float16, "e4m3": E4M3}[dtype]
    return torch.empty(k, rows, dtype=t).t() if transposed else torch.empty(rows, k, dtype=t)


def test_the_slowdown_is_the_measured_loss_over_the_models_k_step_time():
    """ODD_PITCH_STEP_SLOWDOWN, recomputed from the H100 A/B it cites (128x128x6w1, benchmarks/gemm_batched.py): the
    time lost, over the model's per-K-step term of that config on those problems; the smaller of the two."""
    config = GemmConfig(128, 128, 6, wgmma_in_flight=1)
    steps = [gemm_choices.fitted_terms(gemm_choices.COST_MODEL, config, 3000, 5000, k, "bf16", 132, layers=layers)[1]
             for layers, k in ((4, 1000), (1, 7000))]
    assert steps == pytest.approx([179.9, 329.7], abs=0.05)
    lost = [(427.1 - 255.5) / steps[0], (620.1 - 347.5) / steps[1]]
    assert 1 + min(lost) == pytest.approx(gemm_choices.ODD_PITCH_STEP_SLOWDOWN, abs=0.005)


@pytest.mark.parametrize("m, n, k, dtype, repacked", [
    (3000, 5000, 7000, "bf16", (True, True)),  # the measured case: 14000-byte rows, a long K
    (4096, 4096, 4096, "bf16", (False, False)),  # 8192-byte rows: no odd pitch
    (16, 4096, 4000, "bf16", (False, False)),  # decode: B streamed once, copying it costs more than it loses
    (4096, 4096, 40, "bf16", (False, False)),  # one K step: little load time to lose
    (4096, 4096, 1040, "e4m3", (True, True)),  # fp8, 1040-byte rows
    (16, 4096, 1040, "e4m3", (False, False)),  # fp8 decode
    (2048, 2048, 4008, "f16", (False, True)),  # 128x256 tiles: B two thirds of the loads, A's copy does not pay
    (2048, 2048, 1000, "f16", (False, False)),  # 16 K steps: little load time to lose, neither copy pays
    (3000, 5000, 7040, "bf16", (False, False)),  # 14080-byte rows, a multiple of 128
    (3456, 1152, 28096, "e4m3", (False, False)),  # 28096-byte rows: 64 past 128 x 219 -- full speed
    (3000, 5000, 6992, "bf16", (False, False)),  # 13984-byte rows, 32 x 437
], ids=str)
def test_which_operands_the_host_repacks(h100, m, n, k, dtype, repacked):
    p = host._problem(torch, _operand(m, k, dtype), _operand(n, k, dtype), *_scales(dtype), "k")
    config, q = host.configured(torch, p, "bf16", None, 132)
    qa, qb = (q.b, q.a) if config.swap_ab else (q.a, q.b)  # a swapped-operand config reads B as its A
    assert (qa is not p.a, qb is not p.b) == repacked and bool(q.copies) is any(repacked), config.name
    for x, y in ((p.a, qa), (p.b, qb)):
        assert y.shape == x.shape and (y is x or y.stride(0) * y.element_size() % 128 == 0)


def _scales(dtype):
    return (torch.ones(1), torch.ones(1)) if dtype == "e4m3" else (None, None)


def test_a_transposed_operand_is_repacked_in_its_own_major(h100):
    """A stored 7000 x 3000 (6000-byte rows) and read M-major: repacked as K x M, 6016-byte rows, still M-major."""
    p = host._problem(torch, _operand(3000, 7000, "bf16", transposed=True), _operand(5000, 7000, "bf16"), None, None,
                      "k")
    config, q = host.configured(torch, p, "bf16", None, 132)
    assert q.majors == ("m", "k") and q.a.shape == (7000, 3000) and q.a.stride() == (3008, 1), config.name


def test_an_operand_tma_cannot_address_is_realigned_where_that_pays_else_copied(h100, monkeypatch):
    """fp8 with K = 1000, 23434 or 4095: rows that do not start on 16 bytes, which TMA cannot read. By default the
    kernel realigns them where choices.realign_pays says that costs less than the copy: decode's short K (8 steps
    of the realigning producer against copying 4 MB) and a long K (183 steps), each with the prior's config's split-K
    variant, whose slices shorten each CTA's walk (as many as cost least: realign_splits, realigning_us); and a 4095^3
    square's are copied into rows
    128 bytes apart (8 waves of 128 x 256 tiles, a tile too large to realign). Never with REALIGN_UNALIGNED False.
    The model has no odd pitch to weigh either way."""
    for m, n, k, realigned in ((9, 4090, 1000, True), (9, 4090, 23434, True), (4095, 4095, 4095, False)):
        p = host._problem(torch, _operand(m, k, "e4m3"), _operand(n, k, "e4m3"), *_scales("e4m3"), "k")
        assert p.copies == () and p.unaligned == (True, True)
        config, q = host.configured(torch, p, "bf16", None, 132)
        if realigned:
            assert q.unaligned == (True, True) and q.copies == (), config.name
            assert config.split_k and host._splits_of(q._replace(config=config), 132) >= 2, config.name
        else:
            assert q.unaligned == (False, False) and len(q.copies) == 2 and not config.split_k, config.name
            assert q.a.stride()[1] == q.b.stride()[1] == 1 and q.a.stride()[0] % 128 == 0
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", False)
    p = host._problem(torch, _operand(16, 1000, "e4m3"), _operand(4096, 1000, "e4m3"), *_scales("e4m3"), "k")
    config, q = host.configured(torch, p, "bf16", None, 132)
    assert q.unaligned == (False, False) and len(q.copies) == 2 and q.a.stride() == q.b.stride() == (1024, 1)
    p = host._problem(torch, _operand(9, 23434, "e4m3"), _operand(4090, 23434, "e4m3"), *_scales("e4m3"), "k")
    assert not host.configured(torch, p, "bf16", None, 132)[0].split_k  # no realigning variant


@pytest.mark.parametrize("m, n, k", [(6, 8152, 27021), (3, 7480, 3515)])
def test_the_faster_realigning_variant_is_taken(h100, m, n, k):
    """bf16 rows of an odd K: the prior's 128x16x8w1t realigns both operands, but its 64 or 59 CTAs each walk every
    K step; its split-K variant's slices shorten each walk (H100, session 26: 6 x 8152 x 27021 225 us
    split against 396 us whole)."""
    p = host._problem(torch, _operand(m, k, "bf16"), _operand(n, k, "bf16"), None, None, "k")
    config, q = host.configured(torch, p, "bf16", None, 132)
    assert config.name == "128x16x8w1st" and q.unaligned == (True, True) and q.copies == ()
    times = [gemm_choices.realigning_us(c, m, n, k, "bf16", 132) for c in (GemmConfig.from_name("128x16x8w1t"),
                                                                             config)]
    assert times[1] < times[0] / 1.5, times


def test_an_operand_tma_cannot_address_is_read_in_place_for_the_kernel_to_realign(h100, monkeypatch):
    """With realigning on, A and B are read in place, marked unaligned, and the config's kernel realigns them
    (kernel.realigned_ring) -- no copy, and no odd pitch for the model to weigh."""
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", True)
    p = host._problem(torch, _operand(16, 1000, "e4m3"), _operand(4096, 1000, "e4m3"), *_scales("e4m3"), "k")
    assert p.copies == () and p.unaligned == (True, True) and p.a.stride() == p.b.stride() == (1000, 1)
    config, q = host.configured(torch, p, "bf16", None, 132)
    assert q.copies == () and q.unaligned == (True, True), config.name
    assert {q.a.data_ptr(), q.b.data_ptr()} == {p.a.data_ptr(), p.b.data_ptr()}, config.name


def test_a_config_that_cannot_realign_copies_the_operand(h100, monkeypatch):
    """A cluster that multicasts B cannot realign it (each CTA would write a slice of the others' tiles): B is
    copied into rows 128 bytes apart, A (not multicast) is still realigned."""
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", True)
    p = host._problem(torch, _operand(3000, 1000, "e4m3"), _operand(4096, 1000, "e4m3"), *_scales("e4m3"), "k")
    config, q = host.configured(torch, p, "bf16", GemmConfig(128, 128, 6, cluster_m=2), 132)
    assert q.unaligned == (True, False) and q.a is p.a and q.b.stride() == (1024, 1)
    assert len(q.copies) == 1 and q.copies[0][1] is p.b


def test_a_swapped_config_realigns_the_operands_it_swaps(h100, monkeypatch):
    """A swapped-operand config runs D^T = B . A^T: the unaligned marks swap with the operands."""
    monkeypatch.setattr(host, "REALIGN_UNALIGNED", True)
    p = host._problem(torch, _operand(6, 1000, "e4m3"), _operand(4096, 1000, "e4m3"), *_scales("e4m3"), "k")
    p = p._replace(unaligned=(False, True), a=_operand(6, 1008, "e4m3")[:, :1000])
    config, q = host.configured(torch, p, "bf16", SWAP_AB_CONFIGS[0], 132)
    assert q.unaligned == (True, False) and q.a is p.b and q.b is p.a


def test_a_config_without_fitted_terms_reads_in_place(h100):
    """A config the cost model has no terms for (a caller's own): nothing to weigh a copy against."""
    assert gemm_choices.repacked_operands(GemmConfig(128, 64, 4), 3000, 5000, 7000, "bf16", (True, True)) == (
        False, False)


@pytest.mark.parametrize("make", [
    lambda: torch.randn(9, 322).to(torch.bfloat16),
    lambda: torch.randn(322, 9).to(torch.bfloat16).t(),  # a transposed view: copied row-major
    lambda: torch.randn(5, 70).to(E4M3) if E4M3 else None,
    lambda: torch.randn(3, 9, 70).to(torch.float16),  # a batch: layers consecutive
    lambda: torch.randn(3, 70, 9).to(torch.bfloat16).transpose(1, 2),
], ids=["bf16", "transposed", "e4m3", "batch", "batch_transposed"])
def test_a_padded_copy_holds_the_same_values_in_128_byte_rows(make):
    if E4M3 is None:
        pytest.skip("no float8 in this torch")
    x = make()
    copy = host.padded_copy(torch, x)
    pitch = copy.stride(-2) * copy.element_size()
    assert copy.shape == x.shape and copy.stride(-1) == 1 and pitch % 128 == 0 and pitch < x.shape[-1] * 2 + 128
    assert copy.dim() == 2 or copy.stride(0) == copy.shape[1] * copy.stride(1)
    assert torch.equal(copy.float(), x.float()) and not host.odd_pitch(copy)


@pytest.mark.parametrize("shape, stride, odd", [((9, 70), (70, 1), True), ((9, 70), (128, 1), False),
                                                ((9, 70), (80, 1), False),  # 160 bytes: 32 x 5, full speed
                                                ((9, 70), (72, 1), True),  # 144 bytes: 16 x 9
                                                ((1, 70), (70, 1), False), ((2, 9, 70), (640, 64, 1), False),
                                                ((2, 9, 70), (720, 72, 1), True)], ids=str)
def test_what_an_odd_pitch_is(shape, stride, odd):
    assert host.odd_pitch(torch.empty_strided(shape, stride, dtype=torch.bfloat16)) is odd


@pytest.mark.parametrize("layers, m, n, k, repacked", [(4, 3000, 5000, 1000, (True, True)),
                                                       (4, 16, 4096, 1000, (False, False)),
                                                       (8, 2048, 4096, 4096, (False, False))], ids=str)
def test_which_batched_operands_are_repacked(h100, layers, m, n, k, repacked):
    a, b = torch.empty(layers, m, k, dtype=torch.bfloat16), torch.empty(layers, n, k, dtype=torch.bfloat16)
    p = host._problem(torch, a[0], b[0], None, None, "k")
    config, a3, b3 = batched.configured(torch, p, (a, b), ("k", "k"), layers, None)
    assert (a3 is not a, b3 is not b) == repacked, config.name
    assert all(x.shape == y.shape and not host.odd_pitch(y) for x, y, copy in zip((a, b), (a3, b3), repacked) if copy)


def test_the_prior_prices_the_repack_it_takes(h100):
    """3000x5000x7000 with both operands repacked: the model's time plus the two copies (a torch launch each, and
    each operand's bytes read and written); in place (decode), the slower loads instead."""
    config = GemmConfig(128, 192, 4)
    plain = gemm_choices.predicted_us(gemm_choices.COST_MODEL, config, 3000, 5000, 7000, "bf16", 132)
    odd = gemm_choices.predicted_us(gemm_choices.COST_MODEL, config, 3000, 5000, 7000, "bf16", 132,
                                    odd_rows=(True, True))
    copies = 2 * gemm_choices.REPACK_LAUNCH_US + \
        2 * (3000 + 5000) * 7000 * 2 / (BANDWIDTH * gemm_choices.REPACK_BANDWIDTH_SHARE)
    assert odd == pytest.approx(plain + copies)
    decode = GemmConfig(128, 128, 6, wgmma_in_flight=1)
    stepping = gemm_choices.fitted_terms(gemm_choices.COST_MODEL, decode, 16, 4096, 4000, "bf16", 132)[1]
    in_place = gemm_choices.pitch_plan(decode, 16, 4096, 4000, "bf16", stepping, (True, True), BANDWIDTH)
    assert in_place.repacked == (False, False)
    assert in_place.extra_us == pytest.approx((gemm_choices.ODD_PITCH_STEP_SLOWDOWN - 1) * stepping)


def test_an_odd_pitch_can_change_the_priors_config(h100):
    """128 x 8192 x 7000: aligned, the 64-row tile; with odd pitches, the 128 x 64 tile (A repacked, B read in place:
    its copy does not pay), whose loads are half B's rather than two thirds."""
    assert gemm_choices.prior_config(128, 8192, 7000, "bf16").name == "64x128x8w1p"
    assert gemm_choices.prior_config(128, 8192, 7000, "bf16", odd_rows=(True, True)).name == "128x64x8w1"


@pytest.mark.parametrize("make, word", [
    (lambda: torch.randn(9, 520).to(E4M3) if E4M3 else None, torch.int64),  # 520-byte rows: 8-byte words
    (lambda: torch.randn(9, 322).to(torch.bfloat16), torch.int32),  # 644-byte rows: 4-byte words
    (lambda: torch.randn(9, 321).to(torch.bfloat16), torch.bfloat16),  # 642-byte rows: element by element
    (lambda: torch.randn(9 * 64 + 1).to(torch.bfloat16)[1:].view(9, 64), torch.bfloat16),  # 2 bytes off a word
], ids=["e4m3", "bf16", "bf16_odd", "bf16_misaligned"])
def test_copies_move_the_widest_words_both_sides_allow(make, word):
    """padded_copy and a copying replay move rows as the widest integer words that tile the source's and the padded
    copy's rows (torch's copy of 1- and 2-byte elements into strided rows ran at a third of the speed)."""
    if E4M3 is None:
        pytest.skip("no float8 in this torch")
    x = make()
    copy = host.padded_copy(torch, x)
    dst, src = host._word_views(torch, copy, x)
    assert dst.dtype == src.dtype == word and dst.data_ptr() == copy.data_ptr() and src.data_ptr() == x.data_ptr()
    assert torch.equal(copy.float(), x.float())
    launches = []
    replay = host._CopyingReplay(lambda stream: launches.append(stream), ((copy, x),), copy, copy, x.shape[1])
    x.copy_(torch.randn(*x.shape).to(x.dtype))  # new values at the same address: the replay copies them again
    replay(7)
    assert launches == [7] and torch.equal(copy.float(), x.float())
