"""mmatom.gemm's host path for operands TMA cannot address, without a GPU (torch on the CPU; skipped without torch):
what is taken as it is, what is copied once into rows padded 128 bytes apart (the pad never written: the tensor map's
extent is the tensor's), where D is written, and what the caller gets back. The kernel itself: tests/gpu."""

import pytest

torch = pytest.importorskip("torch")

from mmatom.kernels.gemm import GemmConfig, batched, host  # noqa: E402

E4M3 = getattr(torch, "float8_e4m3fn", None)


def _bf16(*shape):
    return torch.randn(*shape).to(torch.bfloat16)


@pytest.mark.parametrize("make", [lambda: _bf16(9, 64), lambda: _bf16(9, 80)[:, :70]],
                         ids=["aligned", "column-slice-of-aligned"])
def test_an_addressable_operand_is_taken_as_it_is(make):
    x = make()
    assert host._aligned_columns(x, 2) is x


@pytest.mark.parametrize("make, elem_bytes, row", [
    (lambda: _bf16(9, 322), 2, 384),  # 644-byte rows: copied into 768-byte ones (a copy is made: 128 B apart)
    (lambda: _bf16(322, 9).t(), 2, 384),  # not row-major
    (lambda: _bf16(9 * 64 + 1)[1:].view(9, 64), 2, 64),  # 2 bytes past a 16-byte boundary
    (lambda: torch.randn(5, 70).to(E4M3), 1, 128),
])
def test_an_unaddressable_operand_is_copied_once_into_padded_rows(make, elem_bytes, row):
    if E4M3 is None:
        pytest.skip("no float8 in this torch")
    x = make()
    copy = host._aligned_columns(x, elem_bytes)
    assert copy.shape == x.shape and copy.stride() == (row, 1) and host._tma_addressable(copy, elem_bytes)
    assert torch.equal(copy.float(), x.float())


@pytest.mark.parametrize("rows_apart, shape, ok", [((70, 1), (9, 70), False), ((72, 1), (9, 70), True),
                                                   ((64, 1), (9, 70), False), ((1, 9), (9, 70), False)])
def test_what_tma_addresses(rows_apart, shape, ok):
    x = torch.empty_strided(shape, rows_apart, dtype=torch.bfloat16)
    assert host._tma_addressable(x, 2) is ok


def test_d_is_out_where_tma_can_store_to_it():
    wide = torch.full((9, 480), float("nan"), dtype=torch.bfloat16)
    out = wide[:, :472]  # rows 960 bytes apart, each ending on a 16-byte boundary: written directly, no copy after
    assert host._output(torch, out, "bf16", 9, 472, out.device) is out
    assert host._result(out, out, 472) is out


def test_an_out_tma_cannot_store_to_is_written_in_place():
    """An out whose rows TMA's stores cannot take -- a column slice whose rows end inside a 16-byte granule (TMA clips
    at granules: it would write columns 470 and 471 too), rows 940 bytes apart -- is D itself: the kernel stores it
    through its pointer (direct_d), no copy."""
    wide = torch.full((9, 480), float("nan"), dtype=torch.bfloat16)
    for out in (wide[:, :470], torch.full((9, 470), float("nan"), dtype=torch.bfloat16)):
        assert host._output(torch, out, "bf16", 9, 470, out.device) is out and not host._tma_storable(out)
        assert host._result(out, out, 470) is out
    assert host._tma_storable(wide) and host._tma_storable(torch.empty(9, 472, dtype=torch.bfloat16))


def test_a_transposed_out_gets_one_copy_of_d():
    out = torch.full((470, 9), float("nan"), dtype=torch.bfloat16).t()  # columns contiguous: not rows
    d = host._output(torch, out, "bf16", 9, 470, out.device)
    assert d is not out and d.shape == (9, 470) and d.stride() == (512, 1)  # 940 bytes padded to 1024
    d.copy_(_bf16(9, 470))
    assert host._result(d, out, 470) is out and torch.equal(out, d)


