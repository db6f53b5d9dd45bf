"""The attention kernel on the CPU: ptxas gates of every shipped config (each head dim, causal or not, bf16 and f16:
0 spill bytes, no ptxas warning -- no C75xx "wgmma serialized" line), the SMEM and register budget it declares, and
that it is written on mmatom's public API alone (a DSL author's view of the compiler)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from compile_pool import compile_pool

import mmatom
from mmatom.kernels.attention.config import (DECODE_CONFIGS, DEFAULT_CONFIGS, PACKED_CONFIGS, SHIPPED_CONFIGS,
                                             SPLIT_KV_CONFIGS, AttentionConfig, default_config)
from mmatom.kernels.attention.kernel import build_attention

KERNEL = Path(mmatom.__file__).parent / "kernels" / "attention" / "kernel.py"
# every shipped config, and without a mask also its split-KV kernel (walk.py: fewer tiles than SMs; SPLIT_KV_CONFIGS'
# stand-in where it has one); the packed
# configs with every group they take (2, 4, 8, 16 heads a tile; decoding's one-consumer tiles 2, 4, 8), bf16 (f16's
# code is the same but for the types)
CASES = [(dtype, SPLIT_KV_CONFIGS.get(config, config) if split else config, causal, split, 1)
         for (d, causal), configs in sorted(SHIPPED_CONFIGS.items())
         for config in configs for dtype in ("bf16", "f16") for split in ((False,) if causal else (False, True))] + \
        [("bf16", config, causal, split, pack) for config in PACKED_CONFIGS.values() for pack in (2, 4, 8, 16)
         for causal, split in ((False, False), (False, True), (True, False))] + \
        [("bf16", config, causal, split, pack) for config in DECODE_CONFIGS.values() for pack in (2, 4, 8)
         for causal, split in ((False, False), (False, True), (True, False))]


def _assemble(case):
    dtype, config, causal, split_kv, pack = case
    module, launch = build_attention(dtype, config, causal, split_kv=split_kv, pack=pack)
    kernel = mmatom.compile(module, options={"cache": False})
    return launch, kernel.metadata, kernel.ptx


@pytest.mark.ptxas
def test_every_shipped_config_assembles_clean():
    with compile_pool() as pool:
        results = list(pool.map(_assemble, CASES))
    for case, (launch, meta, ptx) in zip(CASES, results):
        assert meta.spill_bytes == 0, f"{case}: {meta.spill_bytes} spill bytes"
        assert meta.warnings == (), f"{case}: ptxas warned: {meta.warnings}"
        config = case[1]
        assert launch.block == (128 * (1 + config.consumers), 1, 1) and launch.shared_bytes <= 232448, case
        producer, consumer = config.registers(case[4])
        assert f"setmaxnreg.inc.sync.aligned.u32 {consumer}" in ptx, case
        assert f"setmaxnreg.dec.sync.aligned.u32 {producer}" in ptx, case
        # S = Q K^T from SMEM (SS), O += P V with P in registers (RS, V read N-major: trans-b 1)
        assert re.search(r"\}, %rd\d+, %rd\d+, [01], 1, 1, 0, 0;", ptx), case  # SS: descriptors of Q and K
        assert re.search(r"\}, \{%r\d+(, %r\d+)*\}, %rd\d+, 1, 1, 1, 1;", ptx), case  # RS: P's registers, tnsp-b
        # the split tiles' counting (split_kv.py) only in the split-KV kernel
        assert ("atom.relaxed.gpu.global.add.u32" in ptx) == case[3], case


def _mmatom_imports(path: Path) -> set[str]:
    imports = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            imports.add(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            imports.update(alias.name for alias in node.names)
    return {name for name in imports if name.startswith("mmatom") or name.startswith(".")}


def test_split_kv_is_refused_with_the_causal_mask():
    with pytest.raises(mmatom.CompileError, match="split KV is for kernels without a mask"):
        build_attention("bf16", default_config(128, True), True, split_kv=True)


def test_the_kernel_uses_only_the_public_api():
    """kernel.py imports `mmatom` and its own package's config and split-KV parts -- which import `mmatom` alone --
    and nothing else of mmatom."""
    assert _mmatom_imports(KERNEL) == {"mmatom", ".config", ".split_kv"}
    assert _mmatom_imports(KERNEL.with_name("split_kv.py")) == {"mmatom"}
    assert _mmatom_imports(KERNEL.with_name("config.py")) <= {"mmatom", "mmatom.errors"}


def test_consumer_registers_share_the_register_file():
    assert AttentionConfig(128, 128, 2).consumer_registers == 240  # 2 x 128 x 240 + 128 x 24 <= 384 x 168
    assert AttentionConfig(64, 112, 3, consumers=3).consumer_registers == 160
    assert AttentionConfig(128, 128, 2).registers(4) == (40, 232)  # 2 x 128 x 232 + 128 x 40 = 384 x 168
    assert AttentionConfig(128, 128, 2, consumers=1).registers(4) == (56, 248)  # 128 x (248 + 56) <= 256 x 255


def test_a_pack_the_tile_cannot_hold_is_refused():
    with pytest.raises(mmatom.CompileError, match=r"cannot pack 32 query heads into a tile: a tile's 128 rows split "
                                                  r"into 32 blocks of one of \(8, 16, 32, 64\) rows"):
        build_attention("bf16", AttentionConfig(128, 128, 2), pack=32)


def test_a_config_that_does_not_fit_is_refused_with_its_name():
    with pytest.raises(mmatom.CompileError, match=r"block_n 100 must be a multiple of 16"):
        build_attention("bf16", AttentionConfig(128, 100, 2))
    with pytest.raises(mmatom.CompileError, match=r"consumers 4 one of 1, 2, 3"):
        build_attention("bf16", AttentionConfig(64, 128, 2, consumers=4))
    with pytest.raises(mmatom.CompileError, match=r"dtype 'e4m3' is not one of bf16, f16"):
        build_attention("e4m3", default_config(128))
    with pytest.raises(mmatom.CompileError, match=r"ex2_on_fma 9 in \[0, 8\]"):
        build_attention("bf16", AttentionConfig(64, 112, 3, consumers=3, ex2_on_fma=9))


@pytest.mark.parametrize("seqlen_k, block_n", [(None, 144), (1024, 128), (1000, 144), (4096, 144), (16384, 144),
                                               (130, 144), (128, 128)])
def test_a_call_takes_the_config_its_key_count_wastes_least_on(seqlen_k, block_n):
    """d 128 without a mask ships 144 and 128 keys a step: each block costs its keys and BLOCK_OVERHEAD_KEYS more, so
    1024 keys take 8 blocks of 128 rather than 8 of 144 (the last one mostly empty), 1000 take 7 of 144, 4096 29."""
    assert default_config(128, False, seqlen_k).block_n == block_n
    assert default_config(128, True, 1024).block_n == 128 and default_config(64, False, 1000) == DEFAULT_CONFIGS[64, False]
