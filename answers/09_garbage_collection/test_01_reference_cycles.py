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


def test_a_self_referencing_object_survives_del():
    """`node.other = node` makes the object hold a reference to itself. After `del node` its count
    is still one (its own attribute), so reference counting never frees it: the weak reference
    still finds the object, although no name can reach it any more."""
    with automatic_gc_off():
        node = Node("loop")
        node.other = node
        watcher = weakref.ref(node)
        del node
        assert (watcher() is None) == False
        gc.collect()


def test_gc_collect_frees_an_unreachable_cycle():
    """gc.collect() looks for groups of container objects that are referenced only from inside
    the group. Such a group is garbage, so the collector breaks it and every member dies; their
    finalizers fire during the collect() call."""
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
    """gc.collect() returns the number of unreachable objects it found. Garbage made elsewhere
    in the process is counted too, so only a lower bound is safe: a cycle of two lists adds at
    least two."""
    with automatic_gc_off():
        gc.collect()
        first = []
        second = [first]
        first.append(second)
        del first, second
        found = gc.collect()
    assert (found >= 2) == True


def test_disabling_gc_stops_only_the_automatic_collections():
    """gc.disable() turns off the collections that run by themselves when allocations pile up.
    Reference counting keeps working, and an explicit gc.collect() still collects."""
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
    count up. Then the plain `del` is enough: both objects are freed at once, with the collector
    switched off."""
    with automatic_gc_off():
        first, second = Node("first"), Node("second")
        first.other, second.other = second, first
        watcher = weakref.ref(second)
        first.other = None
        del first, second
        assert watcher() == None


def test_a_weak_back_reference_does_not_make_a_cycle():
    """Parent and child that point at each other form a cycle. If the child's pointer to its
    parent is a weak reference, it does not count, so the parent dies as soon as its last name
    goes, collector or not."""
    events = []
    with automatic_gc_off():
        parent, child = Node("parent"), Node("child")
        parent.other = child
        child.other = weakref.ref(parent)
        weakref.finalize(parent, events.append, "parent freed")
        del parent
        assert events == ["parent freed"]
        assert child.other() is None
