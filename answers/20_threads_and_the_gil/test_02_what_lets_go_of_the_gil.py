"""What lets go of the GIL, and what keeps it, counted by a second thread.

A helper thread spins, adding one to `box[0]`, whenever it holds the GIL. The main thread
makes a batch of calls from a loop written in C (`list`, `zip`, `map`, `repeat` and
`itemgetter` are all C code) and reads the counter before each call. No bytecode runs between
a reading and the next call, so the switch interval never gets a say: the counter can change
between two readings only if a call itself released the GIL.

Keeping the GIL is certain, so those koans count exactly. Letting go only gives the helper a
chance, and the operating system picks the moment, so those koans try a few batches.
"""

import contextlib
import ctypes
import ctypes.util
import hashlib
import os
import queue
import select
import sys
import threading
import time
import zlib
from itertools import repeat
from operator import itemgetter

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(
    not getattr(sys, "_is_gil_enabled", lambda: True)(),
    reason="this interpreter runs without a GIL (the free-threaded build): the helper thread "
    "runs in parallel whatever the main thread calls",
)

MEGABYTE = bytes(range(256)) * 4096

posix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="needs POSIX: libc loaded by ctypes, select() on a pipe"
)


def _spin(box, stop):
    while not stop.is_set():
        box[0] += 1


@contextlib.contextmanager
def spinning_thread():
    """A thread that counts in box[0] whenever it holds the GIL; stopped and joined on exit."""
    box = [0]
    stop = threading.Event()
    thread = threading.Thread(target=_spin, args=(box, stop), daemon=True)
    thread.start()
    try:
        for _ in range(10_000):  # until it has run at least once
            if box[0]:
                break
            time.sleep(0.001)
        yield box
    finally:
        stop.set()
        thread.join(timeout=10)


def readings(box, calls):
    """box[0] as read just before each call in `calls`, all from one C-level loop."""
    pairs = list(zip(map(itemgetter(0), repeat(box)), calls, strict=False))
    return [seen for seen, _ in pairs]


def counter_moved(box, make_calls, batches=50):
    """Whether the counter ever changed across a call, over up to `batches` batches."""
    return any(len(set(readings(box, make_calls()))) > 1 for _ in range(batches))


def test_a_long_builtin_call_keeps_the_gil_for_its_whole_run():
    """`sum(range(n))` loops in C and never reaches a bytecode boundary, so the helper's drop
    request is never even looked at until the call returns. How many different counter values
    can twenty such calls, read in between, show?"""
    with spinning_thread() as box:
        seen = readings(box, map(sum, repeat(range(300_000), 20)))
    assert len(set(seen)) == 1


def test_hashing_a_small_buffer_keeps_the_gil():
    """hashlib's documentation says it releases the GIL for data longer than 2047 bytes, and
    shorter data is hashed with the GIL held. Here a buffer just under that limit is
    hashed a thousand times in a row."""
    small = MEGABYTE[:2047]
    with spinning_thread() as box:
        seen = readings(box, map(hashlib.sha256, repeat(small, 1000)))
    assert len(set(seen)) == 1


def test_hashing_a_large_buffer_lets_another_thread_run():
    """For a large buffer hashlib drops the GIL around the hashing loop, which touches only raw
    bytes, and takes it back before it builds the Python result."""
    with spinning_thread() as box:
        moved = counter_moved(box, lambda: map(hashlib.sha256, repeat(MEGABYTE, 20)))
    assert moved == True


def test_zlib_lets_another_thread_run_while_it_compresses():
    """zlib (like bz2 and lzma) releases the GIL around each call into the C compression
    library, which works on raw bytes."""
    with spinning_thread() as box:
        moved = counter_moved(box, lambda: map(zlib.compress, repeat(MEGABYTE, 5)))
    assert moved == True


