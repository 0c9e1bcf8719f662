"""While a buffer is exported, its owner must not move the memory: a bytearray refuses to resize
as long as any view of it is alive. release() and the with statement end an export at a moment
you choose, instead of whenever the view happens to be freed."""

import pytest


def test_a_released_view_refuses_every_use():
    """release() gives the buffer back to its owner at once. The view object still exists, but
    its pointer is gone, so nearly any later use of it is refused instead of reading memory the
    owner may have moved or freed."""
    view = memoryview(bytearray(4))
    view.release()
    with pytest.raises(ValueError):
        view[0]


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
