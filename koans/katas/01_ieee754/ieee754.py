"""An IEEE 754 codec: floating-point numbers from their bits and back.

A binary floating-point format packs a number into three fields: a sign bit, a biased exponent
and a fraction. A double (binary64) has 1 + 11 + 52 bits; float32 1 + 8 + 23; float16 1 + 5 + 10;
bfloat16 1 + 8 + 7 (float32's exponent range with far fewer fraction bits).

The formats are given. Write the five functions, one step at a time: the steps in
test_steps.py say what each must do, in order. Use integers and the math module (math.ldexp,
math.frexp, math.copysign) and fractions.Fraction; struct is the steps' referee, not yours.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    raise NotImplementedError("fields")


def classify(bits: int, fmt: Format = DOUBLE) -> str:
    """What a pattern stands for, read from its exponent field first (C's fpclassify): "zero",
    "subnormal", "normal", "infinite" or "nan"."""
    raise NotImplementedError("classify")


def decode(bits: int, fmt: Format = DOUBLE) -> float:
    """The number a bit pattern stands for."""
    raise NotImplementedError("decode")


def encode(x: float, fmt: Format = DOUBLE) -> int:
    """The bit pattern of x as a double; in a narrower format, that pattern narrowed (a later
    step: for now, doubles)."""
    raise NotImplementedError("encode")


def narrow(bits: int, fmt: Format) -> int:
    """A double's bit pattern rounded to a narrower format: the format's number nearest to the
    double, of two equally near the one whose last bit is 0 (what a C cast to float does in the
    default rounding mode)."""
    raise NotImplementedError("narrow")
