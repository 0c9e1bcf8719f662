"""The GIL protects the interpreter, not your invariants.

The GIL makes each bytecode instruction, and each call into C that keeps the GIL such as
`list.append`, run without another thread in the middle. A statement of several instructions
can still be cut between them. Instead of hoping that a switch lands at the worst moment,
these koans force that moment with events, and then show what a lock changes.
"""

import dis
import threading

import pytest

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


def test_an_append_is_a_single_step_so_no_item_is_lost():
    """`list.append` is one call into C, finished before any other thread may touch the list
    (under the GIL; the free-threaded build locks the list instead). Four threads append ten
    thousand items each."""
    items = []

    def append_many():
        for i in range(10_000):
            items.append(i)

    _run_all(append_many, append_many, append_many, append_many)
    assert len(items) == __


def test_plus_equals_reads_and_writes_in_separate_instructions():
    """`COUNTER += 1` on a global compiles to a load of the old value, an add, and a store
    of the new one. A thread switch can happen at any boundary between them. Which two
    instructions touch the global itself?"""
    opnames = [ins.opname for ins in dis.get_instructions(_bump)]
    touching = [name for name in opnames if name in ("LOAD_GLOBAL", "STORE_GLOBAL")]
    assert touching == __


def test_a_read_modify_write_can_lose_an_update():
    """Two threads each add one. The events force the interleaving a badly timed switch could
    produce: A reads, B reads, adds and writes, then A writes the sum it computed from its
    stale read, over B's."""
    box = [0]
    a_has_read, b_has_written = threading.Event(), threading.Event()

    def a():
        seen = box[0]
        a_has_read.set()
        b_has_written.wait(10)
        box[0] = seen + 1

    def b():
        a_has_read.wait(10)
        box[0] = box[0] + 1
        b_has_written.set()

    _run_all(a, b)
    assert box[0] == __


def test_a_lock_makes_the_second_update_wait_its_turn():
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


def test_a_lock_is_not_reentrant():
    """A `threading.Lock` does not know who holds it, so the holder asking again is just
    another request for a taken lock (a blocking one would wait forever)."""
    lock = threading.Lock()
    with lock:
        again = lock.acquire(blocking=False)
    assert again == __


def test_an_rlock_can_be_taken_again_by_the_thread_that_holds_it():
    """An `RLock` (re-entrant lock) records its owner and a count of acquisitions, and must be
    released as many times as it was acquired."""
    rlock = threading.RLock()
    with rlock:
        again = rlock.acquire(blocking=False)
        if again:
            rlock.release()
    assert again == __


def test_any_thread_may_release_a_plain_lock():
    """A plain `Lock` records no owner at all: it is only locked or unlocked, which is what
    lets it serve as a one-shot signal between threads."""
    lock = threading.Lock()
    lock.acquire()
    _run_all(lock.release)
    assert lock.locked() == __


def test_only_the_owner_may_release_an_rlock():
    """An `RLock` checks its owner on release. Another thread trying to release it gets the
    same error class as releasing a lock that is not held."""
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


def test_releasing_an_unlocked_lock_is_an_error():
    """Releasing a lock that nobody holds is a logic error in the program, reported at run
    time."""
    lock = threading.Lock()
    with pytest.raises(___):
        lock.release()


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
