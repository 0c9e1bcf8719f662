"""What a value costs: sys.getsizeof reports the bytes of one object's own memory block.

Every CPython object starts with a header: an 8-byte reference count and an 8-byte pointer to
its type (on the default 64-bit builds of CPython 3.10 to 3.15). The payload comes after.
getsizeof counts the header and the payload of that one object, never the objects it points
to; for an object whose type takes part in cycle collection (lists, tuples, sets, dicts,
instances of your classes), tracked or not, it also adds the 16-byte GC header that sits in
front of the object. (Since 3.11 an instance of an ordinary class carries two more pointers
in front, through which the interpreter finds its attributes and, since 3.12, its weak
references; getsizeof counts those 16 bytes too.)
"""

import gc
import sys
import sysconfig

import numpy as np
import pytest

pytestmark = [
    pytest.mark.skipif(
        sys.maxsize < 2**32, reason="the byte counts below are for 64-bit builds of CPython"
    ),
    pytest.mark.skipif(
        bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        reason="a free-threaded build's object header is larger (it also records the owning "
        "thread and a second, shared count: PEP 703), so these byte counts are for the default "
        "build",
    ),
]


def test_a_float_is_a_header_plus_a_c_double():
    """A float is the 16-byte header plus one 8-byte C double, and nothing else. A NumPy
    float64 in an array costs only the double; as a Python object the same number carries the
    header too."""
    assert sys.getsizeof(1.0) == 24


def test_a_small_int_is_a_header_a_size_and_one_digit():
    """An int is the header, an 8-byte size-and-sign field, and its magnitude stored in
    'digits' of 4 bytes each (30 bits per digit by default on 64-bit builds; sys.int_info
    says). One digit is enough for 1, a number that C would keep in 4 bytes."""
    assert sys.getsizeof(1) == 28


def test_int_zero_gained_a_digit_in_python_3_11():
    """Up to 3.10 zero was stored with no digits at all, so it was one digit smaller than 1.
    3.11 gave every int, zero included, at least one digit, and from 3.11.2 on (gh-100637)
    getsizeof counts that digit; 3.11.0 and 3.11.1 still report the old size. (`False` is an
    int too and changed the same way.)"""
    if sys.version_info >= (3, 11, 2):
        assert sys.getsizeof(0) == 28
    else:
        assert sys.getsizeof(0) == 24


def test_an_int_grows_one_digit_at_a_time():
    """Python ints never overflow: they just use more digits. With 30-bit digits, 2**30 - 1
    still fits one digit; 2**30 needs a second one."""
    if sys.int_info.bits_per_digit != 30:
        pytest.skip("this CPython was built with 15-bit int digits, so the step is elsewhere")
    assert sys.getsizeof(2**30) - sys.getsizeof(2**30 - 1) == 4


def test_each_list_slot_is_an_8_byte_pointer():
    """A list stores pointers, not values. Ten slots cost ten pointers on top of the empty
    list, whatever the items are: here all ten point at the same int."""
    assert sys.getsizeof([0] * 10) - sys.getsizeof([]) == 80


def test_getsizeof_does_not_count_what_a_container_points_to():
    """getsizeof is shallow: it reports the list object and its array of item pointers, and
    never follows a pointer to what it points at. A list display knows how many items it holds
    and allocates exactly that many slots (an empty list is 56 bytes). Measuring a structure's
    real footprint means walking it yourself."""
    big = list(range(10_000))
    assert sys.getsizeof([big]) == 64


def test_the_gc_header_is_counted_for_every_object_whose_type_supports_gc():
    """`obj.__sizeof__()` is the object's own block; sys.getsizeof adds the collector's 16-byte
    header in front of it whenever the object's TYPE takes part in cycle collection, because
    every object of such a type is allocated with that header, tracked or not. The empty tuple
    is never tracked. A float or a bare `object()` cannot refer to anything, so their types
    are allocated without the header."""
    assert not gc.is_tracked(())
    extra = [sys.getsizeof(obj) - obj.__sizeof__() for obj in ((), object(), [], 2.5)]
    assert extra == [16, 0, 16, 0]


def test_appending_to_an_empty_list_reserves_room_for_four_items():
    """list.append over-allocates so that a loop of appends is amortised O(1). The first append
    into an empty list reserves four slots, not one."""
    things = []
    things.append(0)
    assert sys.getsizeof(things) - sys.getsizeof([]) == 32


def test_an_empty_set_carries_a_small_table_inside_it():
    """A set is a hash table that starts with eight preallocated 16-byte entries (key + hash),
    stored inside the set object itself. Add the object header, six 8-byte bookkeeping fields
    (fill, used, mask, table pointer, hash, finger), an 8-byte weakref list pointer and the
    16-byte GC header. The empty list, whose item array lives elsewhere, is 56 bytes."""
    assert sys.getsizeof(set()) == 216


def test_a_tuple_caches_its_hash_since_python_3_14():
    """A tuple is the object header, an 8-byte length and one 8-byte pointer per item, behind
    the 16-byte GC header. Hashing a tuple means hashing every item, so 3.14 gave each tuple
    an 8-byte field that remembers its hash once computed (gh-131525), and every tuple grew
    by it, hashed or not."""
    if sys.version_info >= (3, 14):
        assert sys.getsizeof((1, 2)) == 64
    else:
        assert sys.getsizeof((1, 2)) == 56


def test_the_empty_string_lost_its_wstr_pointer_in_python_3_12():
    """An ASCII str is the object header, an 8-byte length, an 8-byte cached hash, a 4-byte
    state field padded to 8, then its characters and a NUL byte. Up to 3.11 an 8-byte `wstr`
    pointer came before the characters; Python 3.12 removed it from every str object (PEP 623),
    and non-ASCII strings lost a length field too."""
    if sys.version_info >= (3, 12):
        assert sys.getsizeof("") == 41
    else:
        assert sys.getsizeof("") == 49


def test_a_numpy_array_counts_its_buffer_only_when_it_owns_it():
    """An array that owns its data reports header plus buffer; a view owns no buffer and reports
    only its header. The buffer here holds 1000 float64 values, and it is the whole
    difference."""
    owner = np.zeros(1000)
    view = owner[:]
    assert sys.getsizeof(owner) - sys.getsizeof(view) == 8000
