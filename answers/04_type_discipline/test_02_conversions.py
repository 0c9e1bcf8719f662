"""The implicit conversions Python does, and the ones it refuses."""

import cmath
import decimal
import fractions
import math
import numbers

import numpy as np
import pytest


def test_mixed_arithmetic_widens_the_narrower_operand():
    """Python does widen within the numeric tower: in a mixed operation the
    narrower operand is converted to the type of the wider one first, the one that
    can hold every value of both."""
    assert type(1 + 2.0) == float


def test_the_numbers_abcs_place_a_type_by_the_operations_it_promises():
    """The numbers module mirrors N ⊂ Z ⊂ Q ⊂ R ⊂ C as a chain of ABCs: Integral under
    Rational under Real under Complex under Number. Each level is a promise of operations,
    not a set of values: a Complex does arithmetic mixed with the built-in complex, a Real
    also mixes with float and adds ordering and rounding, a Rational adds .numerator and
    .denominator. A type is registered at the narrowest level whose promises it keeps.
    Every finite float is a ratio of two integers, yet (0.5).numerator raises
    AttributeError; Decimal("0.5") + 0.5 and Decimal("0.5") + 1j both raise TypeError.
    Name the narrowest ABC for each value."""
    abcs = (numbers.Integral, numbers.Rational, numbers.Real, numbers.Complex, numbers.Number)
    values = (0.5, 3, decimal.Decimal("0.5"), fractions.Fraction(1, 2), 1j)
    narrowest = [next(abc.__name__ for abc in abcs if isinstance(v, abc)) for v in values]
    assert narrowest == ["Real", "Integral", "Number", "Rational", "Complex"]


def test_truthiness_asks_whether_a_container_is_empty():
    """In a boolean context Python calls __bool__ or __len__. Any non-empty
    container is true, even one holding only a false value, and "0" is a non-empty
    string."""
    assert (bool([]), bool([0]), bool(""), bool("0")) == (False, True, False, True)


def test_int_refuses_a_float_string():
    """int() parses a string of digits; it does not take a detour through float.
    "3.0" is the right type, a str, holding a value that is not an integer literal."""
    with pytest.raises(ValueError):
        int("3.0")


def test_math_sqrt_of_a_negative_number_rejects_rather_than_guesses():
    """math works in the reals, where the square root of -1 is undefined, so it
    refuses the argument instead of returning NaN or a complex number ("math domain
    error" up to 3.13, "expected a nonnegative input" from 3.14). The argument's type
    was fine."""
    with pytest.raises(ValueError):
        math.sqrt(-1)


def test_cmath_answers_in_the_complex_plane():
    """Ask in a larger domain and the answer exists: cmath works in the complex
    numbers, where sqrt(-1) is the imaginary unit."""
    assert cmath.sqrt(-1) == 1j


def test_numpy_silently_truncates_a_float_stored_in_an_int_array():
    """A NumPy array has one fixed dtype. Storing 3.99 into an int32 slot casts it
    the way C would, truncating without a warning: weak typing inside a strong
    language."""
    a = np.zeros(2, dtype=np.int32)
    a[0] = 3.99
    assert a[0] == 3
