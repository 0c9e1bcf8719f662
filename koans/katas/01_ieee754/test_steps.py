"""Kata: an IEEE 754 codec. Five steps, revealed one at a time; write ieee754.py to pass them."""

import math
import struct

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ieee754 import BFLOAT16, DOUBLE, FLOAT16, FLOAT32, classify, decode, encode, fields, narrow

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


def kind_of(x):
    """What Python's math says a double is."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "infinite"
    if x == 0:
        return "zero"
    return "subnormal" if abs(x) < SMALLEST_NORMAL else "normal"


def hexed(value, width=64):
    """A bit pattern as a person reads one: in hex, every digit shown."""
    return f"{value:#0{width // 4 + 2}x}" if isinstance(value, int) else repr(value)


def differ(got, want, fmt=DOUBLE):
    """Two bit patterns as a pair reads them: in hex, then cut into their fields one above the
    other, with a mark under each bit that differs."""
    said = f"got {hexed(got, fmt.width)}, want {hexed(want, fmt.width)}"
    if not (isinstance(got, int) and 0 <= got < 1 << fmt.width):
        return said

    def cut(bits):
        row = f"{bits:0{fmt.width}b}"
        return f"{row[0]} {row[1:1 + fmt.exponent_bits]} {row[1 + fmt.exponent_bits:]}"

    marks = "".join("^" if a != b else " " for a, b in zip(cut(got), cut(want), strict=False))
    label = "exponent" if fmt.exponent_bits >= 8 else "exp"
    return (f"{said}\n        s {label.ljust(fmt.exponent_bits)} fraction\n"
            f"    got {cut(got)}\n   want {cut(want)}\n        {marks.rstrip()}")


def shown_fields(triple):
    if isinstance(triple, tuple) and len(triple) == 3 and all(isinstance(v, int) for v in triple):
        return f"(sign {triple[0]}, exponent {triple[1]}, fraction {triple[2]:#x})"
    return repr(triple)


def test_fields_split_a_bit_pattern_into_sign_exponent_and_fraction():
    """A double is 1 sign bit, then 11 exponent bits, then 52 fraction bits. 1.5 is 1.1 in
    binary times 2**0: the exponent field holds the exponent plus a bias (1023 for a double), and
    the fraction holds the bits after the point; the leading 1 is not stored. Other formats cut
    the same three fields at other widths."""
    for bits, fmt, want in [(bits_of(1.5), DOUBLE, (0, 1023, 1 << 51)),
                            (bits_of(-2.0), DOUBLE, (1, 1024, 0)),
                            (bits_of(0.1), DOUBLE, (0, 1019, 0x999999999999A)),
                            (0x3C00, FLOAT16, (0, 15, 0)),
                            (0xC0490FDB, FLOAT32, (1, 128, 0x490FDB)),
                            (0xFFFF, BFLOAT16, (1, 255, 127))]:
        got = fields(bits, fmt)
        assert got == want, (f"fields({hexed(bits, fmt.width)}, {fmt.name}): "
                             f"got {shown_fields(got)}, want {shown_fields(want)}")


@SETTINGS
@example(1)
@example(0x8000000000000000)
@example(0x7FF0000000000000)
@example(0xFFF8000000000001)
@example(0x0010000000000000)
@given(st.integers(0, 2**64 - 1))
def test_classify_tells_zeros_subnormals_normals_infinities_and_nan_apart(bits):
    """The exponent field says what a pattern is. All ones: infinity if the fraction is zero,
    NaN (not a number) otherwise. All zeros: zero if the fraction is zero, else a subnormal
    number, one without the implicit leading 1. Anything between: a normal number. C's
    fpclassify asks the same; Python's math.isinf and math.isnan are the referees here."""
    assert classify(bits_of(1.0)) == "normal"
    assert classify(0) == "zero"
    assert classify(1 << 63) == "zero"
    assert classify(1) == "subnormal"
    assert classify(0x7FF0000000000000) == "infinite"
    assert classify(0x7FF8000000000000) == "nan"
    assert classify(0x7C00, FLOAT16) == "infinite"
    assert classify(0x03FF, FLOAT16) == "subnormal"
    assert classify(0xFF81, BFLOAT16) == "nan"
    assert classify(bits) == kind_of(value_of(bits)), hexed(bits)


