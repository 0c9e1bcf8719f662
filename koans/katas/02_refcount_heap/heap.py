"""A toy heap with reference counts and a cycle collector that finds garbage as CPython's does.

Every object counts the references to it: the variables that hold it and the references other
objects hold (a field, a list slot). When the count drops to zero the object is freed at once,
and the references it held are dropped in turn. A cycle keeps its own counts above zero, so a
second mechanism, the cycle collector, finds objects that only garbage can reach.

The objects are named by strings; ``Obj`` and the table of live objects are given. Write the
methods, one step at a time: test_steps.py says what each must do, in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Obj:
    name: str
    refcount: int = 0
    refs: list[str] = field(default_factory=list)  # what it points to, one entry per reference


class Heap:
    def __init__(self) -> None:
        self.objects: dict[str, Obj] = {}

    def new(self, name: str) -> None:
        """A new object, held by one reference: the variable it is assigned to."""
        raise NotImplementedError("Heap.new")

    def refcount(self, name: str) -> int:
        raise NotImplementedError("Heap.refcount")

    def alive(self) -> set[str]:
        raise NotImplementedError("Heap.alive")

    def incref(self, name: str) -> None:
        """One more reference from outside the heap (another variable)."""
        raise NotImplementedError("Heap.incref")

    def decref(self, name: str) -> None:
        """One reference fewer; at zero the object is freed, with what it held."""
        raise NotImplementedError("Heap.decref")

    def point(self, source: str, target: str) -> None:
        """``source`` takes a reference to ``target``."""
        raise NotImplementedError("Heap.point")

    def unpoint(self, source: str, target: str) -> None:
        """``source`` drops one of its references to ``target``."""
        raise NotImplementedError("Heap.unpoint")

    def gc_refs(self) -> dict[str, int]:
        """Each live object's count minus the references other heap objects hold to it."""
        raise NotImplementedError("Heap.gc_refs")

    def collect(self) -> set[str]:
        """Free every object nothing outside the heap can reach; return their names."""
        raise NotImplementedError("Heap.collect")
