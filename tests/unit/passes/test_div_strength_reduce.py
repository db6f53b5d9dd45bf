"""arith-div-strength-reduce's magic numbers: the high multiply and shift equal the unsigned 32-bit division for
every divisor that gets one (checked on 0, the largest numerators, multiples of the divisor and their neighbours,
and random numerators), and the divisors without a 32-bit magic keep their division."""

import numpy as np

from mmatom.passes.strength_reduce import unsigned_magic


def test_magic_divides_like_udiv():
    rng = np.random.default_rng(29)
    checked = 0
    for d in [x for x in range(3, 2000) if x & (x - 1)] + [1000003, 2**31 + 1, 0xFFFFFFFF, 12345678]:
        magic = unsigned_magic(d)
        if magic is None:
            continue
        m, s = magic
        assert 0 < m < 1 << 32 and 0 <= s < 32
        multiples = np.arange(1, 64, dtype=np.uint64) * np.uint64(d)
        n = np.concatenate([rng.integers(0, 1 << 32, 4096, dtype=np.uint64), np.arange(0, 256, dtype=np.uint64),
                            np.uint64((1 << 32) - 1) - np.arange(256, dtype=np.uint64), multiples - np.uint64(1),
                            multiples, multiples + np.uint64(1)])
        n = n[n < (1 << 32)]
        assert ((n * np.uint64(m)) >> np.uint64(32 + s) == n // np.uint64(d)).all(), d
        checked += 1
    assert checked > 1200  # of 1993 non-powers of two here: the rest need 33 bits


def test_divisors_without_a_32_bit_magic():
    assert unsigned_magic(7) is None and unsigned_magic(14) is None  # m would need 33 bits
    assert unsigned_magic(3) == (0xAAAAAAAB, 1) and unsigned_magic(6) == (0xAAAAAAAB, 2)
    assert unsigned_magic(5) == (0xCCCCCCCD, 2)