def test_numpy_lets_another_thread_run_during_a_big_array_operation():
    """A NumPy ufunc on plain numbers needs no Python objects inside its loop, so for large
    arrays NumPy releases the GIL while the loop runs (the `out` array avoids allocating a
    result each time)."""
    values = np.linspace(0.0, 1.0, 1_000_000)
    out = np.empty_like(values)
    with spinning_thread() as box:
        moved = counter_moved(box, lambda: map(np.sqrt, repeat(values, 20), repeat(out, 20)))
    assert moved == True


def test_time_sleep_lets_another_thread_run():
    """A sleeping thread has nothing to do with Python objects, so `time.sleep` releases the
    GIL for the whole wait and takes it back when the operating system wakes the thread."""
    with spinning_thread() as box:
        moved = counter_moved(box, lambda: map(time.sleep, repeat(0.002, 20)))
    assert moved == True


@posix_only
def test_waiting_on_a_file_descriptor_lets_another_thread_run():
    """Blocking I/O (`read`, `recv`, `select`, waiting for a child process) releases the GIL
    while the kernel makes the thread wait. Here `select` waits on an empty pipe until its
    timeout."""
    reader, writer = os.pipe()
    try:
        with spinning_thread() as box:
            moved = counter_moved(
                box,
                lambda: map(
                    select.select, repeat([reader], 20), repeat([]), repeat([]), repeat(0.002)
                ),
            )
    finally:
        os.close(reader)
        os.close(writer)
    assert moved == True


def _count_then_release(lock, box):
    for _ in range(100_000):
        box[0] += 1
    lock.release()


def test_a_thread_blocked_on_a_lock_waits_without_the_gil():
    """The lock is held, and only the helper's Python code will release it, after counting.
    If `acquire` kept the GIL while it waited, the helper could never run that code and the
    acquire would time out; it returns whether it got the lock."""
    lock = threading.Lock()
    lock.acquire()
    box = [0]
    helper = threading.Thread(target=_count_then_release, args=(lock, box), daemon=True)
    helper.start()
    try:
        got = lock.acquire(timeout=10)
    finally:
        helper.join(timeout=10)
    assert got == True


def _count_then_put(q):
    count = 0
    for _ in range(100_000):
        count += 1
    q.put(count)


def test_a_thread_blocked_on_a_queue_waits_without_the_gil():
    """`queue.Queue.get` waits on a condition variable, that is on a lock, so it too releases
    the GIL while the queue is empty. The helper counts in Python and then puts its count; `get`
    returns what was put."""
    q = queue.Queue()
    helper = threading.Thread(target=_count_then_put, args=(q,), daemon=True)
    helper.start()
    try:
        item = q.get(timeout=10)
    finally:
        helper.join(timeout=10)
    assert item == 100000


@posix_only
def test_a_cdll_call_runs_without_the_gil():
    """`PyGILState_Check()` is a C function of the interpreter itself that answers 1 when the
    calling thread holds the GIL, 0 when not. `ctypes.pythonapi` is a `PyDLL`, which keeps the
    GIL during a call; a `CDLL` releases it before calling and takes it back after."""
    keeps = ctypes.pythonapi.PyGILState_Check()
    releases = ctypes.CDLL(None).PyGILState_Check()
    assert (keeps, releases) == (1, 0)


@posix_only
def test_a_pydll_call_keeps_the_gil():
    """A `PyDLL` is meant for functions that call back into the Python C API, so it keeps the
    GIL for the whole call: libc's `usleep`, loaded that way, sleeps with the GIL held."""
    libc = ctypes.PyDLL(ctypes.util.find_library("c"))
    with spinning_thread() as box:
        seen = readings(box, map(libc.usleep, repeat(2000, 20)))
    assert len(set(seen)) == 1


@posix_only
def test_a_cdll_call_lets_another_thread_run():
    """The same libc `usleep`, loaded as a `CDLL`, releases the GIL for the call, the way a C
    extension does with `Py_BEGIN_ALLOW_THREADS`."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    with spinning_thread() as box:
        moved = counter_moved(box, lambda: map(libc.usleep, repeat(2000, 20)))
    assert moved == True
