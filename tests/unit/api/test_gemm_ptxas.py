"""ptxas gates of the shipped GEMM kernels (CPU, sm_90a): every configuration and element type assembles with
0 spill bytes and without any ptxas warning -- in particular no C75xx line ("wgmma.mma_async instructions are
serialized ...", "'setmaxnreg' ignored ..."), which would mean a silent loss of speed."""

from typing import NamedTuple

import pytest
from compile_pool import compile_pool

import mmatom
from mmatom.kernels.gemm import CLUSTER_2X2_CONFIGS, CONFIGS, STREAM_K_CONFIGS, GemmConfig, build_gemm
from mmatom.kernels.gemm.kernel import realigned_ring

pytestmark = pytest.mark.ptxas
# (A, B) element types -> D: every config for bf16 and e4m3 into bf16 and f32, f16 into f16; mixed fp8 kinds on two
CASES = [(config, dtypes, out) for config in CONFIGS for dtypes, outs in ((("bf16",) * 2, ("bf16", "f32")),
                                                                         (("e4m3",) * 2, ("bf16", "f32")),
                                                                         (("f16",) * 2, ("f16",)))
         for out in outs] + [(CONFIGS[0], ("e4m3", "e5m2"), "f16"), (CONFIGS[1], ("e5m2", "e4m3"), "bf16")] + [
    (config, (dtype,) * 2, out) for config in CLUSTER_2X2_CONFIGS for dtype, out in (("bf16", "bf16"), ("e4m3", "f32"))]


class Compiled(NamedTuple):
    """What a gate reads of a compiled kernel, made in a pool's worker (its ptxas run there)."""
    launch: object
    metadata: object
    ptx: str


def _compiled(kwargs: dict) -> Compiled:
    """build_gemm(**kwargs), compiled and assembled."""
    module, launch = build_gemm(**kwargs)
    kernel = mmatom.compile(module, options={"cache": False})
    return Compiled(launch, kernel.metadata, kernel.ptx)


def _metadata(case):
    config, (dtype, b_dtype), out = case
    module, launch = build_gemm(dtype, "sm_90a", config, out, b_dtype)  # one kernel per config: every shape
    kernel = mmatom.compile(module, options={"cache": False})
    return launch, kernel.metadata, kernel.ptx


def test_every_shipped_config_assembles_clean():
    with compile_pool() as pool:
        results = list(pool.map(_metadata, CASES))
    for (config, dtype, out), (launch, meta, ptx) in zip(CASES, results):
        what = f"{config} {dtype} -> {out}"
        assert meta.spill_bytes == 0, f"{what}: {meta.spill_bytes} spill bytes"
        assert meta.warnings == (), f"{what}: ptxas warned: {meta.warnings}"
        assert launch.shared_bytes <= 232448 and launch.block == (384, 1, 1), what
        assert ".minnctapersm 1" in ptx and "setmaxnreg.inc.sync.aligned.u32 232" in ptx, what
        # the epilogue: a 16-bit D staged with stmatrix.x4 (one per 16 columns of a warp's 16 rows), an f32 D with
        # one st.shared.v2.f32 per pair of columns of each of a thread's two rows
        # (per 64-row repeat of a warpgroup that covers more rows)
        repeats = config.block_m // (64 * config.tile_warpgroups)
        if out in ("bf16", "f16"):
            assert ptx.count("stmatrix.sync.aligned.m8n8.x4") == repeats * config.block_n // 16, what
        else:
            assert ptx.count("st.shared.v2.f32") == repeats * config.block_n // 4 and "stmatrix" not in ptx, what
        # each warpgroup issues its repeats' wgmma atoms per K step (m64, N the tile's)
        atoms = repeats * config.block_k(dtype) // (32 if dtype == "e4m3" else 16)
        assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n{config.block_n}k") == atoms, what
        # a pipelined consumer waits to depth 1 in its K loop; a cluster multicasts B and releases its peer's
        # stages with CTA-scope remote arrivals (a cluster-scope release costs a MEMBAR.GPU per K step)
        assert ("wgmma.wait_group.sync.aligned 1;" in ptx) == (config.wgmma_in_flight == 1), what
        # ping-pong: the two consumer warpgroups take turns through named barriers 3 and 4 (256 threads)
        turns = [line.split()[0] for line in ptx.splitlines() if line.strip().startswith("bar.") and "256;" in line]
        assert turns == (["bar.sync", "bar.arrive"] if config.pingpong else []), what
        if config.cluster_size > 1:
            assert f".reqnctapercluster {config.cluster_size}, 1, 1" in ptx and ".multicast::cluster" in ptx, what
            # each operand the cluster shares is one multicast load a K step: B down a column of CTAs, A along
            # a row, both in a 2x2 cluster
            shared = (config.cluster_m > 1) + (config.cluster_n > 1)
            assert ptx.count(".multicast::cluster [") == shared, what
            assert "mbarrier.arrive.shared::cluster.b64" in ptx and "arrive.release.cluster" not in ptx, what
        else:
            assert ".explicitcluster" not in ptx and "mapa" not in ptx, what


