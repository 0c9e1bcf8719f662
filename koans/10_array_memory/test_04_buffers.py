"""The buffer protocol lets objects share raw memory without copying: a memoryview or a NumPy
array can sit on top of a bytearray. Writes through either side are seen by the other, and
read-only owners stay read-only."""

import numpy as np
import pytest


def test_memoryview_writes_straight_into_the_bytearray():
    """A memoryview is a zero-copy window onto another object's buffer. Assigning through it
    changes the bytearray's own bytes."""
    buf = bytearray(4)
    mv = memoryview(buf)
    mv[0] = 255
    assert bytes(buf) == __


def test_frombuffer_array_sees_changes_to_the_bytearray():
    """`np.frombuffer` does not copy: the array's data pointer is the bytearray's memory.
    Mutate the bytearray and the array reads the new value."""
    raw = bytearray(8)
    arr = np.frombuffer(raw, dtype="<i4")
    raw[0] = 7
    assert arr.tolist() == __


def test_writing_to_a_frombuffer_array_changes_the_bytearray():
    """The sharing works both ways when the owner is mutable. `<i4` stores each element in four
    bytes, least significant byte first."""
    raw = bytearray(8)
    arr = np.frombuffer(raw, dtype="<i4")
    arr[1] = 258
    assert bytes(raw) == __


def test_frombuffer_of_bytes_is_read_only():
    """`bytes` is immutable, so an array over its buffer is marked not writeable. NumPy refuses
    the assignment rather than silently mutating an immutable object."""
    arr = np.frombuffer(bytes(8), dtype="<i4")
    with pytest.raises(___):
        arr[0] = 1


def test_memoryview_of_bytes_refuses_writes_with_a_different_error():
    """The same rule enforced by a different library gets a different exception: memoryview
    raises where NumPy raised ValueError. Catch what the code you call actually raises."""
    mv = memoryview(b"abcd")
    with pytest.raises(___):
        mv[0] = 1


def test_a_bytearray_with_a_live_view_cannot_be_resized():
    """Growing a bytearray may move its memory, which would leave every view pointing at freed
    bytes. While an export exists (here the array's buffer), resizing is refused."""
    raw = bytearray(8)
    arr = np.frombuffer(raw, dtype="<i4")
    with pytest.raises(___):
        raw.append(1)
