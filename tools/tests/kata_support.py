"""Driving ``python tools/koans.py kata ...`` through a pseudo-terminal, for the katas' tests.

The runner under test sees a real terminal (so its clock ticks in a status line and it reads
keys line by line); the test reads everything it writes on a thread, and waits for the
machine-readable events it logs (``KOANS_EVENT_LOG``), never for fixed sleeps.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from koanrunner.checking import surgery

try:  # pseudo-terminals are POSIX: the tests that drive one skip elsewhere
    import fcntl
    import termios
except ImportError:
    fcntl = termios = None  # type: ignore[assignment]
from runner_support import REPO, RUNNER, Course, make_course

KATAS = REPO / "koans" / "katas"
ANSWER_KATAS = REPO / "answers" / "katas"


def make_kata_course(root: Path, names: list[str] | None = None) -> Course:
    """The runner tests' tiny course, plus the real katas (all, or those named)."""
    make_course(root)
    (root / "koans" / "katas").mkdir(parents=True)
    (root / "answers" / "katas").mkdir(parents=True)
    for base, target in ((KATAS, root / "koans" / "katas"), (ANSWER_KATAS, root / "answers" / "katas")):
        for entry in base.iterdir():
            if entry.name.startswith((".", "__")):
                continue
            if entry.is_dir() and (names is None or entry.name in names):
                shutil.copytree(entry, target / entry.name, ignore=shutil.ignore_patterns(
                    "__pycache__", ".hypothesis", ".benchmarks"))
            elif entry.is_file():
                shutil.copy2(entry, target / entry.name)
    return Course(root)


def written(stub: str, reference: str, steps: list[list[str] | dict[str, str]]) -> str:
    """The module as the pair has it after these steps: the reference (imports and helpers
    included) with the functions they name, or the code given for them, and the rest of what
    the stub leaves unwritten still a stub."""
    names = [name for step in steps if isinstance(step, list) for name in step]
    source = surgery.partial(stub, reference, names)
    for step in steps:
        if isinstance(step, dict):
            for name, code in step.items():
                source = surgery.splice(source, name, code)
    return source


class PtySession:
    """The runner on a pseudo-terminal (160 columns unless told): send it lines, read what it shows."""

    def __init__(self, course: Course, *args: str, columns: int = 160, **env: str) -> None:
        if termios is None or not hasattr(os, "openpty"):
            pytest.skip("a pseudo-terminal is POSIX-only: the kata's single keys and status line "
                        "are driven through one")
        leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        self.course = course
        self.proc = subprocess.Popen(
            [sys.executable, str(RUNNER), "--root", str(course.root), *args],
            stdin=follower, stdout=follower, stderr=follower, cwd=course.root,
            env=course.env(TERM="xterm", COLUMNS=str(columns), **env), start_new_session=True)
        os.close(follower)
        self.fd = leader
        self.chunks: list[bytes] = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.chunks.append(data)

    def output(self) -> str:
        with self.lock:
            return b"".join(self.chunks).decode(errors="replace")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def wait_for_event(self, match: Callable[[dict[str, Any]], bool], after: int = 0,
                       timeout: float = 180) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ended = self.proc.poll() is not None  # asked first: what it wrote before it ended counts
            for event in self.course.read_events()[after:]:
                if match(event):
                    return event
            if ended:
                break
            time.sleep(0.05)
        raise AssertionError(f"no matching event; events: {self.course.read_events()[after:]}\n"
                             f"--- the terminal ---\n{self.output()[-6000:]}")

    def wait_for_text(self, match: Callable[[str], bool], timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ended = self.proc.poll() is not None
            if ended:  # what it wrote before it ended may still be on its way from the terminal
                self.reader.join(timeout=5)
            text = self.output()
            if match(text):
                return text
            if ended:
                break
            time.sleep(0.05)
        raise AssertionError(f"the terminal never showed it:\n{self.output()[-6000:]}")

    def count(self) -> int:
        return len(self.course.read_events())

    def close(self, timeout: float = 60) -> int:
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            code = self.proc.wait(timeout=30)
        self.reader.join(timeout=10)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        with contextlib.suppress(OSError):
            os.close(self.fd)
