"""Coroutines are generators' cousins, and the frame machinery can be watched.

An `async def` function also returns an object that owns a suspendable frame. An event loop
is just a caller that keeps calling `send(None)`; here we play the event loop ourselves. The
last koans watch frames being run: with `sys.settrace` and `sys.setprofile`, with
`sys.monitoring`, and at the C function the interpreter runs every frame with.
"""

import ctypes
import inspect
import sys

import pytest


class Tick:
    """An awaitable that suspends its awaiter once, the way a sleep or a socket read would."""

    def __await__(self):
        reply = yield "tick"
        return reply


def test_calling_an_async_function_runs_none_of_its_body():
    """Calling an `async def` function runs none of its body, just like a generator function:
    it returns an object holding a fresh frame, of a type of its own that PEP 492 added."""

    async def answer():
        return 42

    coro = answer()
    try:
        assert type(coro).__name__ == __
    finally:
        coro.close()  # never started: close it so Python does not warn "never awaited"


def test_await_passes_the_suspension_up_to_whoever_called_send():
    """`await` delegates like `yield from`: when the awaited object yields, the whole chain of
    coroutine frames suspends and the yielded value pops out of `send`. The next `send(v)`
    resumes the chain and v arrives inside the awaitable."""

    async def task():
        got = await Tick()
        return got + 1

    coro = task()
    assert coro.send(None) == __
    with pytest.raises(StopIteration) as info:
        coro.send(99)
    assert info.value.value == __


def test_an_awaiting_coroutine_is_suspended_with_its_frame():
    """While it waits at an `await`, a coroutine's frame, reachable as `cr_frame`, still holds its
    locals, and inspect.getcoroutinestate says where it stands: this is the "user-space context
    switch" that lets one thread juggle thousands of tasks."""

    async def task():
        request = "GET /"
        await Tick()
        return request

    coro = task()
    coro.send(None)
    try:
        state = inspect.getcoroutinestate(coro)
        assert (state, coro.cr_frame.f_locals["request"]) == __
    finally:
        coro.close()


def _owner_of_my_callers_frame():
    return type(sys._getframe(1).f_generator).__name__


