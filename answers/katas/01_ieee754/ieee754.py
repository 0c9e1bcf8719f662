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


def decode(bits: int, fmt: Format = DOUBLE) -> float:
    """The number a bit pattern stands for."""
    sign, exponent, fraction = fields(bits, fmt)
    if exponent == (1 << fmt.exponent_bits) - 1:  # all ones: infinity or NaN
        value = math.inf if fraction == 0 else math.nan
    elif exponent == 0:  # subnormal (or zero): no implicit leading 1, the smallest exponent
        value = math.ldexp(fraction, 1 - fmt.bias - fmt.fraction_bits)
    else:
        value = math.ldexp((1 << fmt.fraction_bits) | fraction, exponent - fmt.bias - fmt.fraction_bits)
    return -value if sign else value


def encode(x: float, fmt: Format = DOUBLE) -> int:
    """The bit pattern of the format's number nearest to x (ties to the even one)."""
    sign = 1 if math.copysign(1.0, x) < 0 else 0
    top = sign << (fmt.width - 1)
    all_ones = (1 << fmt.exponent_bits) - 1
    if math.isnan(x):
        return top | (all_ones << fmt.fraction_bits) | (1 << (fmt.fraction_bits - 1))  # quiet NaN
    if math.isinf(x):
        return top | (all_ones << fmt.fraction_bits)
    if x == 0:
        return top
    exact = Fraction(abs(x))
    _, e = math.frexp(abs(x))  # abs(x) = m * 2**e with 0.5 <= m < 1: exactly, for any double
    exponent = max(e - 1, 1 - fmt.bias)  # subnormals share the smallest normal exponent
    significand = _round_half_even(exact / Fraction(2) ** (exponent - fmt.fraction_bits))
    if significand == 1 << (fmt.fraction_bits + 1):  # rounding carried into a new binade
        significand >>= 1
        exponent += 1
    if exponent > fmt.bias:  # too large for the format: overflow to infinity
        return top | (all_ones << fmt.fraction_bits)
    if significand < 1 << fmt.fraction_bits:  # subnormal
        return top | significand
    biased = exponent + fmt.bias
    return top | (biased << fmt.fraction_bits) | (significand - (1 << fmt.fraction_bits))


def _round_half_even(value: Fraction) -> int:
    """The integer nearest to value; of two equally near, the even one."""
    return round(value)
