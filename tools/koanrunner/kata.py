"""``kata NAME``: a pair at the keyboard, a clock, and swaps of driver and navigator.

NAME is one of two things:

- a kata under ``koans/katas/`` (``01_ieee754``, ``ieee754``, ``katas/01``): the pair builds a
  small program test-first, one step revealed at a time (``buildkata``);
- a topic (``03``, ``03_text_and_bytes``): the pair replays the topic's koans against the clock,
  in a scratch copy (below).

Both work in a workspace under ``.koans/kata/``: the learner's own koans and progress are never
touched. Running a kata again starts afresh; the previous workspace is moved aside (to
``.koans/kata/.previous/``), never deleted. Both end ('q', Ctrl-C, or everything solved) with an
honest summary, saved as ``summary.json`` in the workspace.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import IO, Any

from .app import App
from .course import ANSWERS, Course, test_name
from .path import log_event
from .pristine import Pristine
from .view import RUNNER, Style, View
from .watch import loop

DEFAULT_NAMES = ("A", "B")


# ---------------------------------------------------------------------------------------------
# What both kinds of kata share: the pair, the clock, the status line, paths, workspaces


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


# ---------------------------------------------------------------------------------------------
# Which kind of kata a NAME means


def run(course: Course, name: str | None, *, swap_minutes: float, swap_koans: int | None,
        pair: list[str], timeout: float, style: Style) -> int:
    """``kata NAME``: a kata folder builds that kata; a topic replays it; nothing lists both."""
    from . import buildkata

    if not name:
        return buildkata.list_katas(course, style)
    folder = buildkata.find(course, name)
    if folder is not None:
        return buildkata.run(course, folder, swap_minutes=swap_minutes,
                             swap_steps=1 if swap_koans is None else swap_koans, pair=pair,
                             timeout=timeout, style=style)
    if name.strip("/").split("/")[0] == "katas":
        style.stream.write(f"No kata matches {name!r}. The katas: {RUNNER} kata\n")
        return 2
    return replay(course, name, swap_minutes=swap_minutes,
                  swap_koans=0 if swap_koans is None else swap_koans, pair=pair, timeout=timeout,
                  style=style)


# ---------------------------------------------------------------------------------------------
# Replaying a topic's koans against the clock


def prepare(course: Course, topic: str) -> tuple[Path, list[str], Path | None]:
    """A fresh workspace with the pristine topic. Returns it, the files it could not copy, and
    where an earlier workspace of the topic was moved."""
    files = course.resolve(topic)
    if not files:
        raise LookupError(f"no kata or topic matches {topic!r}; the katas: {RUNNER} kata, "
                          f"the topics: {RUNNER} list")
    name = files[0].topic
    files = [f for f in files if f.topic == name]
    pristine = Pristine(course)
    pristine.snapshot()
    workspace, moved = fresh_workspace(course, name)
    (workspace / "koans" / name).mkdir(parents=True)
    for support in ("conftest.py", "pyproject.toml"):
        if (course.root / support).is_file():
            shutil.copy2(course.root / support, workspace / support)
    for extra in ("README.md", "hints.toml"):
        source = course.koans_dir / name / extra
        if source.is_file():
            shutil.copy2(source, workspace / "koans" / name / extra)
    missing = []
    for f in files:
        text, why = pristine.text(f.rel)
        if text is None:
            missing.append(why)
            continue
        (workspace / f.rel).write_text(text, encoding="utf-8")
    answers = course.root / ANSWERS / name
    if answers.is_dir():
        shutil.copytree(answers, workspace / ANSWERS / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return workspace, missing, moved


class KataView(View):
    """The learner's view, for a topic replayed in a workspace: real paths (every ``koans/...``
    and ``answers/...`` it prints becomes the workspace's, as the pair can open it from where
    they stand) and the kata's own keys and commands."""

    ask_again = "press h again."

    PATHS = re.compile(r"(?<![./\w-])(\x1b\[[0-9;]*m)?((?:koans|answers)/)")

    def __init__(self, style: Style, workspace: Path, status: StatusLine) -> None:
        super().__init__(style)
        self.workspace = workspace
        self.prefix = shown(workspace)
        self.status = status

    def write(self, text: str = "") -> None:
        self.status.clear()
        super().write(self.PATHS.sub(lambda m: f"{m.group(1) or ''}{self.prefix}/{m.group(2)}", text))

    def clear(self) -> None:
        self.status.clear()
        super().clear()

    def next_steps(self, stop: Any) -> None:
        s = self.style
        self.write()
        line = stop.koan.get("line") or ""
        where = stop.file.rel + (f" line {line}" if line else "")
        self.write(f"Next: edit {s(where, 'bold')} and save: the kata re-runs by itself.")
        self.write(s("      keys: h hint · s swap now · l list · r re-run · q quit (and the "
                     "summary)", "dim"))

    def done(self) -> None:
        self.write(self.style("Every koan of the kata is solved.", "green", "bold"))


