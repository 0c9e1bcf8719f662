"""Every Python value is an object that carries a count of the references pointing at it.

sys.getrefcount(x) reads that count, but it always reads one too many, because passing x to
getrefcount is itself a reference for the duration of the call. The absolute number also varies
between versions, so these koans measure DIFFERENCES: what a single statement adds or removes.
"""

import sys


class Thing:
    """A fresh object: nothing else in the interpreter can be holding a reference to it."""


def test_binding_a_second_name_adds_exactly_one_reference():
    """A name is a reference: `alias = thing` writes nothing but a pointer, and bumps the count in
    the object's header. Even this 'read' is a write to the object's memory, which is why a forked
    worker loses copy-on-write sharing of pages it merely looks at."""
    thing = Thing()
    before = sys.getrefcount(thing)
    alias = thing
    assert sys.getrefcount(thing) - before == __
    assert alias is thing


def test_appending_to_a_list_adds_exactly_one_reference():
    """A list does not hold copies of its items, only pointers to them, and each pointer counts.
    Appending stores one more pointer, so the count goes up by one."""
    thing = Thing()
    things = []
    before = sys.getrefcount(thing)
    things.append(thing)
    assert sys.getrefcount(thing) - before == __


def test_a_repeated_list_holds_one_reference_per_slot():
    """`[thing] * 3` builds a list of three slots that all point at the same object. Nothing is
    copied, so the one object gains three references (the temporary `[thing]` is already gone)."""
    thing = Thing()
    before = sys.getrefcount(thing)
    triple = [thing] * 3
    assert sys.getrefcount(thing) - before == __
    assert len(triple) == 3


def test_a_dict_entry_can_reference_the_same_object_twice():
    """A dict entry stores a pointer to its key and a pointer to its value. When key and value
    are the same object, that object gains two references from one entry."""
    thing = Thing()
    before = sys.getrefcount(thing)
    table = {thing: thing}
    assert sys.getrefcount(thing) - before == __
    assert len(table) == 1


def test_a_shallow_copy_adds_references_not_objects():
    """`list.copy()` makes a new list whose slots point at the SAME items. Every slot of the copy
    is one more reference to an existing object; no item is duplicated."""
    thing = Thing()
    pair = [thing, thing]
    before = sys.getrefcount(thing)
    duplicate = pair.copy()
    assert sys.getrefcount(thing) - before == __
    assert duplicate[0] is thing


def test_del_removes_one_reference_and_not_the_object():
    """`del name` unbinds the name and decrements the count of the object it pointed at. It does
    not destroy anything: the object lives on while other references remain."""
    thing = Thing()
    alias = thing
    before = sys.getrefcount(thing)
    del alias
    assert sys.getrefcount(thing) - before == __


def test_clearing_a_container_drops_every_reference_it_held():
    """When a list lets go of its slots, each slot's pointer is released and decremented. Five
    slots pointing at one object release five references at once."""
    thing = Thing()
    things = [thing] * 5
    before = sys.getrefcount(thing)
    things.clear()
    assert sys.getrefcount(thing) - before == __
