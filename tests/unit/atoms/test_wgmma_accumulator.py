"""The wgmma accumulator TV layout of a tile, with M repeats per warpgroup (CuTe's order), and its inverse."""

import pytest

from mmatom.atoms.catalogue.fragments import FragmentError, wgmma_accumulator_layout, wgmma_accumulator_tile


def _expected(thread: int, value: int, n: int, warpgroups: int) -> tuple[int, int]:
    """PTX's m64nNk* D fragment (ISA 9.7.15.5.1) for warp w of the warpgroup(s), repeated down M."""
    repeat, v = divmod(value, n // 2)
    lane, warp = thread % 32, thread // 32
    row = 64 * warpgroups * repeat + 16 * warp + lane // 4 + 8 * ((v >> 1) & 1)
    col = 8 * (v >> 2) + 2 * (lane % 4) + (v & 1)
    return row, col


@pytest.mark.parametrize("m, n, warpgroups", [(64, 256, 1), (128, 256, 2), (128, 128, 1), (256, 128, 2),
                                              (256, 64, 1), (128, 8, 1)])
def test_every_thread_and_value(m, n, warpgroups):
    layout = wgmma_accumulator_layout(m, n, warpgroups)
    threads, values = layout[0].size(), layout[1].size()
    assert (threads, values) == (128 * warpgroups, m * n // (128 * warpgroups))
    seen = set()
    for t in range(threads):
        for v in range(values):
            row, col = _expected(t, v, n, warpgroups)
            assert layout((t, v)) == row + m * col, (t, v)
            seen.add((row, col))
    assert len(seen) == m * n  # every element of the tile, once
    assert wgmma_accumulator_tile(layout) == (m, n, warpgroups)


def test_default_is_one_warpgroup_per_64_rows():
    assert str(wgmma_accumulator_layout(128, 64)) == str(wgmma_accumulator_layout(128, 64, 2))


def test_refused():
    with pytest.raises(FragmentError, match="M=192 over 2 warpgroup"):
        wgmma_accumulator_layout(192, 64, 2)
    # a register-atom layout is no wgmma accumulator
    assert wgmma_accumulator_tile(wgmma_accumulator_layout(64, 64).__class__((32, 4), (1, 32))) is None


def test_the_rule_is_checked_on_arrays_and_a_disagreement_named_pair_by_pair(monkeypatch):
    """_fit checks a layout against its rule on arrays of every (thread, value) at once; where they disagree, the
    pair-by-pair loop names the first pair, as it always did."""
    from mmatom.atoms.catalogue import fragments

    on_arrays = []
    check = fragments._rule_gives_everywhere
    monkeypatch.setattr(fragments, "_rule_gives_everywhere", lambda *a: on_arrays.append(check(*a)) or on_arrays[-1])
    wgmma_accumulator_layout.cache_clear()
    wgmma_accumulator_layout(128, 96, 2)
    assert on_arrays == [True]
    off_by_one_at_thread_5 = lambda t, v: (t // 4, 2 * (t % 4) + v + (t == 5))  # noqa: E731
    with pytest.raises(FragmentError, match="at thread 5, value 0"):
        fragments._fit((4, 8), (2,), off_by_one_at_thread_5, 8, lambda row, col: row + 8 * col)
    assert on_arrays[-1] is False
