"""Reference cycles: the one thing reference counting cannot free on its own.

When objects point at each other, each keeps the other's count above zero, even after the
program can no longer reach any of them. CPython's cyclic garbage collector (the gc module)
finds such unreachable groups and frees them. Each koan switches the automatic collector off
(restoring it afterwards) so that a collection can only happen when the koan asks for one.
"""

import contextlib
import gc
import weakref


@contextlib.contextmanager
def automatic_gc_off():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Node:
    def __init__(self, name):
        self.name = name
        self.other = None


def test_del_removes_a_name_not_a_self_reference():
    """`loop.other = loop` makes that object hold a reference to itself; `plain` holds none.
    `del` removes only the references held by the names. Reference counting frees an object
    when its count drops to zero, and with automatic gc off nothing else frees anything; a weak
    reference does not count, and returns None once its object is gone."""
    with automatic_gc_off():
        loop, plain = Node("loop"), Node("plain")
        loop.other = loop
        watchers = {"loop": weakref.ref(loop), "plain": weakref.ref(plain)}
        del loop, plain
        alive = [name for name, watcher in watchers.items() if watcher() is not None]
        gc.collect()
    assert alive == ["loop"]


def test_gc_collect_frees_an_unreachable_cycle():
    """gc.collect() looks for groups of container objects that are referenced only from inside
    the group: no name or outside object can reach them, so they are garbage. A weakref.finalize
    callback runs when its object dies, whatever freed it."""
    events = []
    with automatic_gc_off():
        first, second = Node("first"), Node("second")
        first.other, second.other = second, first
        weakref.finalize(first, events.append, "first")
        weakref.finalize(second, events.append, "second")
        del first, second
        assert events == []
        gc.collect()
    assert sorted(events) == ["first", "second"]


def test_collect_returns_how_many_unreachable_objects_it_found():
    """gc.collect() returns the number of unreachable objects it found. The first collect()
    clears out whatever garbage was already waiting, and with automatic collection off nothing
    else can collect in between, so the second one counts only what the koan dropped."""
    with automatic_gc_off():
        gc.collect()
        first = []
        second = [first]
        first.append(second)
        del first, second
        found = gc.collect()
    assert found == 2


def test_disabling_gc_stops_only_the_automatic_collections():
    """gc.disable() turns off the collections that run by themselves when allocations pile up:
    it switches off a trigger, not the collector. gc.isenabled() reports the state of that
    trigger."""
    with automatic_gc_off():
        enabled = gc.isenabled()
        node = Node("loop")
        node.other = node
        watcher = weakref.ref(node)
        del node
        gc.collect()
        assert (enabled, watcher() is None) == (False, True)


def test_breaking_a_cycle_by_hand_lets_refcounting_free_it():
    """Setting one link of the cycle to None removes the reference that kept the other object's
    count up, so the objects no longer form a loop. The collector is switched off here: only
    reference counting can free anything."""
    with automatic_gc_off():
        first, second = Node("first"), Node("second")
        first.other, second.other = second, first
        watcher = weakref.ref(second)
        first.other = None
        del first, second
        assert watcher() == None


def test_a_weak_back_reference_does_not_make_a_cycle():
    """Parent and child that point at each other form a cycle. If the child's pointer to its
    parent is a weak reference, it does not add to the parent's reference count, so only the
    parent's strong references decide when it dies."""
    events = []
    with automatic_gc_off():
        parent, child = Node("parent"), Node("child")
        parent.other = child
        child.other = weakref.ref(parent)
        weakref.finalize(parent, events.append, "parent freed")
        del parent
        assert events == ["parent freed"]
        assert child.other() is None
