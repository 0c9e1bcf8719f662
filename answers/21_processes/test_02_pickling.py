"""What crosses between processes is pickled: a copy, rebuilt on the other side.

Processes share no objects, so `multiprocessing` turns an object into bytes with `pickle`,
sends the bytes through a pipe, and builds a new object from them. Functions and classes are
pickled *by name* (module plus qualified name), to be imported again on the other side;
whatever has no importable name cannot be sent. *spawn* must pickle the target and its
arguments to start the child at all; *fork* hands them over by copying memory.
"""

import concurrent.futures
import multiprocessing
import pickle
import sys
import threading

import pytest

square = lambda x: x * x  # noqa: E731 - a lambda bound to a name, on purpose

FORK = (
    multiprocessing.get_context("fork")
    if "fork" in multiprocessing.get_all_start_methods()
    else None
)
SPAWN = multiprocessing.get_context("spawn")
needs_fork = pytest.mark.skipif(FORK is None, reason="needs the fork start method (POSIX)")


class Counted:
    """Counts how often it is pickled; the other side rebuilds it as a plain string (a type
    any interpreter can import), so a fresh interpreter can unpickle it too."""

    def __init__(self):
        self.pickled = 0

    def __reduce__(self):
        self.pickled += 1
        return (str, ("rebuilt from the pickle",))


def _finish(child):
    child.join(timeout=30)
    if child.is_alive():
        child.kill()
        child.join()


def test_what_crosses_a_pipe_is_a_copy():
    """`Connection.send` pickles the object into bytes, and `recv` builds an object from those
    bytes (here both ends of the pipe are even in the same process)."""
    left, right = multiprocessing.Pipe()
    data = [1, 2, 3]
    try:
        left.send(data)
        received = right.recv()
    finally:
        left.close()
        right.close()
    assert (received == data, received is data) == (True, False)


def test_send_pickles_in_the_calling_thread():
    """`send` pickles right away, in the calling thread. `__reduce__` is the hook pickle calls
    to ask an object how to rebuild it; this one counts the calls."""
    left, right = multiprocessing.Pipe()
    item = Counted()
    try:
        left.send(item)
        received = right.recv()
    finally:
        left.close()
        right.close()
    assert (item.pickled, received) == (1, "rebuilt from the pickle")


@needs_fork
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_how_fork_hands_the_arguments_to_the_child():
    """A forked child already has a copy of everything the parent had, the Process object
    with its target and arguments included."""
    item = Counted()
    child = FORK.Process(target=id, args=(item,))
    child.start()
    _finish(child)
    assert (item.pickled, child.exitcode) == (0, 0)


def test_how_spawn_hands_the_arguments_to_a_fresh_interpreter():
    """A spawned child is a brand-new interpreter started from scratch: the parent pickles
    the Process object, target and arguments included, and writes the bytes to the child,
    which unpickles them and calls the target."""
    item = Counted()
    child = SPAWN.Process(target=id, args=(item,))
    child.start()
    _finish(child)
    assert (item.pickled, child.exitcode) == (1, 0)


def test_a_lambda_cannot_be_pickled_by_its_name():
    """pickle saves a function as "module, qualified name" and checks that the name leads back
    to the same function. A lambda's qualified name is `<lambda>`, whatever variable it was
    assigned to, and the module has no attribute of that name."""
    with pytest.raises(pickle.PicklingError):
        pickle.dumps(square)


def test_a_local_function_cannot_be_pickled():
    """A function defined inside another function has a qualified name with `<locals>` in
    it: there is no way to import it from outside its enclosing call. Through Python 3.13 the
    C pickler (the one `pickle.dumps` uses) refuses it as soon as it sees `<locals>`, with a
    different exception class than for the lambda above (the pure-Python `pickle._Pickler`
    already used that one); 3.14 made them agree."""

    def local():
        return 42

    if sys.version_info >= (3, 14):
        with pytest.raises(pickle.PicklingError):
            pickle.dumps(local)
    else:
        with pytest.raises(AttributeError):
            pickle.dumps(local)


def test_a_lock_cannot_be_pickled():
    """Some objects wrap state that only makes sense inside one process, such as an OS-level
    lock. Their type does not support pickling at all, whatever state the object is in: the
    default `__reduce_ex__` refuses before pickle looks up any name, with the exception class
    Python uses for an operation that an object's type does not support (as `len(5)` does)."""
    with pytest.raises(TypeError):
        pickle.dumps(threading.Lock())


def test_spawn_refuses_a_local_function_before_any_child_exists():
    """With spawn on POSIX, `start()` pickles the Process object in the parent before it
    launches anything, so a target that cannot be pickled fails in the parent, with the class
    the koan above showed for this Python, before any child process exists. (Windows launches
    the child first, then pickles into its pipe; the error is still raised in the parent.)"""

    def local():
        return 42

    child = SPAWN.Process(target=local)
    if sys.version_info >= (3, 14):
        with pytest.raises(pickle.PicklingError):
            child.start()
    else:
        with pytest.raises(AttributeError):
            child.start()
    assert child.pid == None


@needs_fork
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_fork_runs_a_local_function_in_the_child():
    """The same kind of local function is no problem for fork: the child inherits the function
    object itself, closure and all, as it is at the moment of the fork. The function reads
    `secret` through its closure cell, which the parent rebinds before and after `start()`.
    Only the child's exit status comes back here."""
    secret = 7

    def local():
        sys.exit(secret)

    secret = 9
    child = FORK.Process(target=local)
    child.start()
    secret = 11
    _finish(child)
    assert (child.exitcode, secret) == (9, 11)


class _Turns:
    """Three events that make tasks finish in a chosen order; each worker process inherits
    them when the pool forks it."""

    events = None


def _install_turns(events):
    _Turns.events = events


def _finish_in_turn(name):
    """Wait until the task before this one in FINISH_ORDER has finished, then finish."""
    place = FINISH_ORDER.index(name)
    if place and not _Turns.events[place - 1].wait(30):
        return name, "gave up"
    _Turns.events[place].set()
    return name, place + 1


FINISH_ORDER = "cba"


@needs_fork
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_the_order_of_a_process_pool_maps_results():
    """`ProcessPoolExecutor.map` pickles each item over to a worker process and each result
    back. The three tasks run in three workers at once and are made to finish in the order of
    `FINISH_ORDER` (each returns its name and the place it finished in). In which order does
    `map` hand the results back?"""
    events = [FORK.Event() for _ in FINISH_ORDER]
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=3, mp_context=FORK, initializer=_install_turns, initargs=(events,)
    ) as pool:
        results = list(pool.map(_finish_in_turn, "abc", timeout=60))
    assert results == [("a", 3), ("b", 2), ("c", 1)]
