"""What both kinds of kata share: the pair, the clock, the status line, keys, paths,
workspaces and summaries."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import IO, Any

from ..course import Course

DEFAULT_NAMES = ("A", "B")


class Pair:
    """Who drives and who navigates. Without names the two are A and B."""

    def __init__(self, names: list[str]) -> None:
        self.named = len(names) >= 2
        self.names = list(names) if self.named else [*names[:1], *DEFAULT_NAMES[len(names):]]
        self.swaps = 0

    @property
    def driver(self) -> str:
        return self.names[self.swaps % len(self.names)]

    @property
    def navigator(self) -> str:
        return self.names[(self.swaps + 1) % len(self.names)]

    def roles(self) -> str:
        return f"driver: {self.driver}, navigator: {self.navigator}"

    def swap(self) -> None:
        self.swaps += 1


class StatusLine:
    """The last line of a terminal, rewritten in place each second (carriage return, the text,
    erase to the end of the line: nothing is cleared first, so nothing flickers). Anything else
    written must call ``clear`` first. Off the terminal (a pipe, a file), it shows nothing."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"
        self.shown = ""

    def draw(self, text: str) -> None:
        if not self.live:
            return
        width = shutil.get_terminal_size((100, 24)).columns - 1
        text = text[:max(width, 20)]
        if text == self.shown:
            return
        self.stream.write("\r" + text + "\033[K")
        self.stream.flush()
        self.shown = text

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = ""


def clock(seconds: float) -> str:
    minutes, secs = divmod(int(max(seconds, 0)), 60)
    return f"{minutes:02d}:{secs:02d}"


def shown(path: Path) -> str:
    """A path as the pair can type it from where they are: relative to the current folder when
    it lies inside it, else absolute."""
    path = Path(path)
    with contextlib.suppress(ValueError, OSError):
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    return str(path)


def fresh_workspace(course: Course, name: str) -> tuple[Path, Path | None]:
    """``.koans/kata/NAME``, empty. A workspace left by an earlier kata is moved aside to
    ``.koans/kata/.previous/NAME-STAMP``: what a pair wrote is never deleted."""
    workspace = course.state_dir / "kata" / name
    moved = None
    if workspace.exists():
        stamp = time.strftime("%Y%m%d-%H%M%S")
        moved = course.state_dir / "kata" / ".previous" / f"{name}-{stamp}"
        n = 1
        while moved.exists():
            n += 1
            moved = moved.with_name(f"{name}-{stamp}-{n}")
        moved.parent.mkdir(parents=True, exist_ok=True)
        for path in workspace.rglob("*"):  # steps are read-only in a workspace
            with contextlib.suppress(OSError):
                path.chmod(path.stat().st_mode | 0o200)
        os.replace(workspace, moved)
        prune(moved.parent, name)
    workspace.mkdir(parents=True)
    return workspace, moved


KEEP = 5  # earlier attempts of a kata kept in .previous/, the newest


def prune(previous: Path, name: str) -> list[Path]:
    """Keep the newest KEEP earlier attempts of kata ``name``; returns what was removed."""
    import shutil

    attempts = sorted((p for p in previous.glob(f"{name}-*") if p.is_dir()),
                      key=lambda p: p.stat().st_mtime)
    gone = attempts[:-KEEP] if len(attempts) > KEEP else []
    for path in gone:
        shutil.rmtree(path, ignore_errors=True)
    return gone


class Lock:
    """One session per kata workspace: an exclusive lock on ``.koans/kata/.NAME.lock``, held
    while the session runs and released by the operating system when its process ends, however
    it ends. A second session is told which process holds it."""

    def __init__(self, state_dir: Path, name: str) -> None:
        self.path = state_dir / "kata" / f".{name}.lock"
        self.handle: Any = None

    def acquire(self) -> str | None:
        """None once held; else who holds it (a process id, as the holder wrote it)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the session
        try:
            if sys.platform == "win32":
                import msvcrt

                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            return holder
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle
        return None

    def release(self) -> None:
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.handle.close()
            self.handle = None


STATE = ".session.json"


def load_state(workspace: Path) -> dict[str, Any] | None:
    """What a session left in its workspace to resume from (None: nothing, or unreadable)."""
    try:
        data = json.loads((workspace / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == 1 else None


def save_state(workspace: Path, state: dict[str, Any]) -> None:
    """Written whole or not at all; a workspace that is gone keeps nothing."""
    with contextlib.suppress(OSError):
        tmp = workspace / f".session.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(dict(state, version=1), indent=1), encoding="utf-8")
        os.replace(tmp, workspace / STATE)


def save_summary(workspace: Path, summary: dict[str, Any]) -> Path:
    target = workspace / "summary.json"
    tmp = target.with_name(f".summary.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    os.replace(tmp, target)
    return target


class Lines:
    """Commands a line at a time (where watch mode's single keys are not available)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def read(self) -> str:
        return str(self.stream.readline())

    def restore(self) -> None:
        pass


def keys(stream: Any) -> Any:
    """Single keys on a terminal (as in watch mode), else a line at a time."""
    from .. import watch

    single = getattr(watch, "_SingleKeys", None)
    return single(stream) if single is not None else Lines(stream)


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def no_workspace(course: Course, err: OSError, style: Any) -> int:
    """A workspace that cannot be made (a read-only course or state folder): where and why."""
    where = err.filename or course.state_dir / "kata"
    style.stream.write(f"The kata cannot make its workspace: {where}: {err.strerror or err}. "
                       "Run it from a copy of the course you can write to.\n")
    return 2
