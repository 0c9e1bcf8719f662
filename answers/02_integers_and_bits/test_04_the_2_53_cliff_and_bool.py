"""Doubles hold integers exactly only up to 2**53; bool is an int in disguise."""

import math

from hypothesis import given
from hypothesis import strategies as st


def test_above_two_to_the_53_adding_one_to_a_float_does_nothing():
    """A double has 53 significant bits. From 2**53 up, neighbouring doubles are 2 apart
    (math.ulp(2.0**53) == 2.0), so 2**53 + 1 is a tie that rounds back to the even 2**53."""
    assert math.ulp(2.0**53) == 2.0
    assert float(2**53) + 1 - float(2**53) == 0.0


def test_int_of_float_drops_the_odd_integer():
    """Converting 2**53 + 1 to float rounds it to 2**53, and converting back cannot recover
    the lost 1. Any int id, counter or timestamp in nanoseconds that passes through a float
    (JSON in JavaScript, for one) is silently changed above 2**53."""
    assert int(float(2**53 + 1)) == 9007199254740992


def test_int_float_comparison_is_exact_not_converted():
    """Python does not compare an int with a float by converting the int to float (that would
    make 2**53 + 1 equal to 2**53). It compares the exact values, so the int that did not
    survive the conversion is not equal to its rounded float."""
    assert float(2**53 + 1) == float(2**53)
    assert (float(2**53 + 1) == 2**53 + 1) == False


@given(st.integers(-(2**53), 2**53))
def test_every_int_up_to_two_to_the_53_survives_a_float_round_trip(n):
    """Below the cliff every integer has its own double: converting to float and back changes
    nothing, for every n with |n| <= 2**53."""
    assert int(float(n)) - n == 0


def test_bools_are_ints_that_count():
    """bool is a subclass of int: True is 1 and False is 0 in arithmetic. So summing a list of
    conditions counts how many are true."""
    assert isinstance(True, int)
    assert (True + True, sum([True, True, False, True])) == (2, 3)


def test_one_one_point_zero_and_true_are_a_single_set_element():
    """1, 1.0 and True compare equal and hash equal (hash(1.0) == hash(True) == 1), so a set
    or dict treats them as the same key; the first one inserted is kept: {1: 'a', True: 'b'}
    is {1: 'b'}."""
    assert {1: "a", True: "b"} == {1: "b"}  # noqa: F601
    assert len({1, 1.0, True}) == 1  # noqa: B033
