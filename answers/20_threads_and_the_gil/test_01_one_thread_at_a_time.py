"""One thread runs bytecode at a time, and a timer decides when it has to let go.

CPython's global interpreter lock (GIL) is one lock per interpreter (and a process normally has
one interpreter): a thread must hold it to run bytecode or touch Python objects. A thread that
wants the GIL waits one *switch interval*, then sets a flag that the holder checks between
bytecode instructions, and the holder hands the lock over. Koans that change the interval
always put the old value back.
"""

import os
import subprocess
import sys
import sysconfig
import threading
from collections import deque
from functools import partial
from itertools import chain, islice, repeat, takewhile
from operator import ne

import pytest

GIL_ENABLED = getattr(sys, "_is_gil_enabled", lambda: True)()
needs_the_gil = pytest.mark.skipif(
    not GIL_ENABLED,
    reason="this interpreter runs without a GIL (the free-threaded build): threads run "
    "bytecode in parallel and nothing makes them take turns",
)


def _record_when_let_in(gate, ran):
    gate.acquire(timeout=10)  # parked here without the GIL until the main thread opens the gate
    ran.append("waiter")  # one line of Python: it needs the GIL


def test_the_old_instruction_count_knob_is_gone():
    """Before Python 3.2 the interpreter offered a thread switch every 100 "ticks" (roughly,
    bytecode instructions), tuned with `sys.setcheckinterval`. The new GIL of 3.2 made the
    switch time-based, the old function stopped having any effect, and Python 3.9 deleted it
    from the `sys` module. What does asking a module for a name it no longer has raise?"""
    with pytest.raises(AttributeError):
        sys.setcheckinterval(100)


def test_the_switch_interval_is_kept_in_whole_microseconds():
    """`setswitchinterval` takes seconds as a float, but the interpreter stores the interval as
    an unsigned whole number of microseconds and drops the fraction. `getswitchinterval`
    converts that stored count back into seconds."""
    old = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.0000015)
        seen = sys.getswitchinterval()
    finally:
        sys.setswitchinterval(old)
    assert seen == 1e-06  # 1.5 microseconds keeps only the whole microsecond


def test_a_switch_interval_must_be_positive():
    """A waiting thread needs some time to wait before it asks for the GIL, so the interval
    has to be strictly greater than zero."""
    with pytest.raises(ValueError):
        sys.setswitchinterval(0)


@needs_the_gil
def test_what_a_waiting_thread_does_to_a_busy_one():
    """The main thread spins in a pure-Python loop that never blocks or sleeps, and stops as
    soon as it sees an entry in `ran` (or after 200 million turns). The waiter,
    once let out of its gate, needs the GIL for its one line, and the default switch interval
    is in force. What has the loop seen when it stops?"""
    ran = []
    gate = threading.Lock()
    gate.acquire()
    waiter = threading.Thread(target=_record_when_let_in, args=(gate, ran), daemon=True)
    waiter.start()
    try:
        gate.release()
        spins = 0
        while not ran and spins < 200_000_000:
            spins += 1
        seen_while_spinning = list(ran)
    finally:
        waiter.join(timeout=10)
    assert seen_while_spinning == ["waiter"]


@needs_the_gil
def test_what_a_busy_thread_does_under_an_enormous_interval():
    """Nothing but the switch-interval request makes a thread that runs bytecode hand over the
    GIL, and a waiting thread raises that request only after a whole interval. Here the
    interval is 100 seconds and the spin takes milliseconds. Where does the main thread first
    let go of the GIL of its own accord?"""
    ran = []
    gate = threading.Lock()
    gate.acquire()
    waiter = threading.Thread(target=_record_when_let_in, args=(gate, ran), daemon=True)
    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        waiter.start()  # the waiter runs until it blocks at the gate
        gate.release()
        for _ in range(300_000):
            pass
        seen_while_spinning = list(ran)
    finally:
        waiter.join(timeout=10)
        sys.setswitchinterval(old)
    assert (seen_while_spinning, ran) == ([], ["waiter"])


def test_a_thread_reports_its_process_id_and_its_own_thread_id():
    """A `threading.Thread` is created inside the running process rather than as a new one,
    and the kernel schedules it as a thread of its own, with its own native id. Collect the ids
    that the main thread and the new thread report: how many different ones of each kind?"""
    seen = {}

    def report():
        seen["pid"] = os.getpid()
        seen["tid"] = threading.get_native_id()

    thread = threading.Thread(target=report)
    thread.start()
    thread.join(timeout=10)
    pids = {os.getpid(), seen["pid"]}
    tids = {threading.get_native_id(), seen["tid"]}
    assert (len(pids), len(tids)) == (1, 2)


