"""What a suspended task is waiting for: a chain of awaits, and since 3.14 a call graph.

A Task drives one coroutine, but that coroutine may be suspended several `await`s deep. Each
suspended coroutine points at what it awaits (`cr_await`), so the chain can be walked from
the Task's own coroutine inwards. Python 3.14 added `asyncio.capture_call_graph()`, which walks
it for you and also records which tasks await which (`awaited_by`); `format_call_graph()` and
`print_call_graph()` turn that into text, like a traceback of a task that has not failed.
"""

import asyncio
import sys

import pytest

needs_the_call_graph = pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="asyncio.capture_call_graph is new in Python 3.14; before it, you walk `cr_await` "
    "by hand, as the first koan here does, and no task records which tasks await it",
)


async def _suspended_in_three_coroutines(inspect):
    """Start a task that awaits an Event two coroutines deep, let it suspend, and return what
    `inspect(task)` says about it."""
    event = asyncio.Event()

    async def sleeper():
        await event.wait()

    async def outer():
        await sleeper()

    task = asyncio.create_task(outer())
    await asyncio.sleep(0)  # the task runs until it suspends inside event.wait()
    try:
        return inspect(task)
    finally:
        event.set()
        await task


def test_a_suspended_task_is_a_chain_of_awaits():
    """`task.get_stack()` shows the frames of the task's own coroutine only. Each suspended
    coroutine's `cr_await` is the object it awaits: another coroutine, or at the bottom the
    iterator of the Future that is not done yet. Walk that chain from the task's coroutine,
    noting each coroutine's function name. What do the two views show?"""

    def inspect(task):
        chain = []
        awaited = task.get_coro()
        while asyncio.iscoroutine(awaited):
            chain.append(awaited.cr_code.co_name)
            awaited = awaited.cr_await
        return [frame.f_code.co_name for frame in task.get_stack()], chain

    seen = asyncio.run(_suspended_in_three_coroutines(inspect))
    assert seen == __


@needs_the_call_graph
def test_capture_call_graph_walks_a_suspended_tasks_frames():
    """`asyncio.capture_call_graph(task)` returns a `FutureCallGraph`: the task, its
    `call_stack` of frame entries, and `awaited_by`, the graphs of the tasks that await it.
    The same task as in the koan above is suspended three coroutines deep. What are the
    function names of the frames on its `call_stack`, in the order the graph lists them?"""

    def inspect(task):
        graph = asyncio.capture_call_graph(task)
        return [entry.frame.f_code.co_name for entry in graph.call_stack]

    assert asyncio.run(_suspended_in_three_coroutines(inspect)) == __


@needs_the_call_graph
def test_the_call_graph_records_which_task_awaits_another():
    """A coroutine passed to `gather` runs in a Task of its own, so the frames of the task that
    called `gather` are not on its stack. Since 3.14, asyncio records the link anyway: each
    child task knows which tasks await it. Here a task named "parent" gathers two children,
    named "kid-1" and "kid-2". Whose names are in a child's `awaited_by`?"""

    async def main():
        event = asyncio.Event()

        async def child():
            await event.wait()

        async def parent():
            kids = [asyncio.create_task(child(), name=f"kid-{n}") for n in (1, 2)]
            await asyncio.gather(*kids)

        task = asyncio.create_task(parent(), name="parent")
        await asyncio.sleep(0)  # parent creates the kids and waits in gather
        await asyncio.sleep(0)  # each kid runs until it waits on the event
        kid = next(t for t in asyncio.all_tasks() if t.get_name() == "kid-1")
        graph = asyncio.capture_call_graph(kid)
        names = [awaiter.future.get_name() for awaiter in graph.awaited_by]
        event.set()
        await task
        return names

    assert asyncio.run(main()) == __