class Clock:
    """The replay's clock: time per koan, swaps every N minutes or K solved koans."""

    def __init__(self, app: App, swap_minutes: float, swap_koans: int, pair: Pair,
                 status: StatusLine) -> None:
        self.app = app
        self.swap_seconds = swap_minutes * 60
        self.swap_koans = swap_koans
        self.pair = pair
        self.status = status
        self.start = self.last_swap = self.last_solve = time.monotonic()
        self.since_swap = 0
        self.times: dict[str, float] = {}
        self.order: list[str] = []
        self.current: str | None = None
        self.done = False

    @property
    def swaps(self) -> int:
        return self.pair.swaps

    def elapsed(self) -> str:
        return clock(time.monotonic() - self.start)

    def line(self) -> str:
        text = f"kata {self.elapsed()} · {self.pair.roles()} · swaps: {self.swaps}"
        if self.swap_seconds:
            left = self.swap_seconds - (time.monotonic() - self.last_swap)
            text += f" · swap in {clock(left)}"
        return text

    def swap(self, why: str) -> None:
        self.pair.swap()
        self.since_swap = 0
        self.last_swap = time.monotonic()
        style = self.app.view.style
        self.app.view.write(style(f"SWAP ({why}): {self.pair.roles()}", "yellow", "bold"))
        log_event("swap", why=why, swaps=self.swaps, driver=self.pair.driver,
                  navigator=self.pair.navigator)
        self.status.draw(self.line())

    def after_step(self, shown_step: Any) -> bool:
        now = time.monotonic()
        for _f, key in shown_step.walk.solved_now:
            self.times[key] = now - self.last_solve
            self.order.append(key)
            self.last_solve = now
            self.since_swap += 1
        stop = shown_step.walk.stop
        self.current = stop.key if stop is not None else None
        if not self.status.live:
            self.app.view.write(self.app.view.style(self.line(), "cyan"))
        if stop is None:
            self.done = True
            return True
        if self.swap_koans and self.since_swap >= self.swap_koans:
            self.swap(f"{self.since_swap} koan{'s' * (self.since_swap > 1)} solved")
        self.status.draw(self.line())
        return False

    def tick(self) -> bool:
        if self.swap_seconds and time.monotonic() - self.last_swap >= self.swap_seconds:
            self.swap(f"{self.swap_seconds / 60:g} minutes")
        self.status.draw(self.line())
        return False

    def on_command(self, command: str) -> bool:
        if command in ("s", "swap"):
            self.swap("asked for")
            return True
        return False

    def summary(self) -> dict[str, Any]:
        """The koans the pair reached, in the order reached: each one solved during the kata,
        then the one on screen at the end. Koans never reached are counted, not listed."""
        data = self.app.store.read()
        rows = []
        for key in self.order:
            entry = data["koans"].get(key, {})
            rows.append({"koan": key, "solved": True, "seconds": round(self.times.get(key, 0.0), 1),
                         "hints": int(entry.get("hints", 0))})
        if self.current is not None and self.current not in self.order:
            entry = data["koans"].get(self.current, {})
            rows.append({"koan": self.current, "solved": False,
                         "seconds": round(time.monotonic() - self.last_solve, 1),
                         "hints": int(entry.get("hints", 0))})
        total = sum(r["total"] for r in self.app.path.totals(data))
        return {"kind": "replay", "seconds": round(time.monotonic() - self.start, 1),
                "swaps": self.swaps, "pair": self.pair.names, "finished": self.done, "koans": rows,
                "not_reached": max(total - len(rows), 0)}


def replay(course: Course, topic: str, *, swap_minutes: float, swap_koans: int, pair: list[str],
           timeout: float, style: Style) -> int:
    try:
        workspace, missing, moved = prepare(course, topic)
    except LookupError as err:
        style.stream.write(f"{err}\n")
        return 2
    status = StatusLine(style.stream)
    app = App(workspace, timeout, style)
    view = app.view = KataView(style, workspace, status)
    for why in missing:
        view.write(style(f"note: {why}; left out of the kata", "yellow"))
    the_pair = Pair(pair)
    clock_ = Clock(app, swap_minutes, swap_koans, the_pair, status)
    view.write(style(f"Kata: the koans of {workspace.name}, in {shown(workspace)}/ (your own "
                     f"koans and progress are untouched). {the_pair.roles()}", "bold"))
    if not the_pair.named:
        view.write(style(f"Name yourselves: {RUNNER} kata {workspace.name} --pair ana,bo", "dim"))
    if moved is not None:
        view.write(style(f"The last kata's workspace is kept in {shown(moved)}/", "dim"))
    log_event("kata-start", kind="replay", workspace=str(workspace), topic=workspace.name)
    try:
        loop(app, on_tick=clock_.tick, on_command=clock_.on_command, finished=clock_.after_step)
    finally:
        status.clear()
        app.close()
    summary = clock_.summary()
    target = save_summary(workspace, summary)
    view.write()
    solved = sum(row["solved"] for row in summary["koans"])
    view.write(style("Kata summary", "bold") + f"  {clock(summary['seconds'])} in all, {solved} "
               f"koan{'s' * (solved != 1)} solved, {summary['swaps']} swap"
               f"{'s' * (summary['swaps'] != 1)}" + ("" if summary["finished"] else " (stopped early)"))
    for row in summary["koans"]:
        state = "solved" if row["solved"] else "open"
        spent = clock(row["seconds"])
        view.write(f"  {test_name(row['koan']).ljust(50)} {state:6}  {spent}  hints: {row['hints']}")
    if summary["not_reached"]:
        view.write(f"  ... and {summary['not_reached']} koan(s) not reached")
    view.write(f"Saved for the pair: {shown(target)}")
    view.write(style(f"Again from scratch: {RUNNER} kata {workspace.name}", "dim"))
    log_event("kata-end", summary_path=str(target), **summary)
    sys.stdout.flush()
    return 0
