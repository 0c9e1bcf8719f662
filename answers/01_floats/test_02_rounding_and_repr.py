"""Rounding happens to the binary value that is stored, not to the decimal you typed."""

import decimal
import math

from hypothesis import given
from hypothesis import strategies as st


def test_round_sees_the_stored_double_not_the_typed_decimal():
    """The literal below has no exact binary form, so it is stored as the nearest double, which
    lies a hair below the decimal you typed (Decimal of the float shows every digit). round()
    works on that exact stored value, so the question is which side of the halfway point it
    falls on. No tie-breaking rule is involved: there is no tie at all."""
    assert decimal.Decimal(2.675) < decimal.Decimal("2.675")  # noqa: RUF032
    assert round(2.675, 2) == 2.67


def test_exact_ties_round_to_the_even_digit():
    """0.125 and 0.375 are exact in binary (1/8 and 3/8), so they really are halfway cases.
    Python breaks true ties toward the even last digit (round-half-even), which avoids the
    upward drift that always rounding halves up would add to long sums."""
    assert (round(0.125, 2), round(0.375, 2)) == (0.12, 0.38)


@given(st.floats(allow_nan=False))
def test_repr_always_reads_back_to_the_same_double(x):
    """Since Python 3.1, repr(float) is the shortest decimal string that converts back to the
    very same double (David Gay's algorithm). That is why repr(0.1) is '0.1' although 0.1 is
    not stored exactly: '0.1' is enough to find the double again."""
    assert float(repr(x)) == x


def test_ulp_of_one_is_machine_epsilon():
    """math.ulp(x) is the gap from x to the next double away from zero; math.nextafter steps to
    that neighbour. From 1.0 up to 2.0 the 52 fraction bits split the interval into equal steps,
    and one step is the machine epsilon that sys.float_info.epsilon reports."""
    assert math.nextafter(1.0, math.inf) == 1.0 + math.ulp(1.0)
    assert math.ulp(1.0) == 2.0**-52
