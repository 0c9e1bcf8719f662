"""How a C compiler lays out a struct: sizes, alignment, padding, arrays, unions, packing.

Every C type has a size and an alignment: an address it may start at must be a multiple of its
alignment. A struct puts its fields in order, each at the next offset its alignment allows,
and pads its end so that, in an array of structs, every element starts aligned too.

Types are the names in PRIMITIVES, or Array, Struct, PackedStruct and Union values. sizeof,
alignof and offsets work for any of them: a primitive's come from the platform, the others'
from their own methods.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

PRIMITIVES = {"char": "c", "short": "h", "int": "i", "long": "l", "long long": "q",
              "float": "f", "double": "d", "pointer": "P"}  # their codes in the struct module


def sizeof(t: Type) -> int:
    """The number of bytes a value of the type occupies, padding included."""
    return primitive_size(t) if isinstance(t, str) else t.size()


def alignof(t: Type) -> int:
    """The alignment of the type: the addresses it may start at are its multiples."""
    return primitive_alignment(t) if isinstance(t, str) else t.alignment()


def offsets(t: Struct | Union) -> dict[str, int]:
    """Where each field starts, in bytes from the start of the struct (or union)."""
    return t.offsets()


def primitive_size(name: str) -> int:
    """The size of a primitive type on this platform."""
    return struct.calcsize(PRIMITIVES[name])


def primitive_alignment(name: str) -> int:
    """The alignment of a primitive type on this platform: the padding struct's native mode
    puts between a char and it."""
    code = PRIMITIVES[name]
    return struct.calcsize("c" + code) - struct.calcsize(code)


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


@dataclass(frozen=True)
class Array:
    element: Type
    length: int

    def size(self) -> int:
        """Its elements back to back."""
        return sizeof(self.element) * self.length

    def alignment(self) -> int:
        """Aligned like one element."""
        return alignof(self.element)


@dataclass(frozen=True)
class Struct:
    fields: tuple[tuple[str, Type], ...]

    def field_alignment(self, t: Type) -> int:
        """The alignment a field of type t gets in this struct: its own."""
        return alignof(t)

    def offsets(self) -> dict[str, int]:
        """Each field at the first offset after the one before that its alignment allows."""
        placed: dict[str, int] = {}
        offset = 0
        for name, t in self.fields:
            offset = _round_up(offset, self.field_alignment(t))
            placed[name] = offset
            offset += sizeof(t)
        return placed

    def alignment(self) -> int:
        """As strict as its strictest field."""
        return max(self.field_alignment(t) for _, t in self.fields)

    def size(self) -> int:
        """Where its last field ends, rounded up to its alignment."""
        name, last = self.fields[-1]
        return _round_up(self.offsets()[name] + sizeof(last), self.alignment())


@dataclass(frozen=True)
class PackedStruct(Struct):
    pack: int = 1  # like #pragma pack(n), or ctypes' _pack_

    def field_alignment(self, t: Type) -> int:
        """No field is aligned to more than pack bytes."""
        return min(alignof(t), self.pack)


@dataclass(frozen=True)
class Union:
    fields: tuple[tuple[str, Type], ...]

    def offsets(self) -> dict[str, int]:
        """Every member at 0."""
        return {name: 0 for name, _ in self.fields}

    def alignment(self) -> int:
        """As strict as its strictest member."""
        return max(alignof(t) for _, t in self.fields)

    def size(self) -> int:
        """Its biggest member, rounded up to its alignment."""
        return _round_up(max(sizeof(t) for _, t in self.fields), self.alignment())


Type = str | Array | Struct | Union
