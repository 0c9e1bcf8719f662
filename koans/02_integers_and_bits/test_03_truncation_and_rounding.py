"""Turning a fraction into an integer: toward zero, toward minus infinity, or to nearest even."""

import math


def test_int_truncates_toward_zero_but_floor_goes_down():
    """int() and math.trunc drop the fraction, moving toward zero (like C's int x = 3.14).
    math.floor moves toward minus infinity. For negative numbers the two disagree."""
    assert (int(-2.7), math.trunc(-2.7), math.floor(-2.7)) == __


def test_floor_division_rounds_down_and_modulo_takes_the_divisor_sign():
    """Python's // is floor division, so -7 // 2 is the integer just below -3.5. % is defined so
    that (a // b) * b + a % b == a, which gives the result the sign of the divisor. C and
    math.fmod truncate instead: math.fmod(-7, 2) is -1.0."""
    assert math.fmod(-7, 2) == -1.0
    assert (-7 // 2, -7 % 2) == __


def test_round_sends_exact_halves_to_the_even_neighbour():
    """round() on a tie picks the even integer (banker's rounding, IEEE 754's default), so
    halves go up and down equally often. It returns an int when called with one argument."""
    assert (round(0.5), round(1.5), round(2.5)) == __
