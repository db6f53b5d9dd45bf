"""The tutorial DSL (examples/tinydsl.py) uses nothing outside mmatom.__all__, assembles with ptxas for sm_80 and
sm_90a without spills or serialized wgmma, and its deliberate mistakes are CompileErrors at tinydsl.py's line."""

import ast
import importlib.util
from pathlib import Path

import pytest

import mmatom

PATH = Path(__file__).resolve().parents[3] / "examples" / "tinydsl.py"
spec = importlib.util.spec_from_file_location("tinydsl", PATH)
tinydsl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tinydsl)


def test_only_the_public_api():
    tree = ast.parse(PATH.read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "sys", "mmatom"}, imported  # nothing of mmatom's subpackages, nor xDSL
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == "mmatom"}
    assert used <= set(mmatom.__all__), used - set(mmatom.__all__)


@pytest.mark.parametrize("target, threads, smem", [("sm_80", 128, 0), ("sm_90a", 256, 32768)])
def test_assembles_without_spills(target, threads, smem):
    kernel, launch, grid = tinydsl.matmul(256, 512, 256, target)
    meta = kernel.metadata  # ptxas -v
    assert meta.spill_bytes == 0 and meta.threads == threads and launch.block == (threads, 1, 1)
    assert launch.shared_bytes == smem and meta.shared_bytes == smem
    assert f".reqntid {threads}, 1, 1" in kernel.ptx
    assert grid == ((4, 8) if target == "sm_80" else (2, 4))
    assert kernel.cubin[:4] == b"\x7fELF"
    if target == "sm_90a":
        assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" in kernel.ptx
        # ptxas warns when it serializes a wgmma pipeline ("... wgmma pipeline ... serialized"): none here
        log = mmatom.compiler.ptxas.assemble_cubin(kernel.ptx, target).log
        assert "serialized" not in log and "warning" not in log.lower(), log


@pytest.mark.parametrize("shape, message", [((100, 64, 64), "the problem's M=100 is not a multiple of the tile's M=64"),
                                            ((64, 64, 24), "the problem's K=24 is not a multiple of the tile's K=16")])
def test_a_shape_the_tile_cannot_cover_is_located_in_the_dsl(shape, message):
    with pytest.raises(mmatom.CompileError) as info:
        tinydsl.matmul(*shape, "sm_80")
    (d,) = info.value.diagnostics
    assert message in d.message and Path(d.file) == PATH
    assert "tiled.tiles(" in PATH.read_text().splitlines()[d.line - 1]


def test_an_atom_the_target_lacks_is_located_in_the_dsl():
    with pytest.raises(mmatom.CompileError, match="target sm_75 does not support") as info:
        tinydsl.matmul(64, 64, 64, "sm_75")
    assert Path(info.value.diagnostics[0].file) == PATH


@pytest.mark.parametrize("target, values", [("sm_80", 32), ("sm_90a", 64)])
def test_a_relu_epilogue_maps_every_accumulator_element(target, values):
    kernel, _, _ = tinydsl.matmul(256, 256, 128, target, relu=True)
    assert kernel.ptx.count("setp.gt.f32") == values and kernel.ptx.count("selp.b32") == values
    assert kernel.metadata.spill_bytes == 0