def _park(obj, inside, leave):
    inside.set()
    leave.wait(10)


def test_every_thread_that_holds_an_object_writes_its_reference_count():
    """Each new reference an object gets (an item of a tuple, a local variable of a running
    frame) is a write to the count in the object's header, whichever thread makes it; such
    writes from many threads at once are what the GIL serialises. Count the references: the
    `Thread` keeps the `args` tuple it was given, and the running target binds its argument
    to a local. What is left once the thread is done?"""
    obj = object()
    inside, leave = threading.Event(), threading.Event()
    base = sys.getrefcount(obj)
    thread = threading.Thread(target=_park, args=(obj, inside, leave), daemon=True)
    created = sys.getrefcount(obj)
    thread.start()
    try:
        inside.wait(10)
        running = sys.getrefcount(obj)
    finally:
        leave.set()
        thread.join(timeout=10)
    finished = sys.getrefcount(obj)
    assert (created - base, running - base, finished - base) == (1, 2, 0)


def _append_once_the_log_starts(log):
    while not log:  # spins in Python until the main thread's first entry is visible
        pass
    log.append("helper")


def test_whether_python_runs_beside_a_long_c_call_depends_on_the_gil():
    """The main thread makes one long call into C: it writes a first entry, reads the log's
    length over and over (stopping early if a second entry appears), then writes a last
    entry, all without returning to the bytecode loop. The helper appends as soon as it
    sees the first entry. With a GIL (every build through 3.12, the standard build since, and
    a free-threaded build that turned it back on) the helper needs the lock the main thread
    holds; without one, threads run bytecode at the same time. `sys._is_gil_enabled()`
    (3.13+) says which this interpreter is doing right now."""
    # With a GIL no reading can see the helper's entry, however many there are; without one
    # the helper appends within microseconds, and a busy machine gets a generous margin.
    gil_on = getattr(sys, "_is_gil_enabled", lambda: True)()
    readings = 2_000_000 if gil_on else 200_000_000
    log = []
    helper = threading.Thread(target=_append_once_the_log_starts, args=(log,), daemon=True)
    helper.start()
    try:
        # One C-level call: chain, map, islice, repeat, takewhile and deque are all C code.
        deque(
            chain(
                map(log.append, ["main enters C"]),
                takewhile(partial(ne, 2), map(len, islice(repeat(log), readings))),
                map(log.append, ["main leaves C"]),
            ),
            maxlen=0,
        )
    finally:
        helper.join(timeout=10)
    if sys.version_info < (3, 13) or sys._is_gil_enabled():
        assert log == ["main enters C", "main leaves C", "helper"]
    else:
        assert log == ["main enters C", "helper", "main leaves C"]


def test_asking_for_no_gil_at_startup_depends_on_the_build():
    """Python 3.13 added `-X gil=0` (or `PYTHON_GIL=0`) to start without a GIL, which only a
    free-threaded build (PEP 703, `python3.13t`, compiled with `Py_GIL_DISABLED`) can do: a
    standard build refuses the whole start-up with a fatal error rather than run with a GIL
    it was told to drop. Before 3.13, `-X` accepted any name and kept it in `sys._xoptions`.
    What exit status and output does a child started with `-X gil=0` give?"""
    result = subprocess.run(
        [sys.executable, "-X", "gil=0", "-c", "print('started')"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    seen = (result.returncode, result.stdout.strip())
    if sys.version_info < (3, 13):
        assert seen == (0, "started")
    elif not sysconfig.get_config_var("Py_GIL_DISABLED"):
        assert seen == (1, "")
    else:
        assert seen == (0, "started")


@needs_the_gil
def test_the_switch_interval_belongs_to_the_gil_of_one_interpreter():
    """Since 3.12 each subinterpreter can have a GIL of its own (PEP 684), and Python 3.14's
    `concurrent.interpreters` (PEP 734) creates them that way from Python: one process, several
    interpreters, each with its own modules, its own GIL and that GIL's own switch interval.
    Here the main interpreter sets its interval, and a new interpreter sets a different one.
    What does each then read?"""
    if sys.version_info < (3, 14):
        pytest.skip(
            "concurrent.interpreters is new in Python 3.14; earlier, a subinterpreter with a "
            "GIL of its own could be made only from C (3.12+) or private modules"
        )
    from concurrent import interpreters

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    interp = interpreters.create()
    try:
        interp.exec("import sys; sys.setswitchinterval(0.002)")
        seen = (sys.getswitchinterval(), interp.call(sys.getswitchinterval))
    finally:
        interp.close()
        sys.setswitchinterval(old)
    assert seen == (0.001, 0.002)
