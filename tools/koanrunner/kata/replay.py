"""Replaying a topic's koans against the clock: ``kata 03``.

The pair solves the pristine koans of a topic in a scratch copy under ``.koans/kata/``, with the
learner's own runner (path, watch, hints), a clock and swaps of driver and navigator.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from ..app import App
from ..course import ANSWERS, Course, test_name
from ..path import log_event
from ..pristine import Pristine
from ..view import RUNNER, Style, View
from ..watch import loop
from .session import Lock, Pair, StatusLine, clock, fresh_workspace, no_workspace, save_summary, shown


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
            minutes = self.swap_seconds / 60
            self.swap(f"{minutes:g} minute{'s' * (minutes != 1)}")
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
           timeout: float, style: Style, fresh: bool = False) -> int:
    """A topic replayed by a pair: one session per workspace (a lock); a second run carries on
    with the koans as the pair left them, unless ``fresh``."""
    files = course.resolve(topic)
    name = files[0].topic if files else topic
    lock = Lock(course.state_dir, name)
    try:
        holder = lock.acquire()
    except OSError as err:
        return no_workspace(course, err, style)
    if holder is not None:
        style.stream.write(f"The kata {name} is open in another terminal (process {holder}): carry "
                           "on there, or quit it (q) first.\n")
        return 2
    try:
        return _replay(course, topic, name, swap_minutes=swap_minutes, swap_koans=swap_koans,
                       pair=pair, timeout=timeout, style=style, fresh=fresh)
    finally:
        lock.release()


def _replay(course: Course, topic: str, name: str, *, swap_minutes: float, swap_koans: int,
            pair: list[str], timeout: float, style: Style, fresh: bool) -> int:
    workspace = course.state_dir / "kata" / name
    resumed = not fresh and (workspace / "koans" / name).is_dir()
    missing: list[str] = []
    moved = None
    if not resumed:
        try:
            workspace, missing, moved = prepare(course, topic)
        except LookupError as err:
            style.stream.write(f"{err}\n")
            return 2
        except OSError as err:
            return no_workspace(course, err, style)
    status = StatusLine(style.stream)
    app = App(workspace, timeout, style)
    view = app.view = KataView(style, workspace, status)
    for why in missing:
        view.write(style(f"note: {why}; left out of the kata", "yellow"))
    the_pair = Pair(pair)
    clock_ = Clock(app, swap_minutes, swap_koans, the_pair, status)
    view.write(style(f"Kata: the koans of {workspace.name}, in {shown(workspace)}/ (your own "
                     f"koans and progress are untouched). {the_pair.roles()}", "bold"))
    if resumed:
        view.write(style(f"Carrying on with the koans as you left them. From scratch: {RUNNER} "
                         f"kata {workspace.name} --fresh", "dim"))
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
    view.write(style(f"Carry on later: {RUNNER} kata {workspace.name}   (from scratch: --fresh)",
                     "dim"))
    log_event("kata-end", summary_path=str(target), **summary)
    sys.stdout.flush()
    return 0
