"""An object dies the moment its last reference goes.

CPython frees an object as soon as its reference count reaches zero: no collector has to run,
so the timing is deterministic. A weak reference (`weakref.ref`) lets us watch an object without
keeping it alive, and `weakref.finalize` runs a callback when it is freed.
"""

import weakref

import pytest


class Thing:
    """An ordinary instance: unlike ints and lists, it can be weakly referenced."""


def test_an_object_is_freed_the_moment_its_last_name_is_deleted():
    """`thing` was the only reference, so `del thing` drops the count to zero and CPython frees
    the object right there. The weak reference did not count; called, it answers with the
    object if it is still alive."""
    thing = Thing()
    watcher = weakref.ref(thing)
    del thing
    assert watcher() == None


def test_del_frees_only_what_no_other_reference_holds():
    """`del` only unbinds a name. Deleting the dict drops its references to the three values,
    and CPython frees each object whose count reaches zero right there; an object that some
    other name still holds keeps a count of one and lives on."""
    named = {"first": Thing(), "second": Thing(), "third": Thing()}
    kept = named["second"]
    watchers = {name: weakref.ref(obj) for name, obj in named.items()}
    del named
    alive = [name for name, watcher in watchers.items() if watcher() is not None]
    assert alive == ["second"]
    assert kept is not None


def test_a_finalizer_fires_as_soon_as_the_last_reference_goes():
    """weakref.finalize registers a callback for the object's death. Under reference counting
    that death happens inside the `del` statement itself, so the callback has already run on the
    next line."""
    events = []
    thing = Thing()
    weakref.finalize(thing, events.append, "freed")
    assert events == []
    del thing
    assert events == ["freed"]


def test_a_container_keeps_its_items_alive():
    """A list slot is a strong reference, so deleting the name is not enough: the list still holds
    the object. Only when the list lets go does the count reach zero."""
    events = []
    thing = Thing()
    box = [thing]
    weakref.finalize(thing, events.append, "freed")
    del thing
    after_del = list(events)
    box.clear()
    assert (after_del, events) == ([], ["freed"])


def test_rebinding_a_name_frees_the_object_it_used_to_name():
    """Assignment moves the name to a new object and decrements the old one. If that was the
    old object's last reference, it is freed by the assignment itself; no `del` is needed."""
    thing = Thing()
    watcher = weakref.ref(thing)
    thing = Thing()
    assert watcher() == None


def test_locals_are_freed_when_their_function_returns():
    """A local variable is a reference held by the call's frame. When the function returns, the
    frame releases its locals, so an object that nobody else holds dies on return."""
    events = []

    def make_and_forget():
        local = Thing()
        weakref.finalize(local, events.append, "local freed")
        return "done"

    make_and_forget()
    assert events == ["local freed"]


def test_dunder_del_runs_inside_the_del_statement_in_cpython():
    """`__del__` runs when the object is about to be freed. On CPython that is the instant the
    count hits zero; the language itself does not promise this (PyPy frees later), so portable
    code should close resources explicitly (`with`) instead of relying on `__del__`."""
    log = []

    class Noisy:
        def __del__(self):
            log.append("__del__ ran")

    noisy = Noisy()
    del noisy
    log.append("next statement")
    assert log == ["__del__ ran", "next statement"]


def test_ints_and_lists_cannot_be_weakly_referenced():
    """Weak references need a slot in the object for the list of weak references pointing at it.
    int, str, tuple and list instances have no such slot (to stay small), so `weakref.ref` refuses
    them; that is why these koans watch instances of a class instead."""
    with pytest.raises(TypeError):
        weakref.ref([1, 2, 3])