def test_without_out_d_is_the_kernels_matrix():
    d = host._output(torch, None, "f32", 3, 5, torch.device("cpu"))
    assert d.shape == (3, 5) and d.stride() == (32, 1) and d.dtype == torch.float32  # 20 bytes padded to 128
    assert host._output(torch, None, "bf16", 3, 8, torch.device("cpu")).is_contiguous()  # 16-byte rows: exact
    assert host._result(d, None, 5) is d


@pytest.mark.parametrize("make, fp8, major, copied", [
    (lambda: _bf16(3, 9, 64), False, "k", False),
    (lambda: _bf16(3, 64, 16).transpose(1, 2), False, "m", False),  # a per-layer transpose: read M-major
    (lambda: _bf16(3, 64, 9).transpose(1, 2), False, "k", True),  # 18-byte rows either way
    (lambda: _bf16(3, 64, 16).to(E4M3).transpose(1, 2) if E4M3 else None, True, "k", True),  # fp8: K-major only
], ids=["k_major", "transposed_view", "odd", "fp8_transposed"])
def test_a_batched_operand_is_read_as_stored_where_tma_can(make, fp8, major, copied):
    if E4M3 is None:
        pytest.skip("no float8 in this torch")
    x = make()
    read, got_major = batched._as_read(torch, x, "m", fp8)
    assert got_major == major and (read.data_ptr() != x.data_ptr()) is copied and batched._addressable(read)
    assert torch.equal((read if major == "k" else read.transpose(1, 2)).float(), x.float())


def test_a_batch_chooses_its_config_as_layers_of_its_own_problem(monkeypatch):
    """The batch's config is chosen for L layers of M x N x K (each layer's partial tiles), not for L*M rows."""
    class Chosen(Exception):
        pass

    def choose_config(*args, **kwargs):
        raise Chosen(args[:3], kwargs["layers"])
    monkeypatch.setattr(host, "_check_tensors", lambda *_args, **_kwargs: None)  # CPU tensors stand in for CUDA's
    monkeypatch.setattr(batched, "choose_config", choose_config)
    with pytest.raises(Chosen) as chosen:
        batched.batched_gemm(torch, _bf16(4, 300, 64), _bf16(4, 520, 64), out=None, scale_a=None, scale_b=None,
                             config=None, b_major="k", out_dtype=None)
    assert chosen.value.args == ((300, 520, 64), 4)


def test_a_replayed_call_copies_its_operands_again_then_d_into_out():
    """A call that padded its operands is kept as a replay: the operands copied again into the buffers the packed
    launch reads (the caller may have written new values), the launch, then D's columns into `out`."""
    a = _bf16(9, 322)
    padded = host._aligned_columns(a, 2)
    d, out = host._output(torch, None, "bf16", 9, 470, a.device), torch.empty(9, 470, dtype=torch.bfloat16)
    launched = []
    replay = host._with_copies(lambda stream: launched.append((stream, padded.clone())), ((padded, a),), d, out, 470)
    a.copy_(_bf16(9, 322))
    d.copy_(_bf16(9, 470))
    replay("stream")
    assert launched[0][0] == "stream" and torch.equal(launched[0][1], a) and torch.equal(out, d[:, :470])
    assert replay.held_bytes >= padded.untyped_storage().nbytes() + a.untyped_storage().nbytes()


def test_replays_holding_copies_stay_under_their_byte_budget(monkeypatch):
    """The oldest replays that hold copies make room for a new one; one larger than the budget is not kept."""
    monkeypatch.setattr(host, "_PREPARED", {})
    monkeypatch.setattr(host, "_HELD_BYTES", 0)
    monkeypatch.setattr(host, "COPY_BYTES_KEPT", 1000)
    first, second, third, big = (host._with_copies(lambda s: None, ((_bf16(n), _bf16(n)),), None, None, 1)
                                 for n in (100, 100, 100, 400))  # 400 bytes each, big 1600
    host._keep_prepared(("first",), first)
    host._keep_prepared(("plain",), lambda stream: None)
    host._keep_prepared(("second",), second)
    host._keep_prepared(("third",), third)  # 1200 > 1000: the first goes
    host._keep_prepared(("big",), big)
    assert list(host._PREPARED) == [("plain",), ("second",), ("third",)] and host._HELD_BYTES == 800


