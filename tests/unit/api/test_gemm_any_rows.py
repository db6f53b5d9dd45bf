"""mmatom.gemm's any-rows template without a GPU (torch on the CPU; skipped without torch): which calls share one
(_any_rows_key: everything but A's and D's rows and addresses), which the full path keeps one for, and what a
template's call launches -- the problem with the new M and A, swapped for a swapped-operand config, split-K's
slices -- or leaves to the full path (M = 0, an address TMA cannot take, D of other rows). The launches: tests/gpu."""

import pytest

torch = pytest.importorskip("torch")

from mmatom.kernels.gemm import SWAP_AB_CONFIGS, GemmConfig, host  # noqa: E402
from mmatom.kernels.gemm.config import SPLIT_K_CONFIGS  # noqa: E402


def _bf16(*shape):
    return torch.randn(*shape).to(torch.bfloat16)


def test_calls_that_differ_in_m_and_where_a_and_d_are_share_a_key():
    b, big = _bf16(96, 64), _bf16(50, 64)
    key = host._any_rows_key(big[:7], b, torch.empty(7, 96, dtype=torch.bfloat16), None, None, None, "k", None)
    assert key == host._any_rows_key(big[3:40], b, torch.empty(37, 96, dtype=torch.bfloat16), None, None, None, "k",
                                     None)
    others = [(_bf16(7, 64), b.clone()), (big[:7, :32], b[:, :32]), (big[:7].float(), b.float())]
    for a, b_other in others:  # another B (even equal), another K or stride, another type
        assert host._any_rows_key(a, b_other, torch.empty(7, 96, dtype=a.dtype), None, None, None, "k", None) != key
    assert host._any_rows_key(big[:7], b, None, None, None, None, "k", None) != key  # D allocated: its own
    assert host._any_rows_key(big[:7], b, None, None, None, None, "n", None) != \
        host._any_rows_key(big[:7], b, None, None, None, None, "k", None)
    assert host._any_rows_key("a", b, None, None, None, None, "k", None) is None


def _problem(m=8, n=96, k=64, a=None, b=None):
    a = _bf16(m, k) if a is None else a
    b = _bf16(n, k) if b is None else b
    return host.Problem(("bf16", "bf16"), m, n, k, a, b, ("k", "k"), (), None, None), a, b


def test_the_full_path_keeps_a_template_only_where_nothing_was_copied_or_pitched_off():
    p, a, b = _problem()
    d = torch.empty(8, 96, dtype=torch.bfloat16)
    assert host._AnyRows.takes(p, a, d, d) and host._AnyRows.takes(p, a, d, None)
    assert not host._AnyRows.takes(p._replace(a=a.clone()), a, d, d)  # A copied
    assert not host._AnyRows.takes(p, a, d[:, :90], None)  # D not whole
    odd, _, _ = _problem(k=72, a=_bf16(8, 88)[:, :72], b=_bf16(96, 88)[:, :72])  # rows 176 bytes apart: 16 x 11
    assert not host._AnyRows.takes(odd, odd.a, d, d)
    assert not host._AnyRows.takes(p._replace(rowwise=True), a, d, d)


@pytest.fixture
def launches(monkeypatch):
    seen = []
    monkeypatch.setattr(host, "_prepared_launch", lambda p, config, d, out, split, sms, direct=False:
                        seen.append((p, config, d, split)) or (lambda stream: None))
    monkeypatch.setattr(host, "current_stream", lambda torch, device: 0)
    monkeypatch.setattr(host, "sm_count", lambda: 132)
    monkeypatch.setattr(host._Bound, "takes", staticmethod(lambda now, direct: False))  # every call: the full launch
    return seen


def test_a_templates_call_launches_the_problem_with_the_new_m(launches, monkeypatch):
    p, a, b = _problem()
    template = host._AnyRows(p, b, "bf16", None, torch.bfloat16)
    config = GemmConfig(128, 128, 6, wgmma_in_flight=1)
    monkeypatch.setattr(host, "choose_config", lambda m, *args, **kwargs: config)
    new_a = _bf16(40, 64)
    d, _ = template.run(torch, new_a, b, None, None, None)
    (q, used, written, _), = launches
    assert used == config and written is d and d.shape == (40, 96) and d.dtype == torch.bfloat16
    assert (q.m, q.n, q.k) == (40, 96, 64) and q.a is new_a and q.b is b


