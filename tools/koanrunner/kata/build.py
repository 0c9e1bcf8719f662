"""A kata that builds a small program test-first: ``kata 01_ieee754``.

A kata is a folder under ``koans/katas/``: the stub module the pair writes, ``test_steps.py``
(the steps, in order), a README with the task, and hints. The runner copies them into a
workspace, ``.koans/kata/NN_name/``, and the pair edits the stub there. On every save the steps
run in a warm pytest server and only the first red step is shown: its lesson, its code and what
went wrong. The next step is revealed when it goes green (the TDD rhythm). A clock ticks in the
status line; on each green step (or every K) and every N minutes the pair is told to swap driver
and navigator. 'q' or Ctrl-C (or the last step going green) ends the kata with a summary: time
per step, swaps, hints; it is saved as ``summary.json`` in the workspace.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..course import Course, KoanFile
from ..keys import Keys
from ..path import log_event
from ..view import RUNNER, Style
from ..watch import make_watcher, wait
from . import frame
from .session import Lock, Pair, StatusLine, clock, load_state, no_workspace, save_state, shown
from .steps import STEPS, Step, StepRunner, module_of, prepare, read_hints, read_steps, title_of

TIMEOUT_FACTOR = 2  # a step may run twice a koan's time: Hypothesis steps run a hundred examples
RED = ("stub", "wrong", "error", "timeout", "crashed", "broken", "unknown", "changed")


@dataclass
class Verdict:
    kinds: dict[str, str] = field(default_factory=dict)  # step -> kind
    red: dict[str, Any] | None = None  # the first step that is not green, as reported
    broken: dict[str, Any] | None = None


class BuildKata:
    def __init__(self, course: Course, folder: Path, workspace: Path, *, swap_minutes: float,
                 swap_steps: int, pair: list[str], timeout: float, style: Style,
                 state: dict[str, Any] | None = None) -> None:
        self.course = course
        self.folder = folder
        self.name = folder.name
        self.workspace = workspace
        self.style = style
        self.out = style.stream
        self.status = StatusLine(self.out)
        self.pair = Pair(pair)
        self.swap_seconds = swap_minutes * 60
        self.swap_steps = swap_steps
        self.title = title_of(folder)
        self.module = module_of(workspace)
        self.steps_path = workspace / STEPS
        self.steps_text = self.steps_path.read_text(encoding="utf-8")
        self.steps = read_steps(self.steps_path)
        self.hints = read_hints(workspace)
        self.runner = StepRunner(workspace, timeout * TIMEOUT_FACTOR)
        self.runner.SLOW = 2.0  # Hypothesis steps take their time: say so only when it is long
        self.needs = KoanFile(workspace, STEPS).needs()
        self.start = self.last_swap = time.monotonic()
        self.greens_since_swap = 0
        self.swaps: list[dict[str, Any]] = []
        self.verdict = Verdict()
        self.passing: set[str] = set()  # the steps the last run that got to the steps passed
        self.finished = False
        self.gone = False  # the workspace was deleted while the kata ran
        self.prefix = shown(workspace)
        self.kept = ""  # where the last attempt was moved, said in every frame
        if state:
            self.resume(state, pair)

    # -- carrying on where a session stopped -----------------------------------------------------

    def resume(self, state: dict[str, Any], pair: list[str]) -> None:
        """The clock, the steps' times, the swaps and the pair as the last session left them."""
        now = time.monotonic()
        elapsed = float(state.get("elapsed", 0.0))
        self.start = now - elapsed
        self.last_swap = now - (elapsed - float(state.get("last_swap", 0.0)))
        if not pair and state.get("pair"):
            self.pair = Pair([str(n) for n in state["pair"]])
        self.pair.swaps = int(state.get("swaps_done", 0))
        self.swaps = [s for s in state.get("swaps", []) if isinstance(s, dict)]
        saved = state.get("steps", {})
        for step in self.steps:
            row = saved.get(step.name) if isinstance(saved, dict) else None
            if not isinstance(row, dict):
                continue
            step.revealed = self.start + row["revealed"] if row.get("revealed") is not None else None
            step.green = self.start + row["green"] if row.get("green") is not None else None
            step.hints, step.driver = int(row.get("hints", 0)), str(row.get("driver") or "")

    def state(self) -> dict[str, Any]:
        def at(t: float | None) -> float | None:
            return None if t is None else round(t - self.start, 2)

        return {"kata": self.name, "elapsed": round(time.monotonic() - self.start, 2),
                "last_swap": at(self.last_swap), "pair": self.pair.names,
                "swaps_done": self.pair.swaps, "swaps": self.swaps,
                "steps": {s.name: {"revealed": at(s.revealed), "green": at(s.green),
                                   "hints": s.hints, "driver": s.driver} for s in self.steps}}

    def save(self) -> None:
        if self.workspace.is_dir():
            save_state(self.workspace, self.state())

    # -- reading the kata -----------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        """The step on screen: the first one the last run did not pass (a step that was green
        and broke again comes first)."""
        return next((s for s in self.steps if s.name not in self.passing), None)

    # -- output -----------------------------------------------------------------------------------

    def write(self, text: str = "") -> None:
        self.status.clear()
        self.out.write(text + "\n")
        self.out.flush()

    def tick(self) -> None:
        if self.swap_seconds and time.monotonic() - self.last_swap >= self.swap_seconds:
            minutes = self.swap_seconds / 60
            self.swap(f"{minutes:g} minute{'s' * (minutes != 1)}")
        self.status.draw(frame.status_text(self))

    def swap(self, why: str, announce: bool = True) -> None:
        """Driver and navigator change places (announced here, or by the frame being drawn)."""
        self.pair.swap()
        self.last_swap = time.monotonic()
        self.greens_since_swap = 0
        if announce:
            self.write(frame.swap_banner(self, why))
        self.swaps.append({"at": round(time.monotonic() - self.start, 1), "why": why,
                           "driver": self.pair.driver, "navigator": self.pair.navigator})
        log_event("swap", why=why, swaps=self.pair.swaps, driver=self.pair.driver,
                  navigator=self.pair.navigator)
        self.status.draw(frame.status_text(self))

    # -- a run ------------------------------------------------------------------------------------

    def check(self) -> None:
        """Run the steps, record what went green, show the first red step."""
        if not (self.workspace / STEPS).is_file():
            self.gone = self.finished = True
            self.write(self.style(f"The workspace {self.prefix}/ is gone (deleted while the kata "
                                  "ran?): there is nothing left to run. Start again with: "
                                  f"{RUNNER} kata {self.name} --fresh", "red", "bold"))
            return None
        if self._steps_changed():
            return self.check()
        result = self.runner.run(STEPS, self.needs)
        while result.get("cancelled"):  # saved again while the steps ran: run the new code
            self.write(self.style("saved again: running the steps on the new code", "dim"))
            result = self.runner.run(STEPS, self.needs)
        now = time.monotonic()
        verdict = Verdict(broken=result.get("broken"))
        for row in result.get("koans", []):
            name = str(row.get("step") or str(row.get("nodeid", "")).split("::")[-1])
            verdict.kinds[name] = str(row.get("kind"))
            if verdict.red is None and row.get("kind") in RED:
                verdict.red = dict(row, step=name)
        if result.get("internal"):
            verdict.broken = {"kind": "internal", "line": 0,
                              "message": f"the runner hit an internal problem: {result['internal']}"}
        newly = []
        if verdict.broken is None:
            self.passing = set()
            for step in self.steps:
                if verdict.kinds.get(step.name) != "passed":
                    break
                self.passing.add(step.name)
                if step.green is None:
                    if step.revealed is None:
                        step.revealed = now
                    step.green = now
                    step.driver = self.pair.driver
                    newly.append(step)
        current = self.current
        if current is not None and current.revealed is None:
            current.revealed = now
        self.verdict = verdict
        self.finished = current is None
        swapped = ""
        if newly and not self.finished:
            self.greens_since_swap += len(newly)
            if self.swap_steps and self.greens_since_swap >= self.swap_steps:
                last = newly[-1]
                swapped = (f"step {last.number} is green" if len(newly) == 1 else
                           f"steps {newly[0].number}-{last.number} are green")
        if swapped:
            self.swap(swapped, announce=False)  # the frame below announces it
        frame.show(self, newly, swapped)
        for step in newly:
            log_event("kata-green", kata=self.name, step=step.name, number=step.number,
                      seconds=round(step.seconds(now), 2), driver=step.driver)
        log_event("kata-verdict", kata=self.name,
                  green=[s.name for s in self.steps if s.name in self.passing],
                  step=current.name if current else None, number=current.number if current else None,
                  kind=(verdict.broken or verdict.red or {}).get("kind") if current else "passed",
                  newly_green=[s.name for s in newly])
        self.status.draw(frame.status_text(self))
        self.save()
        return None

    def _steps_changed(self) -> bool:
        """The steps are the kata's: if they were edited, keep the pair's version beside them
        and put the kata's back (a step passed against edited steps would prove nothing)."""
        try:
            text = self.steps_path.read_text(encoding="utf-8")
        except OSError:  # gone since it was looked for: the workspace is being deleted
            return False
        if text == self.steps_text:
            return False
        keep = self.workspace / "test_steps.py.yours"
        try:
            keep.write_text(text, encoding="utf-8")
            self.steps_path.chmod(0o644)
            self.steps_path.write_text(self.steps_text, encoding="utf-8")
            self.steps_path.chmod(0o444)
        except OSError:  # the workspace went while it was mended: the next check says so
            return False
        self.write(self.style(f"note: {STEPS} is the kata's and was put back; your version is "
                              f"in {shown(keep)}. Write your code in "
                              f"{shown(self.module) if self.module else 'the module'}.", "yellow"))
        return True

    # -- commands ---------------------------------------------------------------------------------

    def hint(self) -> None:
        step = self.current
        if step is None:
            self.write("Every step is green: no hint needed.")
            return
        hints = self.hints.get(step.name, [])
        if not hints:
            self.write(f"No hints are written for {step.name}. Read its lesson and its asserts again.")
            return
        step.hints = min(step.hints + 1, len(hints))
        self.write(self.style(f"Hint {step.hints} of {len(hints)}", "yellow", "bold")
                   + f" for step {step.number}:")
        for row in hints[step.hints - 1].strip().splitlines():
            self.write("  " + row)
        more = "press h again for a closer one" if step.hints < len(hints) else "that was the last hint"
        self.write(self.style(f"  ({more})", "dim"))
        log_event("hint", kata=self.name, step=step.name, number=step.hints)

    def list_steps(self) -> None:
        now = time.monotonic()
        for step in self.steps:
            if step.name in self.passing:
                state = f"green  {clock(step.seconds(now))}"
            elif step is self.current:
                state = f"red    {clock(step.seconds(now))}"
            else:
                state = "not revealed yet"
            name = step.name if step.revealed is not None else "?"
            self.write(f"  {str(step.number).rjust(2)}. {name.ljust(60)} {state}")

    def command(self, line: str) -> bool:
        """Act on a line typed; True to end the kata."""
        command = line.strip().lower()
        if command in ("q", "quit", "exit"):
            return True
        if command in ("h", "hint"):
            self.hint()
        elif command in ("s", "swap"):
            self.swap("asked for")
        elif command in ("l", "list", "steps"):
            self.list_steps()
        elif command in ("", "r", "run"):
            self.check()
        else:
            self.write("keys: h hint · s swap now · l steps · r re-run · q quit")
        return False

    # -- the loop and the summary ----------------------------------------------------------------

    def loop(self) -> None:
        watcher = make_watcher(self.workspace.parent)
        keys = Keys(sys.stdin)  # on a terminal, as in watch mode: one key acts, no Enter

        def interrupt() -> bool:
            """A save while the steps run (an endless loop, say) starts them over."""
            return any(self._ours(path) for path in watcher.changes())

        def slow(rel: str) -> None:
            self.write(self.style(f"running the steps ... (save again to start over; a step may "
                                  f"run {self.runner.timeout:g} s, a slow one longer)", "dim"))

        self.runner.interrupt, self.runner.slow = interrupt, slow
        try:
            self.runner.start()
            self.check()
            while not self.finished:
                now = time.monotonic() - self.start
                until_tick = 1.0 - (now % 1.0) + 0.01 if self.status.live else 1.0
                changed, ready = wait(watcher, until_tick, keys if keys.mode != "none" else None)
                if ready:
                    line = keys.read()
                    if not line:
                        keys.mode = "none"  # the end of input: no more keys to wait for
                    elif self.command(line):
                        return
                if any(self._ours(path) for path in changed):
                    self.check()
                self.tick()
        finally:
            self.runner.interrupt = self.runner.slow = None
            keys.restore()
            watcher.close()
            self.save()

    def _ours(self, path: str) -> bool:
        p = Path(path)
        return (p.parent == self.workspace and p.suffix in (".py", ".toml")) or p == self.steps_path

    def summary(self) -> dict[str, Any]:
        now = time.monotonic()
        rows = []
        for step in self.steps:
            state = "green" if step.name in self.passing else (
                "red" if step.revealed is not None else "not revealed")
            rows.append({"number": step.number, "step": step.name if step.revealed is not None else None,
                         "state": state, "seconds": round(step.seconds(now), 1), "hints": step.hints,
                         "driver": step.driver or None})
        return {"kind": "build", "kata": self.name, "title": self.title,
                "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(time.time() - (now - self.start))),
                "seconds": round(now - self.start, 1), "finished": self.finished,
                "pair": self.pair.names, "swaps": len(self.swaps), "swap_log": self.swaps,
                "hints": sum(step.hints for step in self.steps),
                "green": len(self.passing),
                "total": len(self.steps), "steps": rows}

