"""How a C compiler lays out a struct: sizes, alignment, padding, arrays, unions, packing.

Every C type has a size and an alignment: an address it may start at must be a multiple of its
alignment. A struct puts its fields in order, each at the next offset its alignment allows,
and pads its end so that, in an array of structs, every element starts aligned too.

Types are the names in PRIMITIVES, or Array, Struct and Union values; those are given. Write
the three functions, one step at a time: test_steps.py says what each must do, in order. The
struct module's native mode knows the platform's sizes; ctypes is the steps' referee, not yours.
"""

from __future__ import annotations

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
    raise NotImplementedError("sizeof")


def alignof(t: Type) -> int:
    """The alignment of the type: the addresses it may start at are its multiples."""
    raise NotImplementedError("alignof")


def offsets(t: Struct | Union) -> dict[str, int]:
    """Where each field starts, in bytes from the start of the struct (or union)."""
    raise NotImplementedError("offsets")
