"""A buffer is flat bytes plus a description: an item format (struct's codes), an item size, a
shape and strides. A memoryview reports that description, and cast() gives a new description of
the same bytes."""

import array
import sys

import numpy as np
import pytest


def test_an_array_exports_its_item_format_and_size():
    """array.array exports its buffer typed: the struct code of its items, their size, and the
    number of items. len() counts items; nbytes counts bytes."""
    view = memoryview(array.array("H", [1, 2]))
    assert (view.format, view.itemsize, len(view), view.nbytes) == (
        "H",
        2,
        2,
        4,
    )  # unsigned short, 2 bytes each, 2 items, 4 bytes


def test_cast_reads_the_same_bytes_as_other_items():
    """cast('I') reinterprets the bytes as unsigned ints in the machine's own byte order, four
    bytes each. Nothing is converted or copied: it is the same memory read with another format.
    The bytes here were built in that native order."""
    raw = bytearray((1).to_bytes(4, sys.byteorder) + (2).to_bytes(4, sys.byteorder))
    assert memoryview(raw).cast("I").tolist() == [1, 2]


def test_after_a_cast_len_counts_items_and_nbytes_counts_bytes():
    """A cast changes the item size, so the number of items changes with it while the number of
    bytes stays put."""
    words = memoryview(bytearray(8)).cast("I")
    assert (len(words), words.nbytes) == (2, 8)  # two 4-byte items, eight bytes


def test_cast_with_a_shape_makes_a_two_dimensional_view():
    """cast() also accepts a shape: the same six bytes read as 2 rows of 3. tolist() turns a
    multi-dimensional view into nested lists, one per row, in row-major order."""
    grid = memoryview(bytearray(range(6))).cast("B", shape=[2, 3])
    assert grid.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_a_cast_must_cover_the_bytes_exactly():
    """Six bytes cannot be read as whole four-byte items: the last item would be half missing.
    cast() checks the length first and refuses, and it reports the mismatch as a problem with
    the view it was given, not with a value."""
    with pytest.raises(TypeError):
        memoryview(bytearray(6)).cast("I")


def test_cast_goes_through_bytes_only():
    """cast() converts only to or from a byte format ('B', 'b' or 'c'): a direct cast between
    two item formats is refused. To read the bits of unsigned ints as floats, cast to bytes
    first and from bytes to 'f', a C float: IEEE 754 single precision, sign bit, 8 exponent
    bits (bias 127) and 23 fraction bits. Nothing is converted on the way: the same bits are
    read with another format."""
    words = memoryview(array.array("I", [0x3F80_0000, 0x4000_0000]))
    with pytest.raises(TypeError):
        words.cast("f")
    assert words.cast("B").cast("f").tolist() == [1.0, 2.0]  # exponent 127 and 128, no fraction


def test_a_numpy_array_exports_its_dtype_shape_and_strides():
    """NumPy implements the buffer protocol too: a float64 array exports the struct code of a C
    double, its shape, and its strides in bytes (how far to step for the next row, the next
    column)."""
    view = memoryview(np.zeros((2, 3), dtype=np.float64))
    assert (view.format, view.shape, view.strides) == (
        "d",
        (2, 3),
        (24, 8),
    )  # a row is 3 doubles, 24 bytes


def test_a_strided_view_cannot_be_cast():
    """Every second column of a NumPy array is not one unbroken block of bytes: its strides skip
    over the columns left out, so the view is not C-contiguous. cast() only works on contiguous
    views and refuses this one."""
    view = memoryview(np.zeros((2, 4))[:, ::2])
    assert not view.c_contiguous
    with pytest.raises(TypeError):
        view.cast("B")


def test_a_multi_dimensional_view_cannot_be_indexed_by_row():
    """A view indexed with a full tuple of indexes returns one item. Indexing a two-dimensional
    view with a single index would need a one-dimensional sub-view, which memoryview does not
    implement: the error class says it is missing, not wrong."""
    grid = memoryview(bytearray(range(6))).cast("B", shape=[2, 3])
    assert grid[1, 2] == 5
    with pytest.raises(NotImplementedError):
        grid[1]
