"""Every Python value is an object that carries a count of the references pointing at it.

sys.getrefcount(x) reads that count. Up to 3.13 it always reads one too many, because passing x
to getrefcount is itself a reference for the duration of the call; 3.14 can pass a local
variable without counting it. The absolute number varies between versions, so most of these
koans measure DIFFERENCES: what a single statement adds or removes.
"""

import sys


class Thing:
    """A fresh object: nothing else in the interpreter can be holding a reference to it."""


def test_every_name_bound_to_an_object_is_one_reference():
    """A name is a reference: `alias = thing` copies no object, it stores one more pointer and
    bumps the count in the object's header. A chained assignment binds each of its targets to
    the same object. Even this 'read' is a write to the object's memory, which is why a forked
    worker loses copy-on-write sharing of pages it merely looks at."""
    thing = Thing()
    before = sys.getrefcount(thing)
    first = second = thing
    third = first
    assert sys.getrefcount(thing) - before == 3
    assert third is second


def test_a_repeated_list_holds_one_reference_per_slot():
    """`[thing] * 3` builds a list of three slots that all point at the same object. Nothing is
    copied, so the one object gains three references (the temporary `[thing]` is already gone)."""
    thing = Thing()
    before = sys.getrefcount(thing)
    triple = [thing] * 3
    assert sys.getrefcount(thing) - before == 3
    assert len(triple) == 3


def test_repeating_a_list_of_rows_repeats_pointers_to_one_row():
    """Repetition copies pointers, never the objects they point at. `[[thing] * 2] * 3` first
    builds one row whose two slots point at `thing`, then an outer list whose three slots all
    point at that one row: the classic aliasing bug of grids built this way. The one-item
    temporaries made along the way are freed at once."""
    thing = Thing()
    before = sys.getrefcount(thing)
    grid = [[thing] * 2] * 3
    assert sys.getrefcount(thing) - before == 2
    assert len(grid) == 3


def test_a_dict_entry_can_reference_the_same_object_twice():
    """A dict entry stores a pointer to its key and a pointer to its value. When key and value
    are the same object, that object gains two references from one entry."""
    thing = Thing()
    before = sys.getrefcount(thing)
    table = {thing: thing}
    assert sys.getrefcount(thing) - before == 2
    assert len(table) == 1


def test_a_shallow_copy_adds_references_not_objects():
    """`list.copy()` makes a new list whose slots point at the SAME items. Every slot of the copy
    is one more reference to an existing object; no item is duplicated."""
    thing = Thing()
    pair = [thing, thing]
    before = sys.getrefcount(thing)
    duplicate = pair.copy()
    assert sys.getrefcount(thing) - before == 2
    assert duplicate[0] is thing


def test_del_removes_one_reference_and_not_the_object():
    """`del name` unbinds the name and decrements the count of the object it pointed at. It does
    not destroy anything: the object lives on while other references remain."""
    thing = Thing()
    alias = thing
    before = sys.getrefcount(thing)
    del alias
    assert sys.getrefcount(thing) - before == -1


def test_clearing_a_container_drops_every_reference_it_held():
    """When a list lets go of its slots, each slot's pointer is released and decremented. Five
    slots pointing at one object release five references at once."""
    thing = Thing()
    things = [thing] * 5
    before = sys.getrefcount(thing)
    things.clear()
    assert sys.getrefcount(thing) - before == -5


def test_a_call_can_borrow_a_local_without_counting_it_since_3_14():
    """Up to 3.13, reading a local variable to pass it to a call pushes a new, counted reference
    onto the value stack, so getrefcount reads one more than the references the program holds.
    3.14's compiler loads a local that will outlive the call as a *borrowed* reference
    (LOAD_FAST_BORROW in `dis`): the pointer goes on the stack and the count is not touched."""
    thing = Thing()
    holders = [thing, thing]
    if sys.version_info >= (3, 14):
        assert sys.getrefcount(thing) == 3
    else:
        assert sys.getrefcount(thing) == 4
    assert len(holders) == 2