# a D stored through its pointer (direct_d: the caller's out at a pitch TMA cannot store to), per consumer schedule,
# swapped operands, a cluster, an f32 D
DIRECT_D = [(GemmConfig.from_name(name), dtype, out) for name, dtype, out in (
    ("128x256x4", "bf16", "bf16"), ("128x128x6w1", "e4m3", "f32"), ("64x128x8w1p", "f16", "f16"),
    ("128x256x4c2x1", "e4m3", "bf16"), ("128x16x8w1t", "e4m3", "bf16"), ("128x64x8w1t", "bf16", "bf16"))]


def _direct_metadata(case):
    config, dtype, out = case
    module, launch = build_gemm(dtype, "sm_90a", config, out, direct_d=True)
    kernel = mmatom.compile(module, options={"cache": False})
    return kernel.metadata, kernel.ptx


def test_direct_d_variants_assemble_clean_and_store_d_in_chunks():
    with compile_pool() as pool:
        results = list(pool.map(_direct_metadata, DIRECT_D))
    for (config, dtype, out), (meta, ptx) in zip(DIRECT_D, results):
        what = f"{config} {dtype} -> {out} direct_d"
        assert meta.spill_bytes == 0 and meta.warnings == (), f"{what}: {meta}"
        # every staged box read back and stored by the warpgroup, no TMA store: inside D's columns, a row's 16-byte
        # chunks as aligned 16-byte stores, 4 rows a warp step (the row's last lane, a row off 16 bytes: the two
        # partial chunks at its ends as 4 words, and a 16-bit D's first and last elements alone); the box
        # holding D's last column 4 bytes a lane, a row a warp step (a 16-bit D: a pair, and the two elements a row
        # off 4 bytes leaves unpaired)
        rows = config.block_n if config.swap_ab else 64
        boxes = 1 if config.swap_ab else config.block_n * (4 if out == "f32" else 2) // 128
        stored_rows = config.block_m // (64 * config.tile_warpgroups) * boxes * rows // 4
        steps = stored_rows // 4
        assert ptx.count("st.global.v4.b32") == steps, what
        ends = 4 * steps  # the partial chunks' words
        if out == "f32":
            assert (ptx.count("st.global.f32"), ptx.count("st.global.b32")) == (stored_rows, ends), what
        else:
            assert ptx.count("st.global.b32") == stored_rows + ends, what
            assert ptx.count("st.global.b16") == 2 * stored_rows + 2 * steps, what
        assert "cp.async.bulk.tensor.2d.global" not in ptx, what
        assert ("stmatrix" in ptx) == (out != "f32"), what  # staged as before: stmatrix, or st.shared.v2.f32


def test_ptxas_warning_is_seen():
    """The gate can fail: an accumulator read after the commit and before the wait makes ptxas inject a wait
    (C7517, an `info` line), and the metadata reports it."""
    lines = mmatom.gemm_kernel().ptx.splitlines()
    commit = next(i for i, line in enumerate(lines) if "wgmma.commit_group" in line)
    first = next(i for i, line in enumerate(lines) if "wgmma.mma_async" in line)
    register = lines[first].split("{")[1].split(",")[0]
    lines.insert(commit + 1, f"\tadd.f32 {register}, {register}, {register};")
    kernel = mmatom.Kernel("\n".join(lines), mmatom.gemm_kernel().entries, "sm_90a")
    assert any("(C7517)" in w for w in kernel.metadata.warnings), kernel.metadata


def test_direct_d_and_split_k_refuse_a_batch():
    with pytest.raises(mmatom.CompileError, match=r"stored through its pointer \(direct_d\) takes one 2-d D, not "
                                                 r"a batch; config 128x256x4"):
        build_gemm("bf16", "sm_90a", CONFIGS[0], "bf16", batched=True, direct_d=True)
    with pytest.raises(mmatom.CompileError, match=r"a split-K or stream-K config \(64x128x8w1ps\) runs one GEMM's "
                                                 r"K slices or runs, not a batch"):
        build_gemm("bf16", "sm_90a", GemmConfig.from_name("64x128x8w1ps"), "bf16", batched=True)
    with pytest.raises(mmatom.CompileError, match=r"a split-K or stream-K config \(128x256x4k\)"):
        build_gemm("bf16", "sm_90a", GemmConfig.from_name("128x256x4k"), "bf16", batched=True)


