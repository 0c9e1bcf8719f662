"""The IEEE 754 fields of a float: sign, exponent and fraction, bit by bit."""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ._pen import TIMES, Pen, finish

# name -> (exponent bits, fraction bits)
FORMATS = {"float64": (11, 52), "float32": (8, 23), "float16": (5, 10), "bfloat16": (8, 7)}
ALIASES = {"double": "float64", "f8": "float64", "d": "float64", "float": "float64",
           "single": "float32", "f4": "float32", "f": "float32",
           "half": "float16", "f2": "float16", "e": "float16", "bf16": "bfloat16"}
STORED_MAX = 66  # the longest exact decimal shown in full


def _format_name(fmt: Any, x: Any) -> str:
    if fmt is None:
        fmt = getattr(x, "dtype", None) or "float64"
    name = str(fmt).lower().removeprefix("torch.").removeprefix("<").strip()
    name = ALIASES.get(name, name)
    if name not in FORMATS:
        raise ValueError(f"float_bits draws {', '.join(FORMATS)}, not {fmt!r}")
    return name


def _as_float(x: Any) -> float:
    try:
        return float(x.item() if hasattr(x, "item") else x)
    except (TypeError, ValueError, OverflowError, RuntimeError) as exc:
        raise ValueError(f"float_bits needs one float, not {type(x).__name__}: {exc}") from None


def encode(x: float, ebits: int, fbits: int) -> int:
    """The bit pattern of ``x`` rounded to the nearest value of a binary format with ``ebits``
    exponent and ``fbits`` fraction bits (ties to even; too large becomes infinity; a NaN keeps
    its sign and the top of its payload, and stays quiet)."""
    bias = (1 << (ebits - 1)) - 1
    sign = (1 if math.copysign(1.0, x) < 0 else 0) << (ebits + fbits)
    ones = ((1 << ebits) - 1) << fbits
    if ebits == 11 and fbits == 52:
        return struct.unpack(">Q", struct.pack(">d", x))[0]
    if math.isnan(x):
        payload = (struct.unpack(">Q", struct.pack(">d", x))[0] & ((1 << 52) - 1)) >> (52 - fbits)
        return sign | ones | (payload or 1 << (fbits - 1))
    if math.isinf(x):
        return sign | ones
    a = Fraction(abs(x))
    if a == 0:
        return sign
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, 1 - bias)  # below the normal range the quantum stays that of the smallest normal
    m = round(a / Fraction(2) ** (e - fbits))  # Fraction rounds half to even
    if m == 1 << (fbits + 1):
        m, e = m >> 1, e + 1
    if e > bias:
        return sign | ones
    if m < 1 << fbits:
        return sign | m  # subnormal: exponent field 0
    return sign | (e + bias) << fbits | (m - (1 << fbits))


def decode(bits: int, ebits: int, fbits: int) -> float:
    """The value of a bit pattern of that format, as a Python float (exact: every float32,
    float16 and bfloat16 value is a float64 value too)."""
    bias = (1 << (ebits - 1)) - 1
    sign = -1.0 if bits >> (ebits + fbits) & 1 else 1.0
    exp, frac = bits >> fbits & ((1 << ebits) - 1), bits & ((1 << fbits) - 1)
    if exp == (1 << ebits) - 1:
        return sign * math.inf if frac == 0 else math.copysign(math.nan, sign)
    if exp == 0:
        return sign * float(Fraction(frac, 1 << fbits) * Fraction(2) ** (1 - bias))
    return sign * float(Fraction((1 << fbits) + frac, 1 << fbits) * Fraction(2) ** (exp - bias))


def _exact(value: float) -> str:
    exact = Decimal(value)
    text = f"{exact:f}" if abs(exact.adjusted()) < STORED_MAX - 4 else str(exact)
    if len(text) <= STORED_MAX:
        return text
    digits = len(exact.as_tuple().digits)
    return f"~ {exact:.20e} (exactly: {digits} significant digits)"


def float_bits(x: Any, fmt: Any = None, *, unicode: bool = True, color: bool = False) -> list[str]:
    """The IEEE 754 fields of ``x`` stored as ``fmt``: "float64" (the default, or ``x``'s own
    dtype when it has one, like a NumPy scalar), "float32", "float16" or "bfloat16" (torch dtypes
    and NumPy dtype objects are read by name). ``x`` is rounded to the format first, to nearest
    with ties to even, as a cast does.

    Draws the bits in their three fields, then what each field means: the sign, the exponent
    less its bias, the fraction with its implicit leading 1; zero, subnormal, infinity and NaN
    are marked; then the value as stored (its exact decimal where it is short), its bit pattern
    in hex and ``float.hex()``."""
    name = _format_name(fmt, x)
    value = _as_float(x)
    ebits, fbits = FORMATS[name]
    return _draw(encode(value, ebits, fbits), name, Pen(unicode, color), given=value)


