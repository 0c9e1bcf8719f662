"""A process is a separate world: its own interpreter, its own memory, its own GIL.

`multiprocessing` with the *fork* start method copies the running parent: the child begins
with everything the parent had at that moment, and from then on the two change their own
copies. These koans fork explicitly (through a context) and send results back through a pipe.
"""

import multiprocessing
import os
import signal
import subprocess
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


def test_a_child_process_reports_its_own_id_and_its_parents():
    """The operating system gives every process an id and remembers which process started
    which: `os.getpid()` asks for your own, `os.getppid()` for your parent's. Here the parent
    notes its own id, and the forked child reports both of its. How many different ids are
    among the three?"""
    parent = os.getpid()
    child_pid, child_ppid = run_forked(lambda: (os.getpid(), os.getppid()))
    assert len({parent, child_pid, child_ppid}) == __


def test_a_child_appends_to_a_list_it_inherited():
    """After fork, parent and child each have their own copy of every object; the child
    reports the length of the list it sees."""
    data = [1, 2, 3]

    def grow():
        data.append(4)
        return len(data)

    seen_in_child = run_forked(grow)
    assert (seen_in_child, data) == __


def test_a_thread_appends_to_a_list_it_shares():
    """Threads, by contrast, live in one address space, the process's."""
    data = [1, 2, 3]
    thread = threading.Thread(target=data.append, args=(4,))
    thread.start()
    thread.join(timeout=10)
    assert data == __


def test_a_forked_child_and_a_setting_changed_before_the_fork():
    """Fork duplicates the parent's memory as it is at that instant, the interpreter's own
    state included."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        seen_in_child = run_forked(sys.getswitchinterval)
    finally:
        sys.setswitchinterval(old)
    assert seen_in_child == __


def test_which_threads_a_forked_child_has():
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


def _exit_with_a_message():
    sys.exit("giving up")


def test_a_childs_exit_code_tells_how_it_ended():
    """`multiprocessing` runs the target in the child's bootstrap and turns the way it ended
    into the process's exit status, which the parent reads as `exitcode`: a target that
    returns, one that raises (its traceback goes to the child's stderr), `sys.exit(3)`, and
    `sys.exit` with a message instead of a number (the message goes to stderr), in that
    order."""
    endings = [(int, ()), (int, ("not a number",)), (sys.exit, (3,)), (_exit_with_a_message, ())]
    codes = []
    for target, args in endings:
        child = FORK.Process(target=target, args=args)
        child.start()
        finish(child)
        codes.append(child.exitcode)
    assert codes == __


def test_the_exit_code_of_a_child_killed_by_a_signal():
    """A process killed by a signal has no exit status of its own; `multiprocessing` reports
    the signal as a negative exit code. `kill()` sends SIGKILL, which cannot be caught."""
    child = FORK.Process(target=time.sleep, args=(60,))
    child.start()
    child.kill()
    finish(child)
    assert (child.exitcode, signal.SIGKILL) == __


WORKER_COSTS = """
import multiprocessing
import resource
import threading
import time


def cpu_seconds():
    # CPU time of this process (all its threads) and of the children it has waited for
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def thread_round_trip():
    thread = threading.Thread(target=int)
    thread.start()
    thread.join()


def process_round_trip(method):
    child = multiprocessing.get_context(method).Process(target=int)
    child.start()
    child.join()


def cost(round_trip, repeats):
    before = cpu_seconds()
    for _ in range(repeats):
        round_trip()
    return (cpu_seconds() - before) / repeats


costs = {
    "thread": cost(thread_round_trip, 20),
    "fork": cost(lambda: process_round_trip("fork"), 10),
    "spawn": cost(lambda: process_round_trip("spawn"), 3),
}
print(*sorted(costs, key=costs.get))
"""


def test_what_each_way_of_starting_a_worker_costs():
    """A thread is a new stack in the same process. A forked child is a new process that
    starts as a copy of its parent: the kernel copies the page tables (not the pages), and the
    child runs a short bootstrap, exits and is reaped. A spawned child starts a new
    interpreter from scratch, imports what it needs and unpickles its target. A small, fresh
    interpreter starts and joins each a few times and sorts them by the CPU time they burn:
    time spent waiting for a CPU burns none, so a busy machine does not blur the comparison
    the way a stopwatch would. What does it print, cheapest first?"""
    result = subprocess.run(
        [sys.executable, "-c", WORKER_COSTS],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.stdout.split() == __
