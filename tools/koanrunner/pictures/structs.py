"""The bytes of a C struct: each field's offset and size, the padding, the alignment."""

from __future__ import annotations

import ctypes
import re
import struct
from dataclasses import dataclass
from typing import Any

from ._pen import Pen, finish, fit

ROW = 16  # bytes to a row of the picture
MAX_BYTES = 256
CODES = {"x": "pad byte", "c": "char", "b": "signed char", "B": "unsigned char", "?": "_Bool",
         "h": "short", "H": "unsigned short", "i": "int", "I": "unsigned int", "l": "long",
         "L": "unsigned long", "q": "long long", "Q": "unsigned long long", "n": "ssize_t",
         "N": "size_t", "e": "half", "f": "float", "d": "double", "s": "char[]", "p": "char[]",
         "P": "void *"}
ITEM = re.compile(r"\s*(\d*)([xcbB?hHiIlLqQnNefdspP])\s*")
COLOURS = ("cyan", "green", "magenta", "blue", "yellow", "red")


@dataclass
class Field:
    name: str
    type: str
    offset: int
    size: int
    align: int


def _ctype_name(t: Any) -> str:
    if hasattr(t, "_length_") and hasattr(t, "_type_"):
        return f"{_ctype_name(t._type_)}[{t._length_}]"
    return getattr(t, "__name__", str(t))


def _from_ctypes(cls: type) -> tuple[str, list[Field], int, int, str]:
    fields = []
    for entry in cls.__dict__.get("_fields_", ()):
        if len(entry) != 2:
            raise ValueError(f"struct_layout does not draw bit fields ({entry[0]!r})")
        name, ftype = entry
        descriptor = getattr(cls, name)
        fields.append(Field(name, _ctype_name(ftype), descriptor.offset, ctypes.sizeof(ftype),
                            ctypes.alignment(ftype)))
    kind = "union" if issubclass(cls, ctypes.Union) else "struct"
    pack = getattr(cls, "_pack_", 0)
    note = "as the C compiler lays it out" + (f", packed to {pack}" if pack else "")
    return f"{kind} {cls.__name__} (ctypes)", fields, ctypes.sizeof(cls), ctypes.alignment(cls), note


def _from_format(fmt: str) -> tuple[str, list[Field], int, int, str]:
    try:
        total = struct.calcsize(fmt)
    except struct.error as exc:
        raise ValueError(f"not a struct format: {fmt!r} ({exc})") from None
    order, body = (fmt[0], fmt[1:]) if fmt[:1] in "@=<>!" else ("@", fmt)
    native = order == "@"
    fields, prefix, pos, align_all = [], order, 0, 1
    while pos < len(body):
        m = ITEM.match(body, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read the struct format {fmt!r} at {body[pos:]!r}")
        pos = m.end()
        count, code = int(m.group(1) or 1), m.group(2)
        one = struct.calcsize(order + code)
        align = struct.calcsize(order + "c" + code) - one if native else 1
        if code in "sp" or code == "x":
            item = f"{count if m.group(1) else ''}{code}"
            start = struct.calcsize(prefix + item) - struct.calcsize(order + item)
        else:
            item = f"{count}{code}"
            start = struct.calcsize(prefix + code) - one
        prefix += item
        align_all = max(align_all, align)
        size = struct.calcsize(prefix) - start
        if code == "x" or size == 0:
            continue
        kind = CODES[code] if code in "sp" or count == 1 else f"{CODES[code]}[{count}]"
        if code in "sp":
            kind = f"char[{count}]"
        fields.append(Field(f"{m.group(1)}{code}", kind, start, size, align))
    mode = {"@": "native sizes and alignment: padding between fields, none at the end",
            "=": "native byte order, standard sizes, no padding",
            "<": "little-endian, standard sizes, no padding",
            ">": "big-endian, standard sizes, no padding",
            "!": "network order (big-endian), standard sizes, no padding"}[order]
    return f"struct format {fit(repr(fmt), 30, '...')}", fields, total, align_all if native else 1, mode


def _from_list(items: list[Any]) -> tuple[str, list[Field], int, int, str]:
    if all(len(t) == 3 and isinstance(t[1], int) for t in items):
        fields = [Field(str(n), "", int(o), int(s), 1) for n, o, s in items]
        total = max((f.offset + f.size for f in fields), default=0)
        return "layout", fields, total, 0, "offsets and sizes as given"
    cls = type("struct", (ctypes.Structure,), {"_fields_": [tuple(t) for t in items]})
    title, fields, total, align, note = _from_ctypes(cls)
    return title.replace("struct struct (ctypes)", "struct (ctypes)"), fields, total, align, note


def _layout(what: Any) -> tuple[str, list[Field], int, int, str]:
    if isinstance(what, str):
        return _from_format(what)
    if isinstance(what, (ctypes.Structure, ctypes.Union)):
        what = type(what)
    if isinstance(what, type) and issubclass(what, (ctypes.Structure, ctypes.Union)):
        return _from_ctypes(what)
    if isinstance(what, (list, tuple)):
        try:
            return _from_list(list(what))
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"struct_layout cannot read those fields: {exc}") from None
    raise ValueError("struct_layout takes a ctypes.Structure class, a struct format, or a list "
                     f"of (name, ctype) or (name, offset, size), not {type(what).__name__}")


