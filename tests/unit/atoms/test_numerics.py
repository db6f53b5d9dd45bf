"""Small float formats (OCP FP8/MX and the NVFP4 scale) against their definitions: values, extremes,
NaN, rounding to nearest even and saturation (issue 5's reference semantics)."""

import numpy as np
import pytest

from mmatom.atoms.numerics import SMALL_FLOAT_TABLES as TABLES, decode, encode


def test_e2m1_is_the_eight_fp4_magnitudes():
    assert sorted(set(TABLES["e2m1"][TABLES["e2m1"] >= 0])) == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert TABLES["e2m1"][0b1111] == -6 and np.all(np.isfinite(TABLES["e2m1"]))


@pytest.mark.parametrize("elem, largest, smallest_subnormal, codes", [
    ("e3m2", 28.0, 2.0 ** -4, 64), ("e2m3", 7.5, 2.0 ** -3, 64), ("e2m1", 6.0, 0.5, 16),
    ("e4m3", 448.0, 2.0 ** -9, 256), ("e5m2", 57344.0, 2.0 ** -16, 256), ("ue4m3", 448.0, 2.0 ** -9, 128)])
def test_extremes(elem, largest, smallest_subnormal, codes):
    t = TABLES[elem]
    assert len(t) == codes
    assert np.nanmax(t[np.isfinite(t)]) == largest and t[1] == smallest_subnormal


def test_nan_and_inf_where_the_formats_have_them():
    assert np.isnan(TABLES["e4m3"][0x7F]) and np.isnan(TABLES["e4m3"][0xFF]) and np.sum(np.isnan(TABLES["e4m3"])) == 2
    assert np.isinf(TABLES["e5m2"][0x7C]) and np.isnan(TABLES["e5m2"][0x7D])
    assert np.isnan(TABLES["ue4m3"][0x7F]) and np.sum(np.isnan(TABLES["ue4m3"])) == 1
    assert np.isnan(TABLES["ue8m0"][0xFF]) and TABLES["ue8m0"][127] == 1.0 and TABLES["ue8m0"][0] == 2.0 ** -127
    for elem in ("e3m2", "e2m3", "e2m1"):
        assert np.all(np.isfinite(TABLES[elem]))
        with pytest.raises(ValueError, match="no NaN"):
            encode(elem, np.array([np.nan]))


@pytest.mark.parametrize("elem", ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "ue4m3", "ue8m0"])
def test_every_finite_code_round_trips(elem):
    t = TABLES[elem]
    codes = np.flatnonzero(np.isfinite(t) & (t != 0))
    assert np.array_equal(decode(elem, encode(elem, t[codes])), t[codes])


def test_round_to_nearest_even_and_saturate():
    got = decode("e2m1", encode("e2m1", np.array([2.5, 5.0, 0.25, 1.25, 0.26, 100.0, -100.0])))
    assert got.tolist() == [2.0, 4.0, 0.0, 1.0, 0.5, 6.0, -6.0]
    assert decode("e4m3", encode("e4m3", np.array([1000.0, 464.0])))[0] == 448.0  # satfinite, no NaN
    assert decode("e3m2", encode("e3m2", np.array([30.0, 0.03])))[0] == 28.0