def test_a_replay_without_out_launches_into_each_new_d_and_holds_none(monkeypatch):
    """A call that allocated its D, replayed: a new D each time, the launch packed for its address (a split-K config
    with its K slices, as the first call ran it) or taken again where the allocator hands an address back -- and no
    D held (one held would keep its address from coming back to the allocator)."""
    import weakref
    from types import SimpleNamespace
    config = GemmConfig.from_name("128x128x6w1s")
    planned = SimpleNamespace(copies=(), config=config, m=5, n=7, k=64, dtypes=("bf16", "bf16"),
                              operand_types="bf16", unaligned=(False, False))
    d = host._padded_empty(torch, (5, 7), torch.bfloat16, torch.device("cpu"), 2)
    made, packed = [], []

    def prepared(p, c, into, out_dtype, split, sms, direct=False):  # a packed launch holds D's address, not D
        address = into.data_ptr()
        packed.append((address, split))
        return lambda stream: made.append((stream, address))

    monkeypatch.setattr(host, "_prepared_launch", prepared)
    monkeypatch.setattr(host, "sm_count", lambda: 132)
    monkeypatch.setattr(host, "splits", lambda *args: 3)
    replay = host._OwnOutput(torch, planned, d, "bf16", prepared(planned, config, d, "bf16", 3, 132))
    gone = weakref.ref(d)
    del d
    assert gone() is None
    first = replay(torch, 7)
    second = replay(torch, 8)
    assert [stream for stream, _ in made] == [7, 8]
    assert [address for _, address in made] == [first.data_ptr(), second.data_ptr()]
    assert all(split == 3 for _, split in packed)


@pytest.mark.parametrize("n, k", [(203, 203), (203, 300)], ids=["square", "wide"])
def test_an_n_major_b_off_16_bytes_is_copied_row_for_row_and_recorded_so(monkeypatch, n, k):
    """`a @ b`'s B (K x N) with rows an odd pitch apart: copied row for row into 128-byte-pitched rows and read
    N-major, the copy recorded against the K x N matrix it mirrors (a replay copies that again; at N == K the N x K
    view would have passed a shape check and copied the transpose). A config that reads no N-major B (a narrow
    tile) gets the K-major copy it reads."""
    monkeypatch.setattr(host, "_check_tensors", lambda *_args, **_kwargs: None)  # CPU tensors stand in for CUDA's
    a, b = _bf16(8, k), _bf16(k, n)
    p = host._problem(torch, a, b, None, None, "n")
    (copy, source), = p.copies
    assert p.majors == ("k", "n") and p.b is copy and tuple(copy.shape) == (k, n) and copy.stride(0) == 256
    assert source.data_ptr() == b.data_ptr() and source.stride() == b.stride() and torch.equal(copy, b)
    narrow = host._problem(torch, a, b, None, None, "n", GemmConfig.from_name("128x96x6w1"))
    assert narrow.majors == ("k", "k") and torch.equal(narrow.b, b.t())
    assert narrow.copies[0][1].stride() == b.t().stride()


def test_a_few_columns_of_a_m_major_are_transposed_not_row_copied(monkeypatch):
    """A transposed view of K x M storage, M rows under 128 bytes and off 16 bytes: one small K-major copy."""
    monkeypatch.setattr(host, "_check_tensors", lambda *_args, **_kwargs: None)
    a_km = _bf16(300, 3)
    p = host._problem(torch, a_km.t(), _bf16(64, 300), None, None, "k")
    assert p.majors == ("k", "k") and tuple(p.a.shape) == (3, 300) and torch.equal(p.a, a_km.t())
