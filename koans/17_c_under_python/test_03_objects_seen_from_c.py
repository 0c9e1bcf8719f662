"""Every CPython object is a C struct that starts with the same header: a reference count, then
a pointer to the object's type. In CPython id() is the struct's address, so ctypes can read the
header in place, and ctypes.pythonapi can call the interpreter's own C functions. These koans
describe the default build on 64-bit machines: the free-threaded build (3.13t) has a bigger
header, and a Py_TRACE_REFS build puts two more pointers in front of it."""

import ctypes
import sys
import sysconfig
import weakref

import pytest

WORD = ctypes.sizeof(ctypes.c_void_p)

pytestmark = [
    pytest.mark.skipif(
        sys.implementation.name != "cpython",
        reason="id() is an address and objects carry this header only in CPython",
    ),
    pytest.mark.skipif(
        bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        reason="the free-threaded build's header holds an owning thread id and two counts "
        "(local and shared) before the type pointer",
    ),
    pytest.mark.skipif(
        hasattr(sys, "getobjects"),
        reason="a Py_TRACE_REFS build puts two list pointers in front of the reference count",
    ),
    pytest.mark.skipif(sys.maxsize < 2**32, reason="the sizes below are those of 64-bit builds"),
]


class Thing:
    """An ordinary class: its instances are mortal, counted the usual way on every version."""


def header_count(obj):
    """The first machine word of obj's C struct, read as a signed size (Py_ssize_t)."""
    return ctypes.c_ssize_t.from_address(id(obj)).value


def test_the_plainest_object_is_nothing_but_its_header():
    """object() has no payload, and its type does not take part in cycle collection, so it
    carries no GC header either (an object whose type does take part pays for one, tracked or
    not). What is left is the header every object shares: a reference count and a pointer to
    the type, each one machine word wide."""
    assert sys.getsizeof(object()) == __


def test_the_reference_count_is_the_first_word_of_the_object():
    """Read the word at an object's address and you read the count that Py_INCREF and
    Py_DECREF maintain. Each list slot that refers to the object is one more reference. (Both
    readings go through the same helper call, so its own argument cancels out.)"""
    thing = Thing()
    before = header_count(thing)
    holders = [thing, thing, thing]
    assert header_count(thing) - before == __
    assert len(holders) == 3


def test_the_second_word_points_at_the_type_object():
    """Right after the count sits a pointer to the object's type: that is how the interpreter
    finds the methods of any object it is handed. Reading that word as a Python object pointer
    (py_object) gives back the type object itself."""
    numbers = [1, 2, 3]
    found = ctypes.py_object.from_address(id(numbers) + WORD).value
    assert found == __


def test_an_immortal_object_carries_a_pinned_count():
    """Since 3.12 (PEP 683) objects that the whole interpreter shares, None among them, are
    immortal: Py_INCREF and Py_DECREF recognise their count and leave it alone. 3.12 and 3.13
    pin that count at the largest number the low 32 bits of the word can hold, with nothing
    above them. 3.14 treats any count whose bit 31 is set as immortal and starts such counts
    in the middle of that range, with the two top bits of the 32 set and the rest clear, so
    that old extensions still adding and subtracting stay far from either edge; the upper half
    of the word now holds other fields, so read its low 32 bits."""
    if sys.version_info < (3, 12):
        pytest.skip(
            "before 3.12 None's reference count is an ordinary count that moves with every "
            "reference; immortal objects arrived with PEP 683 in 3.12"
        )
    if sys.version_info >= (3, 14):
        assert header_count(None) & 0xFFFF_FFFF == __
    else:
        assert header_count(None) == __


def test_py_incref_moves_the_count_that_getrefcount_reports():
    """A C extension owns references explicitly: Py_IncRef takes one, Py_DecRef gives one back.
    ctypes.pythonapi exposes the C functions of the running interpreter itself, so Python code
    can call them and watch sys.getrefcount follow."""
    thing = Thing()
    before = sys.getrefcount(thing)
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(thing))
    raised = sys.getrefcount(thing) - before
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(thing))
    restored = sys.getrefcount(thing) - before
    assert (raised, restored) == __


def test_a_reference_that_c_never_gives_back_keeps_the_object_alive():
    """An object is freed when its count reaches zero. A C extension that takes a reference and
    forgets its Py_DECREF leaves the count above zero after every Python name is gone, and the
    object leaks. Weak references show which objects are still alive without keeping them so.
    Here C takes a reference to every second one of five objects and gives none back."""
    things = [Thing() for _ in range(5)]
    watchers = [weakref.ref(thing) for thing in things]
    for thing in things[::2]:
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(thing))
    del thing, things
    alive = [watcher() for watcher in watchers if watcher() is not None]
    survivors = len(alive)
    for leaked in alive:  # give the references back, so that the koan itself leaks nothing
        ctypes.pythonapi.Py_DecRef(ctypes.py_object(leaked))
    del alive
    assert survivors == __
