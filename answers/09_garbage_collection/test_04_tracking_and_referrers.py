"""Which objects the collector watches, and who points at whom.

Only containers can be part of a cycle, so only they are 'tracked' (linked into a generation).
Atomic objects such as ints and strings are never tracked, and CPython untracks some containers
(dicts and tuples holding only atomic values) to make collections cheaper. gc.get_referrers
searches the tracked objects only.
"""

import contextlib
import gc


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
    no gc header in front of the object, no visit in any collection."""
    assert (gc.is_tracked(42), gc.is_tracked("text")) == (False, False)


def test_lists_and_dicts_start_tracking_at_different_moments():
    """Any append could make a list part of a cycle, and an append does not tell the collector
    anything. CPython's dicts are watched on every store instead: a dict starts being tracked
    only when it is given a value that could be a container."""
    assert (gc.is_tracked([]), gc.is_tracked({})) == (True, False)


def test_a_dict_is_checked_for_untracking_only_at_birth_and_in_full_collections():
    """A dict of ints and strings cannot be in a cycle, so CPython leaves it untracked, and
    storing a value that could be a container switches tracking on. CPython asks whether a dict
    could be untracked at two moments only: when the dict is created, and when a full
    collection examines it."""
    with automatic_gc_off():  # a full collection in between could untrack the dict again
        settings = {"retries": 3, "mode": "fast"}
        before = gc.is_tracked(settings)
        settings["hooks"] = []
        with_list = gc.is_tracked(settings)
        del settings["hooks"]
        after_del = gc.is_tracked(settings)
    assert (before, with_list, after_del) == (False, True, True)


def test_a_collection_untracks_tuples_that_hold_only_atomic_values():
    """A tuple built at run time is tracked, because its items could be containers. When the
    collector examines it and finds only atomic items, it untracks it for good, since a tuple can
    never change."""
    with automatic_gc_off():  # so that the only collection is the one we ask for
        pair = tuple([1, 2])
        at_birth = gc.is_tracked(pair)
        gc.collect()
    assert (at_birth, gc.is_tracked(pair)) == (True, False)


def test_an_instance_of_your_class_could_point_back_at_itself():
    """An instance of an ordinary class can get any attribute at any time, including one that
    points back at the instance itself, and setting an attribute does not tell the collector
    anything."""
    assert gc.is_tracked(Thing()) == True


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
    many references it holds."""
    value = "".join(["sec", "ret"])
    in_list = [value]
    in_dict = {"key": value}
    referrers = gc.get_referrers(value)
    found = (
        any(r is in_list for r in referrers),
        any(r is in_dict for r in referrers),
    )
    assert found == (True, False)


def test_get_referents_lists_what_an_object_points_to():
    """gc.get_referents(x) asks x's type for the objects x refers to directly: the same walk the
    collector uses to find cycles, so it must report every reference that could close one. A
    class attribute can hold an instance of that very class."""
    item = Thing()
    box = [item]
    assert (item in gc.get_referents(box), Thing in gc.get_referents(item)) == (True, True)
