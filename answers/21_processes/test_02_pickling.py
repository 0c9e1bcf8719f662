"""What crosses between processes is pickled: a copy, rebuilt on the other side.

Processes share no objects, so `multiprocessing` turns an object into bytes with `pickle`,
sends the bytes through a pipe, and builds a new object from them. Functions and classes are
pickled *by name* (module plus qualified name), to be imported again on the other side;
whatever has no importable name cannot be sent. *spawn* must pickle the target and its
arguments to start the child at all; *fork* hands them over by copying memory.
"""

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


def test_sending_an_object_pickles_it_once():
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
def test_fork_hands_the_arguments_over_without_pickling():
    """A forked child already has a copy of everything the parent had, the Process object
    with its target and arguments included."""
    item = Counted()
    child = FORK.Process(target=id, args=(item,))
    child.start()
    _finish(child)
    assert (item.pickled, child.exitcode) == (0, 0)


def test_spawn_pickles_the_arguments_for_a_fresh_interpreter():
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
    it: there is no way to import it from outside its enclosing call. Through Python 3.13
    pickle reports this with a different exception class than for the lambda above."""
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reports every failure to pickle as pickle.PicklingError")

    def local():
        return 42

    with pytest.raises(AttributeError):
        pickle.dumps(local)


def test_a_lock_cannot_be_pickled():
    """Some objects wrap state that only makes sense inside one process, such as an OS-level
    lock. Their type refuses to be pickled at all, whatever state the object is in; the
    refusal comes from the default `__reduce_ex__`, before pickle looks up any name."""
    with pytest.raises(TypeError):
        pickle.dumps(threading.Lock())


def test_spawn_refuses_a_local_function_before_any_child_exists():
    """With spawn on POSIX, `start()` pickles the Process object in the parent before it
    launches anything, so a target that cannot be pickled fails in the parent, before any
    child process exists. (Windows launches the child first, then pickles into its pipe; the
    error is still raised in the parent.)"""
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reports every failure to pickle as pickle.PicklingError")

    def local():
        return 42

    child = SPAWN.Process(target=local)
    with pytest.raises(AttributeError):
        child.start()
    assert child.pid == None


@needs_fork
@pytest.mark.filterwarnings("ignore:This process:DeprecationWarning")
def test_fork_runs_a_local_function_in_the_child():
    """The same local function is no problem for fork: the child inherits the function object
    itself, closure and all. Only its exit status comes back here."""
    secret = 7

    def local():
        sys.exit(secret * 6)

    child = FORK.Process(target=local)
    child.start()
    _finish(child)
    assert child.exitcode == 42
