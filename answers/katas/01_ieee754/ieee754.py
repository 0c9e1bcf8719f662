"""An IEEE 754 codec: floating-point numbers from their bits and back.

A binary floating-point format packs a number into three fields: a sign bit, a biased exponent
and a fraction. A double (binary64) has 1 + 11 + 52 bits; float32 1 + 8 + 23; float16 1 + 5 + 10;
bfloat16 1 + 8 + 7 (float32's exponent range with far fewer fraction bits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Format:
    name: str
    exponent_bits: int
    fraction_bits: int

    @property
    def width(self) -> int:
        return 1 + self.exponent_bits + self.fraction_bits

    @property
    def bias(self) -> int:
        return 2 ** (self.exponent_bits - 1) - 1


DOUBLE = Format("binary64", 11, 52)
FLOAT32 = Format("binary32", 8, 23)
FLOAT16 = Format("binary16", 5, 10)
BFLOAT16 = Format("bfloat16", 8, 7)


def fields(bits: int, fmt: Format = DOUBLE) -> tuple[int, int, int]:
    """(sign, biased exponent, fraction) of a bit pattern."""
    fraction = bits & ((1 << fmt.fraction_bits) - 1)
    exponent = (bits >> fmt.fraction_bits) & ((1 << fmt.exponent_bits) - 1)
    sign = (bits >> (fmt.width - 1)) & 1
    return sign, exponent, fraction


def classify(bits: int, fmt: Format = DOUBLE) -> str:
    """What a pattern stands for, read from its exponent field first (C's fpclassify): "zero",
    "subnormal", "normal", "infinite" or "nan"."""
    _, exponent, fraction = fields(bits, fmt)
    if exponent == (1 << fmt.exponent_bits) - 1:  # all ones
        return "infinite" if fraction == 0 else "nan"
    if exponent == 0:  # all zeros: no implicit leading 1
        return "zero" if fraction == 0 else "subnormal"
    return "normal"


def decode(bits: int, fmt: Format = DOUBLE) -> float:
    """The number a bit pattern stands for."""
    sign, exponent, fraction = fields(bits, fmt)
    kind = classify(bits, fmt)
    if kind == "nan":
        value = math.nan
    elif kind == "infinite":
        value = math.inf
    elif kind in ("zero", "subnormal"):  # no implicit leading 1, the smallest exponent
        value = math.ldexp(fraction, 1 - fmt.bias - fmt.fraction_bits)
    else:
        value = math.ldexp((1 << fmt.fraction_bits) | fraction, exponent - fmt.bias - fmt.fraction_bits)
    return -value if sign else value


def encode(x: float, fmt: Format = DOUBLE) -> int:
    """The bit pattern of x as a double; in a narrower format, that pattern narrowed."""
    if fmt != DOUBLE:
        return narrow(encode(x), fmt)
    sign = 1 if math.copysign(1.0, x) < 0 else 0
    top = sign << 63
    if math.isnan(x):
        return top | (0x7FF << 52) | (1 << 51)  # a quiet NaN
    if math.isinf(x):
        return top | (0x7FF << 52)
    if x == 0:
        return top
    _, e = math.frexp(abs(x))  # abs(x) = m * 2**e with 0.5 <= m < 1: exactly, for any double
    exponent = max(e - 1, 1 - DOUBLE.bias)  # subnormals share the smallest normal exponent
    significand = int(math.ldexp(abs(x), DOUBLE.fraction_bits - exponent))  # exact: a double
    if significand < 1 << DOUBLE.fraction_bits:  # subnormal: the leading bit is a 0
        return top | significand
    return top | ((exponent + DOUBLE.bias) << 52) | (significand - (1 << 52))


def narrow(bits: int, fmt: Format) -> int:
    """A double's bit pattern rounded to a narrower format: the format's number nearest to the
    double, of two equally near the one whose last bit is 0 (what a C cast to float does in the
    default rounding mode)."""
    sign, _, _ = fields(bits)
    top = sign << (fmt.width - 1)
    all_ones = (1 << fmt.exponent_bits) - 1
    kind = classify(bits)
    if kind == "nan":
        return top | (all_ones << fmt.fraction_bits) | (1 << (fmt.fraction_bits - 1))  # quiet
    if kind == "infinite":
        return top | (all_ones << fmt.fraction_bits)
    if kind == "zero":
        return top
    exact = Fraction(abs(decode(bits)))
    _, e = math.frexp(abs(decode(bits)))
    exponent = max(e - 1, 1 - fmt.bias)  # below the smallest normal: subnormal, same exponent
    significand = round(exact / Fraction(2) ** (exponent - fmt.fraction_bits))  # ties to even
    if significand == 1 << (fmt.fraction_bits + 1):  # rounding carried into a new binade
        significand >>= 1
        exponent += 1
    if exponent > fmt.bias:  # too large for the format: overflow to infinity
        return top | (all_ones << fmt.fraction_bits)
    if significand < 1 << fmt.fraction_bits:  # subnormal (a rounded-up one is normal below)
        return top | significand
    biased = exponent + fmt.bias
    return top | (biased << fmt.fraction_bits) | (significand - (1 << fmt.fraction_bits))
