"""Doubles hold integers exactly only up to 2**53; bool is an int in disguise."""

import math

from hypothesis import given
from hypothesis import strategies as st


def test_above_two_to_the_53_neighbouring_doubles_are_two_apart():
    """A double has 53 significant bits. From 2**53 up, neighbouring doubles are 2 apart
    (math.ulp(2.0**53) == 2.0), so the exact sum 2**53 + 1 is a tie between two doubles, and a
    tie goes to the one whose significand is even."""
    assert math.ulp(2.0**53) == 2.0
    assert float(2**53) + 1 - float(2**53) == __


def test_int_of_float_drops_the_odd_integer():
    """Converting 2**53 + 1 to float has to round it to a neighbouring double, and converting
    back cannot recover what the rounding lost. Any int id, counter or timestamp in nanoseconds
    that passes through a float (JSON in JavaScript, for one) is silently changed above
    2**53."""
    assert int(float(2**53 + 1)) == __


def test_int_float_comparison_is_exact_not_converted():
    """Python does not compare an int with a float by converting the int to float (that would
    make 2**53 + 1 equal to 2**53). It compares the exact mathematical values, so the question
    is whether the int survived the conversion to float unchanged."""
    assert float(2**53 + 1) == float(2**53)
    assert (float(2**53 + 1) == 2**53 + 1) == __


@given(st.integers(-(2**53), 2**53))
def test_every_int_up_to_two_to_the_53_survives_a_float_round_trip(n):
    """Below the cliff every integer has its own double: converting to float and back changes
    nothing, for every n with |n| <= 2**53."""
    assert int(float(n)) - n == __


def test_bools_are_ints_that_count():
    """bool is a subclass of int: True is 1 and False is 0 in arithmetic. So summing a list of
    conditions counts how many are true."""
    assert isinstance(True, int)
    assert (True + True, sum([True, True, False, True])) == __


def test_a_set_keys_on_equality_and_hash_not_on_type():
    """1, 1.0 and True compare equal and hash equal (hash(1.0) == hash(True) == 1), so a set
    or dict treats them as the same key: the first key inserted is kept and a later equal one
    only replaces the value, as {1: 'a', True: 'b'} shows."""
    assert {1: "a", True: "b"} == {1: "b"}  # noqa: F601
    assert len({1, 1.0, True}) == __  # noqa: B033
