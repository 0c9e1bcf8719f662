"""The one checking engine: write variants of a course's files, run pytest over them in a fresh
process, and read back every test's verdict; plus the findings every check reports.

A *variant* is whatever a check wants to prove fails (or passes): a koan with its fill replaced
by a wrong value, a misconception typed at a blank, a kata's module with one function swapped
for a wrong implementation. The checks write their variants into a scratch course (``Scratch``)
and ``run`` them; the verdicts come from the course's own plugins (``koan`` and ``kata`` in each
report's ``user_properties``), recorded by ``Recorder`` in the checking process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..course import copy_support
from .probe import LIMIT, TRACE

TOOLS = Path(__file__).resolve().parents[2]  # tools/, where the koanrunner package lives
WORKER_TIMEOUT = float(os.environ.get("KOANS_CHECK_WORKER_TIMEOUT", "3600"))


# --------------------------------------------------------------------------------------------
# Findings


class Breach(NamedTuple):
    where: str
    what: str
    fix: str

    def __str__(self) -> str:
        return f"BREACH {self.where}: {self.what}\n       fix: {self.fix}"


@dataclass
class Report:
    breaches: list[Breach] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    coins: dict[str, tuple[int, int]] = field(default_factory=dict)
    coin_list: list[str] = field(default_factory=list)

    def breach(self, where: str, what: str, fix: str) -> None:
        self.breaches.append(Breach(where, what, fix))

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


def first_line(verdict: dict[str, Any]) -> str:
    return (str(verdict.get("message") or "").strip().splitlines() or ["(no message)"])[0]


# --------------------------------------------------------------------------------------------
# Scratch courses


@contextmanager
def scratch(root: Path | None = None, prefix: str = "koans-check-") -> Iterator[Path]:
    """A temporary folder; with ``root``, a course pytest runs like ``root`` (its conftest, its
    pytest configuration and the koanrunner package)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        base = Path(tmp)
        if root is not None:
            copy_support(root, base)
        yield base


def write(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = base / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


# --------------------------------------------------------------------------------------------
# Running: pytest in a fresh process, the verdicts back


@dataclass
class Results:
    verdicts: dict[str, dict[str, Any]]  # nodeid -> the plugin's verdict
    files: dict[str, dict[str, Any]]  # a file that failed to collect, or skipped whole
    traced: dict[str, list[str]]  # nodeid -> functions of the traced module it called
    error: str = ""  # the run gave no results at all: why

    def of(self, path: str, test: str) -> dict[str, Any]:
        """A test's verdict; for parametrized tests the worst of its cases; a file-level skip or
        collection error stands for every test of the file."""
        nodeid = f"{path}::{test}"
        if nodeid in self.verdicts:
            return self.verdicts[nodeid]
        cases = [row for key, row in self.verdicts.items() if key.startswith(nodeid + "[")]
        if cases:
            failing = [row for row in cases if row["kind"] not in ("passed", "skipped")]
            return failing[0] if failing else cases[0]
        return self.files.get(path, {"kind": "missing", "message": "pytest did not run it"})


def run(cwd: Path, args: list[str], *, jobs: int = 1, limit: float = 60.0,
        trace: Path | None = None, env: dict[str, str] | None = None) -> Results:
    """``pytest ARGS`` in ``cwd``, in a fresh process (``-n jobs`` where jobs > 1), each test
    stopped after ``limit`` seconds; with ``trace``, which functions of that module each test
    of its folder called. Never raises for what pytest does: ``Results.error`` says."""
    with tempfile.TemporaryDirectory(prefix="koans-check-run-") as tmp:
        out = Path(tmp) / "out.json"
        argv = ["-p", "no:cacheprovider", "-p", "no:randomly", "-p", "koanrunner.checking.probe",
                "-q", "--no-header", "-o", "console_output_style=classic", *args]
        if jobs > 1:
            argv += ["-n", str(jobs)]
        job = {"args": argv, "out": str(out)}
        (Path(tmp) / "job.json").write_text(json.dumps(job), encoding="utf-8")
        environ = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
        environ[LIMIT] = f"{limit:g}"
        environ["PYTHONPATH"] = os.pathsep.join(
            [str(TOOLS), *filter(None, [environ.get("PYTHONPATH")])])
        if trace is not None:
            environ[TRACE] = str(trace)
        environ.pop("KOANS_EVENT_LOG", None)
        code = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "from koanrunner.checking.engine import worker; sys.exit(worker(sys.argv[2]))")
        try:
            proc = subprocess.run([sys.executable, "-c", code, str(TOOLS), tmp], cwd=cwd,
                                  env=environ, capture_output=True, text=True,
                                  timeout=WORKER_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return Results({}, {}, {}, f"pytest ran for more than {WORKER_TIMEOUT:g} s and was "
                           "stopped")
        try:
            data = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
            return Results({}, {}, {}, f"pytest gave no results (exit {proc.returncode}); its "
                           f"output ends:\n{tail}")
    return Results(data["verdicts"], data["files"], data["traced"])


class Recorder:
    """In the checking process (xdist's controller included): every verdict the plugins give."""

    def __init__(self) -> None:
        self.verdicts: dict[str, dict[str, Any]] = {}
        self.files: dict[str, dict[str, Any]] = {}
        self.traced: dict[str, list[str]] = {}

    def pytest_runtest_logreport(self, report: Any) -> None:
        for key, value in report.user_properties:
            if key in ("koan", "kata"):
                self.verdicts[report.nodeid] = dict(value)
            elif key == "traced":
                self.traced[report.nodeid] = list(value)

    def pytest_collectreport(self, report: Any) -> None:
        verdict = getattr(report, "koan_verdict", None)
        if report.failed:
            message = (verdict or {}).get("message") or str(report.longrepr)
            self.files[report.nodeid] = {"kind": (verdict or {}).get("kind", "broken"),
                                         "message": message}
        elif report.skipped and report.nodeid.endswith(".py"):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            self.files[report.nodeid] = {"kind": "skipped", "message": str(reason)}


def worker(folder: str) -> int:
    """The checking process: pytest over the job, every verdict written as JSON."""
    import pytest

    job = json.loads(Path(folder, "job.json").read_text(encoding="utf-8"))
    recorder = Recorder()
    code = pytest.main(job["args"], plugins=[recorder])
    Path(job["out"]).write_text(json.dumps({"verdicts": recorder.verdicts, "files": recorder.files,
                                            "traced": recorder.traced, "exit": int(code)}),
                                encoding="utf-8")
    return 0
