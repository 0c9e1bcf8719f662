"""Copy-on-write, reference counts, and memory that really is shared.

After fork, parent and child share their memory pages read-only; the first write to a page
gives the writer a private copy of it (copy-on-write). CPython writes to an object merely to
use it, since a new reference to it (a name, an item in a list) updates the count in its
header. Memory from `multiprocessing.shared_memory` is different: it is mapped shared, so one
process's writes are the other's reads, with nothing pickled or copied.
"""

import multiprocessing
import sys
from collections import deque
from functools import partial
from itertools import chain, islice, repeat, takewhile
from multiprocessing import shared_memory
from operator import gt, itemgetter

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


def _count_change_when_stored(obj):
    before = sys.getrefcount(obj)
    holder = [obj]  # only a read of obj: a list that refers to it
    after = sys.getrefcount(obj)
    del holder
    return after - before


def test_what_reading_an_inherited_object_does_to_its_count():
    """Putting an object in a list only reads the object, yet CPython adds one to the count in
    its header, since the list holds a new reference to it. In a forked child that write lands
    on a page shared with the parent, so the kernel first gives the child a copy of the page
    to write to."""
    parent_before = sys.getrefcount(INHERITED)
    change_in_child = run_forked(_count_change_when_stored, INHERITED)
    change_in_parent = sys.getrefcount(INHERITED) - parent_before
    assert (change_in_child, change_in_parent) == __


def _count_changes_when_stored(objects):
    return [_count_change_when_stored(obj) for obj in objects]


def test_which_inherited_objects_a_read_writes_to():
    """Python 3.12 made some objects immortal (PEP 683): `None`, `True`, the small ints and
    others carry a reference count that is never changed, so reading them dirties no page,
    one of the reasons the PEP gives for them. Before 3.12 they were counted like any object.
    The child puts each of four inherited objects in a list in turn; by how much does each
    count change?"""
    changes = run_forked(_count_changes_when_stored, (None, True, 5, INHERITED))
    if sys.version_info >= (3, 12):
        assert changes == __
    else:
        assert changes == __


def _write_hello(buffer):
    buffer[:5] = b"hello"
    return bytes(buffer[:5])


def test_a_child_writes_to_an_inherited_bytearray():
    """A bytearray lives in ordinary private memory, shared with a forked child only
    copy-on-write."""
    buffer = bytearray(5)
    seen_in_child = run_forked(_write_hello, buffer)
    assert (seen_in_child, bytes(buffer)) == __


def test_a_child_writes_to_a_shared_memory_block():
    """`SharedMemory` is a block of memory mapped *shared*: a forked child inherits the same
    mapping, and copy-on-write does not apply to it."""
    shm = shared_memory.SharedMemory(create=True, size=5)
    try:
        run_forked(_write_hello, shm.buf)
        seen_in_parent = bytes(shm.buf[:5])
    finally:
        shm.close()
        shm.unlink()
    assert seen_in_parent == __


def _fill_tens(array):
    array[:] = np.arange(len(array)) * 10


def test_a_child_fills_a_numpy_array_over_shared_memory():
    """A NumPy array can use the shared block as its buffer, so a child can fill an array that
    the parent reads, with nothing pickled. (Delete such arrays before `close()`: see the
    next koans.)"""
    shm = shared_memory.SharedMemory(create=True, size=5 * 8)
    try:
        array = np.ndarray((5,), dtype=np.int64, buffer=shm.buf)
        run_forked(_fill_tens, array)
        seen_in_parent = array.tolist()
        del array
    finally:
        shm.close()
        shm.unlink()
    assert seen_in_parent == __


def test_a_live_view_of_the_block_stops_close():
    """`close()` unmaps the block. A memoryview slice of `shm.buf` still points into it, so
    `close()` refuses while one is alive rather than leave it pointing at nothing; release
    the view first."""
    shm = shared_memory.SharedMemory(create=True, size=16)
    view = shm.buf[:4]
    try:
        with pytest.raises(___):
            shm.close()
    finally:
        view.release()
        shm.close()
        shm.unlink()


def test_close_sees_some_numpy_views_of_the_block_and_not_others():
    """`np.frombuffer(shm.buf)` keeps the buffer it was given exported for as long as the
    array lives, like a memoryview slice does. `np.ndarray(buffer=shm.buf)` asks for the
    buffer, notes its address, and releases the request at once, keeping only a reference to
    `shm.buf`: `close()` cannot tell that the array still points into the block, and
    unmaps it under the array (which must then never be read). With one block per kind of
    array, what happens to each `close()`?"""
    outcomes = []
    for make in (np.frombuffer, lambda buf: np.ndarray((16,), dtype=np.uint8, buffer=buf)):
        shm = shared_memory.SharedMemory(create=True, size=16)
        array = make(shm.buf)
        try:
            shm.close()
            outcomes.append("closed")
        except BufferError:
            outcomes.append("BufferError")
        del array  # never read an array whose block was unmapped
        shm.close()
        shm.unlink()
    assert outcomes == __


TARGET = 100_000


def _count_to_target_when_told(counter):
    """Wait (in Python) for counter[1], then count counter[0] up to TARGET."""
    for _ in range(100_000_000):  # gives up by itself if never told
        if counter[1]:
            break
    while counter[0] < TARGET:
        counter[0] += 1


def test_a_child_process_and_the_parents_gil():
    """The parent makes one long call into C, which never lets go of the parent's GIL (a thread
    of the parent would be shut out, see topic 20): it sets the start flag in shared memory,
    then reads the child's counter up to five hundred million times, stopping as soon as it
    shows TARGET. The child counts in pure Python, from the flag on. What does the parent
    read once its call returns?"""
    shm = shared_memory.SharedMemory(create=True, size=16)
    counter = shm.buf.cast("q")
    counter[0] = counter[1] = 0
    child = FORK.Process(target=_count_to_target_when_told, args=(counter,))
    child.start()
    try:
        # One C-level call: deque, chain, map, repeat, islice and takewhile are all C code.
        told = map(counter.__setitem__, [1], [1])
        readings = map(itemgetter(0), islice(repeat(counter), 500_000_000))
        deque(chain(told, takewhile(partial(gt, TARGET), readings)), maxlen=0)
        seen = counter[0]
    finally:
        counter[1] = 1
        finish(child)
        counter.release()
        shm.close()
        shm.unlink()
    assert seen == __