@SETTINGS
@example(1)
@example(0x000FFFFFFFFFFFFF)
@example(0x8000000000000001)
@example(0xFFF8000000000000)
@example(0x3FF8000000000000)
@given(st.integers(0, 2**64 - 1))
def test_decode_gives_the_value_of_every_pattern(bits):
    """A normal number is (-1)**sign * 1.fraction * 2**(exponent - bias): the 1 before the
    point is implicit, so a double has 53 significant bits for the price of 52. A subnormal has
    no implicit 1 and the smallest exponent, 1 - bias: subnormals fill the gap between the
    smallest normal number and zero in even steps. A zero field and a zero fraction read the
    same way give 0.0, or -0.0 with the sign bit set: zeros are not subnormals, but one rule
    decodes both."""
    assert decode(bits_of(1.5)) == 1.5
    assert decode(bits_of(-0.1)) == -0.1
    assert decode(0x3C00, FLOAT16) == 1.0
    assert decode(0x7BFF, FLOAT16) == 65504.0
    assert decode(0x3F80, BFLOAT16) == 1.0
    assert same_double(decode(0), 0.0)
    assert same_double(decode(1 << 63), -0.0)
    assert decode(1) == 5e-324
    assert decode(0x000FFFFFFFFFFFFF) == 2.225073858507201e-308
    assert decode(0x7FF0000000000000) == math.inf
    assert decode(0xFFF0000000000000) == -math.inf
    assert math.isnan(decode(0x7FF8000000000000))
    assert decode(0x0001, FLOAT16) == 2.0**-24
    assert decode(0x7C00, FLOAT16) == math.inf
    assert same_double(decode(bits), value_of(bits)), hexed(bits)


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
    got = encode(x)
    if math.isnan(x):
        _, exponent, fraction = fields(got)
        assert exponent == 2047 and fraction != 0, f"encode(nan): {hexed(got)} is not a NaN pattern"
        return
    assert got == bits_of(x), f"encode({x!r}): {differ(got, bits_of(x))}"
    assert same_double(decode(got), x)


@SETTINGS
@example(1 + 2**-24, 1.0)
@example(3 * 2**-150, 3.4028234663852886e38)
@example(3.4028235677973366e38, 1.0)
@example(5e38, 1.0)
@example(65520.0, 1.0)
@example(2.0**-25 * 3, 1.0)
@given(st.floats(allow_nan=False), st.floats(width=32, allow_nan=False))
def test_narrow_rounds_to_the_nearest_ties_to_even_in_every_format(x, y):
    """float32 has 23 fraction bits to a double's 52, so most doubles fall between two float32
    values. IEEE 754's default rounding takes the nearer; at an exact tie, the one whose last bit
    is 0 (ties to even), so that rounding errors do not drift one way. Rounding can carry into
    the next power of two, lift a subnormal to the smallest normal number, or overflow to
    infinity. One rule serves float16 (5 exponent bits, 10 fraction bits) and bfloat16
    (float32's exponent, 7 fraction bits) alike, as long as it rounds once, from the double. A
    NaN stays a NaN, whatever bits its fraction holds."""
    for x_, fmt, want in [(1 + 2**-24, FLOAT32, 0x3F800000), (1 + 3 * 2**-24, FLOAT32, 0x3F800002),
                          (1 + 2**-24 + 2**-40, FLOAT32, 0x3F800001), (2 - 2**-30, FLOAT32, 0x40000000),
                          (2**-150, FLOAT32, 0x00000000), (3 * 2**-150, FLOAT32, 0x00000002),
                          (2**-126 - 2**-150, FLOAT32, 0x00800000), (1e39, FLOAT32, 0x7F800000),
                          (-5e38, FLOAT32, 0xFF800000), (65504.0, FLOAT16, 0x7BFF),
                          (65520.0, FLOAT16, 0x7C00), (70000.0, FLOAT16, 0x7C00),
                          (2.0**-25, FLOAT16, 0x0000), (2.0**-24, FLOAT16, 0x0001),
                          (1 + 2**-11 + 2**-30, FLOAT16, 0x3C01), (1 / 3, BFLOAT16, 0x3EAB),
                          (1 + 2**-8 + 2**-30, BFLOAT16, 0x3F81)]:
        got = encode(x_, fmt)
        assert got == want, f"encode({x_!r}, {fmt.name}): {differ(got, want, fmt)}"
    got = narrow(bits_of(1 / 3), FLOAT32)
    assert got == 0x3EAAAAAB, f"narrow({hexed(bits_of(1 / 3))}, binary32): {differ(got, 0x3EAAAAAB, FLOAT32)}"
    for nan, fmt in [(0x7FF0000000000001, FLOAT32), (0xFFF8000000000000, FLOAT16)]:
        got = narrow(nan, fmt)
        assert classify(got, fmt) == "nan", (f"narrow({hexed(nan)}, {fmt.name}): {hexed(got, fmt.width)} "
                                             f"is not a NaN pattern; a NaN narrowed must stay a NaN")
    for value, fmt, want in [(x, FLOAT32, narrow_bits(x, "f", 32, 0x7F800000)),
                             (x, FLOAT16, narrow_bits(x, "e", 16, 0x7C00)),
                             (x, DOUBLE, bits_of(x))]:
        got = encode(value, fmt)
        assert got == want, f"encode({value!r}, {fmt.name}): {differ(got, want, fmt)}"
    assert decode(encode(x, FLOAT32), FLOAT32) == struct.unpack("<f", struct.pack("<I", encode(x, FLOAT32)))[0]
    top = narrow_bits(y, "f", 32, 0x7F800000)
    want = (top + 0x7FFF + ((top >> 16) & 1)) >> 16
    got = encode(y, BFLOAT16)
    assert got == want, f"encode({y!r}, bfloat16): {differ(got, want, BFLOAT16)}"