STREAM_K = [(config, dtype) for config in STREAM_K_CONFIGS for dtype in ("bf16", "e4m3")]


def _stream_k_metadata(case):
    config, dtype = case
    module, launch = build_gemm(dtype, "sm_90a", config, "bf16")
    kernel = mmatom.compile(module, options={"cache": False})
    return kernel.metadata, kernel.ptx


def test_stream_k_variants_assemble_clean_with_the_fixup():
    """Each stream-K config: 0 spills, no ptxas warning; the epilogue twice (a tile computed whole, and the sum of
    a split tile's segments), the partial sums' publication (a gpu-scope fence, the tile counter's atomic add, the
    reducing barrier that hands the finding on)."""
    with compile_pool() as pool:
        results = list(pool.map(_stream_k_metadata, STREAM_K))
    for (config, dtype), (meta, ptx) in zip(STREAM_K, results):
        what = f"{config} {dtype}"
        assert meta.spill_bytes == 0 and meta.warnings == (), f"{what}: {meta}"
        repeats = config.block_m // (64 * config.tile_warpgroups)
        assert ptx.count("stmatrix.sync.aligned.m8n8.x4") == 2 * repeats * config.block_n // 16, what
        assert "fence.acq_rel.gpu" in ptx and "atom.relaxed.gpu.global.add" in ptx and "bar.red.or.pred" in ptx, what


# the slice sums beside what else holds registers: a D stored through its pointer after split-K and stream-K sums,
# stream-K's f32 D (each spilled 8 to 348 bytes while their sums took 32 or 64 accumulators a pass)
SUMMED = [(GemmConfig.from_name(name), dtype, out, direct) for name, dtype, out, direct in (
    ("64x128x8w1ps", "bf16", "bf16", True), ("128x128x6w1s", "e4m3", "bf16", True),
    ("128x256x4k", "bf16", "f32", False), ("128x128x6w1k", "e4m3", "bf16", True), ("128x64x8w1k", "e4m3", "bf16", True),
    ("256x128x4k", "bf16", "f32", False))]


def _summed_metadata(case):
    config, dtype, out, direct = case
    module, launch = build_gemm(dtype, "sm_90a", config, out, direct_d=direct)
    return mmatom.compile(module, options={"cache": False}).metadata


def test_split_and_stream_k_sums_beside_a_direct_or_f32_d_assemble_clean():
    with compile_pool() as pool:
        results = list(pool.map(_summed_metadata, SUMMED))
    for (config, dtype, out, direct), meta in zip(SUMMED, results):
        assert meta.spill_bytes == 0 and meta.warnings == (), f"{config} {dtype} -> {out} direct_d={direct}: {meta}"


def test_a_direct_d_takes_stream_k_tiles_of_64_accumulators():
    """A D stored through its pointer after stream-K's fixup: at most 64 accumulators a thread (128 spilled); the
    host runs such a call on the tile's whole-tile config (host._staging_for)."""
    from mmatom.kernels.gemm.host import _staging_for
    with pytest.raises(mmatom.CompileError, match=r"after stream-K's fixup holds at most 64 accumulators a thread "
                                                  r"\(ptxas spilled beside 128\); config 128x256x4k: its whole-tile "
                                                  r"config 128x256x4"):
        build_gemm("e4m3", "sm_90a", GemmConfig.from_name("128x256x4k"), "bf16", direct_d=True)
    for name, ran in (("128x256x4k", "128x256x4"), ("256x128x4k", "256x128x4"), ("128x128x6w1k", "128x128x6w1k")):
        assert _staging_for(GemmConfig.from_name(name), "bf16", True).name == ran
        assert _staging_for(GemmConfig.from_name(name), "bf16", False).name == name


def test_stream_k_takes_cooperative_unclustered_whole_tile_walks():
    for name in ("128x128x6w1pk", "128x256x4c2x1k", "128x64x8w1sk", "128x16x8w1kt"):
        with pytest.raises(mmatom.CompileError, match="stream-K runs cooperative consumers on unswapped, "
                                                      "unclustered tiles, without split-K"):
            mmatom.gemm_kernel(config=GemmConfig.from_name(name))
    with pytest.raises(mmatom.CompileError, match=r"a stream-K config \(128x256x4k\) with realigned operands "
                                                  r"\['a'\]; the realigning producer walks whole tiles"):
        build_gemm("e4m3", "sm_90a", GemmConfig.from_name("128x256x4k"), "bf16", realigned=("a",))


