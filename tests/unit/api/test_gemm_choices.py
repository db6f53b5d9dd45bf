"""The GEMM's config choice without a GPU: the autotuner's store (a JSON file per cache dir), the prior used
before a problem is tuned, and compile_generated (a generator's kernel found by its key, not rebuilt)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import mmatom
from mmatom.kernels.gemm import CONFIGS, ROW64_TILE, SWAP_AB_CONFIGS, GemmConfig, build_gemm, choose_config
from mmatom.kernels.gemm.config import NARROW_TILES
from mmatom.kernels.gemm import choices as gemm_choices
from mmatom.kernels.gemm.choices import COST_MODEL


@pytest.fixture
def h100(tmp_path, monkeypatch):
    """A cache dir of its own and the H100's identity (no GPU needed to choose a config)."""
    monkeypatch.setenv("MMATOM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(gemm_choices, "gpu_name", lambda: "NVIDIA H100 80GB HBM3 (132 SMs)")
    monkeypatch.setattr(gemm_choices, "sm_count", lambda: 132)
    monkeypatch.setattr(gemm_choices, "dram_bytes_per_us", lambda: 3.35e6)  # HBM3, 5120 bits at 2.6 GHz DDR
    gemm_choices.forget()
    yield tmp_path
    gemm_choices.forget()


SWEEP = Path(__file__).resolve().parents[3] / "records" / "sweep-2026-11-26-h100" / "gemm_sweep.json"


@pytest.mark.parametrize("dtype, within", [("bf16", 255), ("e4m3", 225)])
def test_the_prior_is_never_far_from_the_fastest_config(h100, monkeypatch, dtype, within):
    """On the recorded H100 sweep (every config shipped then, the swapped ones on M <= 64, on 300 shapes nobody tuned
    for), the prior's pick without split-K among those configs is within 5% of the fastest config without split-K on
    most shapes (263 and 236 when fitted) and never pathological (at worst 1.48x / 1.75x; the widest-tile rule of
    old was 3.7x). The narrow tiles came later: the sweep did not time them."""
    monkeypatch.setattr(gemm_choices, "CONFIGS", tuple(c for c in CONFIGS if c not in NARROW_TILES))
    gemm_choices.forget()
    ratios = []
    for row in (r for r in json.loads(SWEEP.read_text()) if r["dtype"] == dtype):
        times = {name: t for name, t in row["times_us"].items()
                 if name != "cublas" and not GemmConfig.from_name(name).split_k}
        ratios.append(times[choose_config(row["m"], row["n"], row["k"], dtype, split_k=False).name] / min(times.values()))
    assert len(ratios) == 300
    assert sum(r <= 1.05 for r in ratios) >= within and max(ratios) < 1.8, sorted(ratios)[-5:]


NARROW_SWEEP = SWEEP.parents[1] / "gemm-2026-11-27-h100-s27" / "narrow_sweep.json"
NARROW_SWEEP_CONFIGS = ("128x96x6w1", "128x128x6w1", "128x160x5w1", "128x192x4w1", "128x224x4", "128x256x4")


@pytest.mark.parametrize("dtype, within, worst", [("bf16", 230, 1.4), ("e4m3", 225, 1.4)])
def test_the_prior_among_the_narrow_tiles_and_their_neighbours(h100, monkeypatch, dtype, within, worst):
    """On the H100 sweep that timed the narrow tiles beside their wide neighbours (300 shapes), the prior restricted
    to those six configs picks one within 5% of their fastest on most shapes (234 / 228 when their terms were put on
    the table; the three wide ones alone: 212 / 237) and never far off."""
    six = tuple(GemmConfig.from_name(name) for name in NARROW_SWEEP_CONFIGS)
    monkeypatch.setattr(gemm_choices, "CONFIGS", six)
    gemm_choices.forget()
    ratios = []
    for row in (r for r in json.loads(NARROW_SWEEP.read_text()) if r["dtype"] == dtype):
        times = {name: row["times_us"][name] for name in NARROW_SWEEP_CONFIGS}
        pick = choose_config(row["m"], row["n"], row["k"], dtype, split_k=False, swap_ab=False)
        ratios.append(times[pick.name] / min(times.values()))
    assert len(ratios) == 300
    assert sum(r <= 1.05 for r in ratios) >= within and max(ratios) < worst, sorted(ratios)[-5:]


def test_the_autotuners_pool_holds_every_config_the_prior_may_pick(h100):
    """mmatom.gemm_autotune's default candidates: the prior's whole pool -- for M <= 64 the swapped-operand tiles
    covering M and their split-K variants too (without them a tuned decode shape could only be slower than the
    prior's swapped pick) --, so the prior's pick is among them; split-K in clusters of two (the swapped tiles'
    where they cover M); a batch neither splits K nor swaps operands."""
    from mmatom.kernels.gemm import CLUSTER_2X2_CONFIGS, CLUSTER_K_CONFIGS, SPLIT_K_CONFIGS, STREAM_K_CONFIGS
    from mmatom.kernels.gemm.autotune import autotune_candidates
    everywhere = set(CONFIGS + SPLIT_K_CONFIGS + STREAM_K_CONFIGS + CLUSTER_2X2_CONFIGS)
    assert set(autotune_candidates(512, "bf16")) == everywhere | {c for c in CLUSTER_K_CONFIGS if not c.swap_ab}
    for m, dtype in ((1, "bf16"), (8, "e4m3"), (24, "f16"), (64, "bf16")):
        pool = autotune_candidates(m, dtype)
        swapped = {c for c in pool if c.swap_ab}
        assert swapped and all(m <= c.block_n for c in swapped), (m, sorted(c.name for c in swapped))
        assert {replace(c, split_k=True) for c in swapped if not (c.split_k or c.cluster_k > 1)} <= swapped
        assert {replace(c, cluster_k=2) for c in swapped if not (c.split_k or c.cluster_k > 1)} <= swapped
        assert {c for c in SWAP_AB_CONFIGS if m <= c.block_n} <= swapped
        assert set(gemm_choices.candidates(m, split_k=True, swap_ab=True, dtype=dtype)) <= set(pool)
        assert choose_config(m, 4096, 14336, dtype) in pool and len(set(pool)) == len(pool)
    batch = autotune_candidates(8, "bf16", layers=4)
    assert batch and not any(c.split_k or c.stream_k or c.swap_ab or c.cluster_k > 1 for c in batch)
    assert choose_config(8, 4096, 4096, "bf16", layers=4) in batch


def test_the_prior_on_shapes_the_old_rule_got_wrong(h100):
    assert choose_config(2048, 11008, 4096, "bf16") == GemmConfig(128, 128, 6, wgmma_in_flight=1)  # was 128x64x8w1
    small_m = choose_config(64, 8192, 8192, "bf16")  # 128-row tiles would be half TMA's zero rows
    assert small_m == ROW64_TILE or small_m.swap_ab and small_m.block_n == 64, small_m.name  # M on wgmma's N
    assert choose_config(4096, 8192, 8192, "bf16").block_m == 128
    assert choose_config(1, 4096, 4096, "f16", split_k=False, swap_ab=False) == ROW64_TILE
    assert choose_config(1, 4096, 4096, "f16", split_k=False).swap_ab  # M = 1 on wgmma's N = 16



@pytest.mark.parametrize("m, width", [(1, 16), (8, 16), (16, 16), (17, 32), (32, 32), (33, 64), (64, 64)])
@pytest.mark.parametrize("bandwidth", [3.35e6, 4.8e6])  # an H100's DRAM, an H200's
def test_a_memory_bound_swapped_call_takes_the_narrowest_tile_that_covers_m(h100, m, width, bandwidth):
    """Decode shapes past one wave of 128-row tiles of B: the swapped configs stream the same B under the memory
    floor, and the narrowest covering M moves the fewest zero rows (was 128x64 for M = 1: 13% slower on an H200)."""
    pick = gemm_choices.prior_config(m, 28672, 8192, "bf16", split_k=False, bandwidth=bandwidth)
    assert pick.swap_ab and pick.block_n == width, pick.name
    assert gemm_choices.prior_config(m, 18944, 3584, "bf16", split_k=False, bandwidth=bandwidth).block_n == width

@pytest.mark.parametrize("m, n, k, dtype", [(1, 4096, 11008, "bf16"), (8, 1024, 16384, "f16"), (32, 2048, 28672, "e4m3"),
                                            (64, 4096, 14336, "bf16"), (16, 1024, 65536, "bf16"),
                                            (8, 4096, 4096, "bf16")])
def test_few_output_tiles_with_a_long_k_split_it(h100, m, n, k, dtype):
    """Small M: the output is a few dozen tiles for 132 SMs; split-K fills them (a wave of units) in K slices (the
    swapped-operand configs, M on wgmma's N, are the other answer: left out here)."""
    config = choose_config(m, n, k, dtype, swap_ab=False)
    count = gemm_choices.splits(config, m, n, k, dtype, 132)
    assert config.split_k and 2 <= count <= 16, (config.name, count)
    units = -(-m // config.block_m) * -(-n // config.block_n) * count
    assert units <= 132 * 2  # no more than two waves of units
    assert (count - 1) * -(-k // config.block_k(dtype)) // count < -(-k // config.block_k(dtype))  # no empty slice


@pytest.mark.parametrize("m, n, k", [(4096, 4096, 4096), (2048, 11008, 4096), (512, 8192, 256), (128, 28672, 8192)])
def test_many_output_tiles_or_a_short_k_do_not(h100, m, n, k):
    """Enough tiles for the SMs, or a K too short to pay for the partial sums' traffic and the last slice's wait."""
    assert not choose_config(m, n, k, "bf16").split_k


def test_an_empty_grid_is_priced_without_dividing_by_its_ctas(h100):
    """M or N of 0 (the host returns an empty D before asking; a direct caller of the prior may not)."""
    assert gemm_choices.prior_config(0, 4096, 4096, "bf16").swap_ab
    assert gemm_choices.prior_config(1, 0, 4096, "bf16").swap_ab


def test_operands_that_stay_in_l2_have_no_dram_floor(h100):
    """4096 x 4096 bf16 (33.5 MB) fits L2_RESIDENT_BYTES: the fitted time alone, however few the CTAs; 5120 x 5120
    (52 MB) does not."""
    config = GemmConfig.from_name("128x16x8w1t")
    fitted = gemm_choices.fitted_terms(COST_MODEL, config, 1, 4096, 4096, "bf16", 132)[0]
    assert gemm_choices.predicted_us(COST_MODEL, config, 1, 4096, 4096, "bf16", 132) == \
        pytest.approx(max(fitted, gemm_choices.HOST_US))
    dram = (5120 + 5120 * 5120) * 2 / (3.35e6 * gemm_choices.DRAM_SHARE)
    assert gemm_choices.predicted_us(COST_MODEL, config, 1, 5120, 5120, "bf16", 132) >= dram


def test_a_grid_too_small_to_reach_drams_share_streams_slower(h100):
    """32 swapped tiles of 8 x 4096 x 14336 bf16 draw 32 CTAs' worth of DRAM, under DRAM_SHARE of the H100's: the
    floor scales by the shortfall; in two slices (64 CTAs) it is DRAM's own again."""
    config, split = GemmConfig.from_name("128x16x8w1t"), GemmConfig.from_name("128x16x8w1st")
    dram = (8 * 14336 + 4096 * 14336) * 2 / (3.35e6 * gemm_choices.DRAM_SHARE)
    short = 3.35e6 * gemm_choices.DRAM_SHARE / (32 * gemm_choices.CTA_STREAM_BYTES_PER_US)
    assert short > 1
    assert gemm_choices.predicted_us(COST_MODEL, config, 8, 4096, 14336, "bf16", 132) == pytest.approx(dram * short)
    costs = gemm_choices._split_costs(8, 4096, 2, 3.35e6)
    assert gemm_choices.predicted_us(COST_MODEL, split, 8, 4096, 14336, "bf16", 132, splits=2) == \
        pytest.approx(dram + costs)


@pytest.mark.parametrize("m, n, k, dtype, pick, slices", [
    (8, 4096, 14336, "bf16", "128x16x8w1st", 2),  # 32 tiles: whole 44.0-46.1 us, in two slices 42.6-44.2
    (64, 5120, 5120, "bf16", "128x64x8w1t", 1),  # 40 tiles: whole 22.0-22.5, in two 24.8-25.3
    (1, 5120, 5120, "bf16", "128x16x8w1t", 1),  # whole 20.4-21.0, in two 21.8-22.5
    (64, 4096, 14336, "e4m3", "128x64x8w1st", 2),  # in two 26.3-27.1, in three 28.3-28.7
    (1, 4096, 4096, "bf16", "128x16x8w1st", 4),  # 33.5 MB, L2-resident: four slices 9.9, three 11.1
    (64, 4096, 4096, "bf16", "128x64x8w1st", 4),  # four 12.0-12.9, three 13.5-13.6
    (8, 4608, 3584, "bf16", "128x16x8w1st", 3),  # three 9.6, two 10.3
])
def test_memory_bound_decode_rows_split_only_where_the_grid_is_short_of_dram(h100, m, n, k, dtype, pick, slices):
    """Session 36's H100 probes (records/gemm-2026-12-07-s36, kernel times): a grid of 40 tiles already streams B at
    DRAM's share, so its splits only add their costs; one of 32 tiles gains from a second slice; operands that stay
    in L2 have no DRAM floor, and more slices pay there."""
    config = gemm_choices.prior_config(m, n, k, dtype)
    assert (config.name, gemm_choices.splits(config, m, n, k, dtype, 132)) == (pick, slices)


def test_slices_stop_one_past_a_wave_and_one_slice_is_never_chosen(h100):
    """Past one wave of units a slice only adds its launch, traffic and tiles: splits() looks no further; and a
    split-K config at one slice is its base config plus the split's costs, so the prior never returns it."""
    split = next(c for c in gemm_choices.SPLIT_K_CONFIGS if c.block_m == 128 and c.block_n == 128)
    for m, n, k in ((1, 4096, 11008), (16, 14336, 4096), (200, 8192, 28672), (4096, 4096, 4096)):
        units = -(-m // 128) * -(-n // 128)
        assert gemm_choices.splits(split, m, n, k, "bf16", 132) <= max(1, 132 // units) + 1
    for m, n, k in ((4096, 4096, 4096), (2048, 11008, 4096), (8192, 8192, 1024)):
        assert not choose_config(m, n, k, "bf16").split_k


@pytest.mark.parametrize("m, n, k, dtype", [(8, 4096, 14336, "bf16"), (64, 4096, 14336, "e4m3"),
                                             (1, 4096, 4096, "bf16"), (48, 1000, 4096, "bf16"), (8, 4608, 3584, "bf16"),
                                             (64, 4096, 192, "bf16"), (3, 640, 200, "e4m3")])
def test_a_split_tiles_last_slice_leads_the_others_by_about_their_publishing(h100, m, n, k, dtype):
    """slice_steps: the slices but the last walk even shares of K less the last's lead (no more than even shares);
    the last walks the rest (the others' publishing under its K loop), never fewer steps than they do wherever
    there are as many steps as slices; without a publishing time to cover, the slices are even (the last takes
    the remainder)."""
    config = gemm_choices.prior_config(m, n, k, dtype)
    config = config if config.split_k else replace(config, split_k=True)
    steps = -(-k // config.block_k(dtype))
    for slices in range(1, 5):
        each = gemm_choices.slice_steps(config, m, n, k, dtype, 132, slices)
        last = steps - (slices - 1) * each
        if slices == 1:
            assert each == steps
            continue
        assert 1 <= each <= -(-steps // slices) and (last >= each or steps < slices)
    each = gemm_choices.slice_steps(config, m, n, k, dtype, 132, 2)
    lead_us = gemm_choices.SPLIT_HANDOVER_US
    gemm_choices.SPLIT_HANDOVER_US = 0.0
    try:
        assert gemm_choices.slice_steps(config, m, n, k, dtype, 132, 2) == max(1, min(steps // 2, steps - 1))
    finally:
        gemm_choices.SPLIT_HANDOVER_US = lead_us
    assert each <= -(-steps // 2)
    # a realigning kernel's steps are slower (REALIGN_STEP_US): its lead is fewer steps, never more
    assert each <= gemm_choices.slice_steps(config, m, n, k, dtype, 132, 2, realigning=True) <= -(-steps // 2)


# small odd-K rows (session 34, H100 kernel durations, records/gemm-2026-12-07-s34/): the realigning split variant
# 64x128x8w1ps against its operands copied first
SMALL_ODD = [(146, 367, 1274), (28, 660, 1391), (8, 1027, 906)]


@pytest.mark.parametrize("m, n, k", SMALL_ODD)
def test_a_realigning_split_takes_the_slices_that_cost_least(h100, m, n, k):
    """Not as many slices as fill the SMs (14-16 here: session 33 measured such calls 12-14 us over the walk's
    price) but the count whose walk plus slice costs is least -- fewer, and no dearer than any other count."""
    config = GemmConfig.from_name("64x128x8w1ps")
    chosen = gemm_choices.realign_splits(config, m, n, k, "bf16", 132)
    z = gemm_choices._sized(config, gemm_choices._priced(COST_MODEL, config, "bf16"), n, k, 132)
    filling = min(gemm_choices.MAX_SPLITS, z.k_steps, z.ctas // (gemm_choices._m_units(z, m) * z.n_units))
    priced = {s: gemm_choices._realigning_split_us(config, m, n, k, "bf16", 132, s, 3.35e6)
              for s in range(1, filling + 1)}
    assert 1 < chosen < filling and priced[chosen] == min(priced.values()), (chosen, filling)


@pytest.mark.parametrize("m, n, k", SMALL_ODD)
def test_small_odd_rows_are_copied_where_the_realigning_kernels_start_outweighs_the_copy(h100, m, n, k):
    """Operands of a few hundred KB: the copy costs less than the realigning kernel's start (REALIGN_FIXED_US) and
    walk -- measured 7-10 us copied against 14-17 realigned."""
    config = GemmConfig.from_name("64x128x8w1ps")
    assert not gemm_choices.realign_pays(config, m, n, k, "bf16", (m + n) * k * 2)
    assert gemm_choices.realigning_us(config, m, n, k, "bf16") >= gemm_choices.REALIGN_FIXED_US + \
        gemm_choices.REALIGN_STEP_US


def test_large_odd_operands_are_still_realigned(h100):
    """Copying 4 MB and more (a decode weight of an odd K) costs more than a short realigning walk."""
    for name, (m, n, k), dtype in (("64x128x8w1ps", (9, 4090, 1000), "e4m3"),
                                   ("128x16x8w1st", (6, 8152, 27021), "bf16")):
        size = 1 if dtype == "e4m3" else 2
        assert gemm_choices.realign_pays(GemmConfig.from_name(name), m, n, k, dtype, (m + n) * k * size), name


def test_the_prior_is_the_cost_models_argmin(h100):
    """The prior's fast path (the pool sized once per N and K, split-K's slices searched only where a split call
    could win) picks what the model itself ranks first among the configs without split-K -- the least
    (predicted_us, its fitted part), the first candidate on a tie; a swapped one, the narrowest swapped one covering
    M, where no rows are odd -- and then that config's split-K variant at its
    splits() where the model ranks it lower still (never at one slice); on random shapes, dtypes, majors, odd
    pitches and batches."""
    import random
    from dataclasses import replace

    rng = random.Random(24)
    splits_seen = 0
    for _ in range(400):
        m = rng.choice([rng.randint(1, 64), rng.randint(1, 512), rng.randint(1, 16384)])
        n, k = rng.randint(256, 28672), rng.randint(256, 28672)
        dtype, layers = rng.choice(["bf16", "f16", "e4m3", "e4m3xe5m2"]), rng.choice([1, 1, 1, 4])
        a_major, b_major = rng.choice([("k", "k"), ("k", "n"), ("m", "k")])
        odd = (rng.random() < 0.2, rng.random() < 0.2)
        split_k = layers == 1 and rng.random() < 0.8
        ranked = {}
        for i, config in enumerate(gemm_choices.candidates(m, split_k, layers == 1, dtype)):
            if not gemm_choices._takes_majors(config, a_major, b_major) or (config.swap_ab and m > config.block_n):
                continue
            s = gemm_choices.splits(config, m, n, k, dtype, 132)
            if config.split_k and s == 1:
                continue
            terms = dict(splits=s, layers=layers, odd_rows=odd)
            ranked[config] = (gemm_choices.predicted_us(COST_MODEL, config, m, n, k, dtype, 132, **terms),
                              gemm_choices.predicted_us(COST_MODEL, config, m, n, k, dtype, 132, bounded=False,
                                                        **terms), i, config)
        plain = min(v for c, v in ranked.items() if not c.split_k)
        if plain[3].swap_ab and not any(odd):  # then the narrowest swapped tile covering M (_narrowest_streaming)
            plain = min((c.block_n, v) for c, v in ranked.items() if c.swap_ab and not c.split_k)[1]
        split = ranked.get(replace(plain[3], split_k=True))
        want = split[3] if split is not None and split[:2] < plain[:2] else plain[3]
        chosen = choose_config(m, n, k, dtype, b_major, a_major, split_k, layers, layers == 1, odd)
        assert chosen == want, (m, n, k, dtype, layers, odd, chosen.name, want.name)
        splits_seen += chosen.split_k
    assert splits_seen >= 10  # the split branch was taken


def test_a_stored_choice_wins_and_persists(h100):
    key = gemm_choices.problem_key("NVIDIA H100 80GB HBM3 (132 SMs)", "bf16", 4096, 4096, 4096)
    gemm_choices.store(key, CONFIGS[1], {"128x256x4": 101.0, "128x128x6": 99.5})
    assert choose_config(4096, 4096, 4096, "bf16") == CONFIGS[1]
    gemm_choices.forget()  # as a fresh process: read from the file
    assert choose_config(4096, 4096, 4096, "bf16") == CONFIGS[1]
    other = gemm_choices.problem_key("NVIDIA H100 PCIe (114 SMs)", "bf16", 4096, 4096, 4096)
    gemm_choices.store(other, CONFIGS[2], {})
    gemm_choices.forget()
    assert choose_config(4096, 4096, 4096, "bf16") == CONFIGS[1]  # another GPU's choice kept beside, not used


def test_a_batch_is_layers_of_a_layers_tiles():
    """L = 4 layers of 3000 rows: 24 row tiles each (the last of 56 rows), 96 in all -- not the 94 of 12000 folded
    rows; x 40 column tiles of 5000 is 30 waves of 132, not 29."""
    config = GemmConfig(128, 128, 6, wgmma_in_flight=1)
    assert gemm_choices.model_terms(config, 3000, 5000, 1000, "bf16", 132, layers=4) == (30, 16)
    assert gemm_choices.model_terms(config, 4 * 3000, 5000, 1000, "bf16", 132) == (29, 16)


def test_a_batch_reads_every_layers_a_and_b():
    """The DRAM floor of a batch: L x (M K + N K) elements (each layer has its own B), not the folded L M K + N K."""
    config = GemmConfig(128, 256, 4)
    floor = 64 * (64 * 4096 + 4096 * 4096) * 2 / (3.35e6 * gemm_choices.DRAM_SHARE)
    assert gemm_choices.predicted_us(gemm_choices.COST_MODEL, config, 64, 4096, 4096, "bf16", 132, bandwidth=3.35e6,
                                     layers=64) == pytest.approx(floor)


def test_a_batch_of_small_layers_gets_the_64_row_tile(h100):
    """64 layers of 64 rows: a 128-row tile would be half TMA's zero rows in every layer; folded into 4096 rows the
    64-row tile was not even a candidate."""
    assert choose_config(64, 4096, 4096, "bf16", split_k=False, layers=64) == ROW64_TILE
    assert choose_config(64 * 64, 4096, 4096, "bf16", split_k=False).block_m == 128


def test_a_batch_has_its_own_stored_choice(h100):
    """A stored choice for L*M rows is not a batch's (its tiles straddle the layers otherwise); the batch's own is."""
    gpu = "NVIDIA H100 80GB HBM3 (132 SMs)"
    folded, own = GemmConfig(256, 128, 4), GemmConfig(128, 192, 4)
    gemm_choices.store(gemm_choices.problem_key(gpu, "bf16", 4 * 3000, 5000, 1000), folded, {})
    assert choose_config(3000, 5000, 1000, "bf16", split_k=False, layers=4) != folded
    key = gemm_choices.problem_key(gpu, "bf16", 3000, 5000, 1000, layers=4)
    assert key.endswith("|bf16|L4x3000x5000x1000")
    gemm_choices.store(key, own, {})
    assert choose_config(3000, 5000, 1000, "bf16", split_k=False, layers=4) == own
    assert choose_config(4 * 3000, 5000, 1000, "bf16") == folded


def test_a_swapped_config_tiles_d_transposed():
    """128 rows of B (N) x 16 of A (M) per tile: 8 x 4096 is 32 tiles, one wave."""
    assert gemm_choices.model_terms(SWAP_AB_CONFIGS[0], 8, 4096, 4096, "bf16", 132) == (1, 64)


def test_swapped_configs_are_candidates_only_with_measured_terms():
    """Not guessed at: a table without their terms leaves them out; one that has them (the shipped one, fitted on
    the H100 sweep) makes those covering M candidates (M <= 64), each also split-K (priced by its base's terms)
    unless split_k is off, and only where swap_ab is allowed."""
    swapped = [(c.block_n, c.split_k) for c in gemm_choices.candidates(8, swap_ab=True) if c.swap_ab]
    assert swapped == [(16, False), (32, False), (64, False), (16, True), (32, True), (64, True)]
    assert [c.block_n for c in gemm_choices.candidates(8, False, swap_ab=True) if c.swap_ab] == [16, 32, 64]
    assert not any(c.swap_ab for c in gemm_choices.candidates(8, swap_ab=True, table={"16-bit": {}}))
    table = {"16-bit": {c.name: (1.0, 1.0, 0.1) for c in SWAP_AB_CONFIGS}}
    swapped = [c.block_n for c in gemm_choices.candidates(17, False, swap_ab=True, table=table) if c.swap_ab]
    assert swapped == [32, 64]
    assert not any(c.swap_ab for c in gemm_choices.candidates(65, swap_ab=True, table=table))
    assert not any(c.swap_ab for c in gemm_choices.candidates(8, swap_ab=False, table=table))
    assert not any(c.swap_ab for c in gemm_choices.candidates(8, swap_ab=True, dtype="e4m3", table=table))


def test_the_prior_picks_a_swapped_config_where_its_terms_say_so(h100, monkeypatch):
    """With measured terms that make 128x16x8w1t fastest on M = 8, the prior takes it -- also for `a @ b`'s N-major B
    (the swapped kernel's M-major A); not for an M-major A (its N-major B: build_gemm takes it on the 64-wide config,
    the prior does not), nor where D is f32 (swap_ab False) or the call is a batch."""
    fast = dict(gemm_choices.COST_MODEL["16-bit"], **{c.name: (0.5, 0.5, 0.01) for c in SWAP_AB_CONFIGS})
    monkeypatch.setattr(gemm_choices, "COST_MODEL", {"16-bit": fast, "fp8": gemm_choices.COST_MODEL["fp8"]})
    gemm_choices.forget()
    assert choose_config(8, 4096, 4096, "bf16", split_k=False) == SWAP_AB_CONFIGS[0]
    assert not choose_config(8, 4096, 4096, "bf16", split_k=False, swap_ab=False).swap_ab
    assert choose_config(8, 4096, 4096, "bf16", b_major="n", split_k=False) == SWAP_AB_CONFIGS[0]
    assert not choose_config(8, 4096, 4096, "bf16", a_major="m", split_k=False).swap_ab
    assert not choose_config(8, 4096, 4096, "bf16", split_k=False, layers=2).swap_ab


def test_a_corrupt_tuning_file_is_no_choice(h100):
    gemm_choices.tuning_file().parent.mkdir(parents=True)
    prior = choose_config(8192, 8192, 8192, "bf16")
    gemm_choices.tuning_file().write_text("{not json")
    gemm_choices.forget()
    assert choose_config(8192, 8192, 8192, "bf16") == prior
    gemm_choices.tuning_file().write_text('{"x": {"config": {"block_q": 1}}}')
    gemm_choices.forget()
    key = gemm_choices.problem_key("NVIDIA H100 80GB HBM3 (132 SMs)", "bf16", 8, 8, 8)
    gemm_choices.tuning_file().write_text('{"%s": {"config": {"block_q": 1}}}' % key)
    assert choose_config(8, 8, 8, "bf16") in CONFIGS  # a stored config this version cannot read: the prior


def test_compile_generated_finds_the_kernel_without_building_it(h100):
    built = []

    def build():
        built.append(1)
        module, _ = build_gemm()
        return module

    key = ["test.gemm", 256, 256, 128]
    first = mmatom.compile_generated(key, build)
    mmatom.compiler.compile_cache.CACHE.memory.clear()  # as a fresh process: the entry is read from disk
    again = mmatom.compile_generated(key, build)
    assert built == [1] and again.ptx == first.ptx
    mmatom.compile_generated(["test.gemm", 256, 256, 64], build)  # another key: built again
    assert built == [1, 1]
    with pytest.raises(mmatom.CompileError, match="not JSON-able"):
        mmatom.compile_generated(object(), build)


def test_raster_group_makes_a_wave_square_in_bytes():
    """sqrt(132 * BN / BM) rows of tiles (units of cluster_m rows in a cluster); an explicit group_m wins."""
    assert GemmConfig(128, 256, 4).raster_group == 16
    assert GemmConfig(128, 128, 6).raster_group == 11
    assert GemmConfig(128, 64, 8).raster_group == 8
    assert GemmConfig(128, 256, 4, cluster_m=2).raster_group == 8
    assert GemmConfig(128, 256, 4, group_m=4).raster_group == 4
    with pytest.raises(mmatom.CompileError, match="group_m=-1"):
        mmatom.gemm_kernel(config=GemmConfig(group_m=-1))


def test_another_processs_choice_is_seen_once_the_file_is_checked_again(h100, monkeypatch):
    """The tuning file is stat-ed at most every RECHECK_S seconds (a new shape's first call pays no file system
    call): a choice another process wrote is seen after that, and a store() reads the file as it is first."""
    key = gemm_choices.problem_key(gemm_choices.gpu_name(), "bf16", 1000, 1000, 1000)
    assert gemm_choices.stored(gemm_choices.problem_key(gemm_choices.gpu_name(), "bf16", 1, 1, 1)) is None
    other = {key: {"config": {"block_m": 128, "block_n": 64, "stages": 8}}}
    gemm_choices.tuning_file().parent.mkdir(parents=True, exist_ok=True)
    gemm_choices.tuning_file().write_text(json.dumps(other))
    assert gemm_choices.stored(key) is None  # within RECHECK_S of the last check: not looked at
    monkeypatch.setattr(gemm_choices, "RECHECK_S", 0.0)
    gemm_choices._MEMORY.clear()
    assert gemm_choices.stored(key)["config"]["block_n"] == 64
    monkeypatch.setattr(gemm_choices, "RECHECK_S", 1e9)
    gemm_choices.store("mine", ROW64_TILE, {})
    assert set(json.loads(gemm_choices.tuning_file().read_text())) == {key, "mine"}


# the mid-size rows a wave of 128 x 128 tiles leaves L2-bound (records/GEMM.md, sessions 31 and 35)
ONE_WAVE = [(2496, 704, 6528, "bf16"), (1472, 1088, 5632, "e4m3")]


@pytest.mark.parametrize("m, n, k, dtype", ONE_WAVE)
def test_a_wave_of_128x128_tiles_the_resident_clusters_hold_runs_in_2x2_clusters(h100, m, n, k, dtype):
    """Where the prior picks 128x128x6w1 and its tiles make one wave (120 and 108 of 132 SMs) whose 2x2 units (30)
    the GPU holds as clusters at once, the call runs the 2x2-cluster variant; one resident cluster fewer and its
    30 units would run a second wave of clusters: unclustered. The GPU is asked only where the wave qualifies."""
    asked = []

    def resident(variant: GemmConfig) -> int:
        asked.append(variant.name)
        return 30

    assert choose_config(m, n, k, dtype).name == "128x128x6w1"  # no GPU to ask: the prior alone
    assert choose_config(m, n, k, dtype, resident_clusters=resident).name == "128x128x6w1c2x2"
    assert asked == ["128x128x6w1c2x2"]
    assert choose_config(m, n, k, dtype, resident_clusters=lambda variant: 29).name == "128x128x6w1"


def test_the_one_wave_cluster_rule_leaves_other_grids_majors_batches_and_stored_choices(h100):
    """Unclustered: 128 tiles of 32 units over 30 resident clusters (a second wave of clusters ran 1.7-1.9x slower),
    many waves (not asked), an N-major B (no cluster multicasts an MN-major operand), a batch, odd row pitches --
    and a choice the autotuner stored, which is returned as stored."""
    asked = []

    def resident(variant: GemmConfig) -> int:
        asked.append((variant.name, len(asked)))
        return 30

    assert choose_config(2048, 1024, 4096, "bf16", resident_clusters=resident).name == "128x128x6w1"
    assert asked == [("128x128x6w1c2x2", 0)]
    assert choose_config(8192, 8192, 8192, "bf16", resident_clusters=resident).cluster_size == 1
    assert choose_config(2496, 704, 6528, "bf16", b_major="n", resident_clusters=resident).cluster_size == 1
    assert choose_config(2496, 704, 6528, "bf16", layers=2, resident_clusters=resident).cluster_size == 1
    assert choose_config(2496, 704, 6528, "bf16", odd_rows=(True, True), resident_clusters=resident).cluster_size == 1
    assert len(asked) == 1
    key = gemm_choices.problem_key(gemm_choices.gpu_name(), "bf16", 2496, 704, 6528)
    gemm_choices.store(key, GemmConfig.from_name("128x128x6w1"), {"128x128x6w1": 52.8})
    assert choose_config(2496, 704, 6528, "bf16", resident_clusters=resident).name == "128x128x6w1"


def test_split_k_in_a_cluster_is_priced_at_its_hand_over_and_never_the_priors(h100):
    """A cluster_k config runs its base's K loop in its slices and adds CLUSTER_K_US where split-K through global
    memory adds its fix-up and partial-sum traffic (_split_costs); the prior's pool holds none of them (they are
    the autotuner's: CLUSTER_K_CONFIGS)."""
    from mmatom.kernels.gemm import CLUSTER_K_CONFIGS
    m, n, k, bw = 512, 1280, 18560, 3.35e6
    split, paired = GemmConfig.from_name("128x64x8w1s"), GemmConfig.from_name("128x64x8w1c1x1x2")
    times = [gemm_choices.predicted_us(COST_MODEL, c, m, n, k, "bf16", 132, splits=2, bandwidth=bw)
             for c in (split, paired)]
    added = gemm_choices._split_costs(m, n, 2, bw) - gemm_choices.CLUSTER_K_US
    assert times[0] - times[1] == pytest.approx(added)
    for m in (1, 64, 512):
        assert not set(gemm_choices.candidates(m, split_k=True, swap_ab=True)) & set(CLUSTER_K_CONFIGS)
