"""A minimal event loop for generator-based coroutines: a ready queue, timers, sleep, gather.

A coroutine here is a plain generator. It runs until it yields, and what it yields tells the
loop what it waits for: nothing (a bare ``yield``: let the others run), Sleep(seconds), Spawn(a
coroutine: start it as a task, send the Task back) or Wait(a task: send its result back, or
throw its exception in). asyncio's ``await`` is the same idea with nicer syntax.

Time is virtual: when nothing is ready, the clock jumps to the next timer instead of waiting,
so a program that sleeps for an hour runs in microseconds, and always the same way.

The commands, the Task record and the loop's state are given. Write the methods and the two
functions, one step at a time: test_steps.py says what each must do, in order.
"""

from __future__ import annotations

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
        self.timers: list[tuple[float, int, Task]] = []  # a heap (heapq) of (when, sequence, task)
        self.sequence = 0  # timers set for the same moment fire in the order they were set

    def time(self) -> float:
        return self.now

    def spawn(self, coroutine: Coroutine) -> Task:
        """A new task, ready to take its first turn."""
        raise NotImplementedError("Loop.spawn")

    def run(self, coroutine: Coroutine) -> Any:
        """Run ``coroutine`` as the main task, with every other task, until it is done; return
        its result or raise its exception."""
        raise NotImplementedError("Loop.run")

    def _step(self, task: Task, value: Any = None, error: BaseException | None = None) -> None:
        """Resume a task until its next yield, and act on what it yields."""
        raise NotImplementedError("Loop._step")

    def _finish(self, task: Task, result: Any, error: BaseException | None) -> None:
        """A task is done: keep its outcome and wake every task that waits for it."""
        raise NotImplementedError("Loop._finish")


def sleep(seconds: float) -> Coroutine:
    """``yield from sleep(2)``: park this task for two seconds of the loop's time."""
    raise NotImplementedError("sleep")


def gather(*coroutines: Coroutine) -> Coroutine:
    """``results = yield from gather(a(), b())``: run them all at once; their results, in the
    order given."""
    raise NotImplementedError("gather")