def test_config_limits_are_compile_errors():
    with pytest.raises(mmatom.CompileError, match="block_n=80; a multiple of 32 in"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(block_n=80))
    narrow = GemmConfig.from_name("128x160x5w1")  # a 16-bit D staged in 64-byte rows; B's N-major boxes are 64 wide
    with pytest.raises(mmatom.CompileError, match="an N-major B is loaded in boxes of 64 columns of N; config "
                                                  "128x160x5w1 tiles N by 160"):
        build_gemm("bf16", "sm_90a", narrow, "bf16", b_major="n")
    with pytest.raises(mmatom.CompileError, match="config 128x160x5w1 stages bf16 D in 64-byte rows"):
        build_gemm("bf16", "sm_90a", narrow, "bf16", direct_d=True)
    with pytest.raises(mmatom.CompileError, match="block_m=64"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(block_m=64))
    with pytest.raises(mmatom.CompileError, match="out_dtype 'f64'; one of bf16, f16, f32"):
        mmatom.gemm_kernel(out_dtype="f64")
    with pytest.raises(mmatom.CompileError, match="A is bf16 and B f16; both the same 16-bit type, or both fp8"):
        mmatom.gemm_kernel(dtype="bf16", b_dtype="f16")
    with pytest.raises(mmatom.CompileError, match="dtype 'f32'; one of bf16, f16, e4m3, e5m2"):
        mmatom.gemm_kernel(dtype="f32")
    with pytest.raises(mmatom.CompileError, match="wgmma_in_flight=2"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(wgmma_in_flight=2))
    with pytest.raises(mmatom.CompileError, match="cluster 4x1"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(cluster_m=4))
    with pytest.raises(mmatom.CompileError, match=r"cluster 1x4; 1x1, 2x1 \(sharing B\), 1x2 \(sharing A\) or 2x2"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(cluster_n=4))
    # ping-pong: one warpgroup holds the whole tile's accumulators
    with pytest.raises(mmatom.CompileError, match="a 128x256 tile is 256 f32 accumulators per consumer thread"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(128, 256, pingpong=True))
    with pytest.raises(mmatom.CompileError, match="block_m=256 with ping-pong consumers"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(256, 64, pingpong=True))
    with pytest.raises(mmatom.CompileError, match="a 256x256 tile is 256 f32 accumulators"):
        mmatom.gemm_kernel(config=mmatom.GemmConfig(256, 256))


def test_config_names_round_trip():
    from mmatom.kernels.gemm import GemmConfig
    assert [c.name for c in CONFIGS][:2] == ["128x256x4", "128x128x6w1"]
    for config in CONFIGS:
        assert GemmConfig.from_name(config.name) == config
    assert GemmConfig.from_name("128x256x4c2") == GemmConfig(128, 256, 4, cluster_m=2)  # the earlier spelling
    assert GemmConfig.from_name("256x128x4c1x2").cluster_n == 2 and GemmConfig.from_name("128x128x6p").pingpong
    paired = GemmConfig(128, 16, 8, wgmma_in_flight=1, swap_ab=True, cluster_k=4)
    assert paired.name == "128x16x8w1c1x1x4t" and GemmConfig.from_name(paired.name) == paired
    assert paired.cluster_size == 1 and paired.cluster_ctas == 4
    with pytest.raises(mmatom.CompileError, match="128x128x6w1c2x1"):
        GemmConfig.from_name("128x128")


def test_n_major_b_assembles_clean():
    """B given K x N (`a @ b`): every config without a cluster multicasting B, bf16 and f16, wgmma's tnspB set --
    but the narrow tiles, whose N (96, 160, 224) the 64-column boxes of an N-major B do not divide (refused:
    test_config_limits_are_compile_errors)."""
    from mmatom.kernels.gemm.config import BOX, check_majors
    configs = [c for c in CONFIGS if c.cluster_m == 1 and c.block_n % BOX == 0]

    cases = [dict(dtype=t, config=c, out_dtype=t, b_major="n") for c in configs for t in ("bf16", "f16")]
    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, cases))
    for kernel in kernels:
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == ()
        mma = next(line for line in kernel.ptx.splitlines() if "wgmma.mma_async" in line)
        assert mma.rstrip().endswith("1, 1, 1, 0, 1;"), mma  # scale-d, imm-scale-a/b, tnspA 0, tnspB 1
    with pytest.raises(mmatom.CompileError, match="an MN-major B takes 16-bit types"):
        check_majors("gemm", "k", "n", "e4m3", CONFIGS[0])


