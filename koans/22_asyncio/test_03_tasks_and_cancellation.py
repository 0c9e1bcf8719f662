"""Tasks, cancellation, and what happens when one of many coroutines fails.

A Task drives one coroutine on the loop. `task.cancel()` asks it to stop: at its next step the
Task throws an exception into the coroutine, at the `await` where it is paused. The coroutine
may clean up, or even refuse. Helpers that run many coroutines differ in what they do
to the others when one of them fails.
"""

import asyncio
import contextlib
import sys

import pytest


def test_cancelling_a_task_raises_inside_it_and_in_its_awaiter():
    """Cancelling a Task that sleeps makes its `await` raise, so the sleep ends early, and
    awaiting the cancelled Task raises an exception of the same class in the awaiter."""

    async def main():
        task = asyncio.create_task(asyncio.sleep(10))
        await asyncio.sleep(0)  # the task starts sleeping
        task.cancel()
        await task

    with pytest.raises(___):
        asyncio.run(main())


def test_cancelled_error_escapes_except_exception_since_3_8():
    """Since Python 3.8 CancelledError no longer derives from Exception, so that the common
    `except Exception:` does not swallow a cancellation by accident; it sits beside
    KeyboardInterrupt and SystemExit. What does `__bases__`, the tuple of its direct base
    classes, hold?"""
    assert asyncio.CancelledError.__bases__ == __


def test_a_cancellation_meets_except_exception_and_finally():
    """The coroutine guards its sleep with `except Exception` and a `finally`. Which of the two
    does a cancellation go through, and how does the Task end?"""

    async def main():
        log = []

        async def sleeper():
            try:
                await asyncio.sleep(10)
            except Exception:
                log.append("swallowed")
            finally:
                log.append("finally")

        task = asyncio.create_task(sleeper())
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.wait([task])
        return log, task.cancelled()

    assert asyncio.run(main()) == __


def test_a_coroutine_that_catches_its_cancellation():
    """`cancel()` only schedules the throw. A coroutine that catches CancelledError and
    returns normally has refused it (do this only with good reason). What does its Task
    report then?"""

    async def main():
        async def stubborn():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                return "ignored"

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        task.cancel()
        result = await task
        return result, task.cancelled()

    assert asyncio.run(main()) == __


def test_gather_can_return_exceptions_in_their_places():
    """With `return_exceptions=True`, `gather` waits for every awaitable and puts an exception
    object where a result would have been, instead of raising the first one."""

    async def main():
        async def one():
            return 1

        async def broken():
            return 1 / 0

        results = await asyncio.gather(one(), broken(), one(), return_exceptions=True)
        return [type(result).__name__ for result in results]

    assert asyncio.run(main()) == __


def test_what_gather_does_to_the_others_when_one_fails():
    """Without `return_exceptions`, `gather` raises the first exception in its awaiter as soon
    as it happens, while the other awaitable, a Task the test also holds, still waits for an
    event. Is that Task still running once `gather` has raised, and what does awaiting it
    after the event give?"""

    async def main():
        release = asyncio.Event()

        async def slow():
            await release.wait()
            return "slow done"

        async def broken():
            raise ValueError("boom")

        slow_task = asyncio.create_task(slow())
        with contextlib.suppress(ValueError):
            await asyncio.gather(broken(), slow_task)
        still_running = not slow_task.done()
        release.set()
        return still_running, await slow_task

    assert asyncio.run(main()) == __


def test_what_a_task_group_does_when_one_task_fails():
    """`asyncio.TaskGroup` (3.11+) is structured concurrency: no task outlives the `async with`
    block, and a failure is the whole group's business, siblings included. The group reports
    its failures all together, in the exception class 3.11 introduced for that."""
    if sys.version_info < (3, 11):
        with pytest.raises(___):
            asyncio.TaskGroup  # noqa: B018 - the lookup itself is the point
    else:

        async def main():
            async def slow():
                await asyncio.sleep(10)

            async def broken():
                raise ValueError("boom")

            try:
                async with asyncio.TaskGroup() as group:
                    sibling = group.create_task(slow())
                    group.create_task(broken())
            except Exception as err:
                return type(err).__name__, sibling.cancelled()

        assert asyncio.run(main()) == __


def test_wait_for_raises_the_builtin_timeout_error_since_3_11():
    """`wait_for` cancels the awaitable when time runs out and raises `asyncio.TimeoutError`.
    Up to 3.10 that was a class of asyncio's own, derived straight from Exception; Python 3.11
    merged it with the built-in TimeoutError, which derives from OSError. Which classes does
    the error's method resolution order name on this Python?"""

    async def main():
        try:
            await asyncio.wait_for(asyncio.sleep(10), timeout=0.01)
        except Exception as err:
            return err

    names = [cls.__name__ for cls in type(asyncio.run(main())).__mro__]
    if sys.version_info >= (3, 11):
        assert names == __
    else:
        assert names == __
