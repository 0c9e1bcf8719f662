"""How a C compiler lays out a struct: sizes, alignment, padding, arrays, unions, packing."""

from __future__ import annotations

from dataclasses import dataclass

PRIMITIVES = {"char": "c", "short": "h", "int": "i", "long": "l", "long long": "q",
              "float": "f", "double": "d", "pointer": "P"}


def sizeof(t: Type) -> int:
    """Bytes a value of the type occupies."""
    raise NotImplementedError("sizeof")


def alignof(t: Type) -> int:
    """The type's alignment."""
    raise NotImplementedError("alignof")


def offsets(t: Struct | Union) -> dict[str, int]:
    """Where each field starts."""
    raise NotImplementedError("offsets")


def primitive_size(name: str) -> int:
    """A primitive's size here."""
    raise NotImplementedError("primitive_size")


def primitive_alignment(name: str) -> int:
    """A primitive's alignment here."""
    raise NotImplementedError("primitive_alignment")


@dataclass(frozen=True)
class Array:
    element: Type
    length: int

    def size(self) -> int:
        raise NotImplementedError("Array.size")

    def alignment(self) -> int:
        raise NotImplementedError("Array.alignment")


@dataclass(frozen=True)
class Struct:
    fields: tuple[tuple[str, Type], ...]

    def field_alignment(self, t: Type) -> int:
        raise NotImplementedError("Struct.field_alignment")

    def offsets(self) -> dict[str, int]:
        raise NotImplementedError("Struct.offsets")

    def alignment(self) -> int:
        raise NotImplementedError("Struct.alignment")

    def size(self) -> int:
        raise NotImplementedError("Struct.size")


@dataclass(frozen=True)
class PackedStruct(Struct):
    pack: int = 1

    def field_alignment(self, t: Type) -> int:
        raise NotImplementedError("PackedStruct.field_alignment")


@dataclass(frozen=True)
class Union:
    fields: tuple[tuple[str, Type], ...]

    def offsets(self) -> dict[str, int]:
        raise NotImplementedError("Union.offsets")

    def alignment(self) -> int:
        raise NotImplementedError("Union.alignment")

    def size(self) -> int:
        raise NotImplementedError("Union.size")


Type = str | Array | Struct | Union