def test_m_major_a_assembles_clean():
    """A given K x M (a transposed view's storage): every config without a cluster multicasting A (bf16; f16 on two),
    alone and with an N-major B, wgmma's tnspA set."""
    from mmatom.kernels.gemm.config import check_majors
    configs = [c for c in CONFIGS if c.cluster_n == 1]
    cases = [(c, "bf16", "k") for c in configs] + [(c, "f16", "n") for c in configs[:2]] + \
        [(c, "bf16", "n") for c in configs if c.cluster_m == 1][:3]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(dtype=t, config=c, out_dtype=t, b_major=b, a_major="m")
                                            for c, t, b in cases]))
    for (config, _, b_major), kernel in zip(cases, kernels):
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), config.name
        mma = next(line for line in kernel.ptx.splitlines() if "wgmma.mma_async" in line)
        assert mma.rstrip().endswith(f"1, 1, 1, 1, {int(b_major == 'n')};"), mma  # tnspA 1, tnspB as B's major
    with pytest.raises(mmatom.CompileError, match="an MN-major A takes 16-bit types and no cluster multicasting it"):
        check_majors("gemm", "m", "k", "bf16", GemmConfig(256, 128, 4, cluster_n=2))
    with pytest.raises(mmatom.CompileError, match=r"a_major 'x'; 'k' \(A is M x K\) or 'm'"):
        check_majors("gemm", "x", "k", "bf16", CONFIGS[0])


def test_swapped_configs_read_a_at_b_layouts_clean():
    """A swapped-operand config on `a @ b`'s N-major B (its kernel's A M-major: every swapped config and its split
    variant, also beside the call's A realigned -- an odd K -- as the kernel's B) and on an M-major A (its kernel's B
    N-major: the 64-wide one): 0 spills, no warning, tnspA / tnspB as the kernel's majors; a narrower swapped config
    refuses an M-major A by name."""
    from dataclasses import replace

    from mmatom.kernels.gemm import SWAP_AB_CONFIGS
    from mmatom.kernels.gemm.config import check_majors
    wide, swapped = SWAP_AB_CONFIGS[-1], SWAP_AB_CONFIGS + tuple(replace(c, split_k=True) for c in SWAP_AB_CONFIGS)
    cases = [(c, "m", "k", ()) for c in swapped] + [(c, "m", "k", ("b",)) for c in swapped] + \
        [(wide, "k", "n", ()), (wide, "m", "n", ())]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(config=c, b_major=b, a_major=a, realigned=r) for c, a, b, r in cases]))
    for (config, a_major, b_major, realigned), kernel in zip(cases, kernels):
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), (config.name, realigned)
        mma = next(line for line in kernel.ptx.splitlines() if "wgmma.mma_async" in line)
        assert mma.rstrip().endswith(f"1, 1, 1, {int(a_major == 'm')}, {int(b_major == 'n')};"), mma
    with pytest.raises(mmatom.CompileError, match="a swapped-operand config's B is the call's A"):
        check_majors("gemm", "k", "n", "bf16", SWAP_AB_CONFIGS[0])


