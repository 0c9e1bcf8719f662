"""``kata TOPIC``: a pair works one topic against the clock in a scratch copy.

The workspace ``.koans/kata/TOPIC/`` gets the pristine koans of the topic, their answers, the
conftest and pyproject; the learner's own koans and progress are untouched. Each kata starts
fresh. The pair is told to swap driver and navigator every N minutes or every K solved koans,
and the kata ends (all solved, 'q' or Ctrl-C) with a summary: time per koan, hints used.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from .app import App
from .course import ANSWERS, Course, test_name
from .path import log_event
from .pristine import Pristine
from .view import Style
from .watch import loop


def prepare(course: Course, topic: str) -> tuple[Path, list[str]]:
    """A fresh workspace with the pristine topic. Returns it and any files it could not copy."""
    files = course.resolve(topic)
    if not files:
        raise LookupError(f"no topic matches {topic!r}; see `python tools/koans.py list`")
    name = files[0].topic
    files = [f for f in files if f.topic == name]
    pristine = Pristine(course)
    pristine.snapshot()
    workspace = course.state_dir / "kata" / name
    if workspace.exists():
        shutil.rmtree(workspace)
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
    return workspace, missing


class Clock:
    def __init__(self, app: App, swap_minutes: float, swap_koans: int, pair: list[str]) -> None:
        self.app = app
        self.swap_seconds = swap_minutes * 60
        self.swap_koans = swap_koans
        self.pair = pair or ["driver", "navigator"]
        self.start = self.last_swap = self.last_solve = time.monotonic()
        self.since_swap = 0
        self.swaps = 0
        self.times: dict[str, float] = {}
        self.order: list[str] = []
        self.done = False

    def elapsed(self) -> str:
        return _clock(time.monotonic() - self.start)

    def roles(self) -> str:
        driver = self.pair[self.swaps % len(self.pair)]
        navigator = self.pair[(self.swaps + 1) % len(self.pair)]
        return f"driver: {driver}, navigator: {navigator}"

    def swap(self, why: str) -> None:
        self.swaps += 1
        self.since_swap = 0
        self.last_swap = time.monotonic()
        style = self.app.view.style
        self.app.view.write(style(f"SWAP ({why}): {self.roles()}", "yellow", "bold"))
        log_event("swap", why=why, swaps=self.swaps)

    def after_step(self, shown: Any) -> bool:
        now = time.monotonic()
        for _f, key in shown.walk.solved_now:
            self.times[key] = now - self.last_solve
            self.order.append(key)
            self.last_solve = now
            self.since_swap += 1
        stop = shown.walk.stop
        self.app.view.write(self.app.view.style(
            f"kata {self.elapsed()}  {self.roles()}  swaps: {self.swaps}", "cyan"))
        if stop is None:
            self.done = True
            return True
        if self.swap_koans and self.since_swap >= self.swap_koans:
            self.swap(f"{self.since_swap} koan{'s' * (self.since_swap > 1)} solved")
        return False

    def tick(self) -> bool:
        if self.swap_seconds and time.monotonic() - self.last_swap >= self.swap_seconds:
            self.swap(f"{self.swap_seconds / 60:g} minutes")
        return False

    def summary(self) -> dict[str, Any]:
        data = self.app.store.read()
        rows = []
        for key, entry in sorted(data["koans"].items()):
            rows.append({"koan": key, "solved": entry.get("kind") == "passed",
                         "seconds": round(self.times.get(key, 0.0), 1),
                         "hints": int(entry.get("hints", 0))})
        rows.sort(key=lambda r: (self.order.index(r["koan"]) if r["koan"] in self.order else 1e9))
        return {"seconds": round(time.monotonic() - self.start, 1), "swaps": self.swaps,
                "finished": self.done, "koans": rows}


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes:02d}:{secs:02d}"


def run(course: Course, topic: str, *, swap_minutes: float, swap_koans: int, pair: list[str],
        timeout: float, style: Style) -> int:
    try:
        workspace, missing = prepare(course, topic)
    except LookupError as err:
        style.stream.write(f"{err}\n")
        return 2
    app = App(workspace, timeout, style)
    view = app.view
    for why in missing:
        view.write(style(f"note: {why}; left out of the kata", "yellow"))
    clock = Clock(app, swap_minutes, swap_koans, pair)
    rel = workspace.relative_to(course.root).as_posix()
    view.write(style(f"Kata on {workspace.name} in {rel}/ (your own koans are untouched). "
                     f"Start: {clock.roles()}", "bold"))
    log_event("kata-start", workspace=str(workspace))
    try:
        loop(app, on_tick=clock.tick, finished=clock.after_step)
    finally:
        app.close()
    summary = clock.summary()
    (workspace / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    view.write()
    view.write(style("Kata summary", "bold") + f"  {_clock(summary['seconds'])} in all, "
               f"{summary['swaps']} swaps" + ("" if summary["finished"] else " (stopped early)"))
    for row in summary["koans"]:
        state = "solved" if row["solved"] else "open"
        view.write(f"  {test_name(row['koan']).ljust(50)} {state:6}  "
                   f"{_clock(row['seconds']) if row['solved'] else '  -  '}  hints: {row['hints']}")
    view.write(style(f"Again from scratch: python tools/koans.py kata {workspace.name}", "dim"))
    log_event("kata-end", **summary)
    return 0
