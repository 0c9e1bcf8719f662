"""What the machine the koans run on can and cannot do: per-koan time limits, CUDA-marked koans
skipped with a reason where no GPU is visible, and the Hypothesis profile the koans run under."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    limit = item.config.getoption("koans_timeout")
    report = item.config.getoption("koans_json")
    if report:  # which koan runs now: the runner names it if it must kill the process
        with contextlib.suppress(OSError):
            Path(f"{report}.current").write_text(item.nodeid, encoding="utf-8")
    alarm = limit > 0 and hasattr(signal, "setitimer")
    watchdog = _watchdog(limit) if limit > 0 and not alarm else None
    if alarm:
        previous = signal.signal(signal.SIGALRM, _time_is_up(limit))
        signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if watchdog is not None:
            watchdog.cancel()


def _watchdog(limit: float) -> threading.Timer | None:
    """Where there is no SIGALRM (Windows): a timer thread that raises KoanTimeout in the
    koan's thread after ``limit`` seconds (at its next line of Python: a loop inside C runs
    on until the runner kills the process)."""
    import ctypes

    target = threading.get_ident()

    def raise_there() -> None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                   ctypes.py_object(KoanTimeout))

    timer = threading.Timer(limit, raise_there)
    timer.daemon = True
    timer.start()
    return timer


class KoanTimeout(Exception):
    """A koan ran past --koans-timeout: most likely an infinite loop or a deadlock."""

    def __init__(self, *args: object) -> None:
        super().__init__(*(args or ("this koan ran past its time limit: an infinite loop or a "
                                    "deadlock?",)))


def _time_is_up(limit: float) -> Any:
    def handler(signum: int, frame: Any) -> None:
        raise KoanTimeout(f"this koan ran longer than {limit:g} s: an infinite loop or a deadlock?")

    return handler



def pytest_collectstart(collector: pytest.Collector) -> None:
    """Before a koan file that uses Hypothesis is imported, load the koans' profile: ``@given``
    reads the default settings when it decorates, not when the test runs. (Not at module
    creation: pytest creates a Module for every sibling of the file it was asked to run.)"""
    if not isinstance(collector, pytest.Module):
        return
    try:
        uses_hypothesis = b"hypothesis" in collector.path.read_bytes()
    except OSError:
        return
    if uses_hypothesis:
        _load_hypothesis_profile()


@pytest.hookimpl(tryfirst=True)  # before the path view sorts untouched koans into blank or skipped
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cuda_items = [item for item in items if item.get_closest_marker("cuda")]
    if not cuda_items:
        return
    reason = cuda_missing_reason()
    if reason:
        for item in cuda_items:
            item.add_marker(pytest.mark.skip(reason=reason))


def cuda_missing_reason() -> str | None:
    """Why CUDA koans cannot run here, or None. ``torch.cuda.is_available()`` does not start
    CUDA, but it reaches the driver (through NVML where there is one, else through the CUDA
    runtime, which marks every later fork of this process as unable to use CUDA). So it is
    asked only in a run that collected a koan marked cuda: in the runner, that is a child run
    for one file, never the warm server that children are forked from
    (tools/tests/test_runner_cuda.py holds this)."""
    try:
        import torch
    except ImportError:
        return "needs torch with a CUDA GPU: torch is not installed (pip install -e '.[torch]')"
    if not torch.cuda.is_available():
        return "needs a CUDA GPU: torch.cuda.is_available() is False on this machine"
    return None


_profile_loaded: list[bool] = []


def _load_hypothesis_profile() -> None:
    """Register and load the 'koans' Hypothesis profile, only for runs that use hypothesis
    (the runner must not pay for importing it on topics that never do)."""
    if _profile_loaded:
        return
    from hypothesis import HealthCheck, Phase, settings

    common: dict[str, Any] = {
        "deadline": None,
        "print_blob": False,
        "report_multiple_bugs": False,
        "suppress_health_check": [HealthCheck.too_slow],
    }
    # No "explain" phase: it re-runs a failing koan about a hundred times to annotate which
    # parts of the shrunk example matter (~0.2 s); the shrunk example itself is still shown.
    quick: dict[str, Any] = {"phases": [phase for phase in Phase if phase.name != "explain"]}
    settings.register_profile("koans", derandomize=True, database=None, max_examples=50,
                              **quick, **common)
    settings.register_profile("ci", derandomize=True, database=None, max_examples=100,
                              **quick, **common)
    settings.register_profile("explore", max_examples=2000, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "koans"))
    _profile_loaded.append(True)


