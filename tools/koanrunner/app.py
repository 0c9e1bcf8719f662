"""One learner session: the course, the store, the runner and the view, and what a step shows."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from .course import Course, align, answer_lines, blank_columns, koan_source, setting, test_name
from .path import Path, Stop, Walk, log_event, migrate_renamed
from .pristine import Pristine
from .progress import Store
from .running import Runner
from .view import Style, View

STUCK_RUNS = 3  # failed runs in a row without progress before a hint is offered unasked


@dataclass
class Shown:
    walk: Walk
    unasked_hint: bool
    event: dict[str, Any] | None = None  # the verdict, logged once it is remembered


class App:
    def __init__(self, root: FsPath, timeout: float, style: Style | None = None,
                 runner: Runner | None = None, show_values: bool = False) -> None:
        self.course = Course(root)
        self.show_values = show_values or setting(self.course.root, "show_values")
        self.store = Store(self.course.state_dir)
        if self.course.state_dir.parent != self.course.root:
            self.store.notes.append(f"you cannot write to {self.course.root}: the runner keeps your "
                                    f"progress in {self.course.state_dir} (copy the course to a "
                                    f"folder of your own to solve its koans)")
        if os.environ.get("PYTEST_ADDOPTS"):
            self.store.notes.append(f"PYTEST_ADDOPTS ({os.environ['PYTEST_ADDOPTS']}) is set; the "
                                    "runner ignores it for its own runs (plain pytest still "
                                    "takes it)")
        self.pristine = Pristine(self.course)
        self.runner = runner or Runner(self.course.root, timeout)
        self.view = View(style or Style())
        self.pristine.snapshot()
        self.path = Path(self.course, self.store, self.runner, self.pristine.known())
        migrate_renamed(self.course, self.store)
        for topic in self.path.topics():  # read every koan file now, while the server warms up
            for f in topic.files:
                f.test_names()

    def close(self) -> None:
        self.runner.close()

    # -- a step: walk, remember, show ----------------------------------------------------------

    def step(self, show_progress: bool = True, clear: bool = False) -> Shown:
        """Walk the path, remember what the runs said, and show where the learner stands. What
        is remembered is written once, when the step is over."""
        with self.store.batch():
            shown = self._step(show_progress, clear)
        if not shown.walk.cancelled:  # what the store could not do as the step ended (save)
            for note in self.store.notes:
                self.view.write(self.view.style(f"note: {note}", "yellow"))
            self.store.notes.clear()
        if shown.event is not None:
            log_event("verdict", **shown.event)
        return shown

    def _step(self, show_progress: bool, clear: bool) -> Shown:
        self.path.known = self.pristine.known() + self.pristine.snapshot()
        walk = self.path.walk()
        walk.notes += self.store.notes  # what the store could not do during the walk (save)
        self.store.notes.clear()
        if walk.cancelled:  # a newer save is waiting: nothing to show for this one
            return Shown(walk, False)
        stop = walk.stop
        start = str(self.store.read().get("start") or "").split("::")[0]
        if stop is not None and start and stop.file.rel < start and not stop.file.rel.startswith(start):
            walk.notes.append(f"from {start} on, every koan is solved or cannot run here: the path "
                              f"went round to the first unsolved koan before it (back to the "
                              f"beginning for good: python tools/koans.py goto start)")
        unasked = self._remember(stop)
        if clear:
            self.view.clear()
        for note in walk.notes:
            self.view.write(self.view.style(f"note: {note}", "yellow"))
        for f, key in walk.solved_now:
            self.show_answer(f, key, walk.pictures.get(key))
        data = self.store.read()
        rows = self.path.totals(data)
        if show_progress:
            self.view.progress([(r["topic"], r["title"], r["solved"], r["total"]) for r in rows],
                               stop.topic.name if stop else None)
        if stop is None:
            self.view.write()
            self.view.done()
        else:
            self._first_try_hides_the_value(stop, data)
            self._point_a_stop_at_the_blank(stop)
            self.show_koan(stop, rows)
            if unasked:
                self.hint(stop, unasked=True)
            self.view.next_steps(stop)
        event = {"koan": stop.key if stop else None, "kind": stop.koan.get("kind") if stop else None,
                 "solved": sum(r["solved"] for r in rows), "total": sum(r["total"] for r in rows),
                 "ran": walk.ran, "newly_solved": [k for _, k in walk.solved_now],
                 "unasked_hint": unasked}
        return Shown(walk, unasked, event)

    def _point_a_stop_at_the_blank(self, stop: Stop) -> None:
        """A koan stopped for its time was stopped wherever it happened to be: the next step
        is its blank, not that line (unless that line is a blank's)."""
        if stop.koan.get("kind") != "timeout" or not stop.name:
            return
        text, pristine = stop.file.read(), self.pristine.text(stop.file.rel)[0]
        if not text or not pristine:
            return
        found = align(pristine, text)
        lines = sorted(f.lineno for f in found.fills_of(stop.name)) if found else []
        if not lines:  # the koan's body was changed too: find its blank's line by its words
            source = koan_source(pristine, stop.name)
            rows = pristine.splitlines()
            blanks = [rows[n - 1] for n in range(source.first_line, source.last_line + 1)
                      if blank_columns(pristine, n)] if source else []
            if blanks:
                pattern = re.compile(r"\s*" + r".*".join(re.escape(part.strip()) for part in
                                                         re.split(r"_{2,3}", blanks[0])) + r"\s*$")
                lines = [n for n, row in enumerate(text.splitlines(), 1) if pattern.match(row)]
        if lines and int(stop.koan.get("line") or 0) not in lines:
            stop.koan["next_line"] = lines[0]

    def slow_note(self, rel: str) -> str:
        """Why a file may take a while: its slow koans (marked ``slow``: they start a process,
        compile, or wait on purpose)."""
        text = self.course.file(rel).read() or ""
        slow = text.count("mark.slow")
        return f": it has {slow} slow koan{'s' * (slow != 1)}, which start processes or compile" \
            if slow else ""

    def _first_try_hides_the_value(self, stop: Stop, data: dict[str, Any]) -> None:
        """At a koan's first wrong fill, say what kind of thing is wrong, not the value: the
        next try is still a prediction. The value shows from the second wrong fill on (or at
        once with --show-values, or "show_values": true in .koans/settings.json)."""
        brief = stop.koan.get("brief")
        tries = data["koans"].get(stop.key, {}).get("tries", [])
        if brief and not self.show_values and len(tries) < 2:
            stop.koan["message"] = brief

    def _remember(self, stop: Stop | None) -> bool:
        """Track runs without progress on the same koan; True when a hint is due unasked."""
        def change(data: dict[str, Any]) -> bool:
            if stop is None:
                data["current"] = None
                data["stuck"] = {"key": None, "runs": 0, "signature": None}
                return False
            data["current"] = {"key": stop.key, "file": stop.file.rel, "kind": stop.koan.get("kind")}
            signature = hashlib.sha1(str(stop.koan.get("message")).encode()).hexdigest()
            digest = stop.file.digest()
            stuck = data["stuck"]
            failed = stop.koan.get("kind") not in ("blank", "missing", "unknown")
            if stuck.get("key") != stop.key:
                data["stuck"] = stuck = {"key": stop.key, "runs": int(failed),
                                         "signature": signature, "digest": digest}
            elif failed and stuck.get("digest") != digest:  # a new attempt that failed again
                stuck["runs"] = int(stuck.get("runs", 0)) + 1
                stuck["digest"] = digest
            if stuck["runs"] >= STUCK_RUNS and stop.name:
                hints = self.course.hints(stop.file.topic, stop.name).get("hints", [])
                used = int(data["koans"].get(stop.key, {}).get("hints", 0))
                if used < len(hints):
                    stuck["runs"] = 0
                    return True
            return False

        return bool(self.store.update(change))

    def show_koan(self, stop: Stop, rows: list[dict[str, Any]]) -> None:
        text = stop.file.read()
        lesson = ""
        if text and stop.name:
            source = koan_source(text, stop.name)
            lesson = source.lesson if source else ""
        topic_solved = [r for r in rows if r["topic"] == stop.topic.name]
        fresh_topic = bool(topic_solved) and topic_solved[0]["solved"] == 0 and stop.koan.get("kind") == "blank"
        topic_lesson = self.course.lesson_of_topic(stop.topic.name) if fresh_topic else ""
        line = int(stop.koan.get("line") or 0)
        spans = blank_columns(text, line) if text and line else []
        self.view.koan(stop, text, lesson, topic_lesson, spans)

    def show_answer(self, f: Any, key: str, picture: dict[str, Any] | None = None) -> None:
        name = test_name(key)
        pristine, _ = self.pristine.text(f.rel)
        try:
            answer = f.answer_path.read_text(encoding="utf-8")
        except OSError:
            answer = None
        lines = answer_lines(pristine, answer, name)
        rel = f.answer_path.relative_to(self.course.root).as_posix()
        self.view.solved(name, rel, lines, picture)

    # -- hints ----------------------------------------------------------------------------------

    def current(self) -> Stop | None:
        """The koan on screen at the last run, or a fresh walk when none is remembered."""
        data = self.store.read()
        current = data.get("current")
        if current:
            f = self.course.file(current["file"])
            if f.exists():
                topic = next((t for t in self.path.topics() if t.name == f.topic), None)
                if topic is not None:
                    nodeid = "koans/" + current["key"] if "::" in current["key"] else current["file"]
                    return Stop(f, {"nodeid": nodeid, "kind": current.get("kind")}, topic)
        return self.path.walk().stop

    def hint(self, stop: Stop | None = None, unasked: bool = False) -> bool:
        stop = stop or self.current()
        if stop is None:
            self.view.done()
            return False
        if not stop.name:
            self.view.write(f"{stop.file.rel} does not load yet, so no koan in it can be hinted: "
                            "fix the line the message points at first.")
            return False
        broken = self.course.hints_error(stop.file.topic)
        if broken:
            rel = f"koans/{stop.file.topic}/hints.toml"
            self.view.write(f"{rel} does not parse ({broken}), so no hint can be read. Put the "
                            f"course's own back with: python tools/koans.py reset koans/{stop.file.topic} "
                            "(your koan files are backed up first; only what differs is touched)")
            return False
        hints = [str(h) for h in self.course.hints(stop.file.topic, stop.name).get("hints", [])]

        def bump(data: dict[str, Any]) -> int:
            entry = data["koans"].setdefault(stop.key, {"hints": 0})
            entry["hints"] = min(int(entry.get("hints", 0)) + 1, max(len(hints), 1))
            return int(entry["hints"])

        number = int(self.store.update(bump))
        self.view.hint(stop.name, number, hints, unasked=unasked)
        log_event("hint", koan=stop.key, number=number, unasked=unasked)
        return True