def float_pattern(bits: int, fmt: Any = "float64", *, unicode: bool = True,
                  color: bool = False) -> list[str]:
    """The same picture for a bit pattern (an int), as a kata compares them."""
    name = _format_name(fmt, None)
    ebits, fbits = FORMATS[name]
    if not 0 <= int(bits) < 1 << (1 + ebits + fbits):
        raise ValueError(f"{bits!r} is not a {1 + ebits + fbits}-bit pattern")
    return _draw(int(bits), name, Pen(unicode, color), given=None)


def _kind(exp: int, frac: int, ebits: int) -> str:
    if exp == (1 << ebits) - 1:
        return "infinity" if frac == 0 else "NaN"
    if exp == 0:
        return "zero" if frac == 0 else "subnormal"
    return "normal"


def _draw(bits: int, name: str, pen: Pen, given: float | None) -> list[str]:
    ebits, fbits = FORMATS[name]
    total, bias = 1 + ebits + fbits, (1 << (ebits - 1)) - 1
    sign, exp, frac = bits >> (total - 1), bits >> fbits & ((1 << ebits) - 1), bits & ((1 << fbits) - 1)
    kind = _kind(exp, frac, ebits)
    stored = decode(bits, ebits, fbits)
    times = pen.ch(TIMES, "*")

    shown = repr(given) if given is not None else f"0x{bits:0{total // 4}x}"
    title = f"{name} {shown}: 1 sign bit, {ebits} exponent bits, {fbits} fraction bits"
    lines = [pen(title, "bold") + ("" if kind == "normal" else "  " + pen(f"[{kind}]", "yellow", "bold"))]
    if given is not None and not (math.isnan(given) and math.isnan(stored)) and stored != given:
        lines.append(f"  {given!r} rounds to the nearest {name}: {stored!r}")

    colours = ("cyan", "green", "magenta")
    fields = [format(sign, "01b"), format(exp, f"0{ebits}b"), format(frac, f"0{fbits}b")]
    labels = ["s", "exponent" if ebits >= 8 else "exp", "fraction" if fbits >= 8 else "frac"]
    head = "   "
    for label, field, colour in zip(labels, fields, colours, strict=True):
        head += pen(label.ljust(len(field) + 1), colour)
    lines.append(head)
    widths = [len(f) for f in fields]
    lines.append("  " + pen.border(widths, "top"))
    lines.append("  " + pen.cells(pen(f, c) for f, c in zip(fields, colours, strict=True)))
    lines.append("  " + pen.border(widths, "bottom"))

    sign_text = "negative" if sign else "positive"
    if kind == "normal":
        exp_text = f"{exp} - bias {bias} = {exp - bias}"
        frac_text = f"0x{frac:x} / 2**{fbits}, after an implicit leading 1"
        sig = float(Fraction((1 << fbits) + frac, 1 << fbits))
        val_text = f"{'-' if sign else '+'}{sig!r} {times} 2**{exp - bias}"
    elif kind in ("zero", "subnormal"):
        exp_text = (f"0, all zeros: {kind}, scale fixed at 2**{1 - bias}, no implicit 1" if frac
                    else "0, all zeros, and a zero fraction: zero")
        frac_text = f"0x{frac:x} / 2**{fbits}" if frac else "0"
        val_text = (f"{'-' if sign else '+'}{frac} {times} 2**{1 - bias - fbits}, the smallest step"
                    if frac
                    else f"{stored!r}" + ("  (negative zero: == 0.0, but its sign survives)" if sign else ""))
    else:
        exp_text = f"{exp}, all ones: {'infinity' if kind == 'infinity' else 'not a number'}"
        if kind == "infinity":
            frac_text, val_text = "0", repr(stored)
        else:
            quiet = "quiet" if frac >> (fbits - 1) else "signalling"
            frac_text = f"0x{frac:x}: not zero, so NaN ({quiet})"
            val_text = "nan (not even equal to itself)"
    lines += [f"  {pen('sign', colours[0])}      {sign}: {sign_text}",
              f"  {pen('exponent', colours[1])}  {exp_text}",
              f"  {pen('fraction', colours[2])}  {pen.fit(frac_text, 68)}",
              f"  value     {val_text}"]
    if kind in ("normal", "subnormal"):
        lines.append(f"  stored    {_exact(stored)}")
    hex_text = f"  bits      0x{bits:0{total // 4}x}"
    if math.isfinite(stored):
        hex_text += f"    float.hex() {stored.hex()}"
    lines.append(hex_text)
    return finish(lines, pen)