def test_split_k_assembles_clean():
    """The split-K configs -- the shipped ones and each swapped-operand config's split variant -- 16-bit and fp8,
    into bf16 and f32, and with D stored through its pointer: 0 spills, no warning; each takes `splits` and
    `slice_steps`, then the workspace's two pointers (split_sums.py). The epilogue publishes the partial sums with
    one gpu-scope fence and one relaxed atomic add per tile, the tile's last slice first asking with an acquire
    atomic whether the others counted; the last to count fences to acquire them and hands the finding on with
    bar.red.or; D is stored once, plainly (no reduce-add left). Both operands realigned (odd K) with D stored through
    its pointer (odd N), the tightest registers, spill nothing either."""
    from dataclasses import replace

    from mmatom.kernels.gemm import SPLIT_K_CONFIGS, SWAP_AB_CONFIGS
    cases = [(c, t, out, False, ()) for c in SPLIT_K_CONFIGS for t in ("bf16", "e4m3") for out in ("bf16", "f32")] + \
        [(replace(c, split_k=True), t, "bf16", False, ()) for c in SWAP_AB_CONFIGS for t in ("bf16", "e4m3")] + \
        [(SPLIT_K_CONFIGS[1], "bf16", "bf16", True, ())] + \
        [(c, "bf16", "bf16", True, ("a", "b")) for c in (SPLIT_K_CONFIGS[1], SPLIT_K_CONFIGS[2],
                                                         replace(SWAP_AB_CONFIGS[-1], split_k=True))]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(dtype=t, config=c, out_dtype=out, direct_d=direct, realigned=realigned)
                                            for c, t, out, direct, realigned in cases]))
    for (config, dtype, out, direct, realigned), kernel in zip(cases, kernels):
        what = f"{config.name} {dtype} -> {out}{' direct' * direct}{' realigned' * bool(realigned)}"
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), what
        assert "cp.reduce.async.bulk" not in kernel.ptx, what
        assert kernel.ptx.count("atom.relaxed.gpu.global.add.u32") == 1, what
        assert kernel.ptx.count("atom.acquire.gpu.global.add.u32") == 1, what
        assert kernel.ptx.count("fence.acq_rel.gpu;") == 2, what
        assert kernel.ptx.count("bar.red.or.pred") == 1, what
        if realigned:
            continue
        # the tensor maps, m, n, k (D's pitch and alignment), splits, slice_steps; the workspace; fp8's scales
        params = kernel.ptx.split(")")[0]
        assert params.count(".param .u32 gemm_param_") == 5 + direct, what
        assert params.count(".param .u64 gemm_param_") == 2 + direct * 2 + (2 if dtype == "e4m3" else 0), what


CLUSTER_K = [(name, dtype, out, direct) for name in ("128x64x8w1c1x1x2t", "128x16x8w1c1x1x2t", "128x32x8w1c1x1x4t",
                                                   "128x64x8w1c1x1x2", "128x64x8w1c1x1x4")
             for dtype, out, direct in (("bf16", "bf16", False), ("e4m3", "bf16", False))] + [
    ("128x64x8w1c1x1x2", "bf16", "f32", False), ("128x64x8w1c1x1x2t", "bf16", "bf16", True)]


def test_cluster_k_assembles_clean_with_its_hand_over():
    """Split-K in a cluster (cluster_sums.py): 0 spills, no warning; a cluster of cluster_k CTAs; no workspace, no
    gpu-scope fence or atomic; each warpgroup's sums handed over with one st.async a 16-byte chunk per round a rank
    sends in (a tree of pairs: slices - 1 sending branches), the bytes posted on the peer's barrier by a
    cluster-scope remote expect_tx and acquired by a cluster-scope wait."""
    cases = [(GemmConfig.from_name(name), dtype, out, direct) for name, dtype, out, direct in CLUSTER_K]
    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(dtype=t, config=c, out_dtype=out, direct_d=direct)
                                            for c, t, out, direct in cases]))
    for (config, dtype, out, direct), kernel in zip(cases, kernels):
        what = f"{config.name} {dtype} -> {out}{' direct' * direct}"
        ptx, slices = kernel.ptx, config.cluster_k
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), what
        assert f".reqnctapercluster {slices}, 1, 1" in ptx and ".multicast::cluster" not in ptx, what
        assert "atom." not in ptx and "fence.acq_rel.gpu" not in ptx, what
        chunks = config.accumulators // 4
        assert ptx.count("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32") == (slices - 1) * chunks, what
        assert ptx.count("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64") == slices - 1, what
        assert ptx.count("mbarrier.try_wait.parity.acquire.cluster") == slices - 1, what


def test_cluster_k_limits_are_compile_errors():
    """What split-K in a cluster does not combine with: each a CompileError naming it."""
    for name, words in (("128x128x6w1c1x1x2", "32 accumulators"), ("128x64x8w1c1x1x3", "2 or 4"),
                        ("64x128x8w1c1x1x2p", "cooperative"), ("128x64x8w1c1x1x2s", "cooperative")):
        with pytest.raises(mmatom.CompileError, match=words):
            GemmConfig.from_name(name).check("bf16")
    with pytest.raises(mmatom.CompileError, match="TMA-loaded operands"):
        build_gemm("bf16", "sm_90a", GemmConfig.from_name("128x64x8w1c1x1x2"), realigned=("a",))


def test_batched_assembles_clean():
    """Batched kernels (3-d tensor maps for A, B and D, the batch's size an argument): three configs, K- and
    MN-major, 0 spills; every TMA copy is the 3-d form."""
    cases = [(CONFIGS[0], "k", "k"), (GemmConfig(128, 256, 4, cluster_m=2), "k", "k"),
             (GemmConfig(64, 128, 8, wgmma_in_flight=1, pingpong=True), "m", "n")]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(config=c, b_major=b, a_major=a, batched=True) for c, a, b in cases]))
    for (config, _, _), kernel in zip(cases, kernels):
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), config.name
        assert "cp.async.bulk.tensor.3d" in kernel.ptx and "cp.async.bulk.tensor.2d" not in kernel.ptx


