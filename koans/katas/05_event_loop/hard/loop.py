"""A minimal event loop for generator-based coroutines."""

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
        self.ready: deque[tuple[Task, Any, BaseException | None]] = deque()
        self.timers: list[tuple[float, int, Task]] = []
        self.sequence = 0

    def time(self) -> float:
        return self.now

    def spawn(self, coroutine: Coroutine) -> Task:
        """A new task."""
        raise NotImplementedError("Loop.spawn")

    def run(self, coroutine: Coroutine) -> Any:
        """Run the main task to its end."""
        raise NotImplementedError("Loop.run")

    def _step(self, task: Task, value: Any = None, error: BaseException | None = None) -> None:
        """Resume a task once."""
        raise NotImplementedError("Loop._step")

    def _finish(self, task: Task, result: Any, error: BaseException | None) -> None:
        """A task is done."""
        raise NotImplementedError("Loop._finish")


def sleep(seconds: float) -> Coroutine:
    """Park the task for a while."""
    raise NotImplementedError("sleep")


def gather(*coroutines: Coroutine) -> Coroutine:
    """Run them all at once; their results."""
    raise NotImplementedError("gather")
