"""A memoryview is a window onto another object's memory, obtained through the buffer protocol:
the object hands out a pointer, a length, an item format and a read-only flag, and promises not
to move its memory while the view exists. Topic 10 showed writes going through a view; here the
view itself: what slicing, copying, comparing and hashing do with it."""

import array
import sys

import pytest


def test_slicing_a_memoryview_copies_nothing():
    """Slicing a memoryview makes a new view with a different start and length over the same
    memory. A write through the slice therefore lands in the bytearray the first view came
    from."""
    data = bytearray(b"abcde")
    middle = memoryview(data)[2:4]
    middle[0] = ord("X")
    assert bytes(data) == b"abXde"  # the slice's index 0 is the bytearray's index 2


def test_slicing_a_bytearray_copies_the_bytes():
    """Slicing a bytearray (or bytes, or a list) builds a new object and copies the selected
    items into it. The copy has memory of its own, so writing into it leaves the original
    alone."""
    data = bytearray(b"abcde")
    middle = data[2:4]
    middle[0] = ord("X")
    assert bytes(data) == b"abcde"  # the copy changed, not the original


def test_a_view_knows_whose_memory_it_shows():
    """Every view, slices included, keeps a reference to the object that exported the buffer in
    .obj: that reference is what keeps the memory alive. nbytes counts only the bytes this view
    covers."""
    data = bytearray(b"abcdef")
    window = memoryview(data)[1:3]
    assert (window.obj is data, window.nbytes) == (True, 2)  # the slice covers two bytes of data


def test_the_exporter_decides_whether_a_view_may_write():
    """The buffer protocol carries a read-only flag. bytes is immutable, so it exports its memory
    read-only; a bytearray exports it writable. The view only reports what it was given."""
    assert (memoryview(b"abc").readonly, memoryview(bytearray(b"abc")).readonly) == (
        True,
        False,
    )  # bytes is immutable, bytearray is not


def test_a_read_only_view_is_not_a_snapshot():
    """toreadonly() returns a view that refuses writes through itself, over the same memory.
    It promises nothing about the memory staying unchanged: whoever can write the bytearray
    still can, and the read-only view sees the change."""
    data = bytearray(b"ab")
    frozen = memoryview(data).toreadonly()
    data[0] = ord("z")
    assert bytes(frozen) == b"zb"  # read-only for the view, not frozen


def test_tobytes_is_a_copy_taken_at_that_moment():
    """bytes(view) and view.tobytes() copy the bytes the view shows into a new bytes object,
    which owns its memory. Later writes to the original do not reach the copy."""
    data = bytearray(b"ab")
    copy = memoryview(data).tobytes()
    data[0] = ord("z")
    assert copy == b"ab"  # copied before the change


def test_a_str_does_not_export_its_memory():
    """A str stores its characters in one of three internal widths (1, 2 or 4 bytes each, PEP
    393) that depend on its content. That layout is private, so str does not implement the buffer
    protocol at all: encode it to get bytes first."""
    with pytest.raises(TypeError):
        memoryview("abc")


def test_only_a_read_only_view_can_be_hashed():
    """A hash must never change while the object lives, and the bytes behind a writable view can
    change at any moment. So hashing a writable view is refused; a read-only view of bytes
    hashes like the bytes themselves."""
    with pytest.raises(ValueError):
        hash(memoryview(bytearray(b"ab")))


def test_a_view_costs_the_same_whatever_it_shows():
    """A memoryview holds a pointer, a length, a format, a shape and strides: a header whose size
    depends on its number of dimensions, never on the size of the memory it shows. Viewing a
    megabyte costs what viewing ten bytes does."""
    small = memoryview(bytes(10))
    big = memoryview(bytes(10**6))
    assert (
        sys.getsizeof(big) == sys.getsizeof(small)
    ) == True  # the same one-dimensional header, whatever it views


def test_views_compare_their_items_not_their_bytes():
    """== on memoryviews unpacks each item with the view's format and compares the values, like
    two lists. Two arrays of different item sizes can hold equal values in different bytes."""
    narrow = memoryview(array.array("B", [1, 2]))
    wide = memoryview(array.array("H", [1, 2]))
    assert (narrow == wide, narrow.tobytes() == wide.tobytes()) == (
        True,
        False,
    )  # equal values, different bytes