def test_rowwise_scaled_fp8_assembles_clean():
    """fp8 with rowwise scales (scale_a[row] * scale_b[col] in the epilogue): every shipped config into bf16, the
    split-K ones into f32, mixed kinds on two; 0 spills, no warning. Each consumer thread loads its rows' and
    columns' scales once per tile -- 2 rows per 64-row repeat, block_n / 4 columns -- and nothing else from global
    memory (the per-tensor kernels load the two scalars)."""
    from mmatom.kernels.gemm import SPLIT_K_CONFIGS
    cases = [(c, ("e4m3",) * 2, "bf16") for c in CONFIGS] + [(c, ("e4m3",) * 2, "f32") for c in SPLIT_K_CONFIGS] + \
        [(CONFIGS[0], ("e4m3", "e5m2"), "f16"), (CONFIGS[-1], ("e5m2", "e4m3"), "f32")]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(dtype=a, config=c, out_dtype=out, b_dtype=b, rowwise=True)
                                            for c, (a, b), out in cases]))
    for (config, dtypes, out), kernel in zip(cases, kernels):
        what = f"{config.name} {dtypes} -> {out}"
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), what
        repeats = config.block_m // (64 * config.tile_warpgroups)
        assert kernel.ptx.count("ld.global.f32") == 2 * repeats + config.block_n // 4, what
    per_tensor = mmatom.gemm_kernel(dtype="e4m3").ptx
    assert per_tensor.count("ld.global.f32") == 2
    # each scale's index is clamped to D's last row / column: a tail tile reads nothing past M or N
    assert kernels[0].ptx.count("min.u32") - per_tensor.count("min.u32") == 2 + CONFIGS[0].block_n // 4


def test_rowwise_scales_are_for_2d_fp8():
    with pytest.raises(mmatom.CompileError, match=r"rowwise scales \(scale_a of M, scale_b of N elements\) are for a "
                                                  r"2-d fp8 GEMM; dtype 'bf16', batched=False"):
        build_gemm("bf16", "sm_90a", CONFIGS[0], "bf16", rowwise=True)
    with pytest.raises(mmatom.CompileError, match=r"are for a 2-d fp8 GEMM; dtype 'e4m3', batched=True"):
        build_gemm("e4m3", "sm_90a", CONFIGS[0], "bf16", batched=True, rowwise=True)


