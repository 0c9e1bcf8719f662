"""The event loop: many waits overlapped on one thread, one coroutine step at a time.

`asyncio.run` starts a loop on the calling thread. The loop keeps a queue of callbacks that
are ready to run (among them "resume this Task") and timers; it runs the ready ones in order,
one at a time, each until its coroutine reaches an `await` that has to wait. Nothing runs in
parallel, so nothing else runs while one step computes, or blocks. These koans count events
and record orders, never seconds.
"""

import asyncio
import threading
import time

import pytest


async def _tick(counter):
    while True:
        counter[0] += 1
        await asyncio.sleep(0)


def test_create_task_schedules_the_coroutine_rather_than_running_it():
    """`create_task` wraps the coroutine in a Task and puts "take its first step" at the end of
    the ready queue. The current coroutine keeps running until it awaits something."""

    async def main():
        log = []

        async def child():
            log.append("child")

        task = asyncio.create_task(child())
        log.append("after create_task")
        await task
        return log

    assert asyncio.run(main()) == ["after create_task", "child"]


def test_awaiting_coroutines_one_by_one_runs_them_one_after_another():
    """`await coro` runs `coro` inside the current Task, to its end, before the next line runs,
    even when `coro` yields to the loop along the way."""

    async def main():
        log = []

        async def step(name):
            log.append(f"{name} starts")
            await asyncio.sleep(0)
            log.append(f"{name} ends")

        await step("a")
        await step("b")
        return log

    assert asyncio.run(main()) == ["a starts", "a ends", "b starts", "b ends"]


def test_gather_interleaves_coroutines_at_every_await():
    """`gather` wraps each coroutine in a Task of its own. Each runs until its first `await`,
    then the loop moves on to the next one in the queue, so their steps interleave."""

    async def main():
        log = []

        async def step(name):
            log.append(f"{name} starts")
            await asyncio.sleep(0)
            log.append(f"{name} ends")

        await asyncio.gather(step("a"), step("b"))
        return log

    assert asyncio.run(main()) == ["a starts", "b starts", "a ends", "b ends"]


def test_gather_returns_results_in_argument_order():
    """Here the coroutines finish in another order than they were passed: each yields to the
    loop a different number of times, and every `sleep(0)` sends it to the back of the queue.
    `gather` still returns the results in the order of its arguments."""

    async def main():
        finished = []

        async def worker(name, yields):
            for _ in range(yields):
                await asyncio.sleep(0)
            finished.append(name)
            return name

        results = await asyncio.gather(worker("a", 3), worker("b", 1), worker("c", 2))
        return finished, results

    assert asyncio.run(main()) == (["b", "c", "a"], ["a", "b", "c"])


def test_gather_overlaps_waits_on_a_single_thread():
    """`gather` makes a Task of each coroutine, and the loop runs every ready Task's step, up
    to its `sleep`, before it looks at its timers again. Overlapping waits is the whole gain of
    asyncio (three one-second sleeps take about one second), and the loop runs every step on
    the thread that called `asyncio.run`."""

    async def main():
        state = {"waiting": 0, "peak": 0}
        threads = set()

        async def wait_a_little():
            threads.add(threading.get_ident())
            state["waiting"] += 1
            state["peak"] = max(state["peak"], state["waiting"])
            await asyncio.sleep(0.01)
            state["waiting"] -= 1

        await asyncio.gather(wait_a_little(), wait_a_little(), wait_a_little())
        return state["peak"], len(threads)

    assert asyncio.run(main()) == (3, 1)


def test_call_soon_callbacks_run_in_order_once_the_current_step_yields():
    """`loop.call_soon(f, x)` appends a callback to the ready queue. The loop runs the queue
    first in, first out, and only between steps, never in the middle of one; `sleep(0)` ends
    the current step and queues its wake-up at the back."""

    async def main():
        log = []
        loop = asyncio.get_running_loop()
        loop.call_soon(log.append, 1)
        loop.call_soon(log.append, 2)
        log.append(0)
        await asyncio.sleep(0)
        return log

    assert asyncio.run(main()) == [0, 1, 2]


def test_a_blocking_call_freezes_every_task_on_the_loop():
    """A ticker task counts each time the loop runs it. `time.sleep` does not await: it blocks
    the thread, and the loop runs on that same thread. How far can the ticker count meanwhile?"""

    async def main():
        ticks = [0]
        ticker = asyncio.create_task(_tick(ticks))
        await asyncio.sleep(0)  # the ticker takes its first step
        before = ticks[0]
        time.sleep(0.02)
        after = ticks[0]
        ticker.cancel()
        return after - before

    assert asyncio.run(main()) == 0


def test_a_blocking_wait_cannot_see_what_another_task_would_do():
    """The setter task would set the event on its first step. But before the loop gets to that
    step, the coroutine calls the blocking `threading.Event.wait`, on the loop's own thread.
    What can the loop run while that call waits?"""

    async def main():
        ready = threading.Event()

        async def setter():
            ready.set()

        task = asyncio.create_task(setter())
        got = ready.wait(0.02)  # a blocking call inside a coroutine
        await task
        return got

    assert asyncio.run(main()) == False


def test_to_thread_keeps_the_loop_running_while_a_call_blocks():
    """`asyncio.to_thread` runs the blocking call on a worker thread and gives the coroutine a
    Future to await, so the loop stays free to run the setter task while the worker waits."""

    async def main():
        ready = threading.Event()

        async def setter():
            ready.set()

        task = asyncio.create_task(setter())
        got = await asyncio.to_thread(ready.wait, 10)
        await task
        return got

    assert asyncio.run(main()) == True


def test_to_thread_runs_the_call_on_another_thread():
    """`to_thread` hands the call to the loop's default executor, a
    `concurrent.futures.ThreadPoolExecutor`, while every coroutine step stays on the loop's
    thread. Where does the function run?"""

    async def main():
        return await asyncio.to_thread(threading.get_ident) == threading.get_ident()

    assert asyncio.run(main()) == False


def test_a_semaphore_caps_how_many_coroutines_run_at_once():
    """`asyncio.Semaphore(n)` lets at most n holders inside `async with` at a time; the others
    wait in line. Five workers, each pausing once inside, never exceed the cap."""

    async def main():
        limit = asyncio.Semaphore(2)
        state = {"inside": 0, "peak": 0}

        async def worker():
            async with limit:
                state["inside"] += 1
                state["peak"] = max(state["peak"], state["inside"])
                await asyncio.sleep(0)
                state["inside"] -= 1

        await asyncio.gather(*(worker() for _ in range(5)))
        return state["peak"]

    assert asyncio.run(main()) == 2


def test_there_is_no_running_loop_outside_a_coroutine():
    """`get_running_loop()` returns the loop that is running the current coroutine or
    callback. Called from plain code with no loop running, it has nothing to return and says
    so with an exception."""
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()


def test_asyncio_run_cannot_be_nested():
    """One thread runs at most one loop at a time, and `asyncio.run` starts a new one. From
    inside a running loop it refuses; await the coroutine instead."""

    async def outer():
        inner = asyncio.sleep(0)
        try:
            asyncio.run(inner)
        finally:
            inner.close()

    with pytest.raises(RuntimeError):
        asyncio.run(outer())
