"""The bits of an integer at a fixed width, in two's complement, with the wrap shown."""

from __future__ import annotations

import operator
from typing import Any

from ._pen import TIMES, Pen, finish

MAX_WIDTH = 64


def _dropped(high: int) -> str:
    """The bits above the width, as text: ``1``, ``101``, or ``…10`` for a negative number's
    endless ones."""
    if high >= 0:
        text = format(high, "b")
        return text if len(text) <= 10 else "1…" + text[-8:]
    k = (~high).bit_length()
    text = "…1" + (format(high & ((1 << k) - 1), f"0{k}b") if k else "")
    return text if len(text) <= 10 else "…" + text[-8:]


def _short(n: int) -> str:
    text = str(n)
    return text if len(text) <= 22 else f"{text[:6]}…({len(text.lstrip('-'))} digits)"


def int_bits(n: Any, width: int = 8, signed: bool = True, *, unicode: bool = True,
             color: bool = False) -> list[str]:
    """The ``width`` bits (1 to 64) an integer ``n`` is stored in, as a C integer or a NumPy or
    torch integer dtype stores it: two's complement when ``signed``, where the top bit weighs
    minus its place value. When ``n`` does not fit, the bits above the width are shown cut off
    and the value it wraps to is given. Up to 8 bits each bit has a box and its weight; wider
    integers are drawn a byte to a box, with each byte in hex."""
    pen = Pen(unicode, color)
    try:
        n, width = operator.index(n), operator.index(width)
    except TypeError as exc:
        raise ValueError(f"int_bits needs integers: {exc}") from None
    if not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"int_bits draws widths from 1 to {MAX_WIDTH} bits, not {width}")
    mod = 1 << width
    lo, hi = (-(mod >> 1), (mod >> 1) - 1) if signed else (0, mod - 1)
    raw = n & (mod - 1)
    value = raw - mod if signed and raw >> (width - 1) else raw
    fits = lo <= n <= hi
    bits = format(raw, f"0{width}b")
    kind = "signed (two's complement)" if signed else "unsigned"
    title = f"{_short(n)} in {width} bit{'s' if width > 1 else ''}, {kind}: "
    span = f"{lo}..{hi}"
    if len(title + span) > 80 or width > 32:
        span = f"-2**{width - 1}..2**{width - 1}-1" if signed else f"0..2**{width}-1"
    lines = [pen(title + span, "bold")]

    scissors = pen.ch("✂", "%")
    cut = "" if fits or n >> width == 0 else f"{_dropped(n >> width)} {scissors} "
    if width <= 8:
        cells = [f"  {b}  " for b in bits]
        weights = [-(1 << i) if signed and i == width - 1 else 1 << i for i in reversed(range(width))]
        top = [f"{i:^5}" for i in reversed(range(width))]
        bottom = [f"{w:^5}" for w in weights]
        labels = ("  bit", "  weight")
    else:
        cells = [bits[max(i - 8, 0):i] for i in range(width, 0, -8)][::-1]
        top = [str(len(cells) - 1 - i).center(len(g)) for i, g in enumerate(cells)]
        bottom = [f"0x{int(g, 2):0{(len(g) + 3) // 4}x}".center(len(g)) for g in cells]
        labels = ("  byte", "  hex")
    widths = [len(c) for c in cells]
    painted = [pen(c, "red") if signed and width <= 8 and i == 0 else c for i, c in enumerate(cells)]
    if signed and width > 8:
        painted[0] = pen(cells[0][0], "red") + cells[0][1:]
    pad = max(len(cut), 9 if width <= 8 else 7)
    if pad + sum(widths) + len(widths) + 1 > 80:
        pad, cut = 7, (cut if len(cut) <= 7 else f"{scissors} ")
    lines.append(labels[0].ljust(pad) + " " + " ".join(top))
    lines.append(" " * pad + pen.border(widths, "top"))
    lines.append(" " * (pad - len(cut)) + pen(cut, "yellow") + pen.cells(painted))
    lines.append(" " * pad + pen.border(widths, "bottom"))
    lines.append(labels[1].ljust(pad) + " " + " ".join(bottom))

    top_weight = f"-2**{width - 1}" if signed else f"2**{width - 1}"
    lines.append(f"  the top bit weighs {pen(top_weight, 'red' if signed else None)}"
                 f"{', the others their plain place values' if width > 1 else ''}")
    if width <= 8:
        terms = [str(w) for b, w in zip(bits, weights, strict=True) if b == "1"]
        total = " + ".join(terms).replace("+ -", "- ") if terms else "no bit set"
        if len(terms) != 1:
            lines.append(f"  {total} = {value}")
    if not fits:
        k = (n - value) // mod
        lines.append(f"  {_short(n)} does not fit: the bits above bit {width - 1} are dropped," if cut else
                     f"  {_short(n)} does not fit: its top bit now counts -2**{width - 1},")
        lines.append(f"  so it wraps to {pen(str(value), 'yellow', 'bold')}"
                     f" ({_short(n)} {'-' if k > 0 else '+'} {_short(abs(k))} {pen.ch(TIMES, '*')} 2**{width})")
    elif signed and n < 0:
        lines.append(f"  stored as 2**{width} - {-n}{f' = {raw}' if width <= 32 else ''}:"
                     " the same bits read unsigned")
    as_signed = raw - mod if raw >> (width - 1) else raw
    lines.append(f"  hex 0x{raw:0{(width + 3) // 4}x}    read {'unsigned' if signed else 'signed'}: "
                 f"{raw if signed else as_signed}")
    return finish(lines, pen)
