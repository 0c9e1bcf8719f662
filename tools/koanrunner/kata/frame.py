"""What a test-first kata shows: the frame drawn after each run (the steps as marks, the first
red step with its lesson, its code, what went wrong and what the pair's code printed), the
status line, the swap banner and the summary at the end."""

from __future__ import annotations

import re
import time
from typing import Any

from ..view import RUNNER
from .session import clock, count, save_summary, shown
from .steps import KATAS, STEPS

OUTPUT_ROWS = 12  # lines of the pair's own output shown under a red step


def real(kata: Any, text: str) -> str:
    """Paths in a message (relative to the workspace) as the pair can open them."""
    names = [STEPS] + ([kata.module.name] if kata.module else [])
    pattern = r"(?<![\w./])(" + "|".join(re.escape(n) for n in names) + r")(?=:\d)"
    return re.sub(pattern, lambda m: f"{kata.prefix}/{m.group(1)}", text)


def status_text(kata: Any) -> str:
    now = time.monotonic()
    current = kata.current
    text = f"kata {clock(now - kata.start)}"
    if current is not None and current.revealed is not None:
        text += f" · step {current.number}/{len(kata.steps)} for {clock(now - current.revealed)}"
    text += f" · {kata.pair.roles()}"
    if kata.swap_seconds:
        text += f" · swap in {clock(kata.swap_seconds - (now - kata.last_swap))}"
    return text + " · h hint, s swap, q quit"


def swap_banner(kata: Any, why: str) -> str:
    bell = "\a" if kata.status.live else ""
    arrows = "⇄ " if kata.style.unicode else ""
    return kata.style(f"{arrows}SWAP ({why}): {kata.pair.driver} drives now, "
                      f"{kata.pair.navigator} navigates ({kata.pair.roles()})",
                      "yellow", "bold") + bell


def show(kata: Any, newly: list[Any], swapped: str = "") -> None:
    s = kata.style
    if kata.status.live and s.color:
        kata.status.clear()
        kata.out.write("\033[2J\033[H")
    kata.write(s(f"Kata {kata.name}", "bold") + f": {kata.title}")
    marks = []
    current = kata.current
    for step in kata.steps:
        if step.name in kata.passing:
            marks.append(s(f"✓{step.number}" if s.unicode else f"+{step.number}", "green"))
        elif step is current:
            marks.append(s(f"●{step.number}" if s.unicode else f"*{step.number}", "red", "bold"))
        else:
            marks.append(s(f"·{step.number}" if s.unicode else f".{step.number}", "dim"))
    kata.write(f"steps {' '.join(marks)}   {len(kata.passing)} of {len(kata.steps)} green")
    if kata.kept:  # said in every frame: the first redraw must not wipe it
        kata.write(s(kata.kept, "dim"))
    for step in newly:
        tick = "✓" if s.unicode else "ok"
        kata.write(s(f"{tick} step {step.number} is green ({clock(step.seconds(time.monotonic()))}): "
                     f"{step.name}", "green", "bold"))
    if swapped:
        kata.write(swap_banner(kata, swapped))
    if current is None:
        kata.write()
        kata.write(s("Every step is green: the kata is done.", "green", "bold"))
        reference = kata.course.root / "answers" / KATAS / kata.name
        if kata.module and (reference / kata.module.name).is_file():
            kata.write(f"Compare with the reference: {shown(reference / kata.module.name)}")
        return
    broken = kata.verdict.broken
    if current.green is not None and broken is None:
        kata.write(s(f"step {current.number} was green and is red again: what changed?",
                     "red", "bold"))
    kata.write()
    kata.write(s.rule(f"step {current.number} of {len(kata.steps)}: {current.name}"))
    for row in current.lesson.splitlines():
        kata.write("  " + row)
    kata.write()
    rows = kata.steps_text.splitlines()
    for number in range(current.first_line, current.last_line + 1):
        if current.skip_lines and current.skip_lines[0] <= number <= current.skip_lines[1]:
            continue
        line = rows[number - 1] if number <= len(rows) else ""
        kata.write(s(f"  {str(number).rjust(4)} | ", "dim") + line)
    kata.write()
    red = broken or kata.verdict.red
    if red is None:
        kata.write(s("  not run: the run stopped before this step (see .koans/logs/ in the "
                     "workspace)", "red"))
    else:
        message = real(kata, str(red.get("message") or "")).replace("this koan ran", "this step ran")
        lines = message.splitlines() or [str(red.get("kind"))]
        label = {"stub": "still a stub", "wrong": "red", "error": "red: an error",
                 "broken": "your module does not load", "timeout": "stopped: it ran too long",
                 "crashed": "Python crashed"}.get(str(red.get("kind")), "red")
        kata.write(f"  {s(label, 'red', 'bold')}  " + s(lines[0], "red"))
        for row in lines[1:]:
            kata.write("  " + row)
        printed = str(red.get("output") or "").rstrip().splitlines()
        if printed:  # what the pair's code printed while the step ran
            kata.write(s("  what your code printed:", "dim"))
            for row in printed[-OUTPUT_ROWS:]:
                kata.write("    " + row)
    where = shown(kata.module) if kata.module else kata.prefix
    kata.write()
    kata.write(f"Next: make it pass in {s(where, 'bold')} and save: the steps re-run by "
               "themselves.")
    kata.write(s("      keys: h hint · s swap now · l steps · r re-run · q quit (and the "
                 "summary)", "dim"))
    if not kata.status.live:
        kata.write(s(status_text(kata), "cyan"))


def report(kata: Any) -> dict[str, Any]:
    summary = kata.summary()
    target = save_summary(kata.workspace, summary)
    s = kata.style
    kata.write()
    kata.write(s(f"Kata summary: {kata.name}", "bold") + f"  {clock(summary['seconds'])} in all, "
               f"{summary['green']} of {summary['total']} steps green, "
               f"{count(summary['swaps'], 'swap')}, {count(summary['hints'], 'hint')}"
               + ("" if summary["finished"] else " (stopped early)"))
    width = max(len(step.name) for step in kata.steps) if kata.steps else 20
    for row in summary["steps"]:
        name = row["step"] or "(not revealed yet)"
        spent = clock(row["seconds"]) if row["state"] != "not revealed" else "  -  "
        driver = f"  green with {row['driver']} driving" if row["driver"] else ""
        kata.write(f"  {str(row['number']).rjust(2)}. {name.ljust(width)}  {row['state']:12} "
                   f"{spent}  hints: {row['hints']}{driver}")
    kata.write(f"Saved for the pair: {shown(target)}")
    kata.write(s(f"Your code is in {shown(kata.module) if kata.module else kata.prefix}. "
                 f"Again from scratch: {RUNNER} kata {kata.name}", "dim"))
    summary["summary_path"] = str(target)
    return summary


