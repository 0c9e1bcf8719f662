"""A minimal event loop for generator-based coroutines: a ready queue, timers, sleep, gather.

A coroutine here is a plain generator. It runs until it yields, and what it yields tells the
loop what it waits for: nothing (a bare ``yield``: let the others run), Sleep(seconds), Spawn(a
coroutine: start it as a task, send the Task back) or Wait(a task: send its result back, or
throw its exception in). asyncio's ``await`` is the same idea with nicer syntax.

Time is virtual: when nothing is ready, the clock jumps to the next timer instead of waiting,
so a program that sleeps for an hour runs in microseconds, and always the same way.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

Coroutine = Generator[Any, Any, Any]


@dataclass(frozen=True)
class Sleep:
    seconds: float


@dataclass(frozen=True)
class Spawn:
    coroutine: Coroutine


@dataclass(frozen=True)
class Wait:
    task: Task


@dataclass(eq=False)
class Task:
    coroutine: Coroutine
    done: bool = False
    result: Any = None
    error: BaseException | None = None
    waiters: list[Task] = field(default_factory=list)


class Loop:
    def __init__(self) -> None:
        self.now = 0.0
        self.ready: deque[tuple[Task, Any, BaseException | None]] = deque()  # (task, send, throw)
        self.timers: list[tuple[float, int, Task]] = []  # a heap of (when, sequence, task)
        self.sequence = 0  # timers set for the same moment fire in the order they were set

    def time(self) -> float:
        return self.now

    def spawn(self, coroutine: Coroutine) -> Task:
        """A new task, ready to take its first turn."""
        task = Task(coroutine)
        self.ready.append((task, None, None))
        return task

    def run(self, coroutine: Coroutine) -> Any:
        """Run ``coroutine`` as the main task, with every other task, until it is done; return
        its result or raise its exception. Each round moves the timers that are due to the
        ready queue and gives every task ready at the start of the round one step."""
        main = Task(coroutine)
        self.ready.append((main, None, None))
        while not main.done:
            if not self.ready:
                if not self.timers:
                    raise RuntimeError("deadlock: every task waits and no timer is set")
                self.now = max(self.now, self.timers[0][0])  # nothing to do until then: jump
            while self.timers and self.timers[0][0] <= self.now:
                _, _, task = heapq.heappop(self.timers)
                self.ready.append((task, None, None))
            for _ in range(len(self.ready)):
                if main.done:
                    break
                self._step(*self.ready.popleft())
        if main.error is not None:
            raise main.error
        return main.result

    def _step(self, task: Task, value: Any = None, error: BaseException | None = None) -> None:
        """Resume a task until its next yield, and act on what it yields."""
        try:
            command = task.coroutine.throw(error) if error is not None else task.coroutine.send(value)
        except StopIteration as stop:
            self._finish(task, stop.value, None)
            return
        except Exception as err:
            self._finish(task, None, err)
            return
        if command is None:
            self.ready.append((task, None, None))
        elif isinstance(command, Sleep):
            self.sequence += 1
            heapq.heappush(self.timers, (self.now + command.seconds, self.sequence, task))
        elif isinstance(command, Spawn):
            self.ready.append((task, self.spawn(command.coroutine), None))
        elif isinstance(command, Wait):
            other = command.task
            if other.done:
                self.ready.append((task, other.result, other.error))
            else:
                other.waiters.append(task)
        else:
            self.ready.append((task, None, TypeError(f"a task yielded {command!r}, not a command")))

    def _finish(self, task: Task, result: Any, error: BaseException | None) -> None:
        """A task is done: keep its outcome and wake every task that waits for it."""
        task.done, task.result, task.error = True, result, error
        for waiter in task.waiters:
            self.ready.append((waiter, result, error))
        task.waiters.clear()


def sleep(seconds: float) -> Coroutine:
    """``yield from sleep(2)``: park this task for two seconds of the loop's time."""
    yield Sleep(seconds)


def gather(*coroutines: Coroutine) -> Coroutine:
    """``results = yield from gather(a(), b())``: run them all at once; their results, in the
    order given. The first exception, in that order, is raised here."""
    tasks = []
    for coroutine in coroutines:
        tasks.append((yield Spawn(coroutine)))
    results = []
    for task in tasks:
        results.append((yield Wait(task)))
    return results
