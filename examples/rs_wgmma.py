"""O = (Q K^T) V through an RS wgmma, on the public API only: attention's two GEMMs without the softmax.

    python examples/rs_wgmma.py [--ptx]      # the built module's IR, or its PTX

`attention_step(bn, head_dim, v_major)`: one CTA of two warpgroups. S = Q K^T (Q 128 x D, K bn x D, both K-major
in SMEM) is an SS wgmma tile whose f32 accumulator is converted, value for value, into the bf16 register A fragment
of the second tile (`kb.convert(s, tiled_pv.fragment_type("A"))`: the same TV map), then O = P V is an RS wgmma
tile (`tiled_pv.mma_regs`) over bn/16 K steps, V (bn x D) read from SMEM as it lies in global memory (N-major,
`v_major="mn"`, wgmma's transposed B) or as V^T (`"k"`). O (f32, 128 x D) is stored row-major.
Tests: tests/unit/api/test_rs_wgmma.py (CPU: types, ptxas), tests/gpu/test_rs_wgmma_gpu.py.
"""

from __future__ import annotations

import sys

import mmatom


def attention_step(bn: int = 64, head_dim: int = 64, v_major: str = "mn"):
    qk = mmatom.atom("sm_90a", "wgmma", m=64, n=bn, k=16, a="bf16", b="bf16", d="f32")
    pv = mmatom.atom("sm_90a", "wgmma", m=64, n=head_dim, k=16, a="bf16", b="bf16", d="f32", a_residency="register")
    tiled_qk = mmatom.TiledMma(qk, atom_layout_mnk=(2, 1, 1), permutation=(128, bn, head_dim))
    tiled_pv = mmatom.TiledMma(pv, atom_layout_mnk=(2, 1, 1), permutation=(128, head_dim, bn))
    kb = mmatom.KernelBuilder("attention_step", [(x, "ptr") for x in ("q", "k", "v", "o")], "sm_90a",
                              threads=tiled_qk.threads)
    q_tile = kb.smem_tiles(1, tiled_qk.smem_desc_type("A"))[0]
    k_tile = kb.smem_tiles(1, tiled_qk.smem_desc_type("B"))[0]
    v_tile = kb.smem_tiles(1, tiled_pv.smem_desc_type("B", major=v_major))[0]
    kb.copy_to_smem(kb.param("q"), f"(128,{head_dim}):({head_dim},1)", q_tile)
    kb.copy_to_smem(kb.param("k"), f"({bn},{head_dim}):({head_dim},1)", k_tile)
    # B of P V is D x bn (N x K): element (n, k) is V[k, n], row-major V (bn x D) or its transpose
    v_layout = f"({head_dim},{bn}):(1,{head_dim})" if v_major == "mn" else f"({head_dim},{bn}):({bn},1)"
    kb.copy_to_smem(kb.param("v"), v_layout, v_tile)
    s = kb.fill(0.0, tiled_qk.fragment_type("C"))
    kb.wgmma.fence()
    s = tiled_qk.mma_smem(kb, q_tile.desc(), k_tile.desc(), s)
    kb.wgmma.commit_group()
    kb.wgmma.wait_group(0)
    p = kb.convert(s, tiled_pv.fragment_type("A"))  # f32 C of 128 x bn -> bf16 A of 128 x K=bn, in place
    o = kb.fill(0.0, tiled_pv.fragment_type("C"))
    kb.wgmma.fence()  # after P's definition: the RS wgmma reads its registers asynchronously
    o = tiled_pv.mma_regs(kb, p, v_tile.desc(), o)
    kb.wgmma.commit_group()
    kb.wgmma.wait_group(0)
    kb.store_fragment(o, kb.param("o"), f"(128,{head_dim}):({head_dim},1)")
    return kb.finish()


if __name__ == "__main__":
    module = attention_step()[0]
    print(mmatom.compile(module, options={"cache": False}).ptx if "--ptx" in sys.argv else module)
