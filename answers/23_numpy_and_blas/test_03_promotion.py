"""Type promotion: when arrays of different dtypes meet, NumPy computes in the smallest dtype that
can hold every value of both, or else in a float that covers their range (`np.result_type`
answers without computing). Python ints and floats are "weak" since NumPy 2.0 (NEP 50): they
adapt to the NumPy operand's dtype instead of widening it. Fixed-width integers wrap, and for
`+`, `-` and `*` only the scalar path checks."""

import warnings

import numpy as np
import pytest

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def test_promotion_between_two_signed_integers():
    """Promotion looks for the smallest dtype that holds every value of both operands, and it
    never goes further than it must. Between two signed integer types, what is that?"""
    mixed = np.array([1], dtype=np.int8) + np.array([1], dtype=np.int16)
    assert mixed.dtype.name == "int16"


def test_unsigned_meets_signed_of_the_same_width():
    """uint8 holds 0..255 and int8 holds -128..127: neither holds the other's range. Promotion
    still looks for the smallest dtype that holds every value of both."""
    assert np.result_type(np.uint8, np.int8).name == "int16"


def test_uint64_meets_int64():
    """uint64 reaches 2**64 - 1 and int64 reaches down to -2**63: covering both would need 65
    bits, and NumPy has no 128-bit integer. When no dtype holds every value, promotion settles
    for one that covers the range of both."""
    assert np.result_type(np.uint64, np.int64).name == "float64"


def test_a_float_result_must_be_wide_enough_for_the_integer_operand():
    """float32 has a 24-bit significand, so it holds every int16 exactly but not every int64.
    Promotion picks a floating type wide enough for the integer operand's values."""
    with_int16 = np.result_type(np.int16, np.float32).name
    with_int64 = np.result_type(np.int64, np.float32).name
    assert (with_int16, with_int64) == ("float32", "float64")


@pytest.mark.skipif(
    not NUMPY2,
    reason="NumPy 1.x converted a Python int that meets a NumPy scalar to the default integer "
    "type, so np.uint8(200) + 100 gave 300; NumPy 2 (NEP 50) computes it in uint8",
)
def test_a_python_int_takes_the_type_of_the_numpy_scalar():
    """NumPy 2 (NEP 50) treats a Python int as weakly typed: it is converted to the NumPy
    operand's dtype, here uint8, and the sum is computed there and wraps modulo 256 (with a
    RuntimeWarning, silenced here). NumPy 1.x converted it to the default integer type
    instead, which had room to spare."""
    with np.errstate(over="ignore"):
        total = np.uint8(200) + 100
    assert int(total) == 44  # the true sum minus 256


@pytest.mark.skipif(
    not NUMPY2,
    reason="NumPy 1.x looked at a Python int's value and widened the result just enough "
    "(np.array([200], np.uint8) + 300 gave uint16); NumPy 2 (NEP 50) refuses an int that "
    "does not fit",
)
def test_a_python_int_that_does_not_fit_the_array_is_refused():
    """A weak Python int must be representable in the array's dtype. When it is not, NumPy 2
    refuses instead of guessing what you meant. NumPy 1.x looked at the value and widened the
    result's dtype just enough to hold it."""
    small = np.array([200], dtype=np.uint8)
    with pytest.raises(OverflowError):
        small + 300


@pytest.mark.skipif(
    not NUMPY2,
    reason="NumPy 1.x treated a Python float that meets a NumPy scalar as a C double, so "
    "np.float32(3) + 3.0 gave float64; NumPy 2 (NEP 50) keeps the scalar's precision",
)
def test_a_python_float_meets_a_single_precision_numpy_scalar():
    """A Python float is a C double. Under NEP 50 a Python float is weak, exactly like a Python
    int: it does not take part in choosing the result's dtype. NumPy 1.x treated a Python float
    that met a NumPy scalar as a double of full standing."""
    total = np.float32(3) + 3.0
    assert total.dtype.name == "float32"


def test_numpy_scalar_arithmetic_checks_for_overflow():
    """Arithmetic on single NumPy scalars takes a slower path that checks the result and reports
    an integer overflow through Python's warnings machinery (under the default `np.errstate`).
    With warnings turned into errors, the report is raised like an exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            np.int8(127) + np.int8(1)


def test_array_integer_arithmetic_is_not_checked():
    """Checking every element for overflow would slow the C loop down, so integer addition,
    subtraction and multiplication on arrays do not check: they wrap modulo 2**bits, even with
    warnings turned into errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = np.array([127], dtype=np.int8) + np.int8(1)
    assert result.tolist() == [-128]


def test_sum_of_small_integers_picks_its_own_accumulator():
    """Elementwise `+` computes in the operands' dtype. A reduction such as `sum` also needs an
    accumulator, and for an integer type narrower than the platform integer NumPy's default
    accumulator is the platform integer of the same signedness."""
    values = np.array([200, 200], dtype=np.uint8)
    assert (values + values).tolist() == [144, 144]  # 400 - 256
    assert int(values.sum()) == 400