def _finish(coroutine):
    """Play the event loop for a coroutine that never waits: one send(None) runs it to the end."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value


@pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="frame.f_generator is new in Python 3.14: before, a generator or coroutine pointed at "
    "its frame (gi_frame, cr_frame) but the frame had no link back to it",
)
def test_a_frame_links_back_to_the_object_that_owns_it():
    """A generator or a coroutine owns its frame (`gi_frame`, `cr_frame`), and since 3.14 the
    frame links back through `f_generator`: code running inside can reach the object that
    suspends and resumes it. The frame of an ordinary call belongs to no such object, and its
    `f_generator` holds the usual placeholder for "nothing"."""

    def numbers():
        yield _owner_of_my_callers_frame()

    async def fetch():
        return _owner_of_my_callers_frame()

    def plain():
        return _owner_of_my_callers_frame()

    owners = [next(numbers()), _finish(fetch()), plain()]
    assert owners == __


def _leaf():
    return 1


def _branch():
    return _leaf() + _leaf()


def test_settrace_sees_a_call_event_for_every_new_frame():
    """The interpreter's evaluation loop reports each frame it starts to the trace function as
    a 'call' event. `_branch()` starts one frame for itself and one per call to `_leaf()`."""
    calls = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code in (_leaf.__code__, _branch.__code__):
            calls.append(frame.f_code.co_name)

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        _branch()
    finally:
        sys.settrace(previous)
    assert calls == __


def _three():
    yield 1
    yield 2
    yield 3


def test_every_generator_resume_is_a_call_event():
    """To the tracer, resuming a suspended generator frame looks like calling it again. `list()`
    keeps calling `next()` until the generator finishes."""
    calls = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code is _three.__code__:
            calls.append(event)

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        list(_three())
    finally:
        sys.settrace(previous)
    assert len(calls) == __


def _measure():
    return len("abc")


def test_setprofile_also_sees_calls_into_c_functions():
    """`sys.settrace` only sees Python frames. The profiler hook `sys.setprofile` also gets
    'c_call' and 'c_return' for builtins such as `len`, which run as C functions without a
    Python frame of their own."""
    events = []

    def profiler(frame, event, arg):
        if frame.f_code is _measure.__code__:
            events.append(event)

    previous = sys.getprofile()
    sys.setprofile(profiler)
    try:
        _measure()
    finally:
        sys.setprofile(previous)
    assert events == __


def _three_lines():
    a = 1
    b = 2
    return a + b


def test_a_local_tracer_sees_each_line_executed():
    """A trace function that returns itself from the 'call' event becomes the frame's local
    tracer and is told about every source line as the frame reaches it, which is how pdb
    steps. Returning None instead would ignore the rest of the frame."""
    events = []

    def tracer(frame, event, arg):
        if frame.f_code is not _three_lines.__code__:
            return None
        events.append(event)
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        _three_lines()
    finally:
        sys.settrace(previous)
    assert events.count("line") == __


def _work():
    for i in range(3):
        len("ab")
        abs(-i)


@pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="sys.monitoring is new in Python 3.12 (PEP 669); before, Python code could watch frames "
    "only through sys.settrace and sys.setprofile, which cannot switch an event off at one place",
)
def test_monitoring_can_switch_an_event_off_at_one_instruction():
    """PEP 669's sys.monitoring does not slow every frame down: it rewrites just the
    instructions it watches (a watched CALL becomes an instrumented twin). A callback that
    returns sys.monitoring.DISABLE turns its event off at the one instruction that reported
    it, which then runs at full speed again; this is how a coverage tool pays once per line."""
    mon = sys.monitoring
    tool = next(t for t in range(6) if mon.get_tool(t) is None)
    called = []

    def on_call(code, offset, callee, arg0):
        called.append(callee.__name__)
        return mon.DISABLE

    mon.use_tool_id(tool, "koans")
    try:
        mon.register_callback(tool, mon.events.CALL, on_call)
        mon.set_local_events(tool, _work.__code__, mon.events.CALL)
        _work()
    finally:
        mon.set_local_events(tool, _work.__code__, 0)
        mon.register_callback(tool, mon.events.CALL, None)
        mon.free_tool_id(tool)
    assert called == __


class _DlInfo(ctypes.Structure):
    """What the C library's dladdr() reports about an address."""

    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _symbol_at(address):
    """The name of the exported C function that starts at `address`, as dladdr() finds it."""
    dladdr = getattr(ctypes.CDLL(None), "dladdr", None)
    info = _DlInfo()
    if dladdr is None or not dladdr(ctypes.c_void_p(address), ctypes.byref(info)):
        pytest.skip("no dladdr() here, or it knows no symbol at that address")
    return info.dli_sname.decode()


@pytest.mark.skipif(
    sys.implementation.name != "cpython" or not sys.platform.startswith("linux"),
    reason="reads CPython's frame-evaluation pointer through ctypes and glibc's dladdr()",
)
def test_every_frame_is_run_by_the_c_function_behind_one_pointer():
    """PEP 523 gave each interpreter a pointer to the C function that runs a frame, so that a
    JIT or a debugger can swap in its own (torch.compile's TorchDynamo does exactly that).
    CPython exports a getter for the pointer, which reports the default function while the
    slot is empty (since 3.11 it holds NULL until something swaps a function in); ctypes can
    call the getter, and dladdr() names the function the address belongs to. Nothing in this
    process has swapped it."""
    api = ctypes.pythonapi
    api.PyInterpreterState_Get.restype = ctypes.c_void_p
    public = getattr(api, "PyInterpreterState_GetEvalFrameFunc", None)  # where it exists
    getter = public or api._PyInterpreterState_GetEvalFrameFunc
    getter.restype, getter.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
    address = getter(api.PyInterpreterState_Get())
    assert _symbol_at(address) == __
