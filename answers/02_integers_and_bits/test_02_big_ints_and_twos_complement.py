"""Python ints never overflow; fixed-width ints are arithmetic modulo 2**bits."""

import sys
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_python_ints_grow_without_overflow():
    """A Python int is an arbitrary-precision number: it allocates as many internal "digits" as
    it needs (sys.int_info describes that digit, 30 bits on common builds; it is not a size
    limit). 2**100 is exact, and bit_length counts the binary digits it takes: a 1 followed by
    100 zeros."""
    assert 2**100 == 1267650600228229401496703205376
    assert (2**100).bit_length() == 101


def test_the_str_limit_is_on_decimal_text_not_on_int_size():
    """Converting between a huge int and text in a base that is not a power of two takes
    quadratic time, so since 3.11 (and 3.10.7) str() refuses ints with more digits than
    sys.get_int_max_str_digits() (4300 by default, CVE-2020-10735), and int() refuses such long
    text the other way. The int itself is fine, arithmetic is fine, and hex() and int(s, 16)
    are not limited because power-of-two bases are cheap."""
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("this Python predates the int/str digit limit (added in 3.11 and 3.10.7)")
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        pytest.skip("the int/str digit limit is switched off here (PYTHONINTMAXSTRDIGITS=0)")
    big = 10**limit  # limit + 1 decimal digits
    assert big.bit_length() > limit
    assert int(hex(big), 16) == big
    with pytest.raises(ValueError):
        str(big)


@given(st.integers())
def test_x_plus_its_bitwise_not_sets_every_bit(x):
    """Python ints behave as two's complement numbers with infinitely many sign bits. ~x flips
    every one of those bits, so x and ~x never have a 1 in the same place, and adding them
    carries nothing: the sum has every bit set, infinitely far to the left. Which int is
    that?"""
    assert x + ~x == -1


def test_signed_to_bytes_writes_twos_complement():
    """With signed=True, to_bytes writes a negative number as two's complement: -2 is 2**16 - 2
    in 16 bits. Without it, a negative int cannot be written at all. Masking with & gives the
    same low bits: -2 & 0xFFFF == 0xFFFE."""
    assert -2 & 0xFFFF == 0xFFFE
    assert (-2).to_bytes(2, "big", signed=True) == b"\xff\xfe"
    with pytest.raises(OverflowError):
        (-2).to_bytes(2, "big")


@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1))
def test_int32_arithmetic_is_modular_arithmetic(a, b):
    """An int32 array computes in the ring of integers modulo the number of distinct 32-bit
    patterns: every product is reduced modulo that number and shown by its representative in
    [-2**31, 2**31 - 1]. Overflow is not an error, it is just the modular answer."""
    product = np.array([a], dtype=np.int32) * np.array([b], dtype=np.int32)
    modulus = 2**32  # the number of 32-bit patterns
    assert int(product[0]) == (a * b + 2**31) % modulus - 2**31


def test_numpy_scalar_overflow_warns_and_wraps():
    """numpy scalars check for overflow: np.int8(127) + np.int8(1) emits a warning of the
    category Python uses for dubious runtime behaviour, and still wraps around modulo 256.
    Under np.errstate(over="raise") the same addition raises FloatingPointError instead (even
    though these are ints)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = np.int8(127) + np.int8(1)
    assert ([w.category for w in caught], int(result)) == ([RuntimeWarning], -128)


def test_numpy_array_overflow_wraps_without_a_word():
    """Array arithmetic does not check integer overflow at all, for speed: no warning even
    when warnings are errors, and np.errstate does not apply. Each int8 sum simply wraps
    modulo 256 into the range -128..127."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        total = np.array([100, 127], dtype=np.int8) + np.array([100, 1], dtype=np.int8)
    assert total.tolist() == [-56, -128]
