"""What lets go of the GIL, and what keeps it, seen by a second thread.

Most koans here use one harness. A helper thread spins, adding one to `box[0]`, whenever it
holds the GIL. The main thread makes the calls under test over and over from one loop written
in C (`deque`, `zip`, `map`, `cycle`, `takewhile`: all C code), reading the counter before
each call and dropping each result at once (freeing it counts as part of its call), and
stops as soon as a reading has moved. No bytecode runs between two calls, so the switch
interval never gets a say: the counter can move only during a call that released the GIL.
And once the helper has asked for the GIL, a thread that releases it waits until the helper
has taken it, so the first call that lets go is caught for certain. `first_to_let_go`
returns the label of that call.

The other koans set the switch interval to 100 seconds, so that a thread waiting for the GIL
never asks for it, and then see what a blocked main thread lets the helper do.
"""

import bz2
import contextlib
import ctypes
import ctypes.util
import gc
import hashlib
import lzma
import os
import select
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections import deque
from functools import partial
from itertools import count, cycle, islice, pairwise, repeat, starmap, takewhile
from operator import eq, itemgetter, methodcaller

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


def first_to_let_go(*labelled_calls, limit=200_000):
    """Make the calls in turn, over and over, from one loop in C, reading the helper's counter
    before each; return the label of the call during which the counter first moved (None if
    it never did in `limit` calls)."""
    labels = [label for label, _ in labelled_calls]
    calls = [call for _, call in labelled_calls]
    for call in calls:
        call()  # a first call may import or set something up in Python: not counted
    collecting = gc.isenabled()
    gc.disable()  # a collection could run Python finalizers between two calls
    try:
        with spinning_thread() as box:
            readings = map(itemgetter(0), repeat(box))
            unmoved = takewhile(bool, starmap(eq, pairwise(readings)))
            made = map(methodcaller("__call__"), islice(cycle(calls), limit))
            made = map(type, made)  # drop each result at once: freeing it is part of its call
            last = deque(zip(unmoved, count(), made), maxlen=1)
    finally:
        if collecting:
            gc.enable()
    index = last[0][1]
    return None if index == limit - 1 else labels[index % len(labels)]


@contextlib.contextmanager
def only_voluntary_switches():
    """A switch interval of 100 seconds: a thread waiting for the GIL never asks for it, so it
    runs only when the holder lets go of its own accord."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def test_a_drop_request_waits_for_a_builtin_call_to_return():
    """The drop request is only looked at between bytecode instructions, and `sum(range(n))`
    loops in C for milliseconds without reaching one. A call that only waits for the
    operating system has no use for the GIL while it waits. During which call does the helper
    first get to run?"""
    first = first_to_let_go(
        ("sum", partial(sum, range(300_000))),
        ("time.sleep", partial(time.sleep, 0.001)),
    )
    assert first == __


def test_hashlib_weighs_the_size_of_the_data_before_letting_go():
    """Handing the GIL over and taking it back costs microseconds, more than hashing a short
    buffer takes. So hashlib hashes short data with the GIL held, and lets go around the
    hashing loop only for data longer than about two kilobytes. Three sizes are hashed in
    turn: during which size does the helper first run?"""
    first = first_to_let_go(
        (1024, partial(hashlib.sha256, MEGABYTE[:1024])),
        (4096, partial(hashlib.sha256, MEGABYTE[:4096])),
        (2000, partial(hashlib.sha256, MEGABYTE[:2000])),
    )
    assert first == __


def test_letting_go_is_written_into_each_c_function():
    """Both calls read every byte of the same megabyte in C. A C function lets go only if its
    code says so, by wrapping the part that touches no Python object in
    `Py_BEGIN_ALLOW_THREADS` ... `Py_END_ALLOW_THREADS`. Which call lets the helper run first?"""
    first = first_to_let_go(
        ("bytes.count", partial(MEGABYTE.count, b"\xff")),
        ("zlib.compress", partial(zlib.compress, MEGABYTE)),
    )
    assert first == __


def test_what_bz2_does_with_the_gil_for_a_few_bytes():
    """hashlib weighs the size of its input before it lets go. Does every module that lets go
    weigh it? Both calls here get the same 64 bytes."""
    tiny = MEGABYTE[:64]
    first = first_to_let_go(
        ("hashlib.sha256", partial(hashlib.sha256, tiny)),
        ("bz2.compress", partial(bz2.compress, tiny)),
    )
    assert first == __


def test_what_lzma_does_with_the_gil_while_it_decompresses():
    """Decompressing, too, runs a C library over raw bytes. Here a few bytes of `.xz` data are
    unpacked in turn with a quick method of a built-in type on the same number of bytes."""
    packed = lzma.compress(MEGABYTE[:64])
    first = first_to_let_go(
        ("bytes.hex", packed.hex),
        ("lzma.decompress", partial(lzma.decompress, packed)),
    )
    assert first == __


def test_what_a_numpy_loop_needs_depends_on_the_dtype():
    """The same ufunc on arrays of two dtypes, into arrays allocated beforehand. On an array
    of doubles the inner loop only does arithmetic on raw numbers; on an object array every
    element is a Python object, and adding two of them calls back into the interpreter."""
    numbers = np.linspace(0.0, 1.0, 200_000)
    objects = numbers[:20_000].astype(object)
    numbers_out, objects_out = np.empty_like(numbers), np.empty_like(objects)
    first = first_to_let_go(
        ("object", partial(np.add, objects, objects, out=objects_out)),
        ("float64", partial(np.add, numbers, numbers, out=numbers_out)),
    )
    assert first == __


@posix_only
def test_what_a_system_call_that_returns_at_once_does_with_the_gil():
    """`select` with a timeout of 0 asks the kernel about an empty pipe and returns at once,
    empty-handed; `os.getpid` asks the kernel for a number it always has ready. CPython
    releases the GIL around a system call that *could* block, whether or not this one does."""
    reader, writer = os.pipe()
    try:
        first = first_to_let_go(
            ("os.getpid", os.getpid),
            ("select.select", partial(select.select, [reader], [], [], 0)),
        )
    finally:
        os.close(reader)
        os.close(writer)
    assert first == __


def test_a_thread_blocked_in_recv_and_a_sender_that_needs_the_gil():
    """The main thread waits in `recv` for bytes that only the helper will send, and the helper
    needs the GIL for its Python. With a 100-second switch interval nobody is asked to let go:
    the helper runs only if `recv` lets go of its own accord (if it did not, `recv` would give
    up after its 10-second timeout). In which order do the entries reach the log?"""
    left, right = socket.socketpair()
    left.settimeout(10)
    log = []
    gate = threading.Event()

    def send():
        gate.wait(10)
        log.append("helper sends")
        right.sendall(b"ping")

    helper = threading.Thread(target=send, daemon=True)
    try:
        with only_voluntary_switches():
            helper.start()  # it runs until it blocks at the gate
            gate.set()
            log.append("main waits")
            try:
                log.append(f"main got {left.recv(16)!r}")
            except TimeoutError:
                log.append("main gave up")
            helper.join(timeout=10)
    finally:
        left.close()
        right.close()
    assert log == __


CHILD = "import signal, sys; signal.alarm(10); sys.exit(len(sys.stdin.buffer.read()))"


@posix_only
def test_a_thread_waiting_for_a_child_and_a_writer_that_needs_the_gil():
    """`Popen.wait()` ends in `os.waitpid`, which sleeps in the kernel until the child exits.
    The child reads its standard input to the end and exits with the number of bytes it got
    (a child still waiting after 10 seconds dies of its alarm signal). Only the helper thread
    writes to that input, and it needs the GIL; with a 100-second switch interval it runs only
    if the waiting thread lets go of its own accord. What status does `wait()` return?"""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE)
    gate = threading.Event()

    def feed():
        gate.wait(10)
        child.stdin.write(b"hello")
        child.stdin.close()

    helper = threading.Thread(target=feed, daemon=True)
    try:
        with only_voluntary_switches():
            helper.start()
            gate.set()
            status = child.wait()
            helper.join(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert status == __


def test_a_thread_blocked_on_a_lock_and_a_holder_that_needs_the_gil():
    """The helper holds the lock and releases it only after writing to the log, which needs
    the GIL. The main thread blocks in `acquire` (and would give up after 10 seconds). With a
    100-second switch interval the helper runs only if `acquire` lets go of its own accord.
    `queue.Queue.get` waits the same way: its condition variable is a lock. In which order do
    the entries reach the log?"""
    lock = threading.Lock()
    log = []
    held, gate = threading.Event(), threading.Event()

    def hold_then_release():
        with lock:
            held.set()
            gate.wait(10)
            log.append("helper releases")

    helper = threading.Thread(target=hold_then_release, daemon=True)
    with only_voluntary_switches():
        helper.start()
        held.wait(10)
        gate.set()
        log.append("main waits")
        got = lock.acquire(timeout=10)
        log.append("main acquired" if got else "main gave up")
        if got:
            lock.release()
        helper.join(timeout=10)
    assert log == __


@posix_only
def test_ctypes_has_two_loaders_that_differ_in_the_gil():
    """libc's `usleep`, loaded twice: once through `ctypes.PyDLL`, the loader meant for
    functions that call back into the Python C API (which needs the GIL), once through the
    loader meant for plain C libraries. Both sleep 200 microseconds per call. During which
    does the helper first run?"""
    libc = ctypes.util.find_library("c")
    first = first_to_let_go(
        ("PyDLL", partial(ctypes.PyDLL(libc).usleep, 200)),
        ("CDLL", partial(ctypes.CDLL(libc).usleep, 200)),
    )
    assert first == __


GIL_STATE_CHECK = """
import ctypes
print(ctypes.pythonapi.PyGILState_Check(), ctypes.CDLL(None).PyGILState_Check())
"""


@posix_only
def test_what_pygilstate_check_reports_through_each_loader():
    """`PyGILState_Check()` is a C function of the interpreter itself that answers 1 when the
    calling thread holds the GIL, 0 when not. Here it is called through both loaders of the
    koan above: `ctypes.pythonapi` is a `PyDLL` of the interpreter itself, and `CDLL(None)`
    finds the same function through the loader for plain C libraries. (The check runs in a
    fresh interpreter: once a process has created a subinterpreter, `PyGILState_Check` stops
    checking and answers 1 whatever the thread holds.) What does each call answer?"""
    result = subprocess.run(
        [sys.executable, "-c", GIL_STATE_CHECK],
        capture_output=True, text=True, timeout=60, check=False,
    )
    keeps, releases = map(int, result.stdout.split())
    assert (keeps, releases) == __
