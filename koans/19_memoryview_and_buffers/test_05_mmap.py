"""mmap maps memory pages straight into the process: pages of a file, or anonymous zeroed pages.
The result is a buffer like any other, so memoryview and NumPy can view it without copying, and
writes through them go to the mapped pages. Memory that Python's own allocators hand out can be
traced back to the line that asked for it."""

import linecache
import mmap
import os
import tracemalloc

import numpy as np
import pytest


def test_an_anonymous_mapping_is_zeroed_memory_every_view_shares():
    """mmap(-1, n) asks the kernel for fresh pages that belong to no file; the kernel hands them
    out filled with zeros. A memoryview and a NumPy array over the mapping are two windows onto
    the same pages."""
    pages = mmap.mmap(-1, mmap.PAGESIZE)
    view = memoryview(pages)
    array = np.frombuffer(pages, dtype=np.uint8)
    view[:2] = b"hi"
    seen = array[:3].tolist()
    del array
    view.release()
    pages.close()
    assert seen == __


def test_what_the_file_holds_after_a_write_through_its_mapping(tmp_path):
    """A shared mapping of a file makes the file's bytes addressable memory: writing into the
    mapping changes the file itself, with no write() call. flush() (msync) asks the kernel to
    write the changed pages to disk now; on Linux, read() returns the new bytes even before that,
    since it reads the same cached pages the mapping writes."""
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(8))
    with open(path, "r+b") as file, mmap.mmap(file.fileno(), 0) as mapped:
        with memoryview(mapped) as view:
            view[:3] = b"abc"
        mapped.flush()
    fd = os.open(path, os.O_RDONLY)
    try:
        on_disk = os.read(fd, 100)
    finally:
        os.close(fd)
    assert on_disk == __


def test_a_mapping_cannot_be_closed_while_a_view_exists():
    """Closing unmaps the pages, which would leave every view pointing at memory that is no
    longer there. So mmap refuses to close while any buffer it exported is still alive, as a
    bytearray refuses to resize."""
    pages = mmap.mmap(-1, mmap.PAGESIZE)
    view = memoryview(pages)
    try:
        with pytest.raises(___):
            pages.close()
    finally:
        view.release()
        pages.close()


def test_an_empty_file_cannot_be_mapped(tmp_path):
    """Length 0 means "map the whole file", and a file of zero bytes has no page to map. mmap
    checks the file's size first and rejects the request as an invalid argument value."""
    path = tmp_path / "empty.bin"
    path.write_bytes(b"")
    with open(path, "r+b") as file, pytest.raises(___):
        mmap.mmap(file.fileno(), 0)


def test_what_tracemalloc_charges_to_the_line_that_made_a_buffer():
    """tracemalloc hooks Python's memory allocators and records, for every block still alive,
    the traceback of the code that asked for it; a snapshot adds the blocks up by line, counting
    blocks and bytes. A bytearray object is a fixed-size header of a few dozen bytes that
    points at its contents, allocated apart as they grow and shrink (the bytes plus a trailing
    zero, and from 3.15 the header of the bytes object that holds them). Sizes are rounded here
    to the nearest thousand bytes."""
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc is already tracing in this process; the koan would stop it")
    tracemalloc.start()
    try:
        data = bytearray(10**6)
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    here = snapshot.filter_traces([tracemalloc.Filter(True, __file__)])
    top = max(here.statistics("lineno"), key=lambda stat: stat.size)
    frame = top.traceback[0]
    assert "bytearray(10**6)" in linecache.getline(frame.filename, frame.lineno)
    assert len(data) == 10**6
    assert (top.count, round(top.size, -3)) == __
