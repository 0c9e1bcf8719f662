"""Watching one child run a koan file: its verdicts as they stream in, the per-koan time
limit (a stack dump finds the learner's line, then the child's group is killed), a cancel
request from the learner's process, and what a crash or a broken session looks like."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import time
from pathlib import Path
from typing import Any

FAULT_LINE = re.compile(r'File "(?P<file>.+)", line (?P<line>\d+)')


LOAD_LIMIT = 10.0  # seconds of CPU time importing and collecting a file may take, at least
SLOW_FACTOR = 3.0  # a koan marked slow or cuda may run this many times the limit
SLOW_MARKS = {"slow", "cuda"}
WALL_SLACK = 4.0  # wall-clock seconds allowed per second of the CPU limit (waits, load)


def cpu_seconds(pid: int) -> float | None:
    """The CPU time the process ``pid`` and its reaped children have used (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Clock:
    """The time a child's current stage (a koan, or loading the file) may take."""

    def __init__(self, pid: int, limit: float) -> None:
        self.pid = pid
        self.restart(limit)

    def restart(self, limit: float) -> None:
        self.limit = limit
        self.wall0 = time.monotonic()
        self.cpu0 = cpu_seconds(self.pid)

    def poll(self) -> float:
        return 0.25 if self.cpu0 is not None else max(self.limit - (time.monotonic() - self.wall0), 0.01)

    def over(self) -> str:
        """Why the stage must stop now ('' while it may go on)."""
        wall = time.monotonic() - self.wall0
        if self.cpu0 is None:
            return (f"ran for more than {self.limit:g} s and was stopped (the limit for a koan; "
                    "a slow one gets more): an infinite loop, or a deadlock?") if wall > self.limit else ""
        cpu = cpu_seconds(self.pid)
        if cpu is not None and cpu - self.cpu0 > self.limit:
            return (f"used more than {self.limit:g} s of CPU time and was stopped (the limit "
                    "for this koan; a slow one gets more): an infinite loop?")
        if wall > self.limit * WALL_SLACK:
            used = f"{cpu - self.cpu0:.1f}" if cpu is not None else "?"
            return (f"ran for more than {self.limit * WALL_SLACK:g} s ({used} s of them on the "
                    "CPU) and was stopped: an infinite loop on a busy machine, or a wait that "
                    "never ends (a deadlock)?")
        return ""


def empty_run(rel: str) -> dict[str, Any]:
    return {"file": rel, "koans": [], "broken": None, "skipped": None, "elapsed": 0.0}


def _koan_line(text: str, path: Path) -> int:
    """The innermost line of ``path`` in a faulthandler dump (the current thread first)."""
    target = os.path.normcase(str(path))
    blocks = re.split(r"\n(?=(?:Current thread|Thread) 0x)", text)
    blocks.sort(key=lambda block: not block.startswith("Current thread"))
    for block in blocks:
        for match in FAULT_LINE.finditer(block):
            if os.path.normcase(match["file"]) == target:
                return int(match["line"])
    return 0


def _source_line(path: Path, line: int) -> str:
    try:
        rows = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return rows[line - 1].strip() if 0 < line <= len(rows) else ""


def supervise(pid: int, rfd: int, root: Path, rel: str, timeout: float, log_path: str,
              started: float, requests: Any = None) -> dict[str, Any]:
    """Watch the child ``pid`` run ``rel``: enforce the per-koan timeout, collect its verdicts.
    A ``cancel`` request arriving meanwhile (the learner saved again) stops the child at once."""
    result = empty_run(rel)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    running: str | None = None
    collected: list[str] = []
    verdicts: dict[str, dict[str, Any]] = {}
    done = False
    exit_code = 0
    buffer = b""
    # A koan is stopped for its own time only: CPU time where the kernel tells it (a busy loop),
    # and a wall-clock time WALL_SLACK times longer (a wait that never ends), so that a loaded
    # machine never stops a koan that is merely slow. A `slow` or `cuda` koan gets SLOW_FACTOR
    # times the limit; importing and collecting the file gets at least LOAD_LIMIT.
    clock = Clock(pid, max(timeout * 2, LOAD_LIMIT))
    timed_out = ""
    while not done:
        timed_out = clock.over()
        if timed_out:
            break
        watched = [rfd] + ([requests] if requests is not None else [])
        ready, _, _ = select.select(watched, [], [], clock.poll())
        if requests is not None and requests in ready:
            raw = requests.readline()
            if not raw or json.loads(raw).get("op") in ("cancel", "quit"):
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(rfd)
                result["cancelled"] = True
                result["elapsed"] = time.monotonic() - started
                return result
        if rfd not in ready:
            continue
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            event = json.loads(raw)
            kind = event.pop("ev")
            if kind == "collected":
                collected = event["nodeids"]
            elif kind == "start":
                running = event["nodeid"]
                clock.restart(timeout)
            elif kind == "marks":
                if SLOW_MARKS & set(event.get("marks", [])):
                    clock.restart(timeout * SLOW_FACTOR)
            elif kind == "report":
                verdicts[event["nodeid"]] = event
                running = None
                clock.restart(max(timeout * 2, LOAD_LIMIT))
                if collected and all(n in verdicts for n in collected):
                    done = True  # every verdict is in: the child's teardown is not waited for
                    break
            elif kind == "broken":
                result["broken"] = event
            elif kind == "skipped":
                result["skipped"] = event["reason"]
            elif kind == "done":
                done = True
                exit_code = int(event.get("code", 0))
            elif kind == "internal":
                result["internal"] = event["message"]
    dump = ""
    if timed_out:
        with contextlib.suppress(OSError):
            size = os.path.getsize(log_path)
            os.kill(pid, signal.SIGUSR1)
            end = time.monotonic() + 5.0  # returns as soon as the dump lands
            while time.monotonic() < end and os.path.getsize(log_path) == size:
                time.sleep(0.01)
            time.sleep(0.05)
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(rfd)
    log_dir = Path(log_path).parent
    with contextlib.suppress(OSError):
        with open(log_path, encoding="utf-8", errors="replace") as handle:
            dump = handle.read()
        os.replace(log_path, log_dir / "last-run.log")
    path = root / rel
    if timed_out or not done:
        line = _koan_line(dump, path)
        code = _source_line(path, line)
        if timed_out:
            what = f"the koan {running.split('::')[-1]}" if running else "importing this file"
            head = f"{rel}:{line}: {what} {timed_out}"
            kind = "timeout"
        else:
            sig = -1
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
            name = signal.Signals(sig).name if sig > 0 else f"exit status {os.WEXITSTATUS(status)}"
            head = f"{rel}:{line}: Python stopped abruptly ({name}) while running this"
            kind = "crashed"
        message = head + (f"\n    {code}" if code else "")
        verdict = {"kind": kind, "file": rel, "line": line, "message": message}
        if running:
            verdicts[running] = dict(nodeid=running, **verdict)
        elif result["broken"] is None and not collected:
            result["broken"] = dict(nodeid=rel, **verdict)
        elif result["broken"] is None:
            after = [n for n in collected if n not in verdicts]
            if after:
                verdicts[after[0]] = dict(nodeid=after[0], **verdict)
    elif exit_code not in (0, 1, 5) and not verdicts and result["broken"] is None:
        # pytest stopped before any koan: a broken conftest.py or pyproject.toml, say
        reason = next((row[1:].strip() for row in reversed(dump.splitlines())
                       if row.startswith("E ")), "")
        where = next((row.strip() for row in dump.splitlines()
                      if "while loading conftest" in row or "ERROR:" in row), "")
        message = f"{rel}: pytest stopped before running any koan (exit status {exit_code})"
        message += "".join(f"\n    {text}" for text in (where, reason) if text)
        message += "\n    (the whole output: .koans/logs/last-run.log)"
        result["broken"] = {"nodeid": rel, "kind": "broken", "file": rel, "line": 0,
                            "message": message}
    order = collected or list(verdicts)
    silent = (f"{rel}: pytest ran this file but gave no verdict: the course's pytest plugin did "
              "not load (is conftest.py at the course root intact? git checkout conftest.py)")
    stopped = (f"{rel}: the run stopped before this koan (the whole output: "
               ".koans/logs/last-run.log)")
    result["koans"] = [
        verdicts.get(n) or {"nodeid": n, "kind": "unknown", "file": rel, "line": 0,
                            "message": silent if not verdicts else stopped}
        for n in order
    ]
    result["elapsed"] = time.monotonic() - started
    return result
