"""f32 -> f16/bf16 conversions round a register pair per cvt on sm_80+ (nvvm.convert.f32x2.to.<f16x2|bf16x2>),
one value per cvt before: the PTX of each assembles for its target. (The operand order -- srcA to the upper
half -- is pinned by tests/filecheck; the GPU tests check the values.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from mmatom.compiler import lower, parse
from mmatom.targets import ptxas
from mmatom.targets.ptx_emitter import emit_ptx

LIT = Path(__file__).parents[2] / "filecheck" / "targets" / "ptx_packed_converts.mlir"

CONVERT = """builtin.module attributes {{mma.target = #mma.target<{target}>}} {{
  llvm.func @k(%pc: !llvm.ptr<1>, %pb: !llvm.ptr<1>) attributes {{nvvm.kernel, nvvm.reqntid = array<i32: 32>}} {{
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %b = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<C, {dst}, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %b, %pb layout("(16,8):(8,1)") : !mma.frag<C, {dst}, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


@pytest.mark.ptxas
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_packed_conversions_assemble(target):
    ptx = emit_ptx(parse(LIT.read_text().replace("sm_80>", f"{target}>")))
    assert ".version 8.1" in ptx  # .satfinite on a pair needs it
    result = ptxas.assemble(ptx, target)
    assert result.ok, result.log


@pytest.mark.ptxas
@pytest.mark.parametrize("target, packed, dst", [("sm_75", False, "f16"), ("sm_80", True, "f16"), ("sm_80", True, "bf16"),
                                                 ("sm_90a", True, "f16"), ("sm_90a", True, "bf16")])
def test_fragment_convert_packs_pairs_from_sm80(target, packed, dst):
    ptx = emit_ptx(lower(parse(CONVERT.format(target=target, dst=dst))))
    pairs, singles = ptx.count(f"cvt.rn.{dst}x2.f32"), ptx.count(f"cvt.rn.{dst}.f32")
    assert (pairs, singles) == ((2, 0) if packed else (0, 4)), ptx
    result = ptxas.assemble(ptx, target)
    assert result.ok, result.log
