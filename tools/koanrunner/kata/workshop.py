"""A facilitator's view of a workshop: ``kata --summary DIR...`` gathers the ``summary.json``
each pair's session saved (in its kata workspace) into one table: time per step, swaps, hints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .session import clock


def gather(places: list[str]) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """Each summary found (a summary.json, or a folder holding one anywhere below it) and, for
    each place that holds none or cannot be read, why."""
    found: list[tuple[str, dict[str, Any]]] = []
    problems: list[str] = []
    for place in places:
        path = Path(place)
        files = [path] if path.is_file() else sorted(path.rglob("summary.json")) if path.is_dir() else []
        if not files:
            problems.append(f"{place}: no summary.json there")
        for file in files:
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                problems.append(f"{file}: cannot be read ({err})")
                continue
            if isinstance(data, dict):
                found.append((str(file), data))
    return found, problems


def table(found: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """One row per pair, then one per step of each kata: seconds per step for each pair."""
    rows = [f"{'pair':24} {'kata':22} {'time':>6} {'green':>7} {'swaps':>5} {'hints':>5}"]
    for _, data in found:
        pair = ",".join(str(n) for n in data.get("pair", [])) or "?"
        kata = str(data.get("kata") or data.get("kind") or "?")
        green = f"{data.get('green', sum(bool(k.get('solved')) for k in data.get('koans', [])))}" \
                f"/{data.get('total', len(data.get('koans', [])))}"
        rows.append(f"{pair[:24]:24} {kata[:22]:22} {clock(float(data.get('seconds', 0))):>6} "
                    f"{green:>7} {int(data.get('swaps', 0)):>5} {int(data.get('hints', 0)):>5}")
    by_kata: dict[str, list[dict[str, Any]]] = {}
    for _, data in found:
        if data.get("kind") == "build":
            by_kata.setdefault(str(data.get("kata")), []).append(data)
    for kata, runs in by_kata.items():
        pairs = [",".join(str(n) for n in run.get("pair", [])) or "?" for run in runs]
        rows += ["", f"{kata}: time per step", f"  {'step':44} " + " ".join(f"{p[:9]:>9}" for p in pairs)]
        steps: list[dict[str, Any]] = max((run.get("steps", []) for run in runs), key=len, default=[])
        for index, step in enumerate(steps):
            cells = []
            for run in runs:
                mine = run.get("steps", [])[index] if index < len(run.get("steps", [])) else {}
                cells.append(clock(float(mine.get("seconds", 0))) if mine.get("state") == "green"
                             else str(mine.get("state", "-"))[:9])
            name = str(step.get("step") or f"step {step.get('number')}")
            rows.append(f"  {name[:44]:44} " + " ".join(f"{c:>9}" for c in cells))
    return rows
