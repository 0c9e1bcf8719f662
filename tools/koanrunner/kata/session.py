"""What both kinds of kata share: the pair, the clock, the status line, keys, paths,
workspaces and summaries."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
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
    workspace.mkdir(parents=True)
    return workspace, moved


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
