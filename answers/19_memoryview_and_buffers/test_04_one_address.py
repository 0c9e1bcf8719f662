"""The buffer protocol hands out a raw address, so memoryview, ctypes, struct, file objects and
NumPy can all work on the very same bytes: no copy, one memory, several ways of reading it."""

import ctypes
import io
import struct

import numpy as np
import pytest


def test_where_three_libraries_find_the_bytes():
    """ctypes' from_buffer and NumPy's frombuffer both ask the object for its buffer and keep the
    pointer they are given; ctypes.addressof and the array's __array_interface__ report it. A
    memoryview is itself an exporter, handing on the pointer of the object it views. The
    addresses are counted from the one ctypes reports."""
    data = bytearray(16)
    by_ctypes = ctypes.addressof((ctypes.c_char * len(data)).from_buffer(data))
    by_numpy = np.frombuffer(data, dtype=np.uint8).__array_interface__["data"][0]
    by_view = ctypes.addressof(ctypes.c_char.from_buffer(memoryview(data)))
    assert [by_numpy - by_ctypes, by_view - by_ctypes] == [0, 0]  # one buffer, no copies


def test_a_slice_starts_further_into_the_same_memory():
    """A slice of a view exports a pointer into the middle of the same memory: its start address
    is the original's plus the number of items skipped times the size of one item. Here the
    view reads the bytes as 'I', unsigned ints of four bytes each."""
    data = bytearray(16)
    words = memoryview(data).cast("I")
    start = np.frombuffer(words, dtype=np.uint8).__array_interface__["data"][0]
    later = np.frombuffer(words[2:], dtype=np.uint8).__array_interface__["data"][0]
    assert later - start == 8  # two items of four bytes


def test_ctypes_needs_a_writable_buffer_to_share():
    """A ctypes object made with from_buffer can be written through, so it demands a writable
    buffer, and bytes exports a read-only one. from_buffer_copy would work: it copies the bytes
    into memory of its own instead of sharing."""
    with pytest.raises(TypeError):  # bytes exports read-only memory
        ctypes.c_uint32.from_buffer(b"\x01\x00\x00\x00")


def test_a_ctypes_structure_can_lay_fields_over_existing_bytes():
    """Structure.from_buffer puts a struct's field layout on top of memory that already exists:
    assigning a field writes its bytes in place. LittleEndianStructure fixes the byte order, so
    the result is the same on every machine."""

    class Pair(ctypes.LittleEndianStructure):
        _fields_ = [("low", ctypes.c_uint16), ("high", ctypes.c_uint16)]

    data = bytearray(4)
    pair = Pair.from_buffer(data)
    pair.high = 0x0102
    del pair  # end the export
    assert bytes(data) == b"\x00\x00\x02\x01"  # high = 0x0102, little-endian, at offset 2


def test_struct_pack_into_writes_in_place():
    """struct.pack returns new bytes; struct.pack_into writes into any writable buffer at an
    offset, without building an intermediate object. '<H' is a little-endian unsigned short."""
    data = bytearray(6)
    struct.pack_into("<H", data, 2, 0x0102)
    assert bytes(data) == b"\x00\x00\x02\x01\x00\x00"


def test_readinto_fills_a_slice_of_an_existing_buffer():
    """readinto reads straight into memory you provide, here a slice of a view, so the data lands
    in the middle of the bytearray without a temporary bytes object. It returns how many bytes it
    read: at most the size of the slice."""
    source = io.BytesIO(b"WXYZ")
    target = bytearray(b"........")
    count = source.readinto(memoryview(target)[2:6])
    assert (count, bytes(target)) == (4, b"..WXYZ..")  # four bytes into positions 2 to 5
