"""Kata: an IEEE 754 codec. Six steps, revealed one at a time; write ieee754.py to pass them."""

import math
import struct

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ieee754 import BFLOAT16, DOUBLE, FLOAT16, FLOAT32, decode, encode, fields

SETTINGS = settings(max_examples=150, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SMALLEST_NORMAL = 2.2250738585072014e-308


def bits_of(x):
    """The bits of a double, as the machine stores them."""
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def value_of(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def narrow_bits(x, code, width, infinity):
    """The bits of x rounded to float32 ('f') or float16 ('e') by struct; struct refuses what
    rounds past the largest finite value, which IEEE 754 rounds to infinity."""
    try:
        return struct.unpack("<" + {"f": "I", "e": "H"}[code], struct.pack("<" + code, x))[0]
    except OverflowError:
        return infinity | ((1 << (width - 1)) if x < 0 else 0)


def same_double(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_fields_split_a_bit_pattern_into_sign_exponent_and_fraction():
    """A double is 1 sign bit, then 11 exponent bits, then 52 fraction bits. 1.5 is 1.1 in
    binary times 2**0: the exponent field holds the exponent plus a bias (1023 for a double), and
    the fraction holds the bits after the point; the leading 1 is not stored. Other formats cut
    the same three fields at other widths."""
    assert fields(bits_of(1.5)) == (0, 1023, 1 << 51)
    assert fields(bits_of(-2.0)) == (1, 1024, 0)
    assert fields(bits_of(0.1)) == (0, 1019, 0x999999999999A)
    assert fields(0x3C00, FLOAT16) == (0, 15, 0)
    assert fields(0xC0490FDB, FLOAT32) == (1, 128, 0x490FDB)
    assert fields(0xFFFF, BFLOAT16) == (1, 255, 127)


@SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: abs(x) >= SMALLEST_NORMAL))
def test_decode_gives_the_value_of_a_normal_number(x):
    """A normal number is (-1)**sign * 1.fraction * 2**(exponent - bias), for an exponent field
    that is neither all zeros nor all ones. The 1 before the point is implicit, so a double has
    53 significant bits for the price of 52."""
    assert decode(bits_of(1.5)) == 1.5
    assert decode(bits_of(-0.1)) == -0.1
    assert decode(0x3C00, FLOAT16) == 1.0
    assert decode(0x7BFF, FLOAT16) == 65504.0
    assert decode(0x3F80, BFLOAT16) == 1.0
    assert decode(bits_of(x)) == x


@SETTINGS
@example(1)
@example(0x000FFFFFFFFFFFFF)
@example(0x8000000000000001)
@example(0xFFF8000000000000)
@given(st.integers(0, 2**64 - 1))
def test_decode_handles_zeros_subnormals_infinities_and_nan(bits):
    """An exponent field of all zeros means: no implicit 1, and the smallest exponent, 1 - bias.
    These subnormal numbers fill the gap between the smallest normal number and zero in even
    steps; 0.0 and -0.0 are two of them. An exponent field of all ones means infinity (fraction
    zero) or NaN, not a number (any other fraction)."""
    assert same_double(decode(0), 0.0)
    assert same_double(decode(1 << 63), -0.0)
    assert decode(1) == 5e-324
    assert decode(0x000FFFFFFFFFFFFF) == 2.225073858507201e-308
    assert decode(0x7FF0000000000000) == math.inf
    assert decode(0xFFF0000000000000) == -math.inf
    assert math.isnan(decode(0x7FF8000000000000))
    assert decode(0x0001, FLOAT16) == 2.0**-24
    assert decode(0x7C00, FLOAT16) == math.inf
    assert same_double(decode(bits), value_of(bits))


@SETTINGS
@example(5e-324)
@example(-1.5e-310)
@example(2.225073858507201e-308)
@example(-0.0)
@example(math.nan)
@given(st.floats())
def test_encode_gives_back_the_bits_of_every_double(x):
    """Encoding is decoding run backwards: the sign, the power of two at or below |x| (plus the
    bias) and the bits after the leading 1. A double in, a double out: every one is exact, so
    nothing needs rounding yet. Below the smallest normal number, the exponent stays at its
    smallest and the leading bit is a 0: a subnormal. Any NaN may come out as any NaN pattern."""
    if math.isnan(x):
        _, exponent, fraction = fields(encode(x))
        assert exponent == 2047 and fraction != 0
        return
    assert encode(x) == bits_of(x)
    assert same_double(decode(encode(x)), x)


@SETTINGS
@example(1 + 2**-24)
@example(1 + 3 * 2**-24)
@example(3 * 2**-150)
@example(3.4028235677973366e38)
@example(2 - 2**-30)
@given(st.floats(allow_nan=False))
def test_encode_rounds_to_the_nearest_float32_ties_to_even(x):
    """float32 has 23 fraction bits to a double's 52, so most doubles fall between two float32
    values. IEEE 754's default rounding takes the nearer; at an exact tie, the one whose last
    bit is 0 (ties to even), so that rounding errors do not drift one way. Rounding can carry
    into the next power of two, lift a subnormal to the smallest normal number, or overflow to
    infinity."""
    assert encode(1 + 2**-24, FLOAT32) == 0x3F800000
    assert encode(1 + 3 * 2**-24, FLOAT32) == 0x3F800002
    assert encode(1 + 2**-24 + 2**-40, FLOAT32) == 0x3F800001
    assert encode(2 - 2**-30, FLOAT32) == 0x40000000
    assert encode(2**-150, FLOAT32) == 0
    assert encode(3 * 2**-150, FLOAT32) == 2
    assert encode(1e39, FLOAT32) == 0x7F800000
    assert encode(x, FLOAT32) == narrow_bits(x, "f", 32, 0x7F800000)
    assert decode(encode(x, FLOAT32), FLOAT32) == struct.unpack("<f", struct.pack("<I", encode(x, FLOAT32)))[0]


@SETTINGS
@example(65520.0, 1.0)
@example(2.0**-25 * 3, 3.4028234663852886e38)
@given(st.floats(allow_nan=False), st.floats(width=32, allow_nan=False))
def test_float16_and_bfloat16_round_the_same_way(x, y):
    """float16 has 5 exponent bits and 10 fraction bits: its largest finite value is 65504 and
    its subnormals go down to 2**-24. bfloat16 keeps float32's 8 exponent bits and only 7
    fraction bits: float32's range at a quarter of its precision, the top half of a float32's
    bits, rounded. One rule, nearest and ties to even, serves every format."""
    assert encode(65504.0, FLOAT16) == 0x7BFF
    assert encode(65520.0, FLOAT16) == 0x7C00
    assert encode(2.0**-25, FLOAT16) == 0
    assert encode(2.0**-24, FLOAT16) == 1
    assert encode(1 / 3, BFLOAT16) == 0x3EAB
    assert encode(x, FLOAT16) == narrow_bits(x, "e", 16, 0x7C00)
    top = narrow_bits(y, "f", 32, 0x7F800000)
    assert encode(y, BFLOAT16) == (top + 0x7FFF + ((top >> 16) & 1)) >> 16
    assert encode(x, DOUBLE) == bits_of(x)
