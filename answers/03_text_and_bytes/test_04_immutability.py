"""str and bytes are immutable; += means "mutate" for a list but "rebind" for a str."""

import pytest


def test_str_plus_equals_rebinds_the_name_to_a_new_string():
    """A str cannot change, so s += "c" builds a new string and rebinds s to it.
    Another name for the old string still sees the old value."""
    s = "ab"
    alias = s
    s += "c"
    assert alias == "ab"


def test_list_plus_equals_mutates_the_list_in_place():
    """list defines __iadd__, which extends the list in place and returns the same
    object. Every name bound to that list sees the change."""
    a = [1]
    alias = a
    a += [2]
    assert alias == [1, 2]


def test_list_plus_equals_accepts_any_iterable():
    """list.__iadd__ does what list.extend does, and extend takes any iterable, so +=
    with a string adds its characters one by one. Plain list + str raises TypeError
    instead."""
    letters = []
    letters += "hi"
    assert letters == ["h", "i"]


def test_a_str_refuses_item_assignment():
    """str supports reading s[0] but has no __setitem__: an immutable sequence
    refuses item assignment. The fault is in the operation the type lacks, not in
    the value stored."""
    s = "cat"
    with pytest.raises(TypeError):
        s[0] = "b"


def test_str_methods_return_new_strings_and_leave_the_original_alone():
    """upper() cannot modify an immutable string; it returns a new one, and this
    code throws that one away without rebinding s."""
    s = "abc"
    s.upper()
    assert s == "abc"


def test_plus_equals_on_a_list_inside_a_tuple_fails_at_the_store():
    """t[0] += [1] means t[0] = t[0].__iadd__([1]). The list extends itself, and
    then the item assignment into the tuple fails, like any item assignment into an
    immutable sequence."""
    t = ([0],)
    with pytest.raises(TypeError):
        t[0] += [1]


def test_plus_equals_on_a_list_inside_a_tuple_mutates_it_anyway():
    """The TypeError comes from the second step, storing back into the tuple. The
    first step, list.__iadd__, has already extended the list."""
    t = ([0],)
    try:
        t[0] += [1]
    except TypeError:
        pass
    assert t == ([0, 1],)


def test_bytearray_is_the_mutable_sibling_of_bytes():
    """bytearray has the same items as bytes (ints 0-255) but allows assignment.
    You store an int into it, not a one-byte bytes."""
    buf = bytearray(b"cat")
    buf[0] = ord("b")
    assert bytes(buf) == b"bat"