def test_swap_ab_assembles_clean():
    """Swapped operands (D^T = B . A^T, M <= 64 on wgmma's N): every SWAP_AB config, 16-bit and fp8 (rowwise too),
    0 spills; m64n<block_n> atoms, and D staged with one stmatrix.trans x4 per 16 rows of D (no other stmatrix)."""
    from mmatom.kernels.gemm import SWAP_AB_CONFIGS
    cases = [(c, t, out, rowwise) for c in SWAP_AB_CONFIGS
             for t, out, rowwise in (("bf16", "bf16", False), ("f16", "f16", False), ("e4m3", "bf16", True))]

    with compile_pool() as pool:
        kernels = list(pool.map(_compiled, [dict(dtype=t, config=c, out_dtype=out, rowwise=rowwise)
                                            for c, t, out, rowwise in cases]))
    for (config, dtype, out, rowwise), kernel in zip(cases, kernels):
        what = f"{config.name} {dtype} -> {out}"
        assert kernel.metadata.spill_bytes == 0 and kernel.metadata.warnings == (), what
        stores = [line.split()[0] for line in kernel.ptx.splitlines() if line.strip().startswith("stmatrix")]
        assert stores == ["stmatrix.sync.aligned.m8n8.x4.trans.shared.b16"] * (config.block_n // 16), what
        assert f"wgmma.mma_async.sync.aligned.m64n{config.block_n}k" in kernel.ptx, what
        assert GemmConfig.from_name(config.name) == config


def test_swap_ab_limits_are_compile_errors():
    from mmatom.kernels.gemm import SWAP_AB_CONFIGS
    from mmatom.kernels.gemm.config import check_majors
    with pytest.raises(mmatom.CompileError, match=r"swap_ab with block_n=128, cluster 1x1; block_n one of 16, 32, 64 "
                                                  r"\(A's rows per tile\), no cluster"):
        GemmConfig(128, 128, swap_ab=True).check("bf16")
    with pytest.raises(mmatom.CompileError, match=r"swap_ab with block_n=16, cluster 2x1"):
        GemmConfig(128, 16, cluster_m=2, swap_ab=True).check("bf16")
    with pytest.raises(mmatom.CompileError, match=r"a swapped-operand config \(128x16x8w1t\) stages D transposed with "
                                                  r"stmatrix.trans into a 16-bit D, not batched; out_dtype 'f32'"):
        build_gemm("bf16", "sm_90a", SWAP_AB_CONFIGS[0], "f32")
    with pytest.raises(mmatom.CompileError, match=r"an M-major A \(K x M storage\) is loaded in boxes of 64 columns of "
                                                  r"M; config 128x32x8w1t covers 32 rows of A: 128x64x8w1t, a K-major "
                                                  r"A \(a.contiguous\(\)\), or no config"):
        check_majors("gemm", "k", "n", "bf16", SWAP_AB_CONFIGS[1])
    with pytest.raises(mmatom.CompileError, match=r"an MN-major A takes 16-bit types"):
        check_majors("gemm", "m", "k", "e4m3", SWAP_AB_CONFIGS[2])


# operands realigned by the producer (rows off 16 bytes: kernel.build_gemm's `realigned`): swapped, cooperative,
# ping-pong and a one-operand variant, fp8 and bf16
REALIGNED = [("128x16x8w1t", "e4m3", ("a", "b")), ("128x64x8w1", "bf16", ("a", "b")),
             ("64x128x8w1p", "e4m3", ("a", "b")), ("128x128x6w1", "e4m3", ("b",)),
             # the split-K variants the host realigns with (host._realigning_variant): 64x128x8w1ps spilled 124
             # bytes when its slice sums held all 64 accumulators' loads at once
             ("64x128x8w1ps", "e4m3", ("a", "b")), ("128x16x8w1st", "bf16", ("a", "b"))]


def _realigned_metadata(case):
    name, dtype, realigned = case
    module, _ = build_gemm(dtype, "sm_90a", GemmConfig.from_name(name), "bf16", realigned=realigned)
    kernel = mmatom.compile(module, options={"cache": False})
    return kernel.metadata, kernel.ptx


def test_realigning_limits_are_compile_errors():
    """A realigning kernel's 512 threads hold at most 64 accumulators a consumer thread; a realigned operand is a
    K-major one no cluster multicasts."""
    with pytest.raises(mmatom.CompileError, match=r"config 128x256x4 realigning \['a', 'b'\]: 128 f32 accumulators "
                                                  r"per consumer thread; a realigning kernel's 512 threads hold at "
                                                  r"most 64"):
        build_gemm("e4m3", "sm_90a", GemmConfig.from_name("128x256x4"), "bf16", realigned=("a", "b"))
    with pytest.raises(mmatom.CompileError, match=r"realigned operands \['b'\] with config 128x128x6w1, majors "
                                                  r"\('k', 'n'\), batched=False; a realigned operand is a K-major one"):
        build_gemm("bf16", "sm_90a", GemmConfig.from_name("128x128x6w1"), "bf16", b_major="n", realigned=("b",))


def test_realigned_variants_assemble_clean_and_copy_rows_with_cp_async():
    """0 spills, no warning; each realigned operand's rows come by cp.async (16-byte copies, zero-filled past K)
    and the other's by one TMA box; no realigned operand has a tensor map."""
    with compile_pool() as pool:
        results = list(pool.map(_realigned_metadata, REALIGNED))
    for (name, dtype, realigned), (meta, ptx) in zip(REALIGNED, results):
        what = f"{name} {dtype} realigning {realigned}"
        assert meta.spill_bytes == 0 and meta.warnings == (), f"{what}: {meta}"
        config = GemmConfig.from_name(name)
        rows = [config.block_m if x == "a" else config.block_n for x in realigned]
        # a thread's rows of a step (32 apart over the two producer warpgroups, 16 in a tile of an odd number of
        # 16-row blocks): its chunk, and a ninth chunk for the row's last lane; issued for the depth - 1 steps of a
        # tile's prologue and once in its K loop
        depth = realigned_ring(config, dtype, realigned)[1]
        per_thread = sum(r // (32 if r % 32 == 0 else 16) for r in rows)
        assert ptx.count("cp.async.cg.shared.global") == 2 * per_thread * depth, what
        assert ptx.count("cp.async.commit_group") == depth, f"{what}: one group a step"
        assert ptx.count("cp.async.bulk.tensor.2d.shared") == (2 - len(realigned)), what
