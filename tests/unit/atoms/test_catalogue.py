"""The catalogue against the reference tables: registers per thread, TV layouts, diagnostics."""

import pytest

from mmatom.layout import parse_layout
from mmatom.atoms.catalogue import AtomError, family, spelled_forms
from mmatom.atoms.catalogue.elements import container_bits
from mmatom.atoms.catalogue.fragments import tv_layouts
from mmatom.atoms.catalogue.spelling import parse

# reference ptx-mma.md table A1 / B / C2 / E2: spelling -> (A, B, C, D) registers per thread
REFERENCE_REGISTERS = {
    "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16": (2, 2, 4, 4),
    "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16": (2, 2, 4, 8),
    "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32": (2, 2, 8, 8),
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64": (1, 1, 2, 2),
    "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16": (2, 1, 2, 2),
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32": (4, 2, 4, 4),
    "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16": (4, 2, 2, 2),
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32": (4, 2, 4, 4),
    "mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32": (1, 1, 2, 2),
    "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32": (4, 2, 4, 4),
    "mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32": (1, 1, 2, 2),
    "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32": (4, 2, 4, 4),
    "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc": (1, 1, 2, 2),
    "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc": (4, 2, 4, 4),
    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32": (4, 2, 4, 4),
    "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16": (4, 2, 2, 2),
    "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64": (2, 1, 4, 4),
    "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64": (4, 2, 4, 4),
    "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64": (8, 4, 4, 4),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32": (2, 2, 4, 4),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16": (4, 4, 2, 2),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32": (2, 2, 4, 4),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32": (4, 4, 4, 4),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32": (2, 2, 4, 4),
    "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16.e2m3.e4m3.f16": (4, 2, 2, 2),
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0": (4, 2, 4, 4),
    "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3": (4, 4, 4, 4),
}


def _form(spelling):
    return next(f for f in spelled_forms() if f.spelling == spelling)


@pytest.mark.parametrize("spelling", sorted(REFERENCE_REGISTERS))
def test_registers_per_thread_match_the_reference(spelling):
    f = _form(spelling)
    ops = {o.role: o.regs for o in family(f.family).operands(f.atom)}
    assert (ops["A"], ops["B"], ops["C"], ops["D"]) == REFERENCE_REGISTERS[spelling]


