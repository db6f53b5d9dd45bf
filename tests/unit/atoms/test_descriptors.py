"""SMEM descriptors: built from the layout algebra, decoded field by field (reference C6, D7)."""

import pytest

from mmatom.layout import parse_any_layout
from mmatom.atoms.descriptors import (
    DescriptorError, DescriptorFields, SmemOperand, canonical_layout, check_layout, decode_sm100, decode_sm90,
    encode_sm100, encode_sm90, make_descriptor, swizzle_of,
)


def test_h100_verified_descriptor():
    # reference H: 64x16 f16 K-major, no swizzle: LBO = 128 B (K step), SBO = 256 B (8-row step)
    op = SmemOperand(64, 16, 16, "k", "none")
    layout = canonical_layout(op, 128, 256)
    assert check_layout(layout, op) == (128, 256)
    desc = make_descriptor(layout, op, start_address=0x400)
    assert desc & 0x3FFF == 0x400 >> 4
    assert (desc >> 14) & 3 == 0
    assert (desc >> 16) & 0x3FFF == 128 >> 4
    assert (desc >> 30) & 3 == 0
    assert (desc >> 32) & 0x3FFF == 256 >> 4
    assert (desc >> 49) & 7 == 0 and (desc >> 62) & 3 == 0


@pytest.mark.parametrize("swizzle, code", [("none", 0), ("128b", 1), ("64b", 2), ("32b", 3)])
def test_sm90_fields_round_trip(swizzle, code):
    f = DescriptorFields(start_address=0x1230, lbo=0x90, sbo=0x400, base_offset=5, swizzle=swizzle)
    d = encode_sm90(f)
    assert (d >> 62) == code
    assert (d >> 49) & 7 == 5
    assert decode_sm90(d) == f
    # the seed's layout (LBO at 14, SBO at 30, swizzle at 52) would put bits where the ISA reserves them
    assert (d >> 14) & 3 == 0 and (d >> 30) & 3 == 0 and (d >> 52) & 0x3FF == 0


@pytest.mark.parametrize("swizzle, code", [("none", 0), ("128b_base32b", 1), ("128b", 2), ("64b", 4), ("32b", 6)])
def test_sm100_fields_round_trip(swizzle, code):
    f = DescriptorFields(0x2000, 0x100, 0x800, 3, swizzle, lbo_mode=1, fixed_46_48=1)
    d = encode_sm100(f)
    assert (d >> 46) & 7 == 1 and (d >> 61) == code and (d >> 52) & 1 == 1
    assert decode_sm100(d) == f


def test_sm90_and_sm100_swizzle_patterns_coincide_except_base32b():
    for sw in ("none", "32b", "64b", "128b"):
        a = encode_sm90(DescriptorFields(0, 16, 16, 0, sw))
        b = encode_sm100(DescriptorFields(0, 16, 16, 0, sw))
        assert a == b & ~(0b111 << 46)


def test_sm100_rejects_reserved_swizzle_codes():
    with pytest.raises(DescriptorError, match="invalid"):
        decode_sm100(3 << 61)


@pytest.mark.parametrize("major", ["k", "mn"])
@pytest.mark.parametrize("swizzle", ["none", "32b", "64b", "128b"])
def test_canonical_layouts_check_against_themselves(major, swizzle):
    rows = 128 if major == "mn" else 64
    op = SmemOperand(rows, 16, 16, major, swizzle)
    lbo, sbo = (2048, 1024) if swizzle != "none" else ((2048, 128) if major == "mn" else (1024, 128))
    if major == "k" and swizzle != "none":
        lbo = 16
    layout = canonical_layout(op, lbo, sbo)
    assert check_layout(layout, op) == (lbo, sbo)
    # every element lands on a distinct byte address
    assert layout.layout.is_injective()


def test_swizzle_that_disagrees_with_the_layout_is_an_error():
    op = SmemOperand(64, 16, 16, "k", "128b")
    with pytest.raises(DescriptorError, match="descriptor swizzle 128b disagrees with the SMEM layout's Sw<2,4,3>"):
        check_layout(parse_any_layout("Sw<2,4,3> o 0 o ((8,8),16):((32,256),1)"), op)


def test_non_canonical_layout_is_an_error():
    op = SmemOperand(64, 16, 16, "k", "none")
    # rows contiguous instead of 16-byte core-matrix rows: not a K-major canonical layout
    with pytest.raises(DescriptorError, match="is not the canonical K-major none layout"):
        check_layout(parse_any_layout("(64,16):(1,64)"), op)


def test_aliasing_layout_is_an_error():
    op = SmemOperand(64, 16, 16, "k", "none")
    with pytest.raises(DescriptorError, match="overlap"):
        check_layout(canonical_layout(op, 128, 128), op)


def test_base32b_is_32_byte_chunks_xored_with_the_row_mod_4():
    # SM100 "128-Byte with 32B atomic" swizzle: within a 128-byte row r, 32-byte chunk c moves to c ^ (r % 4)
    sw = swizzle_of("128b_base32b")
    for addr in range(0, 4096, 4):
        row, chunk, inside = addr // 128, (addr % 128) // 32, addr % 32
        assert sw(addr) == row * 128 + (chunk ^ (row % 4)) * 32 + inside


def test_base32b_mn_major_layout_groups_four_k_rows_per_atom():
    op = SmemOperand(64, 8, 32, "mn", "128b_base32b")  # tf32 A of an M=64 K=8 tile
    layout = canonical_layout(op, lbo=1024, sbo=512)
    assert str(layout.layout) == "((32,2),(4,2)):((1,256),(32,128))"
    assert check_layout(layout, op) == (1024, 512)
    assert make_descriptor(layout, op, 0x4000, arch="sm100") >> 61 == 1


def test_base32b_has_no_k_major_form():
    with pytest.raises(DescriptorError, match="only an MN-major canonical layout"):
        canonical_layout(SmemOperand(64, 8, 32, "k", "128b_base32b"), 16, 1024)
