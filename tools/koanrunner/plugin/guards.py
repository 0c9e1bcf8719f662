"""Nothing a fill does to the interpreter can make an unsolved koan count.

Before each koan the blanks are put back as builtins (a fill may rebind ``__`` for the koans
after it) and their class restored (a fill may patch its methods). While a koan runs,
``os._exit`` and ``pytest.exit`` called in the koan's own process stop only the koan (they
would end the run with whatever status they chose, before any verdict); a forked copy of the
process that runs on into pytest is ended before it can report, so only the process that
started a koan can pass it.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Iterator
from typing import Any

import pytest

from .blanks import TYPE_BLANK, VALUE_BLANK, Blank

_BLANK_CLASS = dict(vars(Blank))
_real_exit = os._exit
_real_pytest_exit = pytest.exit
_running: list[int] = []  # the pid of the process running a koan now (empty between koans)


class KoanStopped(Exception):
    """A koan tried to end the test process (``os._exit``, ``pytest.exit``)."""


def _guarded_exit(code: int) -> Any:
    if _running and _running[-1] == os.getpid():
        raise KoanStopped(f"os._exit({code}) in the koan's own process: a koan may not end the run")
    _real_exit(code)


def _guarded_pytest_exit(*args: Any, **kwargs: Any) -> Any:
    __tracebackhide__ = True
    if _running and _running[-1] == os.getpid():
        raise KoanStopped("pytest.exit() in a koan: a koan may not end the run")
    return _real_pytest_exit(*args, **kwargs)


def restore_blanks() -> None:
    """The blanks as the course made them, whatever an earlier fill did to them."""
    for name, value in _BLANK_CLASS.items():
        if name in ("__dict__", "__weakref__"):
            continue
        if vars(Blank).get(name) is not value:
            type.__setattr__(Blank, name, value)
    for name in set(vars(Blank)) - set(_BLANK_CLASS):
        type.__delattr__(Blank, name)
    builtins.__ = VALUE_BLANK  # type: ignore[attr-defined]
    builtins.___ = TYPE_BLANK  # type: ignore[attr-defined]


def started_here(item: pytest.Item) -> bool:
    """Whether this process is the one that started ``item`` (not a fork of it)."""
    return getattr(item, "_koans_pid", os.getpid()) == os.getpid()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    restore_blanks()
    item._koans_pid = os.getpid()  # type: ignore[attr-defined]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    _running.append(os.getpid())
    os._exit = _guarded_exit  # type: ignore[assignment]
    pytest.exit = _guarded_pytest_exit  # type: ignore[assignment]
    try:
        yield
    finally:
        _running.pop()
        os._exit = _real_exit
        pytest.exit = _real_pytest_exit
        if not started_here(item):
            _real_exit(1)  # a fork of the koan's process: it must not report, nor run on
