"""The collector itself: generations, thresholds, counts, callbacks and freezing.

The cyclic collector is generational: new container objects start in generation 0, and each
object that survives a collection moves one generation older. Generation 0 is collected when
(allocations - deallocations) of tracked objects exceed the first threshold; older generations
are collected less often, on the theory that most objects die young.
"""

import contextlib
import gc
import sys
import sysconfig

import pytest

pytestmark = [
    pytest.mark.skipif(
        (3, 14) <= sys.version_info[:3] < (3, 14, 5),
        reason="3.14.0 to 3.14.4 shipped an incremental collector instead: two generations, "
        "young and old, and gc.collect(1) ran one increment of the old generation. 3.14.5 went "
        "back to the three-generation collector these koans teach (gh-142516), and 3.15 has it too",
    ),
    pytest.mark.skipif(
        bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        reason="the free-threaded build's collector has no generations: every collection "
        "examines all the tracked objects (gh-128807)",
    ),
]


@contextlib.contextmanager
def automatic_gc_off():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def generation_of(obj):
    """The number of the generation whose list holds `obj` (None if it is not tracked)."""
    for generation in range(3):
        if any(o is obj for o in gc.get_objects(generation=generation)):
            return generation
    return None


def test_gc_get_stats_has_one_entry_per_generation():
    """gc.get_stats() has one entry per generation, with how many collections it has had and how
    many objects they freed. The collector keeps a young generation, an oldest one that is
    collected least often, and one in between."""
    assert len(gc.get_stats()) == 3


def test_the_default_thresholds_changed_in_python_3_13():
    """Generation 0 is collected once allocations minus deallocations of tracked objects pass
    the first threshold; the other two numbers say how many younger collections trigger an older
    one. Python 3.13 raised the first threshold so that young collections run less often. The
    change came with an incremental collector, which was withdrawn before 3.13.0 (and again in
    3.14.5, after 3.14.0 had shipped it); the new threshold stayed."""
    if sys.version_info >= (3, 13):
        assert gc.get_threshold() == (2000, 10, 10)
    else:
        assert gc.get_threshold() == (700, 10, 10)


def test_a_new_container_starts_in_generation_0_and_a_young_collection_promotes_it():
    """A freshly made list is linked into the youngest generation. gc.collect(0) examines only
    that generation; the list survives (a name still holds it) and is moved one generation
    older."""
    with automatic_gc_off():
        gc.collect()
        survivor = []
        at_birth = generation_of(survivor)
        gc.collect(0)
        after_young_collection = generation_of(survivor)
    assert (at_birth, after_young_collection) == (0, 1)


def test_collect_n_examines_generation_n_and_every_younger_one():
    """gc.collect(n) merges generation n and all the younger ones into one list, examines it,
    and moves every survivor into the generation just older than n. So an object from generation
    0 that survives a collection of generation 1 skips a step."""
    with automatic_gc_off():
        gc.collect()
        survivor = []
        gc.collect(1)
        where = generation_of(survivor)
    assert where == 2


def test_a_full_collection_moves_survivors_to_the_oldest_generation():
    """gc.collect() with no argument collects every generation, and everything still alive ends up
    in the oldest one, which is collected least often. Long-lived objects stop costing the young
    collections any time."""
    with automatic_gc_off():
        survivor = []
        gc.collect()
        where = generation_of(survivor)
    assert where == 2


def test_allocating_containers_raises_the_generation_0_count_even_with_gc_off():
    """gc.get_count()[0] counts allocations minus deallocations of tracked objects since the last
    collection. Disabling gc stops the collections, not the counting. A couple of other tracked
    objects are counted too (the `keep` list itself, the tuple gc.get_count() returns), hence
    the rounding to hundreds."""
    with automatic_gc_off():
        gc.collect()
        before = gc.get_count()[0]
        keep = []
        for _ in range(1000):
            keep.append([])
        grew = round(gc.get_count()[0] - before, -2)
    assert len(keep) == 1000
    assert grew == 1000


def test_a_collection_reports_how_many_objects_it_examined_since_3_15():
    """The info dict that gc.callbacks receive says which generation was collected and how many
    objects were freed. Python 3.15 added a count of the objects the collection examined
    ("candidates") and the time it took ("duration"), there and in gc.get_stats(); a young
    collection examines the young generation only. Older versions have no such key, and a dict
    lookup of a missing key raises."""
    finished = []

    def listener(phase, info):
        if phase == "stop":
            finished.append(info)

    with automatic_gc_off():
        gc.collect()
        keep = [[] for _ in range(500)]
        gc.callbacks.append(listener)
        try:
            gc.collect(0)
        finally:
            gc.callbacks.remove(listener)
    assert len(keep) == 500
    info = finished[0]
    if sys.version_info >= (3, 15):
        assert round(info["candidates"], -2) == 500
    else:
        with pytest.raises(KeyError):
            info["candidates"]


def test_gc_callbacks_hear_the_start_and_stop_of_every_collection():
    """Functions in gc.callbacks are called with a phase ("start" or "stop") and an info dict
    around each collection, automatic or explicit. A full collection reports the number of the
    oldest generation."""
    heard = []

    def listener(phase, info):
        heard.append((phase, info["generation"]))

    with automatic_gc_off():
        gc.callbacks.append(listener)
        try:
            gc.collect()
        finally:
            gc.callbacks.remove(listener)
    assert heard == [("start", 2), ("stop", 2)]


def test_gc_freeze_parks_every_tracked_object_in_a_permanent_generation():
    """gc.freeze() moves every tracked object into a permanent generation that collections ignore,
    so forked workers do not touch (and copy) those pages while collecting; gc.unfreeze() moves
    them back into the oldest generation. The reference counts are still written on every use
    (except for immortal objects, 3.12+)."""
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert (frozen > 0, gc.get_freeze_count()) == (True, 0)