def run(course: Course, folder: Path, *, swap_minutes: float, swap_steps: int, pair: list[str],
        timeout: float, style: Style, fresh: bool = False, hard: bool = False) -> int:
    """A pair's session at a kata: one at a time per workspace (a lock), carrying on where the
    last one stopped (same code, steps and clock) unless ``fresh``."""
    lock = Lock(course.state_dir, folder.name)
    try:
        holder = lock.acquire()
    except OSError as err:
        return no_workspace(course, err, style)
    if holder is not None:
        style.stream.write(f"The kata {folder.name} is open in another terminal (process {holder}): "
                           "carry on there, or quit it (q) first. Only one session may write to "
                           "a kata's workspace.\n")
        return 2
    try:
        return _session(course, folder, swap_minutes=swap_minutes, swap_steps=swap_steps, pair=pair,
                        timeout=timeout, style=style, fresh=fresh, hard=hard)
    finally:
        lock.release()


def _session(course: Course, folder: Path, *, swap_minutes: float, swap_steps: int,
             pair: list[str], timeout: float, style: Style, fresh: bool, hard: bool) -> int:
    workspace = course.state_dir / "kata" / folder.name
    state = None if fresh else load_state(workspace)
    moved = None
    if state is None:
        try:
            workspace, moved = prepare(course, folder, hard=hard)
        except OSError as err:
            return no_workspace(course, err, style)
    kata = BuildKata(course, folder, workspace, swap_minutes=swap_minutes, swap_steps=swap_steps,
                     pair=pair, timeout=timeout, style=style, state=state)
    s = style
    kata.write(s(f"Kata {kata.name}: {kata.title}", "bold"))
    if state is not None:
        kata.write(f"Carrying on in {shown(workspace)}/ where you stopped ({frame.clock(float(state.get('elapsed', 0)))} "
                   f"in). From scratch instead: {RUNNER} kata {kata.name} --fresh")
        if hard:
            kata.write(s("(--hard takes effect with --fresh: your code is kept as it is)", "dim"))
    else:
        kata.write(f"Workspace: {shown(workspace)}/ (a scratch copy: your own koans and progress are "
                   "untouched). The task is in its README.md.")
    kata.write(f"{len(kata.steps)} steps, revealed one at a time. {kata.pair.roles()}.")
    if not kata.pair.named:
        kata.write(s(f"Name yourselves: {RUNNER} kata {kata.name} --pair ana,bo", "dim"))
    if moved is not None:
        kata.kept = f"The last attempt is kept in {shown(moved)}/"
    log_event("kata-start", kind="build", kata=kata.name, workspace=str(workspace),
              module=str(kata.module), steps=len(kata.steps), resumed=state is not None)
    try:
        kata.loop()
    except KeyboardInterrupt:
        kata.write()
        kata.write("Stopped.")
    finally:
        kata.status.clear()
        kata.runner.close()
    if kata.gone:
        log_event("kata-end", kata=kata.name, gone=True)
        return 1
    summary = frame.report(kata)
    log_event("kata-end", **summary)
    return 0
