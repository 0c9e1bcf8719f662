"""While a buffer is exported, its owner must not move the memory: a bytearray refuses to resize
as long as any view of it is alive. release() and the with statement end an export at a moment
you choose, instead of whenever the view happens to be freed."""

import sys

import numpy as np
import pytest


def address(buffer):
    """Where the first byte of an object's buffer lies (the export ends with the array)."""
    return np.frombuffer(buffer, dtype=np.uint8).__array_interface__["data"][0]


def test_what_a_released_view_still_allows():
    """release() gives the buffer back to its owner at once. The view object lives on, but its
    pointer and its description of the memory are gone, so every use that would need them is
    refused with a ValueError instead of reading memory the owner may have moved or freed.
    What needs only the view object itself still works. Each operation below is tried on a
    released view and kept if it raises nothing."""
    view = memoryview(bytearray(4))
    view.release()
    operations = {
        "len": lambda: len(view),
        "index": lambda: view[0],
        "nbytes": lambda: view.nbytes,
        "tobytes": view.tobytes,
        "repr": lambda: repr(view),
        "== itself": lambda: view == view,
        "release": view.release,
    }
    allowed = []
    for name, operation in operations.items():
        try:
            operation()
        except ValueError:
            continue
        allowed.append(name)
    assert allowed == ["repr", "== itself", "release"]  # none of them touches the memory


def test_leaving_a_with_block_releases_the_view():
    """A memoryview is a context manager: leaving the with block calls release(). After that no
    export is left, and the bytearray may grow again."""
    data = bytearray(4)
    with memoryview(data) as view:
        view[0] = 1
    data.extend(b"\x05\x06")
    assert bytes(data) == b"\x01\x00\x00\x00\x05\x06"  # no export left, so the bytearray could grow


def test_every_slice_holds_the_export_too():
    """A slice of a view shares the export of the view it came from, and the export ends only
    when every view sharing it has been released. Releasing the first view is not enough while
    a slice of it is still alive."""
    data = bytearray(4)
    view = memoryview(data)
    tail = view[1:]
    view.release()
    with pytest.raises(BufferError):  # the slice still holds the export
        data.append(1)
    tail.release()


@pytest.mark.skipif(
    sys.version_info < (3, 15),
    reason="bytearray.take_bytes() is new in 3.15, which keeps a bytearray's bytes inside a bytes "
    "object it can hand over; before, turning a bytearray into bytes always copied",
)
def test_what_take_bytes_does_with_a_bytearrays_memory():
    """From 3.15 a bytearray keeps its bytes inside a bytes object of its own, so take_bytes()
    with no argument can give the caller that very object and keep no bytes for itself. Taking
    resizes the bytearray, so an export still alive blocks it, as it blocks append. The address
    of the first byte is asked of NumPy, which keeps the pointer the buffer protocol hands
    out."""
    data = bytearray(b"x" * 10**6)
    view = memoryview(data)
    with pytest.raises(BufferError):
        data.take_bytes()
    view.release()
    before = address(data)
    taken = data.take_bytes()
    assert (len(data), address(taken) - before) == (0, 0)  # emptied, and not copied
