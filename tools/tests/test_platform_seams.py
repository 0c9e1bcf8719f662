"""What runs on macOS and Windows, driven here through its seams: the kqueue watcher with a fake
kqueue, the Windows console's keys with a fake msvcrt, and watch mode's wait with keys that must
be polled (select takes only sockets on Windows)."""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest
from types import SimpleNamespace

from koanrunner.keys import Keys
from koanrunner.watch import KqueueWatcher, PollWatcher, wait
import contextlib


class FakeKqueue:
    """select.kqueue's shape: a descriptor that becomes readable when an event is queued."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        self.registered: list[tuple[int, int, int]] = []

    def fileno(self) -> int:
        return self.read_fd

    def control(self, changes, max_events, timeout=None):
        for event in changes or []:
            self.registered.append(event)
        if max_events:
            os.set_blocking(self.read_fd, False)
            with contextlib.suppress(BlockingIOError):
                os.read(self.read_fd, 4096)
        return []

    def fire(self) -> None:
        os.write(self.write_fd, b"!")

    def close(self) -> None:
        os.close(self.read_fd)
        os.close(self.write_fd)


def fake_select(kq: FakeKqueue) -> SimpleNamespace:
    return SimpleNamespace(kqueue=lambda: kq, KQ_FILTER_VNODE=-4, KQ_EV_ADD=1, KQ_EV_CLEAR=0x20,
                           kevent=lambda fd, filter, flags, fflags: (fd, filter, fflags))


def course(tmp_path: Path) -> Path:
    base = tmp_path / "koans"
    (base / "01_topic").mkdir(parents=True)
    (base / "01_topic" / "test_01_x.py").write_text("x = 1\n")
    return base


@pytest.mark.skipif(sys.platform == "win32", reason="the fake kqueue is a pipe, which select "
                    "cannot wait on under Windows")
def test_kqueue_watches_the_folders_and_files_and_wakes_on_a_save(tmp_path: Path) -> None:
    base = course(tmp_path)
    kq = FakeKqueue()
    watcher = KqueueWatcher(base, kqueue=fake_select(kq))
    try:
        assert watcher.kind == "kqueue" and watcher.fileno() == kq.read_fd
        watched = set(watcher.fds)
        assert {str(base), str(base / "01_topic"), str(base / "01_topic" / "test_01_x.py")} <= watched
        assert len(kq.registered) == len(watched)
        koan = base / "01_topic" / "test_01_x.py"
        time.sleep(0.01)
        koan.write_text("x = 22\n")
        kq.fire()
        changed, key = wait(watcher, 5.0)
        assert changed == {str(koan)} and key is False
        new = base / "01_topic" / "test_02_y.py"
        new.write_text("y = 1\n")
        kq.fire()
        changed, _ = wait(watcher, 5.0)
        assert str(new) in changed and str(new) in watcher.fds  # a new file is watched from now on
    finally:
        watcher.close()


class FakeConsole:
    def __init__(self, typed: str) -> None:
        self.typed = list(typed)

    def kbhit(self) -> bool:
        return bool(self.typed)

    def getwch(self) -> str:
        return self.typed.pop(0)


def test_the_windows_console_gives_one_key_at_a_time() -> None:
    keys = Keys(io.StringIO(), msvcrt=FakeConsole("h\r"), windows=True)
    assert keys.mode == "console" and keys.selectable() is None
    assert keys.wait_ready(1.0)
    assert [keys.read(), keys.read()] == ["h", "r"]  # Enter re-runs, as on a POSIX terminal
    assert not keys.ready()
    keys.restore()


def test_watch_polls_console_keys_and_files_without_select_on_stdin(tmp_path: Path) -> None:
    base = course(tmp_path)
    watcher = PollWatcher(base)
    keys = Keys(io.StringIO(), msvcrt=FakeConsole("q"), windows=True)
    changed, key = wait(watcher, 2.0, keys)
    assert key is True and changed == set()
    keys.read()
    started = time.monotonic()
    changed, key = wait(watcher, 0.3, keys)
    assert (changed, key) == (set(), False) and time.monotonic() - started >= 0.25


def test_without_sigalrm_a_watchdog_stops_a_python_loop() -> None:
    import pytest
    from koanrunner.plugin.environment import KoanTimeout, _watchdog

    timer = _watchdog(0.2)
    started = time.monotonic()
    with pytest.raises(KoanTimeout, match="time limit"):
        while time.monotonic() - started < 30:
            pass
    assert time.monotonic() - started < 10
    timer.cancel()


def test_without_fork_watch_gives_a_verdict_and_a_save_cancels_a_run(course_dir=None) -> None:
    """The no-fork runner (what Windows runs), here with KOANS_NO_FORK=1: a verdict per save,
    and a save while a koan loops for ever cancels that run instead of waiting it out."""
    import tempfile

    from runner_support import NUMBERS_FILE, Course, make_course

    course = Course(make_course(Path(tempfile.mkdtemp()) / "course"))
    proc = course.popen("watch", "--timeout", "600", KOANS_NO_FORK="1")
    try:
        first = course.wait_for(lambda e: e["event"] == "verdict", proc=proc, timeout=120)
        assert first["kind"] == "blank"
        n = len(course.read_events())
        course.edit(NUMBERS_FILE, "    assert 1 + 1 == __", "    while True:\n        pass")
        course.wait_for(lambda e: e["event"] == "run-start", after=n, proc=proc, timeout=120)
        time.sleep(1.0)
        n = len(course.read_events())
        course.edit(NUMBERS_FILE, "    while True:\n        pass", "    assert 1 + 1 == 2")
        cancelled = course.wait_for(lambda e: e["event"] == "run-end", after=n - 5, proc=proc, timeout=60)
        assert cancelled["cancelled"] is True
        verdict = course.wait_for(lambda e: e["event"] == "verdict" and "indexing" in str(e.get("koan")),
                                  after=n, proc=proc, timeout=120)
        assert verdict["kind"] == "blank"
    finally:
        proc.kill()
        proc.wait(timeout=30)
