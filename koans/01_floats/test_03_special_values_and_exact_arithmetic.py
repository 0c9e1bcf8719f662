"""NaN, infinities, signed zero, tolerant comparison, and the exact number types."""

import decimal
import functools
import math
import operator
import sys


def test_nan_is_unequal_to_itself_yet_a_list_finds_it():
    """IEEE 754 says NaN compares unequal to everything, itself included. But `x in list`
    (like list.index and == between lists) first checks identity with `is` and only then
    `==`, so the very same NaN object is found. A fresh float('nan') would not be."""
    nan = float("nan")
    assert float("nan") not in [float("nan")]  # noqa: PLW0177
    assert (nan == nan, nan in [nan]) == __


def test_negative_zero_equals_zero_but_keeps_its_sign():
    """-0.0 has the sign bit set (struct.pack('>d', -0.0) is 80 00 00 00 00 00 00 00), yet
    IEEE 754 makes it compare equal to 0.0. The sign is still there for functions that look
    at it: copysign, atan2, and 1/x in numpy (-inf)."""
    assert -0.0 == 0.0
    assert math.copysign(1.0, -0.0) == __


def test_isclose_allows_an_error_relative_to_the_values_compared():
    """math.isclose defaults to rel_tol=1e-09 and abs_tol=0.0: the allowed error is rel_tol
    times the larger magnitude, or abs_tol if that is larger. Work out that allowance when one
    of the two values is 0.0 and abs_tol is left at its default: which of these tiny numbers
    does isclose call close to zero?"""
    assert math.isclose(0.1 + 0.2, 0.3)
    assert math.isclose(1e-10, 0.0, abs_tol=1e-9)
    assert [x for x in (1e-300, 1e-10, 0.0) if math.isclose(x, 0.0)] == __


def test_fsum_keeps_the_bits_that_plus_throws_away():
    """Next to 1e100 neighbouring doubles are about 1.9e84 apart, so 1e100 + 1.0 rounds to a
    double that no longer holds the 1.0, and left-to-right addition goes on from there.
    math.fsum keeps the low-order parts that each + rounds away and returns the correctly
    rounded sum of all the terms. sum() changed in Python 3.12: it compensates too, so
    sum([0.1] * 10) differs between 3.11 and 3.12."""
    xs = [1e100, 1.0, -1e100]
    naive = functools.reduce(operator.add, xs)
    if sys.version_info >= (3, 12):
        assert sum(xs) == math.fsum(xs)  # compensated summation since 3.12
    else:
        assert sum(xs) == naive  # plain left-to-right addition before 3.12
    assert (naive, math.fsum(xs)) == __


def test_decimal_from_a_float_shows_the_stored_binary_value():
    """Decimal(float) converts the double exactly, error included; Decimal(str) takes the
    decimal digits you wrote. So Decimal(0.1) != Decimal('0.1'). Build exact decimals from
    strings (Fraction('0.1') likewise), never from float literals."""
    assert decimal.Decimal(0.1) != decimal.Decimal("0.1")  # noqa: RUF032
    stored = decimal.Decimal(2.675)  # noqa: RUF032
    assert stored == decimal.Decimal(__)
