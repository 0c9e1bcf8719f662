"""One thread runs bytecode at a time, and a timer decides when it has to let go.

CPython's global interpreter lock (GIL) is one lock for the whole process (since 3.12 a
subinterpreter may have its own): a thread must hold it to run bytecode or touch Python
objects. A thread that wants the GIL waits one *switch interval*, then sets a flag that the
holder checks between bytecode instructions, and the holder hands the lock over. Koans that
change the interval always put the old value back.
"""

import os
import sys
import sysconfig
import threading

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


def test_the_switch_interval_is_a_time_not_an_instruction_count():
    """`sys.getswitchinterval()` is how long, in seconds, a thread that wants the GIL waits
    before it asks the holder to let go. The default is a few milliseconds, the same on every
    machine, however fast it runs bytecode."""
    assert sys.getswitchinterval() == 0.005


def test_the_old_instruction_count_knob_is_gone():
    """Before Python 3.2 the interpreter offered a thread switch every 100 "ticks" (roughly,
    bytecode instructions), tuned with `sys.setcheckinterval`. The new GIL of 3.2 made the
    switch time-based, the old function stopped having any effect, and Python 3.9 removed
    it."""
    assert hasattr(sys, "setcheckinterval") == False


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
def test_a_waiting_thread_makes_a_busy_thread_let_go():
    """The main thread spins in a pure-Python loop that never blocks. The waiter, once let out
    of its gate, still needs the GIL; after one switch interval it raises the drop request, the
    spinning thread hands the GIL over the next time its loop jumps back to the top (a point
    where it checks), and the waiter runs. The loop stops as soon as it sees that."""
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
def test_with_an_enormous_interval_a_busy_thread_keeps_the_gil():
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


def test_threads_share_one_process_but_are_separate_os_threads():
    """A `threading.Thread` is a real operating-system thread, scheduled by the kernel on its
    own, and created inside the running process rather than as a new one."""
    seen = {}

    def report():
        seen["pid"] = os.getpid()
        seen["tid"] = threading.get_native_id()

    thread = threading.Thread(target=report)
    thread.start()
    thread.join(timeout=10)
    assert (seen["pid"] == os.getpid(), seen["tid"] == threading.get_native_id()) == (True, False)


def _park(obj, inside, leave):
    inside.set()
    leave.wait(10)


def test_every_thread_that_holds_an_object_writes_its_reference_count():
    """Every new reference to an object is a write to the count in the object's header,
    whichever thread makes it; such writes from many threads at once are what the GIL
    serialises. Count the references: the `Thread` keeps the `args` tuple it was given, and
    the running target binds its argument to a local. What is left once the thread is done?"""
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


def test_a_running_interpreter_reports_whether_its_gil_is_on():
    """Python 3.13 added `sys._is_gil_enabled()`, which says whether the GIL is on right now.
    Only the free-threaded build can run without one, and even there importing an extension
    module that is not marked safe for free threading (or setting PYTHON_GIL=1) turns it back
    on. This koan runs on a standard build; on older versions, ask for the function itself."""
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("a free-threaded build: its GIL is off unless something turned it back on")
    if sys.version_info >= (3, 13):
        assert sys._is_gil_enabled() == True
    else:
        assert hasattr(sys, "_is_gil_enabled") == False


def test_the_build_configuration_says_whether_a_gil_was_compiled_in():
    """The free-threaded build (PEP 703, `python3.13t`) is compiled with `Py_GIL_DISABLED`
    set to 1: reference counting is split into a fast count for the owning thread and an
    atomic one for the others, and built-in containers get locks of their own. The variable
    exists only in the build configuration of 3.13 and later. What does a standard build
    record, and what does `get_config_var` give for a name it never heard of?"""
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("this is the free-threaded build")
    if sys.version_info >= (3, 13):
        assert sysconfig.get_config_var("Py_GIL_DISABLED") == 0
    else:
        assert sysconfig.get_config_var("Py_GIL_DISABLED") == None
