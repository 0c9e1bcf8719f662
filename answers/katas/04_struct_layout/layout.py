"""How a C compiler lays out a struct: sizes, alignment, padding, arrays, unions, packing.

Every C type has a size and an alignment: an address it may start at must be a multiple of its
alignment. A struct puts its fields in order, each at the next offset its alignment allows,
and pads its end so that, in an array of structs, every element starts aligned too.

Types are the names in PRIMITIVES, or Array, Struct and Union values.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

PRIMITIVES = {"char": "c", "short": "h", "int": "i", "long": "l", "long long": "q",
              "float": "f", "double": "d", "pointer": "P"}  # their codes in the struct module


@dataclass(frozen=True)
class Array:
    element: Type
    length: int


@dataclass(frozen=True)
class Struct:
    fields: tuple[tuple[str, Type], ...]
    pack: int | None = None  # like #pragma pack(n): no field aligned to more than n


@dataclass(frozen=True)
class Union:
    fields: tuple[tuple[str, Type], ...]


Type = str | Array | Struct | Union


def sizeof(t: Type) -> int:
    """The number of bytes a value of the type occupies, padding included."""
    if isinstance(t, str):
        return struct.calcsize(PRIMITIVES[t])
    if isinstance(t, Array):
        return sizeof(t.element) * t.length
    end = max(sizeof(field) for _, field in t.fields) if isinstance(t, Union) else _place(t)[1]
    return _round_up(end, alignof(t))


def alignof(t: Type) -> int:
    """The alignment of the type: the addresses it may start at are its multiples."""
    if isinstance(t, str):
        code = PRIMITIVES[t]
        return struct.calcsize("c" + code) - struct.calcsize(code)  # the padding after a char
    if isinstance(t, Array):
        return alignof(t.element)
    natural = max(alignof(field) for _, field in t.fields)
    if isinstance(t, Struct) and t.pack:
        return min(natural, t.pack)
    return natural


def offsets(t: Struct | Union) -> dict[str, int]:
    """Where each field starts, in bytes from the start of the struct (a union's all at 0)."""
    if isinstance(t, Union):
        return {name: 0 for name, _ in t.fields}
    return _place(t)[0]


def _place(t: Struct) -> tuple[dict[str, int], int]:
    """Each field at the next offset its (packed) alignment allows; and where the last ends."""
    placed: dict[str, int] = {}
    offset = 0
    for name, field in t.fields:
        align = alignof(field)
        if t.pack:
            align = min(align, t.pack)
        offset = _round_up(offset, align)
        placed[name] = offset
        offset += sizeof(field)
    return placed, offset


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple
