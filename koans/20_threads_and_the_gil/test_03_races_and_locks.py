"""The GIL protects the interpreter, not your invariants.

The GIL makes each bytecode instruction, and each call into C that keeps the GIL such as
`list.append`, run without another thread in the middle. A statement of several instructions
can be cut wherever the interpreter looks for a drop request or the code blocks, and where it
looks is a detail of each version (the free-threaded build has no GIL at all). Instead of
hoping that a switch lands at the worst moment, these koans force that moment with events, and
then show what a lock changes.
"""

import dis
import sys
import threading

COUNTER = 0


def _bump():
    global COUNTER  # noqa: PLW0603 - the koan is about updating a global
    COUNTER += 1


def _run_all(*targets):
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)


def test_an_append_is_one_call_into_c():
    """`list.append` is one call into C, finished before any other thread may touch the list
    (under the GIL; the free-threaded build locks the list instead). Four threads append ten
    thousand items each, with the switch interval at one microsecond, the shortest wait the
    GIL honours, so that the threads are made to take turns as often as the interpreter can.
    How long is the list?"""
    items = []

    def append_many():
        for i in range(10_000):
            items.append(i)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-06)
    try:
        _run_all(append_many, append_many, append_many, append_many)
    finally:
        sys.setswitchinterval(old)
    assert len(items) == __


def test_plus_equals_reads_and_writes_in_separate_instructions():
    """`COUNTER += 1` on a global reads the old value with one instruction and writes the new
    one back with another. CPython's bytecode runs on a stack: each operand is pushed by an
    instruction of its own, and each operation is an instruction. How many instructions run
    between the read and the write, while the value read could go stale?"""
    opnames = [ins.opname for ins in dis.get_instructions(_bump)]
    read, write = opnames.index("LOAD_GLOBAL"), opnames.index("STORE_GLOBAL")
    assert write - read - 1 == __


def test_a_read_modify_write_can_lose_an_update():
    """The box starts at 10. A adds one, B adds five. The events force the interleaving a
    badly timed switch could produce: A reads, B reads, adds and writes, then A writes the sum
    it computed from its stale read, over B's. What is left in the box?"""
    box = [10]
    a_has_read, b_has_written = threading.Event(), threading.Event()

    def a():
        seen = box[0]
        a_has_read.set()
        b_has_written.wait(10)
        box[0] = seen + 1

    def b():
        a_has_read.wait(10)
        box[0] = box[0] + 5
        b_has_written.set()

    _run_all(a, b)
    assert box[0] == __


def test_a_lock_around_two_read_modify_writes():
    """Now A reads and writes while holding a lock. B arrives while A is inside, tries the lock
    once without blocking, then takes it the blocking way for its own read-modify-write."""
    box = [0]
    tries = []
    lock = threading.Lock()
    a_inside, b_tried = threading.Event(), threading.Event()

    def a():
        with lock:
            seen = box[0]
            a_inside.set()
            b_tried.wait(10)
            box[0] = seen + 1

    def b():
        a_inside.wait(10)
        tries.append(lock.acquire(blocking=False))
        b_tried.set()
        with lock:
            box[0] = box[0] + 1

    _run_all(a, b)
    assert (tries, box[0]) == __


def test_a_plain_lock_records_no_owner():
    """A `threading.Lock` is only locked or unlocked: it does not remember which thread took
    it. Here the holder asks for it a second time without blocking, then another thread
    releases it, then the holder asks once more. What do the two non-blocking requests
    return? (A blocking second request by the holder would wait forever.)"""
    lock = threading.Lock()
    tries = []
    lock.acquire()
    tries.append(lock.acquire(blocking=False))  # the holder asks again
    _run_all(lock.release)  # another thread lets it go
    tries.append(lock.acquire(blocking=False))
    lock.release()
    assert tries == __


def test_an_rlock_counts_its_owners_acquisitions():
    """An `RLock` (re-entrant lock) records its owner and how many times the owner has
    acquired it, and frees itself only when the owner has released it as many times. Here the
    owner takes it three times, then releases it once at a time; after each release another
    thread tries it without blocking. What does each try return?"""
    rlock = threading.RLock()
    tries = []

    def try_it():
        got = rlock.acquire(blocking=False)
        if got:
            rlock.release()
        tries.append(got)

    for _ in range(3):
        rlock.acquire()
    for _ in range(3):
        rlock.release()
        _run_all(try_it)
    assert tries == __


def test_only_the_owner_may_release_an_rlock():
    """An `RLock` checks its owner on release, and a release by another thread is refused.
    The refusal is not about a bad argument (there is none) nor about the operating system:
    threading reports an operation that the lock's present state does not allow, with the
    built-in class for "not now" that releasing a lock nobody holds raises too."""
    rlock = threading.RLock()
    caught = []

    def release_it():
        try:
            rlock.release()
        except Exception as err:
            caught.append(type(err))

    with rlock:
        _run_all(release_it)
    assert caught == __


def test_a_barrier_gives_each_waiting_thread_its_own_index():
    """A `Barrier(n)` holds every caller of `wait()` until n of them have arrived, then lets
    them all go at once. Each caller gets back its own arrival index, handy for electing one
    of them to do a job."""
    barrier = threading.Barrier(3, timeout=10)
    indexes = []

    def arrive():
        indexes.append(barrier.wait())

    _run_all(arrive, arrive, arrive)
    assert sorted(indexes) == __
