"""A process is a separate world: its own interpreter, its own memory, its own GIL.

`multiprocessing` with the *fork* start method copies the running parent: the child begins
with everything the parent had at that moment, and from then on the two change their own
copies. These koans fork explicitly (through a context) and send results back through a pipe.
"""

import multiprocessing
import os
import signal
import sys
import threading
import time

import pytest

FORK = (
    multiprocessing.get_context("fork")
    if "fork" in multiprocessing.get_all_start_methods()
    else None
)
pytestmark = [
    pytest.mark.skipif(FORK is None, reason="needs the fork start method, which Windows lacks"),
    # Python 3.12+ warns that forking a process that has threads may deadlock the child; these
    # children only run a few lines of their own.
    pytest.mark.filterwarnings("ignore:This process:DeprecationWarning"),
]


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


def test_a_child_process_has_its_own_pid_and_knows_its_parent():
    """The operating system gives every process an id and remembers which process started
    which: `os.getpid()` asks for your own, `os.getppid()` for your parent's."""
    parent = os.getpid()
    child_pid, child_ppid = run_forked(lambda: (os.getpid(), os.getppid()))
    assert (child_pid == parent, child_ppid == parent) == __


def test_a_childs_changes_stay_in_the_child():
    """After fork, parent and child each have their own copy of every object; the child
    reports the length of the list it sees."""
    data = [1, 2, 3]

    def grow():
        data.append(4)
        return len(data)

    seen_in_child = run_forked(grow)
    assert (seen_in_child, data) == __


def test_a_threads_changes_are_seen_by_every_thread():
    """Threads, by contrast, live in one address space, the process's."""
    data = [1, 2, 3]
    thread = threading.Thread(target=data.append, args=(4,))
    thread.start()
    thread.join(timeout=10)
    assert data == __


def test_a_forked_child_starts_as_a_copy_of_the_running_parent():
    """Fork duplicates the parent's memory as it is at that instant, the interpreter's own
    state included."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        seen_in_child = run_forked(sys.getswitchinterval)
    finally:
        sys.setswitchinterval(old)
    assert seen_in_child == __


def test_a_forked_child_keeps_only_the_thread_that_forked():
    """`fork()` copies the memory of every thread but starts only the calling thread in the
    child, and after the fork `threading` brings its records up to date. (A lock that another
    thread held at that instant stays held forever in the child, which is why forking a
    threaded program is risky.)"""
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, args=(30,), daemon=True)
    helper.start()
    try:
        in_child = run_forked(lambda: (threading.active_count(), helper.is_alive()))
    finally:
        stop.set()
        helper.join(timeout=10)
    assert in_child == __


def test_an_uncaught_exception_in_the_child_sets_a_failure_exit_code():
    """`multiprocessing` runs the target, prints the traceback of anything it raises to the
    child's stderr, and ends the child with the usual exit code of a Python program that
    died of an exception."""
    child = FORK.Process(target=int, args=("not a number",))
    child.start()
    finish(child)
    assert child.exitcode == __


def test_sys_exit_in_the_child_sets_its_exit_code():
    """`sys.exit(n)` raises SystemExit, and the child's bootstrap turns its argument into the
    process's exit status, which the parent reads as `exitcode`."""
    child = FORK.Process(target=sys.exit, args=(3,))
    child.start()
    finish(child)
    assert child.exitcode == __


def test_a_child_killed_by_a_signal_reports_minus_the_signal_number():
    """A process killed by a signal has no exit status of its own; `multiprocessing` reports
    the signal as a negative exit code. `kill()` sends SIGKILL, which cannot be caught."""
    child = FORK.Process(target=time.sleep, args=(60,))
    child.start()
    child.kill()
    finish(child)
    assert (child.exitcode, signal.SIGKILL) == __


def _cpu_seconds():
    """CPU time used so far by this process (all its threads) and by the children it has
    waited for."""
    import resource  # POSIX only, like fork

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _cpu_cost(round_trip, repeats=20):
    before = _cpu_seconds()
    for _ in range(repeats):
        round_trip()
    return _cpu_seconds() - before


def _thread_round_trip():
    thread = threading.Thread(target=int)
    thread.start()
    thread.join()


def _process_round_trip():
    child = FORK.Process(target=int)
    child.start()
    child.join()


def test_starting_a_process_costs_far_more_than_starting_a_thread():
    """A thread is a new stack in the same process. Even a forked process needs a copy of the
    parent's page tables, its own start-up and exit, and a wait for its exit status. Compare
    the CPU time that twenty round trips of each burn: time spent waiting for a CPU burns
    none, so a busy machine does not blur the comparison the way a stopwatch would."""
    ratio = _cpu_cost(_process_round_trip) / _cpu_cost(_thread_round_trip)
    assert (ratio > 3) == __
