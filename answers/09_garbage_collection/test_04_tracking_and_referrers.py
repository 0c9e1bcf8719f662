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


def test_ints_and_strings_are_never_tracked():
    """An int or a str cannot refer to another object, so it can never be part of a cycle; the
    collector does not track it at all. That saves the gc header and the bookkeeping."""
    assert (gc.is_tracked(42), gc.is_tracked("text")) == (False, False)


def test_an_empty_list_is_tracked_but_an_empty_dict_is_not():
    """A list is tracked from birth, even empty, because any append could close a cycle. CPython
    dicts start untracked and only become tracked when a value that could be a container is put
    in them."""
    assert (gc.is_tracked([]), gc.is_tracked({})) == (True, False)


def test_a_dict_becomes_tracked_when_it_receives_a_container_and_stays_tracked():
    """A dict of ints and strings cannot be in a cycle, so CPython leaves it untracked. Storing
    a list in it starts tracking; removing the list again does not stop it: a dict is left
    untracked at creation, or untracked by a full collection, never on deletion."""
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


def test_instances_of_your_classes_are_tracked():
    """An instance can get any attribute, including one that points back at itself, so instances
    of ordinary classes are tracked from birth."""
    assert gc.is_tracked(Thing()) == True


def test_get_referrers_finds_a_list_but_not_an_untracked_dict():
    """gc.get_referrers(x) walks the tracked objects and returns those that refer to x. An
    untracked dict is invisible to that walk, so a dict holding only strings is never reported,
    although it holds a reference just as well."""
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
    """gc.get_referents(x) asks x's type for the objects x refers to directly (the same walk the
    collector does). For an instance those include its class; for a list, its items."""
    item = Thing()
    box = [item]
    assert (item in gc.get_referents(box), Thing in gc.get_referents(item)) == (True, True)