def test_a_swapped_config_runs_the_problem_swapped(launches, monkeypatch):
    p, a, b = _problem()
    monkeypatch.setattr(host, "choose_config", lambda m, *args, **kwargs: SWAP_AB_CONFIGS[0])
    new_a, out = _bf16(5, 64), torch.empty(5, 96, dtype=torch.bfloat16)
    assert host._AnyRows(p, b, "bf16", None, torch.bfloat16).run(torch, new_a, b, out, None, None)[0] is out
    (q, used, _, _), = launches
    assert used.swap_ab and (q.m, q.n) == (96, 5) and q.a is b and q.b is new_a


def test_what_a_template_leaves_to_the_full_path(launches, monkeypatch):
    p, a, b = _problem()
    template = host._AnyRows(p, b, "bf16", None, torch.bfloat16)
    monkeypatch.setattr(host, "choose_config", lambda m, *args, **kwargs: GemmConfig())
    assert template.run(torch, _bf16(0, 64), b, None, None, None) is None  # M = 0: an empty D
    assert template.run(torch, _bf16(5 * 64 + 1)[1:].view(5, 64), b, None, None, None) is None  # misaligned A
    assert template.run(torch, _bf16(5, 64), b, torch.empty(6, 96, dtype=torch.bfloat16), None, None) is None
    assert launches == []


def test_a_templates_split_k_call_takes_the_slices_of_its_own_m(launches, monkeypatch):
    """Split-K goes through the template like any config (its workspace is the stream's, not the call's): the K
    slices the cost model gives the new problem, read unswapped (a swapped split config: M x N, not N x M)."""
    p, a, b = _problem()
    template = host._AnyRows(p, b, "bf16", None, torch.bfloat16)
    asked = []
    monkeypatch.setattr(host, "splits", lambda config, m, n, k, dtype, sms: asked.append((m, n, k)) or 3)
    for config in (SPLIT_K_CONFIGS[0], GemmConfig.from_name("128x16x8w1st")):
        monkeypatch.setattr(host, "choose_config", lambda m, *args, config=config, **kwargs: config)
        template.run(torch, _bf16(5, 64), b, None, None, None)
    assert [split for *_, split in launches] == [3, 3] and asked == [(5, 96, 64)] * 2
    assert (launches[1][0].m, launches[1][0].n) == (96, 5)  # the swapped config runs D^T


def test_odd_rows_take_the_template_only_where_its_config_realigns_them(launches, monkeypatch):
    """A template of a call whose rows were realigned (odd K, no copy): a new M's config realigns them too, or the
    call goes the full way (which copies them) -- never a realigning kernel the config cannot be, nor tensor maps
    of rows TMA cannot address."""
    p, a, b = _problem(k=63, a=_bf16(8, 63), b=_bf16(96, 63))
    p = p._replace(unaligned=(True, True))
    template = host._AnyRows(p, b, "bf16", None, torch.bfloat16)
    verdicts = []
    monkeypatch.setattr(host, "_realigned_by", lambda config, now, sms: verdicts.append(config) or
                        ((True, True) if config.swap_ab else (False, False)))
    monkeypatch.setattr(host, "splits", lambda *args: 1)
    for config in (SWAP_AB_CONFIGS[0], GemmConfig(128, 256, 4, cluster_m=2)):
        monkeypatch.setattr(host, "choose_config", lambda m, *args, config=config, **kwargs: config)
        ran = template.run(torch, _bf16(5, 63), b, None, None, None)
        assert (ran is not None) == config.swap_ab, config.name
    assert len(verdicts) == 2 and len(launches) == 1 and launches[0][0].unaligned == (True, True)