def struct_layout(fields_or_format: Any, *, unicode: bool = True, color: bool = False) -> list[str]:
    """The bytes of a struct, 16 to a row under a byte ruler: which field each byte belongs to,
    and the padding between fields and at the end; then a table of each field's offset, size
    and alignment, and the total.

    ``fields_or_format`` is a ``ctypes.Structure`` or ``ctypes.Union`` subclass (or an
    instance), a ``struct`` format string (its items are named by their codes; ``@``, the
    default, aligns like the C compiler but adds no padding at the end), a list of
    ``(name, ctypes type)`` pairs, or a list of ``(name, offset, size)`` triples (a computed
    layout, as a kata has)."""
    pen = Pen(unicode, color)
    title, fields, total, align, note = _layout(fields_or_format)
    if total > MAX_BYTES:
        raise ValueError(f"struct_layout draws up to {MAX_BYTES} bytes, not {total}")
    owner: list[tuple[int, ...]] = [()] * total  # the fields each byte belongs to (a union: many)
    for i, f in enumerate(fields):
        if f.offset < 0 or f.offset + f.size > total:
            raise ValueError(f"field {f.name!r} lies outside the struct's {total} bytes")
        for b in range(f.offset, f.offset + f.size):
            owner[b] = (*owner[b], i)
    keys = [chr(ord("A") + i) if i < 26 else "?" for i in range(len(fields))]
    aligned = f", aligned to {align}" if align else ""  # a computed layout does not say
    lines = [pen(f"{title}: {total} byte{'s' if total != 1 else ''}{aligned}", "bold"),
             f"  {note}"]
    pad_char = pen.ch("░", ".")
    for start in range(0, max(total, 1), ROW):
        span = range(start, min(start + ROW, total))
        lines.append("  offset " + "".join(f"{b:>3} " for b in span).rstrip())
        segments: list[tuple[tuple[int, ...], int]] = []  # (the fields there, bytes)
        for b in span:
            if segments and segments[-1][0] == owner[b]:
                segments[-1] = (owner[b], segments[-1][1] + 1)
            else:
                segments.append((owner[b], 1))
        widths = [4 * n - 1 for _, n in segments]
        texts = []
        for (here, _), width in zip(segments, widths, strict=True):
            if not here:
                texts.append(pen(pad_char * width, "dim"))
                continue
            label = "/".join(fields[i].name for i in here)
            if len(label) > width - 2:
                label = "/".join(keys[i] for i in here)
                label = label if len(label) <= width else pen.fit("".join(keys[i] for i in here), width)
            texts.append(pen(label.center(width), COLOURS[here[0] % len(COLOURS)]))
        lines += ["         " + pen.border(widths, "top") if widths else "",
                  "         " + pen.cells(texts) if widths else "",
                  "         " + pen.border(widths, "bottom") if widths else ""]
    lines.append("  key  field         type                offset  size  align")
    padding = [b for b in range(total) if not owner[b]]
    entries: list[tuple[int, str]] = []
    for i, f in enumerate(fields):
        row = (f"  {keys[i]:<4} {pen(pen.fit(f.name, 13).ljust(13), COLOURS[i % len(COLOURS)])} "
               f"{pen.fit(f.type, 19):<19} {f.offset:>6} {f.size:>5} {f.align if f.type else '':>6}")
        entries.append((f.offset, row))
    runs: list[list[int]] = []
    for b in padding:
        if runs and runs[-1][1] == b:
            runs[-1][1] = b + 1
        else:
            runs.append([b, b + 1])
    for start, end in runs:
        where = "(end padding)" if end == total else "(padding)"
        entries.append((start, f"  {'':<4} {pen(where.ljust(13), 'dim')} {'':<19} {start:>6} "
                               f"{end - start:>5}"))
    lines += [row for _, row in sorted(entries, key=lambda e: e[0])]
    used = total - len(padding)
    lines.append(f"  {total} bytes: {used} in fields, {len(padding)} of padding")
    return finish(lines, pen)
