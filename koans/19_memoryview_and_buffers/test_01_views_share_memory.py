"""A memoryview is a window onto another object's memory, obtained through the buffer protocol:
the object hands out a pointer, a length, an item format and a read-only flag, and promises not
to move its memory while the view exists. Topic 10 showed writes going through a view; here the
view itself: what slicing, copying, comparing and hashing do with it."""

import array
import sys

import pytest


def test_where_a_write_through_a_memoryview_slice_lands():
    """Slicing a memoryview copies no bytes: it makes a new view, a new description (a start
    and a length) of the memory the first view describes. Index 0 of the slice is wherever the
    slice starts in that memory."""
    data = bytearray(b"abcde")
    middle = memoryview(data)[2:4]
    middle[0] = ord("X")
    assert bytes(data) == __


def test_where_a_write_through_a_bytearray_slice_lands():
    """Slicing a bytearray (or bytes, or a list) is not slicing a view: it builds a new object
    of the same type and copies the selected items into memory of its own."""
    data = bytearray(b"abcde")
    middle = data[2:4]
    middle[0] = ord("X")
    assert bytes(data) == __


def test_a_view_knows_whose_memory_it_shows():
    """Every view, slices included, keeps a reference to the object that exported the buffer in
    .obj: that reference is what keeps the memory alive. nbytes counts only the bytes this view
    covers."""
    data = bytearray(b"abcdef")
    window = memoryview(data)[1:3]
    assert (window.obj is data, window.nbytes) == __


def test_the_exporter_decides_whether_a_view_may_write():
    """The buffer protocol carries a read-only flag. bytes is immutable, so it exports its memory
    read-only; a bytearray exports it writable. The view only reports what it was given."""
    assert (memoryview(b"abc").readonly, memoryview(bytearray(b"abc")).readonly) == __


def test_what_a_read_only_view_sees_after_its_owner_changes():
    """toreadonly() returns a new view, over the same memory, that refuses writes made through
    itself. The flag binds that view only: it does not copy the memory, and it does not stop
    anyone who can write to the bytearray directly."""
    data = bytearray(b"ab")
    frozen = memoryview(data).toreadonly()
    data[0] = ord("z")
    assert bytes(frozen) == __


def test_what_tobytes_keeps_after_the_owner_changes():
    """bytes(view) and view.tobytes() copy the bytes the view shows, at that moment, into a new
    bytes object, which owns its memory and shares nothing with the bytearray."""
    data = bytearray(b"ab")
    copy = memoryview(data).tobytes()
    data[0] = ord("z")
    assert copy == __


def test_a_str_does_not_export_its_memory():
    """A str stores its characters in one of three internal widths (1, 2 or 4 bytes each, PEP
    393) that depend on its content. That layout is private, so str does not implement the buffer
    protocol at all: encode it to get bytes first."""
    with pytest.raises(___):
        memoryview("abc")


def test_only_a_read_only_view_can_be_hashed():
    """A hash must never change while the object lives, and the bytes behind a writable view can
    change at any moment. So hashing a writable view is refused; a read-only view of bytes
    hashes like the bytes themselves."""
    with pytest.raises(___):
        hash(memoryview(bytearray(b"ab")))


def test_what_the_size_of_a_view_depends_on():
    """A memoryview is a header: a pointer to the memory, a length, a format, and for each
    dimension three numbers (its extent in the shape, its stride, its suboffset), one 8-byte
    word each on a 64-bit build. sys.getsizeof counts that header only, never the memory the
    view points at. Compare a view of a megabyte and a view of the same six bytes as a 2 x 3
    grid with a plain view of ten bytes."""
    small = memoryview(bytes(10))
    big = memoryview(bytes(10**6))
    grid = memoryview(bytes(6)).cast("B", shape=[2, 3])
    if sys.maxsize < 2**32:
        pytest.skip("a word is 4 bytes on a 32-bit build")
    extra = (sys.getsizeof(big) - sys.getsizeof(small), sys.getsizeof(grid) - sys.getsizeof(small))
    assert extra == __


def test_what_memoryview_equality_compares():
    """== on two memoryviews unpacks each item with each view's own format and compares the
    values, like two lists; tobytes() gives the raw bytes. An 'H' array stores each item in
    two bytes, a 'B' array in one."""
    narrow = memoryview(array.array("B", [1, 2]))
    wide = memoryview(array.array("H", [1, 2]))
    assert (narrow == wide, narrow.tobytes() == wide.tobytes()) == __