def test_a_split_launch_packed_later_holds_addresses_not_the_calls_tensors(monkeypatch):
    """A split-K launch packs per stream, later: it keeps the call's per-call tensors (fp8 scales, a realigned
    operand, a direct D) as addresses -- holding them would keep them alive, the next call's could not land where
    they were, and the prepared-launch cache, keyed by address, would miss on every call."""
    import gc
    import weakref

    from mmatom.kernels.torch_launch import DeviceAddress, addresses

    class CudaLike:  # what the runtime reads of a CUDA tensor
        is_cuda = True

        def __init__(self, address):
            self.address = address

        def data_ptr(self):
            return self.address

        def get_device(self):
            return 0

    scale, map_, size = CudaLike(0x7F00), object(), 4096
    held = addresses([map_, size, scale])
    assert held[0] is map_ and held[1] == size and isinstance(held[2], DeviceAddress)
    assert held[2].data_ptr() == 0x7F00 and held[2].get_device() == 0 and held[2].is_cuda
    alive = weakref.ref(scale)
    del scale
    gc.collect()
    assert alive() is None  # the address kept nothing alive

    # the split-K launch's own packing: fp8 with rowwise scales, packed (here: recorded) when a stream calls it
    packed = []

    class Kernel:
        def prepare(self, *args, grid, device):
            packed.append(args)
            return lambda stream: None
    monkeypatch.setattr(host, "gemm_kernel", lambda **kwargs: Kernel())
    monkeypatch.setattr(host, "tensor_map", lambda x, *box: map_)
    import mmatom.kernels.split_workspace as workspaces
    monkeypatch.setattr(workspaces, "split_workspace", lambda *args: (CudaLike(0x100), CudaLike(0x200)))
    scale_a, scale_b = CudaLike(0xA000), CudaLike(0xB000)
    p = host.Problem(("e4m3", "e4m3"), 256, 512, 8192, CudaLike(0x1000), CudaLike(0x2000), ("k", "k"), (), scale_a,
                     scale_b, rowwise=True)
    d = CudaLike(0x3000)
    d.device = "cuda:0"
    run = host._prepared_launch(p, SPLIT_K_CONFIGS[1], d, "bf16", 4, 132)
    alive = [weakref.ref(x) for x in (scale_a, scale_b)]
    del scale_a, scale_b, p
    gc.collect()
    assert [ref() for ref in alive] == [None, None]  # the packed-later launch holds neither scale
    run(7)
    scales = packed[0][-2:]
    assert [x.data_ptr() for x in scales] == [0xA000, 0xB000] and all(isinstance(x, DeviceAddress) for x in scales)


class _Map:
    """A tensor map as the launches below read it: where, how many rows, which box."""

    def __init__(self, address, rows, box):
        self.address, self.rows, self.box = address, rows, box

    def over(self, address, rows):
        return _Map(address, rows, self.box)

    def __eq__(self, other):
        return isinstance(other, _Map) and (self.address, self.rows, self.box) == (other.address, other.rows,
                                                                                  other.box)


def _packed(args):
    """A launch's arguments comparable: tensors and addresses by address."""
    return [x.data_ptr() if hasattr(x, "data_ptr") else x for x in args]


@pytest.mark.parametrize("config", [GemmConfig(128, 128, 6, wgmma_in_flight=1), GemmConfig(128, 256, 4, cluster_m=2),
                                    SWAP_AB_CONFIGS[0]], ids=lambda c: c.name)
@pytest.mark.parametrize("dtype", ["bf16", "e4m3"])
def test_a_resolved_config_launches_a_new_m_as_the_full_launch_does(monkeypatch, config, dtype):
    """A template's config resolved on its first call (_Bound: the kernel, B's map, A's and D's maps to move) packs
    a new M's launch with the arguments, grid and GPU _prepared_launch gives the same problem -- swapped operands,
    fp8 scales and all."""
    packed = []

    class Kernel:
        def prepare(self, *args, grid, device):
            packed.append((_packed(args), grid, device))
            return packed[-1]
    monkeypatch.setattr(host, "gemm_kernel", lambda **kwargs: Kernel())
    monkeypatch.setattr(host, "tensor_map", lambda x, rows, cols, swizzle="128b": _Map(x.data_ptr(), x.shape[0],
                                                                                      (rows, cols, swizzle)))
    torch_dtype = torch.bfloat16 if dtype == "bf16" else torch.float8_e4m3fn
    b = torch.zeros(96, 64, dtype=torch_dtype)
    scales = (torch.ones(1), torch.ones(1)) if dtype == "e4m3" else (None, None)

    def as_run(m):
        a, d = torch.zeros(m, 64, dtype=torch_dtype), torch.empty(m, 96, dtype=torch.bfloat16)
        p = host.Problem((dtype, dtype), m, 96, 64, a, b, ("k", "k"), (), *scales, config=config)
        return (host._swapped(p) if config.swap_ab else p), a, d

    first, _, d = as_run(8)
    bound = host._Bound(first, d, "bf16")
    now, a, d = as_run(13)
    assert bound.prepare(a, d, 13, 132) == host._prepared_launch(now, config, d, "bf16", 1, 132)
    assert packed[-1][0][0] != packed[-1][0][1]  # (two different maps: the comparison saw both operands)
