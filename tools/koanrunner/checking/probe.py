"""The checker's pytest plugin, loaded with ``-p`` into the checking process and its xdist
workers: a time limit per test (``KOANS_CHECK_LIMIT`` seconds; SIGALRM where there is one, else
the engine's limit on the whole process) and, for the tests of one module
(``KOANS_CHECK_TRACE``: a file), the functions of it each test called, as ``traced`` in the
report's ``user_properties``."""

from __future__ import annotations

import ast
import os
import signal
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

LIMIT = "KOANS_CHECK_LIMIT"
TRACE = "KOANS_CHECK_TRACE"


class CheckTimeout(Exception):
    """A test ran past the checker's limit: an infinite loop in a variant?"""


def owners(source: str) -> dict[int, str]:
    """Each line of a module -> the qualname of the function or method it belongs to."""
    found: dict[int, str] = {}
    tree = ast.parse(source)
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        inner = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))] \
            if isinstance(node, ast.ClassDef) else []
        for qual, fn in [(node.name, node)] + [(f"{node.name}.{n.name}", n) for n in inner]:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = min([fn.lineno] + [d.lineno for d in fn.decorator_list])
            for line in range(first, (fn.end_lineno or fn.lineno) + 1):
                if "." in qual or line not in found:
                    found[line] = qual
    return found


_traced: dict[str, list[str]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    limit = float(os.environ.get(LIMIT) or 0)
    alarm = limit > 0 and hasattr(signal, "setitimer")
    if alarm:
        def time_is_up(signum: int, frame: Any) -> None:
            raise CheckTimeout(f"the test ran for more than {limit:g} s")

        previous = signal.signal(signal.SIGALRM, time_is_up)
        signal.setitimer(signal.ITIMER_REAL, limit)
    target = os.environ.get(TRACE)
    tracing = bool(target) and Path(str(item.path)).parent == Path(str(target)).parent
    used: set[str] = set()
    if tracing:
        lines = owners(Path(str(target)).read_text(encoding="utf-8"))
        wanted = os.path.normcase(str(target))

        def profile(frame: Any, event: str, arg: Any) -> None:
            if event == "call" and os.path.normcase(frame.f_code.co_filename) == wanted:
                owner = lines.get(frame.f_code.co_firstlineno)
                if owner:
                    used.add(owner)

        sys.setprofile(profile)
    try:
        yield
    finally:
        if tracing:
            sys.setprofile(None)
            _traced[item.nodeid] = sorted(used)
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    if call.when == "call" and item.nodeid in _traced:
        outcome.get_result().user_properties.append(("traced", _traced.pop(item.nodeid)))
