"""Hardware limits bound layouts before anything enumerates them: the checks read shapes and strides only, so
layouts of 2^31 elements are rejected at once (and the atoms-level plans guard themselves the same way)."""

import pytest

from mmatom.atoms import limits
from mmatom.atoms.descriptors import DescriptorError, SmemOperand, check_layout
from mmatom.atoms.fragment_access import FragmentAccessError, plan_access
from mmatom.atoms.smem_copy_plan import SmemCopyError, plan_copy
from mmatom.layout import ComposedLayout, Layout, Swizzle, parse_layout

HUGE = 1 << 31


def test_flat_modes_name_the_hierarchy():
    assert Layout(((8, 0), 16), ((64, 512), 1)).flat_modes() == [((0, 0), 8, 64), ((0, 1), 0, 512), ((1,), 16, 1)]
    assert Layout(4, 2).flat_modes() == [((0,), 4, 2)]


def test_zero_extent_and_negative_stride_name_the_mode():
    with pytest.raises(limits.LimitError, match=r"extent 0 in mode \(0,1\)"):
        limits.check_extents(Layout(((8, 0), 16), ((64, 512), 1)), "tile")
    with pytest.raises(limits.LimitError, match=r"\(128,64\):\(-64,1\) has stride -64 in mode 0"):
        limits.check_global_tile(parse_layout("(128,64):(-64,1)"), "f16", 16, "memory layout")


def test_smem_tile_is_bounded_by_smem():
    sw = Swizzle(3, 4, 3)
    fits = ComposedLayout(sw, 0, Layout(((8, 8), 64), ((64, 512), 1)))
    limits.check_smem_tile(fits, 64, 64, "f16", 16, "tile")
    big = ComposedLayout(sw, 0, Layout(((8, HUGE // 8), 16), ((64, 512), 1)))
    with pytest.raises(limits.LimitError, match=r"is 2147483648 x 16 bf16 = 64 GiB; SMEM holds at most 227 KiB"):
        limits.check_smem_tile(big, HUGE, 16, "bf16", 16, "tile")
    far = ComposedLayout(sw, 0, Layout(((8, 2), 64), ((64, 1 << 20), 1)))
    with pytest.raises(limits.LimitError, match="reaches byte"):
        limits.check_smem_tile(far, 16, 64, "f16", 16, "tile")


def test_fragment_is_bounded_by_threads_and_the_register_file():
    limits.check_fragment(Layout((128, 256), (1, 128)), "f32", 32, "frag")  # tcgen05.ld of 256 columns (spills)
    with pytest.raises(limits.LimitError, match="1025 threads"):
        limits.check_fragment(Layout((1025, 1), (1, 0)), "f32", 32, "frag")
    with pytest.raises(limits.LimitError, match="128 32-bit registers x 1024 threads"):
        limits.check_fragment(Layout((1024, 64), (1, 1024)), "f64", 64, "frag")
    limits.check_fragment(Layout((1024, 128), (1, 1024)), "f16", 16, "frag")  # 64 registers of two f16


def test_global_tile_is_bounded_by_a_ctas_registers():
    limits.check_global_tile(Layout((1024, 255)), "f32", 32, "tile")
    with pytest.raises(limits.LimitError, match="covers 261121 f32"):
        limits.check_global_tile(Layout(1024 * 255 + 1), "f32", 32, "tile")


def test_64bit_offsets_from_2_to_the_31_bytes():
    assert not limits.needs_64bit_offsets(Layout(HUGE // 4), 32)  # largest byte offset 2^31 - 4
    assert limits.needs_64bit_offsets(Layout(HUGE // 4 + 1), 32)  # 2^31
    assert limits.needs_64bit_offsets(Layout(HUGE // 4 + 1), 4)  # its bit offset is formed first
    assert not limits.needs_64bit_offsets(Layout((16, 8), (8, 1)), 16)


def test_format_bytes():
    assert [limits.format_bytes(n) for n in (100, 227 * 1024, 1 << 31, 3 << 29)] == ["100 B", "227 KiB", "2 GiB",
                                                                                   "1.5 GiB"]


def test_plans_guard_themselves_before_enumerating():
    class Frag:  # what plan_access reads of a fragment type
        class elem:
            data = "f32"

        class layout:
            data = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))

    with pytest.raises(FragmentAccessError, match="covers 17179869184 f32"):
        plan_access(Frag, parse_layout(f"({HUGE},8):(8,1)"))
    op = SmemOperand(64, 16, 16, "k", "128b")
    with pytest.raises(SmemCopyError, match="stride -16"):
        plan_copy(op, ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, 8), 16), ((64, 512), 1))), "(64,16):(-16,1)",
                  128)
    huge = SmemOperand(HUGE, 16, 16, "k", "128b")
    with pytest.raises(DescriptorError, match="SMEM holds at most 227 KiB"):
        check_layout(ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, HUGE // 8), 16), ((64, 512), 1))), huge)
