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


def test_when_create_task_runs_the_coroutine():
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

    assert asyncio.run(main()) == __


def test_awaiting_two_coroutines_in_turn():
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

    assert asyncio.run(main()) == __


def test_gather_wraps_each_coroutine_in_a_task():
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

    assert asyncio.run(main()) == __


def test_the_order_of_gathers_results_and_of_finishing():
    """Here the coroutines finish in another order than they were passed: each yields to the
    loop a different number of times, and every `sleep(0)` sends it to the back of the queue.
    `gather` keeps one slot for each of its arguments. In which order do the workers finish,
    and in which order does `gather` return their results?"""

    async def main():
        finished = []

        async def worker(name, yields):
            for _ in range(yields):
                await asyncio.sleep(0)
            finished.append(name)
            return name

        results = await asyncio.gather(worker("a", 3), worker("b", 1), worker("c", 2))
        return finished, results

    assert asyncio.run(main()) == __


def test_how_many_waits_gather_overlaps_and_on_how_many_threads():
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

    assert asyncio.run(main()) == __


def test_when_call_soon_callbacks_run():
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

    assert asyncio.run(main()) == __


def test_a_blocking_call_inside_a_coroutine_and_a_ticking_task():
    """A ticker task logs a tick each time the loop runs it, three times. The main coroutine
    lets it take one step, then calls `time.sleep`, which does not await: it blocks the
    thread, and the loop runs on that same thread. In which order do the entries reach the
    log?"""

    async def main():
        log = []

        async def ticker():
            for n in range(1, 4):
                log.append(f"tick {n}")
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)  # the ticker takes its first step
        log.append("sleep starts")
        time.sleep(0.02)
        log.append("sleep ends")
        await task
        return log

    assert asyncio.run(main()) == __


async def _wait_while_a_task_sets(wait):
    """Create a task that logs and sets an event, then log what `wait(event)` returned."""
    log = []
    ready = threading.Event()

    async def setter():
        log.append("setter runs")
        ready.set()

    task = asyncio.create_task(setter())
    log.append(f"wait returned {await wait(ready)}")
    await task
    return log


def test_a_blocking_wait_inside_a_coroutine_and_the_task_it_waits_for():
    """The setter task would log and set the event on its first step. But before the loop
    gets to that step, the coroutine calls the blocking `threading.Event.wait` (with a timeout
    of 20 ms), on the loop's own thread. What can the loop run while that call waits?"""

    async def blocking_wait(ready):
        return ready.wait(0.02)  # a blocking call inside a coroutine

    assert asyncio.run(_wait_while_a_task_sets(blocking_wait)) == __


def test_a_wait_moved_to_a_thread_and_the_task_it_waits_for():
    """`asyncio.to_thread` runs the same blocking wait on a worker thread and gives the
    coroutine a Future to await, so the loop is free to run other tasks while the worker
    waits."""

    async def wait_on_a_thread(ready):
        return await asyncio.to_thread(ready.wait, 10)

    assert asyncio.run(_wait_while_a_task_sets(wait_on_a_thread)) == __


def test_the_threads_the_coroutine_and_to_thread_run_on():
    """`to_thread` hands the call to the loop's default executor, a
    `concurrent.futures.ThreadPoolExecutor` that the loop creates on first use, with
    "asyncio" as the prefix of its threads' names. Every coroutine step stays on the thread
    that called `asyncio.run`. Which thread names do the coroutine and the call see?"""

    async def main():
        def name():
            return threading.current_thread().name

        return name(), await asyncio.to_thread(name)

    assert asyncio.run(main()) == __


def test_a_semaphore_admits_waiters_as_holders_leave():
    """`asyncio.Semaphore(n)` lets at most n holders inside `async with` at a time; the others
    wait in line. A holder that leaves wakes the first waiter, but waking only queues that
    waiter's next step at the back of the ready queue. Four workers, started together by
    `gather`, each pause once inside. In which order do they go in and out?"""

    async def main():
        limit = asyncio.Semaphore(2)
        log = []

        async def worker(name):
            async with limit:
                log.append(f"{name} in")
                await asyncio.sleep(0)
                log.append(f"{name} out")

        await asyncio.gather(*(worker(name) for name in "abcd"))
        return log

    assert asyncio.run(main()) == __


def test_there_is_no_running_loop_outside_a_coroutine():
    """`get_running_loop()` returns the loop that is running the current coroutine or
    callback. Called from plain code with no loop running, it has nothing to return and says
    so with an exception."""
    with pytest.raises(___):
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

    with pytest.raises(___):
        asyncio.run(outer())
