"""Doubles hold integers exactly only up to 2**53; bool is an int in disguise."""

import math


def test_above_two_to_the_53_neighbouring_doubles_are_two_apart():
    """A double has 53 significant bits. From 2**53 to 2**54 neighbouring doubles are 2 apart
    (math.ulp(2.0**53) == 2.0), so the exact sum 2**53 + 1 is a tie between two doubles, and a
    tie goes to the one whose significand is even."""
    assert math.ulp(2.0**53) == 2.0
    assert float(2**53) + 1 - float(2**53) == 0.0


def test_int_of_float_drops_the_odd_integer():
    """Converting 2**53 + 1 to float has to round it to a neighbouring double, and converting
    back cannot recover what the rounding lost. Any int id, counter or timestamp in nanoseconds
    that passes through a float (JSON in JavaScript, for one) may come back silently changed
    once it is above 2**53."""
    assert int(float(2**53 + 1)) == 9007199254740992


def test_int_float_comparison_is_exact_not_converted():
    """Python does not compare an int with a float by converting the int to float (that would
    make 2**53 + 1 equal to 2**53). It compares the exact mathematical values. float(2**53 + 1)
    had to round to a neighbouring double: which of the five ints around the cliff does that
    float equal? Write them as offsets from 2**53."""
    rounded = float(2**53 + 1)
    assert [n - 2**53 for n in range(2**53 - 2, 2**53 + 3) if n == rounded] == [0]


def test_a_float_round_trip_shows_where_ints_stop_fitting():
    """A double has 53 significant bits, so every int up to 2**53 has a double of its own and
    comes back from int(float(n)) unchanged. Above 2**53 only the even ints have one; an odd
    int is a tie between its two even neighbours, and the tie goes to the neighbour whose
    significand is even (just above 2**53, the multiple of 4). What does the round trip add to
    each n around the cliff?"""
    assert [int(float(n)) - n for n in range(2**53 - 2, 2**53 + 4)] == [0, 0, 0, -1, 0, 1]


def test_bools_are_ints_that_count():
    """bool is a subclass of int: True is 1 and False is 0 in arithmetic. So summing a list of
    conditions counts how many are true."""
    assert isinstance(True, int)
    assert (True + True, sum([True, True, False, True])) == (2, 3)


def test_a_set_keys_on_equality_and_hash_not_on_type():
    """1, 1.0 and True compare equal and hash equal (hash(1.0) == hash(True) == 1), so a set
    or a dict treats them as one key. The first key inserted stays; a later equal key finds it
    and, in a dict, only replaces the value. What do the two displays print?"""
    displays = (repr({1.0, True, 1}), repr({True: "a", 1: "b", 1.0: "c"}))  # noqa: B033, F601
    assert displays == ("{1.0}", "{True: 'c'}")
