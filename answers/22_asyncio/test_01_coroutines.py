"""A coroutine is a suspendable call, built on the generator machinery.

Calling an `async def` function creates a coroutine object and runs none of its body. Whoever
drives it calls `send()`; when the coroutine cannot go on, a `yield` deep inside whatever it
awaits passes a value straight up to that driver. An event loop is just a driver with a queue
of coroutines to resume. These koans drive coroutines by hand, without any loop.
"""

import asyncio
import inspect
import sys
import types
import warnings

import pytest


@types.coroutine
def suspend(value):
    """A generator made awaitable: it yields `value` up to the driver and returns whatever the
    driver sends back in."""
    reply = yield value
    return reply


def drive(coro, limit=1000):
    """Send None into `coro` until it finishes; return what it yielded and what it returned."""
    yielded = []
    for _ in range(limit):
        try:
            yielded.append(coro.send(None))
        except StopIteration as stop:
            return yielded, stop.value
    coro.close()
    raise RuntimeError(f"still running after {limit} steps")


def test_what_calling_an_async_function_runs():
    """Like a generator function, an `async def` function returns an object holding a fresh
    frame, paused before the first line."""
    log = []

    async def work():
        log.append("ran")

    coro = work()
    seen = list(log)
    coro.close()  # never started: close it so that it is not reported as forgotten
    assert seen == []


def test_a_coroutine_dropped_without_being_awaited_warns():
    """A coroutine that is garbage-collected before anyone started it is almost always a
    forgotten `await`. CPython notices when it frees the object and emits a warning of the
    category for dubious run-time behaviour."""

    async def work():
        return 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        work()  # created, never awaited, freed at once
    assert caught[0].category == RuntimeWarning


def test_closing_a_coroutine_you_will_not_await_keeps_it_quiet():
    """`close()` marks the coroutine as finished on purpose, so freeing it afterwards is no
    longer the sign of a forgotten `await`. Five coroutines are created here and freed at
    once; some are closed first. How many warnings are recorded?"""

    async def work():
        return 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for close_it in (True, False, True, True, False):
            coro = work()
            if close_it:
                coro.close()
            del coro
    assert len(caught) == 2


def test_await_passes_a_yield_straight_up_to_the_driver():
    """`await suspend(...)` delegates like `yield from`: the generator's `yield` suspends the
    whole chain of frames and its value comes out of `send`. The next `send(v)` resumes the
    chain, `v` becomes the value of the `yield`, and the coroutine carries on."""

    async def task():
        reply = await suspend("need data")
        return reply * 2

    coro = task()
    first = coro.send(None)
    with pytest.raises(StopIteration) as stop:
        coro.send(21)
    assert (first, stop.value.value) == ("need data", 42)


def test_what_sleep_zero_yields_to_its_driver():
    """`asyncio.sleep(0)` schedules no timer: all it has to do is let the loop run the other
    tasks once, then come back. `drive` sends None into it until it finishes. What did it
    yield along the way, and what did it return?"""
    assert drive(asyncio.sleep(0)) == ([None], None)


def test_what_a_coroutine_awaiting_a_pending_future_yields():
    """A Task has to learn what its coroutine waits for, to add a callback to it and resume
    the coroutine when the result arrives, and all it sees is what `send` returns. Here a
    coroutine that awaits a Future that is not done is driven by hand: what does it yield, and
    what does it return once the Future has its result?"""
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()

        async def task():
            return await future

        coro = task()
        yielded = coro.send(None)
        future.set_result("done")
        _, result = drive(coro)
    finally:
        loop.close()
    assert (yielded is future, result) == (True, "done")


def test_throw_raises_an_exception_at_the_paused_await():
    """`throw(exc)` resumes a suspended coroutine by raising `exc` at the `await` where it is
    paused, so the coroutine's own `try` can handle it. A Task cancels a coroutine exactly this
    way, by throwing CancelledError in."""

    async def task():
        try:
            await suspend("waiting")
        except KeyError as err:
            return f"handled {err.args[0]}"

    coro = task()
    coro.send(None)
    with pytest.raises(StopIteration) as stop:
        coro.throw(KeyError("boom"))
    assert stop.value.value == "handled boom"


def test_a_coroutine_is_awaitable_but_not_iterable():
    """A coroutine has `send`, `throw` and `close` like a generator, and `__await__`, but no
    `__iter__`: it cannot be looped over with `for`, so a coroutine cannot be mistaken for a
    generator by accident."""

    async def work():
        return 1

    coro = work()
    try:
        with pytest.raises(TypeError):
            iter(coro)
    finally:
        coro.close()


def test_what_inspect_makes_of_a_types_coroutine_generator():
    """`types.coroutine` sets a flag on the generator's code object that lets `await` accept
    it; it stays a generator. `inspect` tells apart "can be awaited" from "is a native
    coroutine"."""
    gen = suspend(1)
    try:
        kinds = (inspect.isawaitable(gen), inspect.iscoroutine(gen))
    finally:
        gen.close()
    assert kinds == (True, False)


def test_what_asyncio_iscoroutine_accepts_changed_in_3_12():
    """Before `async def` (3.5), coroutines were generators, and `asyncio.iscoroutine` accepted
    any generator as one, flagged by `types.coroutine` or not. Python 3.12 dropped that: only
    native coroutines (and objects that implement `collections.abc.Coroutine`) count. What
    does it say of a native coroutine, a flagged generator and a plain generator?"""

    async def native():
        return 1

    def plain():
        yield 1

    candidates = (native(), suspend(1), plain())
    try:
        accepted = [asyncio.iscoroutine(candidate) for candidate in candidates]
    finally:
        for candidate in candidates:
            candidate.close()
    if sys.version_info >= (3, 12):
        assert accepted == [True, False, False]
    else:
        assert accepted == [True, True, True]


def test_the_generator_based_coroutine_decorator_was_removed_in_3_11():
    """`@asyncio.coroutine` turned a generator using `yield from` into an asyncio coroutine.
    Deprecated since 3.8, it warned with the category for deprecated features each time it
    decorated a function, and Python 3.11 deleted it from the module; `async def` replaces
    it, and `types.coroutine` remains for the rare generator that must be awaitable."""
    if sys.version_info >= (3, 11):
        with pytest.raises(AttributeError):
            asyncio.coroutine  # noqa: B018 - the lookup itself is the point
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")

            @asyncio.coroutine
            def old_style():
                yield from suspend(1)

        assert caught[0].category == DeprecationWarning