def test_wgmma_registers():
    for n in (8, 16, 24, 64, 128, 256):
        f32 = _form(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16")
        f16 = _form(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f16.f16.f16")
        assert {o.role: o.regs for o in family("wgmma").operands(f32.atom)}["D"] == n // 2
        assert {o.role: o.regs for o in family("wgmma").operands(f16.atom)}["D"] == n // 4


# CuTe TV layouts as the reference prints them (ptx-fragments.md sections 1 and 3)
REFERENCE_TV = {
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32": ("((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", "((4,8),(2,2)):((32,1),(16,8))"),
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32": ("((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", None),
    "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32": ("((4,8),2):((16,1),8)", "((4,8),1):((8,1),0)", None),
    "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64": ("((4,8),(2,4)):((16,1),(8,64))", "((4,8),4):((8,1),32)", None),
    "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32": ("((4,8),(4,2)):((64,1),(16,8))", "((4,8),4):((32,1),8)", None),
    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32": ("((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", None),
    "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32": ("((4,8),(8,2)):((128,1),(16,8))", "((4,8),8):((64,1),8)", None),
    "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32": ("((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))", None),
    "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc": ("((4,8),(32,2)):((512,1),(16,8))", "((4,8),32):((256,1),8)", None),
    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc": ("((4,8),(32,2,2)):((512,1),(16,8,2048))", "((4,8),(32,2)):((256,1),(8,1024))", None),
    "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32": ("((4,8),4):((32,1),8)", "((4,8),4):((32,1),8)", "((4,8),2):((16,1),8)"),
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64": ("((4,8),1):((8,1),0)", "((4,8),1):((8,1),0)", "((4,8),2):((16,1),8)"),
    "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32": ("((4,2),4):((8,4),1)", "((4,2),4):((8,4),1)", "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"),
    "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32": ("((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", None),
    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16": (None, None, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))"),
}


@pytest.mark.parametrize("spelling", sorted(REFERENCE_TV))
def test_tv_layouts_match_the_reference(spelling):
    layouts = tv_layouts(_form(spelling).atom)
    for role, want in zip("ABC", REFERENCE_TV[spelling]):
        if want is not None:
            assert str(layouts[role]) == want or layouts[role].equivalent(parse_layout(want))


def test_every_fragment_layout_is_a_bijection_onto_its_tile():
    for f in spelled_forms():
        if f.family in ("wgmma", "tcgen05.mma"):
            continue
        for role, layout in tv_layouts(f.atom).items():
            if role in ("SFA", "SFB"):
                continue
            if (f.atom.shape, f.atom.a) == ((8, 8, 4), "f16"):
                continue  # quad-pair: 8 logical threads
            ops = {o.role: o for o in family(f.family).operands(f.atom)}
            assert layout.is_injective(), (f.spelling, role, str(layout))
            # 32 threads x values fill the tile exactly once
            assert layout.size() == layout.cosize(), (f.spelling, role, str(layout))
            values = layout.size() // 32
            spec = ops[role]
            elem = {"A": f.atom.a, "B": f.atom.b, "C": f.atom.acc[1], "E": "b32"}[role]
            per_reg = 1 if elem == "f64" else 32 // container_bits(elem, f.atom.kind)
            assert spec.regs == max(1, values // per_reg), (f.spelling, role, values, spec.regs)


def test_isa_fragment_formulas_for_m16n8k16():
    # independent brute force from the ISA text: a_i at (g + 8*((i>>1)&1), 2t + (i&1) + 8*(i>>2))
    layouts = tv_layouts(_form("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32").atom)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for i in range(8):
            row, col = g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
            assert layouts["A"]((lane, i)) == row + 16 * col
        for i in range(4):
            k, n = 2 * t + (i & 1) + 8 * (i >> 1), g
            assert layouts["B"]((lane, i)) == n + 8 * k
            row, col = g + 8 * (i >> 1), 2 * t + (i & 1)
            assert layouts["C"]((lane, i)) == row + 16 * col


def test_wgmma_accumulator_matches_the_h100_experiment():
    # reference H: register 4j + 2i + c of thread t holds D[16w + l/4 + 8i][8j + 2(l%4) + c]
    c = tv_layouts(_form("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16").atom)["C"]
    for thr in range(128):
        w, l = thr // 32, thr % 32
        for j in range(8):
            for i in range(2):
                for cc in range(2):
                    assert c((thr, 4 * j + 2 * i + cc)) == (16 * w + l // 4 + 8 * i) + 64 * (8 * j + 2 * (l % 4) + cc)


@pytest.mark.parametrize("spelling, target, message", [
    ("wgmma.mma_async.sync.aligned.m64n63k16.f32.f16.f16", "sm_90a",
     "sm90 wgmma: N=63 is not legal for f16 -> f32; N must be a multiple of 8 in [8, 256]"),
    ("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8", "sm_90a",
     "sm90 wgmma: N=40 is not legal for s8 -> s32; N must be one of 8..32 step 8, 48..256 step 16"),
    ("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", "sm_90",
     "sm90 wgmma: target sm_90 does not support wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16; it needs sm_90a"),
    ("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32", "sm_80",
     "mma.sync: D/C types=f16/f32 is not legal for m16n8k16 f16; legal D/C types: f16/f16, f32/f32"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_75",
     "it needs sm_80 or later"),
    ("tcgen05.mma.cta_group::1.kind::i8", "sm_100f",
     "sm100 tcgen05.mma: target sm_100f does not support tcgen05.mma.cta_group::1.kind::i8; it needs one of sm_100a, sm_110a"),
])
def test_diagnostics_name_the_value_and_the_legal_set(spelling, target, message):
    fam, values = parse(spelling)
    with pytest.raises(AtomError) as err:
        family(fam).resolve_partial(values, target)
    assert message in str(err.value)


def test_tcgen05_lattice():
    tc = family("tcgen05.mma")
    base = dict(sparse=False, cta_group=1, kind="mxf8f6f4", scale_vec="1X", a="e4m3", b="e4m3", d="f32",
                scale_type="ue8m0", m=64, n=128, k=32, a_residency="smem_desc")
    with pytest.raises(AtomError, match="M=64 is not legal .*M must be 128"):
        tc.resolve(base, "sm_100a")
    with pytest.raises(AtomError, match="scale type=ue4m3 is not legal for cta_group::1 kind::mxf4 2X"):
        tc.resolve({**base, "kind": "mxf4", "scale_vec": "2X", "a": "e2m1", "b": "e2m1", "scale_type": "ue4m3",
                    "m": 128, "k": 64}, "sm_100a")
    assert tc.resolve({**base, "m": 128}, "sm_100a").min_version == (8, 6)
