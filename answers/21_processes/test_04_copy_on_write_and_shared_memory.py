"""Copy-on-write, reference counts, and memory that really is shared.

After fork, parent and child share their memory pages read-only; the first write to a page
gives the writer a private copy of it (copy-on-write). CPython writes to an object merely to
look at it, since every new reference updates the count in its header. Memory from
`multiprocessing.shared_memory` is different: it is mapped shared, so one process's writes are
the other's reads, with nothing pickled or copied.
"""

import multiprocessing
import sys
from itertools import repeat
from multiprocessing import shared_memory
from operator import itemgetter

import numpy as np
import pytest

FORK = (
    multiprocessing.get_context("fork")
    if "fork" in multiprocessing.get_all_start_methods()
    else None
)
pytestmark = [
    pytest.mark.skipif(FORK is None, reason="needs the fork start method, which Windows lacks"),
    pytest.mark.filterwarnings("ignore:This process:DeprecationWarning"),
]

INHERITED = ["created at import, so every forked child starts with it"]


def _send_back(writer, func, args):
    writer.send(func(*args))


def finish(child):
    """Join a child process; kill it if it does not end in time."""
    child.join(timeout=20)
    if child.is_alive():
        child.kill()
        child.join()


def run_forked(func, *args):
    """Call func(*args) in a forked child and return its result, sent back through a pipe."""
    reader, writer = FORK.Pipe(duplex=False)
    child = FORK.Process(target=_send_back, args=(writer, func, args))
    child.start()
    writer.close()
    try:
        if not reader.poll(30):
            raise TimeoutError("the child sent nothing back")
        return reader.recv()
    finally:
        reader.close()
        finish(child)


def _count_change_when_bound(obj):
    before = sys.getrefcount(obj)
    alias = obj  # only a read: a new name for the same object
    after = sys.getrefcount(obj)
    del alias
    return after - before


def test_reading_an_inherited_object_writes_to_it_in_the_child():
    """Binding a second name to an object only reads it, yet CPython adds one to the count in
    the object's header. In a forked child that write lands on a page shared with the parent,
    so the kernel first gives the child a copy of the page to write to."""
    parent_before = sys.getrefcount(INHERITED)
    change_in_child = run_forked(_count_change_when_bound, INHERITED)
    change_in_parent = sys.getrefcount(INHERITED) - parent_before
    assert (change_in_child, change_in_parent) == (1, 0)


def test_an_immortal_object_is_not_written_when_read_since_3_12():
    """Python 3.12 made some objects immortal (PEP 683): None, True, small ints and others
    carry a reference count that is never changed. Reading them dirties no page, which is
    one of the reasons the PEP gives for it. Before 3.12 None was counted like any object."""
    change_in_child = run_forked(_count_change_when_bound, None)
    if sys.version_info >= (3, 12):
        assert change_in_child == 0
    else:
        assert change_in_child == 1


def _write_hello(buffer):
    buffer[:5] = b"hello"
    return bytes(buffer[:5])


def test_a_childs_write_to_ordinary_memory_stays_in_the_child():
    """A bytearray lives in ordinary private memory, shared with a forked child only
    copy-on-write."""
    buffer = bytearray(5)
    seen_in_child = run_forked(_write_hello, buffer)
    assert (seen_in_child, bytes(buffer)) == (b"hello", b"\x00\x00\x00\x00\x00")


def test_a_childs_write_to_shared_memory_reaches_the_parent():
    """`SharedMemory` is a block of memory mapped *shared*: a forked child inherits the same
    mapping, and copy-on-write does not apply to it."""
    shm = shared_memory.SharedMemory(create=True, size=5)
    try:
        run_forked(_write_hello, shm.buf)
        seen_in_parent = bytes(shm.buf[:5])
    finally:
        shm.close()
        shm.unlink()
    assert seen_in_parent == b"hello"


def _fill_tens(array):
    array[:] = np.arange(len(array)) * 10


def test_a_numpy_array_over_shared_memory_is_filled_in_place():
    """A NumPy array can use the shared block as its buffer, so a child can fill an array that
    the parent reads, with nothing pickled. (Delete such arrays before `close()`, which cannot
    see them.)"""
    shm = shared_memory.SharedMemory(create=True, size=5 * 8)
    try:
        array = np.ndarray((5,), dtype=np.int64, buffer=shm.buf)
        run_forked(_fill_tens, array)
        seen_in_parent = array.tolist()
        del array
    finally:
        shm.close()
        shm.unlink()
    assert seen_in_parent == [0, 10, 20, 30, 40]


def test_a_live_view_of_the_block_stops_close():
    """`close()` unmaps the block. A memoryview slice of `shm.buf` still points into it, so
    `close()` refuses while one is alive rather than leave it pointing at nothing; release
    the view first."""
    shm = shared_memory.SharedMemory(create=True, size=16)
    view = shm.buf[:4]
    try:
        with pytest.raises(BufferError):
            shm.close()
    finally:
        view.release()
        shm.close()
        shm.unlink()


def _spin_until_told(counter):
    while counter[1] == 0 and counter[0] < 500_000_000:  # stops by itself if never told
        counter[0] += 1


def test_each_process_has_its_own_gil():
    """The child counts in pure Python into shared memory while the parent runs `sum` in C,
    which never releases the parent's GIL (a thread of the parent would be shut out, see
    topic 20). The parent reads the counter between calls from a C loop: if the counter moves,
    the child ran bytecode under a GIL of its own."""
    shm = shared_memory.SharedMemory(create=True, size=16)
    counter = shm.buf.cast("q")
    counter[0] = counter[1] = 0
    child = FORK.Process(target=_spin_until_told, args=(counter,))
    child.start()
    try:
        moved = False
        for _ in range(50):
            calls = map(sum, repeat(range(200_000), 20))
            pairs = list(zip(map(itemgetter(0), repeat(counter)), calls, strict=False))
            readings = [seen for seen, _ in pairs]
            if len(set(readings)) > 1:
                moved = True
                break
    finally:
        counter[1] = 1
        finish(child)
        counter.release()
        shm.close()
        shm.unlink()
    assert moved == True
