"""Which objects the collector watches, and who points at whom.

Only containers can be part of a cycle, so only they are 'tracked' (linked into a generation).
Atomic objects such as ints and strings are never tracked, and CPython leaves some containers
untracked when they hold only atomic values, to make collections cheaper; which ones, and when
it checks, has changed between versions. gc.get_referrers searches the tracked objects only.
"""

import contextlib
import gc
import sys

import pytest


@contextlib.contextmanager
def automatic_gc_off():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Thing:
    pass


def test_tracking_depends_on_whether_an_object_can_refer_to_others():
    """The collector only needs to see objects that could be part of a cycle, and an object that
    holds no references to other objects never can be. Such types skip the collector altogether:
    no gc header in front of the object, no visit in any collection. An instance of a class you
    write can be given any attribute at any time, including one that points back at itself."""
    candidates = {"an int": 42, "a str": "text", "a float": 2.5, "a Thing": Thing()}
    tracked = [name for name, obj in candidates.items() if gc.is_tracked(obj)]
    assert tracked == ["a Thing"]


def test_which_containers_start_untracked_depends_on_the_version():
    """A container holding only atomic values cannot be in a cycle, and CPython has moved the
    check for that between versions. Up to 3.13 a dict starts untracked and is tracked once
    given a value that could be a container, while a new tuple is tracked and left for a
    collection to untrack. 3.14 tracks every dict from birth instead (simpler code, slightly
    faster), and from 3.14.1 the common ways of building a tuple check its items at once. 3.15
    does the same for a frozenset whose elements are of types the collector never tracks."""
    if sys.version_info[:3] == (3, 14, 0):
        pytest.skip(
            "3.14.0 tracked every new dict and every new tuple; 3.14.1 began checking "
            "a new tuple's items (gh-139951)"
        )
    born = {
        "list": [1, 2],
        "dict": {"a": 1, "b": 2},
        "tuple": tuple([1, 2]),
        "frozenset": frozenset([1, 2]),
    }
    untracked = [name for name, obj in born.items() if not gc.is_tracked(obj)]
    if sys.version_info >= (3, 15):
        assert untracked == ["tuple", "frozenset"]
    elif sys.version_info >= (3, 14):
        assert untracked == ["tuple"]
    else:
        assert untracked == ["dict"]


def test_when_a_dict_is_tracked_changed_in_python_3_14():
    """Up to 3.13 CPython asked whether a dict could be untracked at two moments only: when the
    dict was created, and when a full collection examined it; storing a value that could be a
    container switched tracking on, and deleting it did not switch it off. 3.14 dropped all of
    that bookkeeping: a dict is tracked for its whole life."""
    tracked_at = []
    with automatic_gc_off():  # so that the only full collection is the one we ask for
        settings = {"retries": 3, "mode": "fast"}
        if gc.is_tracked(settings):
            tracked_at.append("born")
        settings["hooks"] = []
        if gc.is_tracked(settings):
            tracked_at.append("given a list")
        del settings["hooks"]
        if gc.is_tracked(settings):
            tracked_at.append("list deleted")
        gc.collect()
        if gc.is_tracked(settings):
            tracked_at.append("after a full collection")
    if sys.version_info >= (3, 14):
        assert tracked_at == ["born", "given a list", "list deleted", "after a full collection"]
    else:
        assert tracked_at == ["given a list", "list deleted"]


def test_a_collection_untracks_tuples_that_hold_only_atomic_values():
    """Where a new tuple's items are checked at birth (from 3.14.1), the check is quick: it
    asks whether each item's type is one the collector never tracks. The tuple type is not
    one of those, since a tuple could hold a list. A collection looks deeper: it
    untracks a tuple whose items are all atomic or tuples already untracked, and that is for
    good, since a tuple can never change. Here the item tuples hold only ints."""
    with automatic_gc_off():  # so that the only collection is the one we ask for
        pairs = tuple([(1, 2), (3, 4)])
        at_birth = gc.is_tracked(pairs)
        gc.collect()
    assert (at_birth, gc.is_tracked(pairs)) == (True, False)


def test_a_function_can_close_a_cycle_but_its_code_object_cannot():
    """A function holds its globals dict, its defaults and its closure cells, and any of them can
    lead back to the function: a module's functions sit in the very dict they hold as globals.
    A code object holds constants, names, byte strings and nested code objects, all made
    before it and none of them able to point back at it."""

    def shout(text):
        return text.upper()

    assert (gc.is_tracked(shout), gc.is_tracked(shout.__code__)) == (True, False)


def test_get_referrers_searches_only_tracked_objects():
    """gc.get_referrers(x) walks the objects the collector tracks and returns those that refer
    to x directly. An object the collector does not track is invisible to that walk, however
    many references it holds. A full collection untracks a tuple of atomic values on every
    version (from 3.14.1, building one from a list already leaves it untracked)."""
    value = "".join(["sec", "ret"])
    holders = {"list": [value], "tuple": tuple([value])}
    gc.collect()
    referrers = gc.get_referrers(value)
    found = [name for name, holder in holders.items() if any(r is holder for r in referrers)]
    assert found == ["list"]


def test_get_referents_lists_what_an_object_points_to():
    """gc.get_referents(x) asks x's type for the objects x refers to directly: the same walk the
    collector uses to find cycles, so it must report every reference that could close one. A
    class attribute can hold an instance of that very class."""
    item = Thing()
    box = [item]
    assert (item in gc.get_referents(box), Thing in gc.get_referents(item)) == (True, True)
