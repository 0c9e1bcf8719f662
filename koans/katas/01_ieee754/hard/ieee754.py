"""An IEEE 754 codec: floating-point numbers from their bits and back."""

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
    """(sign, biased exponent, fraction)."""
    raise NotImplementedError("fields")


def classify(bits: int, fmt: Format = DOUBLE) -> str:
    """One of "zero", "subnormal", "normal", "infinite", "nan"."""
    raise NotImplementedError("classify")


def decode(bits: int, fmt: Format = DOUBLE) -> float:
    """The number a pattern stands for."""
    raise NotImplementedError("decode")


def encode(x: float, fmt: Format = DOUBLE) -> int:
    """The pattern of x in the format."""
    raise NotImplementedError("encode")


def narrow(bits: int, fmt: Format) -> int:
    """A double's pattern rounded to the format."""
    raise NotImplementedError("narrow")
