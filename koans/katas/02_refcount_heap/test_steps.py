"""Kata: a refcounting heap with a cycle collector. Five steps; write heap.py to pass them."""

import gc
import itertools
import random
import weakref

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from heap import Heap

SETTINGS = settings(max_examples=80, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
NAMES = "abcde"


class Node:
    """A real Python object for the same shapes: CPython is the referee."""

    __slots__ = ("__weakref__", "refs")

    def __init__(self):
        self.refs = []


def cpython_survivors(names, edges, dropped):
    """Build the shape from real objects, drop the variables: which objects does reference
    counting leave alive, and which survive gc.collect() after that?"""
    enabled = gc.isenabled()
    gc.disable()
    try:
        variables = {}
        for name in names:
            variables[name] = Node()
        for source, target in edges:
            variables[source].refs.append(variables[target])
        probes = {}
        for name in names:
            probes[name] = weakref.ref(variables[name])
        for name in dropped:
            del variables[name]
        after_refcounting = {name for name in names if probes[name]() is not None}
        gc.collect(0)  # they are young (nothing collected since they were made): enough
        after_gc = {name for name in names if probes[name]() is not None}
        return after_refcounting, after_gc
    finally:
        if enabled:
            gc.enable()


shapes = st.integers(1, len(NAMES)).flatmap(lambda n: st.tuples(
    st.just(NAMES[:n]),
    st.lists(st.tuples(st.sampled_from(NAMES[:n]), st.sampled_from(NAMES[:n])), max_size=8),
    st.sets(st.sampled_from(NAMES[:n])),
))


def random_shapes(seed, count):
    """Shapes of every kind, the same on every run: names, edges (source, target), and the
    variables dropped."""
    rng = random.Random(seed)
    found = [("ab", [("a", "b"), ("b", "a")], {"a", "b"}), ("a", [("a", "a")], {"a"}),
             ("abc", [("a", "b"), ("a", "b"), ("b", "c")], {"a", "b", "c"})]
    for _ in range(count):
        names = NAMES[:rng.randint(1, len(NAMES))]
        edges = [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(0, 8))]
        found.append((names, edges, {name for name in names if rng.random() < 0.6}))
    return found


SHAPES = random_shapes(2, 150)


def build(names, edges, dropped):
    heap = Heap()
    for name in names:
        heap.new(name)
    for source, target in edges:
        heap.point(source, target)
    for name in sorted(dropped):
        heap.decref(name)
    return heap


def test_a_new_object_starts_with_one_reference():
    """An object is born with one reference: the variable it is assigned to. Each further
    variable that holds it adds one to its count; the count is the object's own business,
    kept in its header (ob_refcnt in CPython)."""
    heap = Heap()
    heap.new("a")
    assert heap.refcount("a") == 1
    assert heap.alive() == {"a"}
    heap.incref("a")
    heap.new("b")
    assert heap.refcount("a") == 2
    assert heap.refcount("b") == 1
    assert heap.alive() == {"a", "b"}


def test_the_last_reference_dropped_frees_the_object():
    """Dropping a reference lowers the count; when it reaches zero nobody can reach the object
    any more, and it is freed at once: no pause, no collector, the very moment the last
    variable lets go."""
    heap = Heap()
    heap.new("a")
    heap.incref("a")
    heap.decref("a")
    assert heap.alive() == {"a"}
    assert heap.refcount("a") == 1
    heap.decref("a")
    assert heap.alive() == set()


def test_a_freed_object_drops_the_references_it_held():
    """Objects hold references too: a list holds its items. Freeing an object drops every
    reference it held, which may free those objects in turn, a cascade; a long chain must not
    overflow the stack (CPython's "trashcan" defers deep deallocations for that reason). But in
    a cycle every object holds the next, so no count ever reaches zero: reference counting alone
    leaks cycles, and CPython with gc disabled leaks exactly the same objects."""
    heap = Heap()
    heap.new("a")
    heap.new("b")
    heap.point("a", "b")
    assert heap.refcount("b") == 2
    heap.decref("b")
    assert heap.alive() == {"a", "b"}
    heap.decref("a")
    assert heap.alive() == set()
    heap.new("x")
    heap.new("y")
    heap.point("x", "y")
    heap.point("x", "y")
    heap.unpoint("x", "y")
    assert heap.refcount("y") == 2
    heap.decref("y")
    heap.decref("x")  # x still held one reference to y
    assert heap.alive() == set()
    heap.new("p")
    heap.new("q")
    heap.point("p", "q")
    heap.decref("q")
    heap.unpoint("p", "q")  # the last reference to q
    assert heap.alive() == {"p"}
    chain = [f"n{i}" for i in range(20_000)]
    for name in chain:
        heap.new(name)
    for source, target in itertools.pairwise(chain):
        heap.point(source, target)
        heap.decref(target)
    heap.decref(chain[0])
    assert heap.alive() == {"p"}
    for names, edges, dropped in SHAPES:
        after_refcounting, _ = cpython_survivors(names, edges, dropped)
        assert build(names, edges, dropped).alive() == after_refcounting, (
            f"objects {names}, references {edges}, variables dropped {sorted(dropped)}: "
            f"CPython with gc disabled keeps {sorted(after_refcounting)} alive")


@SETTINGS
@example(("ab", [("a", "b"), ("a", "b"), ("b", "a")], {"b"}))
@example(("a", [("a", "a")], {"a"}))
@given(shapes)
def test_gc_refs_count_the_references_from_outside_the_heap(shape):
    """CPython's collector has no list of roots. It copies each object's count and subtracts
    one for every reference another object holds to it: what is left comes from outside (a
    variable, a frame, a C extension). An object with something left is surely alive."""
    names, edges, dropped = shape
    heap = Heap()
    heap.new("a")
    heap.new("b")
    heap.point("a", "b")
    heap.point("b", "a")
    heap.decref("b")
    assert heap.gc_refs() == {"a": 1, "b": 0}
    heap = build(names, edges, dropped)
    after_refcounting, _ = cpython_survivors(names, edges, dropped)
    assert heap.gc_refs() == {name: int(name not in dropped) for name in after_refcounting}


@SETTINGS
@example(("ab", [("a", "b"), ("b", "a")], {"b"}))
@example(("abc", [("a", "b"), ("b", "a"), ("a", "c")], {"a", "b"}))
@example(("abc", [("a", "b"), ("b", "c"), ("c", "b")], {"b", "c"}))
@given(shapes)
def test_collect_frees_what_only_garbage_can_reach_like_gc(shape):
    """Whatever the outside holds is alive, and so is everything reachable from it, however
    low its gc_refs. The rest is garbage: cycles and whatever hangs off them. Freeing it drops
    its references into the survivors. gc.collect() frees exactly the same objects."""
    names, edges, dropped = shape
    heap = build(names, edges, dropped)
    _, after_gc = cpython_survivors(names, edges, dropped)
    before = heap.alive()
    freed = heap.collect()
    assert heap.alive() == after_gc
    assert freed == before - after_gc
    holders = {name: int(name not in dropped) for name in after_gc}
    for source, target in edges:
        if source in after_gc:
            holders[target] += 1
    assert {name: heap.refcount(name) for name in after_gc} == holders
    assert heap.collect() == set()
    with pytest.raises(KeyError):
        heap.refcount(next(iter(freed))) if freed else heap.refcount("nobody")
