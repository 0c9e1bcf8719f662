"""How a C compiler lays out a struct: sizes, alignment, padding, arrays, unions, packing.

Every C type has a size and an alignment: an address it may start at must be a multiple of its
alignment. A struct puts its fields in order, each at the next offset its alignment allows,
and pads its end so that, in an array of structs, every element starts aligned too.

Types are the names in PRIMITIVES, or Array, Struct, PackedStruct and Union values. sizeof,
alignof and offsets are given: they work for any type, asking a primitive's size and alignment
of the platform and the others' of their own methods. Write those, one step at a time:
test_steps.py says what each must do, in order. The struct module's native mode knows the
platform's sizes; ctypes is the steps' referee, not yours.
"""

from __future__ import annotations

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
    raise NotImplementedError("primitive_size")


def primitive_alignment(name: str) -> int:
    """The alignment of a primitive type on this platform."""
    raise NotImplementedError("primitive_alignment")


@dataclass(frozen=True)
class Array:
    element: Type
    length: int

    def size(self) -> int:
        """The bytes of the whole array."""
        raise NotImplementedError("Array.size")

    def alignment(self) -> int:
        """The addresses the array may start at are multiples of this."""
        raise NotImplementedError("Array.alignment")


@dataclass(frozen=True)
class Struct:
    fields: tuple[tuple[str, Type], ...]

    def field_alignment(self, t: Type) -> int:
        """The alignment a field of type t gets in this struct (a packed struct caps it)."""
        raise NotImplementedError("Struct.field_alignment")

    def offsets(self) -> dict[str, int]:
        """Where each field starts, in bytes from the start of the struct."""
        raise NotImplementedError("Struct.offsets")

    def alignment(self) -> int:
        """The addresses the struct may start at are multiples of this."""
        raise NotImplementedError("Struct.alignment")

    def size(self) -> int:
        """The bytes of the whole struct, padding at the end included."""
        raise NotImplementedError("Struct.size")


@dataclass(frozen=True)
class PackedStruct(Struct):
    pack: int = 1  # like #pragma pack(n), or ctypes' _pack_

    def field_alignment(self, t: Type) -> int:
        """The alignment a field of type t gets in a packed struct."""
        raise NotImplementedError("PackedStruct.field_alignment")


@dataclass(frozen=True)
class Union:
    fields: tuple[tuple[str, Type], ...]

    def offsets(self) -> dict[str, int]:
        """Where each member starts."""
        raise NotImplementedError("Union.offsets")

    def alignment(self) -> int:
        """The addresses the union may start at are multiples of this."""
        raise NotImplementedError("Union.alignment")

    def size(self) -> int:
        """The bytes of the whole union."""
        raise NotImplementedError("Union.size")


Type = str | Array | Struct | Union
