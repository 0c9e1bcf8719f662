"""A toy heap with reference counts and a cycle collector that finds garbage as CPython's does.

Every object counts the references to it: the variables that hold it and the references other
objects hold (a field, a list slot). When the count drops to zero the object is freed at once,
and the references it held are dropped in turn. A cycle keeps its own counts above zero, so a
second mechanism, the cycle collector, finds objects that only garbage can reach.
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
        self.objects[name] = Obj(name, refcount=1)

    def refcount(self, name: str) -> int:
        return self.objects[name].refcount

    def alive(self) -> set[str]:
        return set(self.objects)

    def incref(self, name: str) -> None:
        """One more reference from outside the heap (another variable)."""
        self.objects[name].refcount += 1

    def decref(self, name: str) -> None:
        """One reference fewer. At zero the object is freed, and every reference it held is
        dropped too: with a list of pending work, not recursion (CPython's "trashcan" exists
        so that freeing a long chain does not overflow the C stack)."""
        pending = [name]
        while pending:
            obj = self.objects[pending.pop()]
            obj.refcount -= 1
            if obj.refcount == 0:
                del self.objects[obj.name]
                pending.extend(obj.refs)
                obj.refs = []

    def point(self, source: str, target: str) -> None:
        """``source`` takes a reference to ``target``."""
        self.objects[source].refs.append(target)
        self.incref(target)

    def unpoint(self, source: str, target: str) -> None:
        """``source`` drops one of its references to ``target``."""
        self.objects[source].refs.remove(target)
        self.decref(target)

    def gc_refs(self) -> dict[str, int]:
        """Each live object's count minus the references other heap objects hold to it: what
        is left can only come from outside the heap. CPython has no list of roots; it finds
        them this way (update_refs and subtract_refs in Python/gc.c)."""
        counts = {name: obj.refcount for name, obj in self.objects.items()}
        for obj in self.objects.values():
            for target in obj.refs:
                counts[target] -= 1
        return counts

    def collect(self) -> set[str]:
        """Free every object that nothing outside the heap can reach, and return their names.
        Mark what the outside holds and everything reachable from it; the rest is garbage.
        Its references into the survivors are dropped, as CPython's tp_clear does."""
        outside = [name for name, count in self.gc_refs().items() if count > 0]
        reachable: set[str] = set()
        while outside:
            name = outside.pop()
            if name not in reachable:
                reachable.add(name)
                outside.extend(self.objects[name].refs)
        garbage = set(self.objects) - reachable
        for name in garbage:
            for target in self.objects[name].refs:
                if target in reachable:
                    self.objects[target].refcount -= 1
        for name in garbage:
            del self.objects[name]
        return garbage
