"""A toy heap with reference counts and a cycle collector."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Obj:
    name: str
    refcount: int = 0
    refs: list[str] = field(default_factory=list)


class Heap:
    def __init__(self) -> None:
        self.objects: dict[str, Obj] = {}

    def new(self, name: str) -> None:
        """A new object, held by one variable."""
        raise NotImplementedError("Heap.new")

    def refcount(self, name: str) -> int:
        """The object's count."""
        raise NotImplementedError("Heap.refcount")

    def alive(self) -> set[str]:
        """The names of the live objects."""
        raise NotImplementedError("Heap.alive")

    def incref(self, name: str) -> None:
        """One more variable holds it."""
        raise NotImplementedError("Heap.incref")

    def decref(self, name: str) -> None:
        """One reference fewer."""
        raise NotImplementedError("Heap.decref")

    def point(self, source: str, target: str) -> None:
        """source takes a reference to target."""
        raise NotImplementedError("Heap.point")

    def unpoint(self, source: str, target: str) -> None:
        """source drops one reference to target."""
        raise NotImplementedError("Heap.unpoint")

    def gc_refs(self) -> dict[str, int]:
        """Counts minus the references from inside the heap."""
        raise NotImplementedError("Heap.gc_refs")

    def collect(self) -> set[str]:
        """Free the garbage; return its names."""
        raise NotImplementedError("Heap.collect")
