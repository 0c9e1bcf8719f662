"""Coroutines are generators' cousins, and the frame machinery can be watched.

An `async def` function also returns an object that owns a suspendable frame. An event loop
is just a caller that keeps calling `send(None)`; here we play the event loop ourselves. The
last koans watch frames being entered with `sys.settrace` and `sys.setprofile`.
"""

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


def test_a_coroutine_runs_with_send_none_and_no_event_loop():
    """There is no magic in an event loop. `coro.send(None)` runs the coroutine until it
    suspends or finishes; when it finishes, its return value arrives in StopIteration, exactly
    as with a generator."""

    async def answer():
        return 6 * 7

    with pytest.raises(StopIteration) as info:
        answer().send(None)
    assert info.value.value == __


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


def test_a_finished_coroutine_drops_its_frame():
    """Like a generator, a coroutine that has finished has nothing left to resume, so it lets go
    of its frame. Its state is CORO_CLOSED."""

    async def task():
        return 1

    coro = task()
    with pytest.raises(StopIteration):
        coro.send(None)
    assert coro.cr_frame == __


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
