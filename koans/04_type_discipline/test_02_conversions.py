"""The implicit conversions Python does, and the ones it refuses."""

import cmath
import math

import numpy as np
import pytest


def test_mixed_arithmetic_widens_the_narrower_operand():
    """Python does widen within the numeric tower: in a mixed operation the
    narrower operand is converted to the type of the wider one first, the one that
    can hold every value of both."""
    assert type(1 + 2.0) == __


def test_truthiness_asks_whether_a_container_is_empty():
    """In a boolean context Python calls __bool__ or __len__. Any non-empty
    container is true, even one holding only a false value, and "0" is a non-empty
    string."""
    assert (bool([]), bool([0]), bool(""), bool("0")) == __


def test_int_refuses_a_float_string():
    """int() parses a string of digits; it does not take a detour through float.
    "3.0" is the right type, a str, holding a value that is not an integer literal."""
    with pytest.raises(___):
        int("3.0")


def test_math_sqrt_of_a_negative_number_rejects_rather_than_guesses():
    """math works in the reals, where the square root of -1 is undefined, so it
    refuses the argument ("math domain error") instead of returning NaN or a
    complex number. The argument's type was fine."""
    with pytest.raises(___):
        math.sqrt(-1)


def test_cmath_answers_in_the_complex_plane():
    """Ask in a larger domain and the answer exists: cmath works in the complex
    numbers, where sqrt(-1) is the imaginary unit."""
    assert cmath.sqrt(-1) == __


def test_numpy_silently_truncates_a_float_stored_in_an_int_array():
    """A NumPy array has one fixed dtype. Storing 3.99 into an int32 slot casts it
    the way C would, truncating without a warning: weak typing inside a strong
    language."""
    a = np.zeros(2, dtype=np.int32)
    a[0] = 3.99
    assert a[0] == __
