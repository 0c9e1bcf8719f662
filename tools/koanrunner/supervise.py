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
    limit = max(timeout * 2, 10.0)  # import and collection may import heavy modules
    deadline = time.monotonic() + limit
    timed_out = False
    while not done:
        wait = deadline - time.monotonic()
        if wait <= 0:
            timed_out = True
            break
        watched = [rfd] + ([requests] if requests is not None else [])
        ready, _, _ = select.select(watched, [], [], wait)
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
                deadline = time.monotonic() + timeout
            elif kind == "report":
                verdicts[event["nodeid"]] = event
                running = None
                deadline = time.monotonic() + limit
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
            what = "this koan" if running else "importing this file"
            seconds = timeout if running else limit
            head = (f"{rel}:{line}: {what} ran for more than {seconds:g} s and was stopped: "
                    "an infinite loop, or a deadlock?")
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
