"""The path summary: what a run over ``koans/`` says about the learner's path.

Every koan the course has in the run's scope (the answer key names them), in curriculum order,
each with what happened to it; plain ``pytest koans`` shows the first unsolved koan in full, a
line per topic, and the progress and the next step as its last lines.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .. import course as model
from .sources import alignment_of, course_part, source_of
from .verdicts import PROPERTY

SUMMARY = "koans-summary"  # its name in the plugin manager (the kata plugin looks for it)

class PathSummary:
    """What the run says about the path: every koan the course has in the run's scope (the
    answer key names them), in curriculum order, each with what happened to it. Works under
    xdist: the controller hears every worker's reports and the workers' collected ids.

    Plain ``pytest koans`` is itself the path (``path mode``: no ``-v``, ``--koans-all``, xdist
    or ``--koans-raw``): koan files still exactly as shipped are not run past the first of them
    (their koans cannot pass: each has a blank), the first unsolved koan is shown in full, each
    topic gets one line, and the last lines are the progress and the next step."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.order: list[str] = []
        self.results: dict[str, dict[str, Any]] = {}
        self.broken: dict[str, dict[str, Any]] = {}
        self.untouched: dict[str, str] = {}  # nodeid -> why it was not run
        self.expected: list[str] = []
        self.deselected: set[str] = set()
        self.path_mode = False

    # -- what the course has in this run's scope ---------------------------------------------

    def scope(self) -> list[str]:
        """The koan nodeids the answer key names for the run's arguments."""
        root = self.config.rootpath
        wanted: list[str] = []
        for arg in self.config.args:
            target, _, test = str(arg).partition("::")
            try:
                rel = Path(self.config.invocation_params.dir, target).resolve().relative_to(root)
            except ValueError:
                continue
            if not rel.parts or rel.parts[0] != "koans" or "katas" in rel.parts:
                continue
            answers = root / "answers" / Path(*rel.parts[1:])
            files = sorted(answers.rglob("test_*.py")) if answers.is_dir() else [answers]
            for answer in files:
                if "katas" in answer.relative_to(root).parts:
                    continue
                text = model.read_source(answer)
                tree = model.parse(text) if text else None
                if tree is None:
                    continue
                nodeid = "koans/" + answer.relative_to(root / "answers").as_posix()
                for name, _ in model.test_functions(tree):
                    if not test or name == test.split("[")[0]:
                        wanted.append(f"{nodeid}::{name}")
        return wanted

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        """Koans a selection (-k, -m, --lf, a node id) left out are not in this run's scope."""
        self.deselected.update(item.nodeid for item in items if item.nodeid not in self.untouched)

    @pytest.hookimpl(trylast=True)  # after -k, -m and --lf have chosen what this run holds
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        self.expected = self.scope()
        if config.option.collectonly:
            return
        koan_items = [i for i in items if course_part(Path(str(i.path)), config.rootpath) == "koans"]
        selection = bool(config.option.keyword or config.option.markexpr
                         or getattr(config.option, "lf", False) or self.deselected)
        self.path_mode = bool(koan_items) and not (
            config.getoption("koans_all") or config.getoption("verbose") > 0
            or config.getoption("koans_raw") or getattr(config.option, "numprocesses", None)
            or hasattr(config, "workerinput"))
        if not self.path_mode:
            return
        config.option.tbstyle = "no"  # the first unsolved koan is shown in full, below
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.reportchars = ""  # no FAILED line per koan: the path says what is next
        if config.getoption("verbose") == 0:
            config.option.verbose = -1
        keep, dropped, first_pristine = [], [], None
        for item in items:
            path = Path(str(item.path))
            if item in koan_items and not selection and _untouched(path, config.rootpath):
                if first_pristine is None:
                    first_pristine = path
                if path != first_pristine:
                    skip = item.get_closest_marker("skip")
                    self.untouched[item.nodeid] = "skipped" if skip else "blank"
                    dropped.append(item)
                    continue
            keep.append(item)
        if dropped:
            items[:] = keep
            config.hook.pytest_deselected(items=dropped)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.order:
            self.order = [item.nodeid for item in session.items] + list(self.untouched)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        if not self.order:
            self.order = list(ids)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        verdict = getattr(report, "koan_verdict", None)
        if verdict:
            self.broken[report.nodeid] = verdict

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key == PROPERTY and isinstance(value, dict):
                self.results[report.nodeid] = value

    def entries(self) -> list[dict[str, Any]]:
        """Every koan of this run in curriculum order, broken files in their place, and the
        koans the course has that did not run: untouched, missing or stopped before."""
        rows = []
        for nodeid in self.order:
            if nodeid in self.results:
                rows.append(dict(nodeid=nodeid, **self.results[nodeid]))
            elif nodeid in self.untouched:
                kind = self.untouched[nodeid]
                rel = nodeid.split("::")[0]
                rows.append(dict(nodeid=nodeid, kind=kind, file=rel, line=0, message=(
                    "skipped here" if kind == "skipped" else
                    f"{rel}: untouched so far: each koan in it still has its blank")))
            else:
                rows.append(dict(nodeid=nodeid, kind="unknown", file=nodeid.split("::")[0], line=0,
                                 message=f"{nodeid}: not run (the run stopped before it)"))
        for nodeid, verdict in self.broken.items():
            named = [e for e in self.expected if e.split("::")[0] == nodeid]
            if verdict.get("kind") == "skipped" and named:  # a file skipped whole: each koan
                rows += [dict(verdict, nodeid=e) for e in named]
            else:
                rows.append(dict(nodeid=nodeid, **verdict))
        have = {row["nodeid"].split("[")[0] for row in rows}
        broken_files = {n.split("::")[0] for n in self.broken}
        left_out = {n.split("[")[0] for n in self.deselected}
        ran_files = {n.split("::")[0] for n in self.order}
        only_failed = getattr(self.config.option, "lf", False)
        for nodeid in self.expected:
            rel = nodeid.split("::")[0]
            if nodeid in have or rel in broken_files or rel in have or nodeid in left_out:
                continue
            if only_failed and rel not in ran_files:  # --lf did not collect this file at all
                continue
            gone = not (self.config.rootpath / rel).is_file()
            message = (f"{rel}: this koan file is missing (deleted or moved?)" if gone else
                       f"{nodeid}: this koan is no longer in its file (renamed, deleted, or "
                       "the file was emptied?)")
            rows.append(dict(nodeid=nodeid, kind="missing", file=rel, line=0, message=message +
                             f"; bring it back with: python tools/koans.py reset {rel}"))
        expected_at = {nodeid: index for index, nodeid in enumerate(self.expected)}
        position = {nodeid: index for index, nodeid in enumerate(self.order)}

        def key(row: dict[str, Any]) -> tuple[tuple[str, ...], int]:
            nodeid = row["nodeid"]
            at = expected_at.get(nodeid.split("[")[0], position.get(nodeid, -1))
            return (tuple(nodeid.split("::", 1)[0].split("/")), at)

        return sorted(rows, key=key)

    def koan_rows(self) -> list[dict[str, Any]]:
        """The koans of this run: tests a learner added to a koan file are not koans."""
        named = {n.split("[")[0] for n in self.expected}
        return [r for r in self.entries() if r["nodeid"].split("/", 1)[0] == "koans"
                and (not named or "::" not in r["nodeid"] or r["nodeid"].split("[")[0] in named)]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput") or self.config.option.collectonly:
            return
        target = self.config.getoption("koans_json")
        if target:
            data = {"rootdir": str(self.config.rootpath), "koans": self.entries()}
            tmp = Path(f"{target}.tmp{os.getpid()}")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.replace(tmp, target)
        rows = self.koan_rows()
        self.foreign = model.Course(self.config.rootpath).foreign_files() if rows else []
        unsolved = any(r["kind"] not in ("passed", "skipped") for r in rows)
        if rows and session.exitstatus in (0, 5) and (unsolved or self.foreign):
            session.exitstatus = 1  # a koan not solved is never a green run, however it stopped

    @pytest.hookimpl(trylast=True)  # the path's last lines are the last lines (pytest-sugar too)
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.config.option.collectonly:
            return
        rows = self.koan_rows()
        if not rows:
            return
        tr = terminalreporter
        if getattr(self, "foreign", None):
            tr.write_sep("=", "the path")
            tr.write_line(model.foreign_message(self.foreign))
            return
        solved = sum(r["kind"] == "passed" for r in rows)
        skipped = sum(r["kind"] == "skipped" for r in rows)
        counted = len(rows) - skipped
        upcoming = next((r for r in rows if r["kind"] not in ("passed", "skipped")), None)
        if self.path_mode and upcoming is not None:
            self.show_koan(tr, upcoming)
        tr.write_sep("=", "the path")
        if self.path_mode:
            self.show_topics(tr, rows, upcoming)
        line = f"{solved} of {counted} koans solved"
        if skipped:
            line += f" ({skipped} skipped here)"
        bar = _bar(solved, counted, 30) + " " if self.path_mode else ""
        tr.write_line(bar + line + ".")
        if upcoming is None:
            tr.write_line("Every koan in this run is solved." if counted else
                          "Nothing in this run can be solved on this machine:")
            if not counted:
                reasons: dict[str, int] = {}
                for row in rows:
                    reason = str(row.get("message") or "").removeprefix("Skipped: ").strip()
                    reasons[reason] = reasons.get(reason, 0) + 1
                for reason, n in sorted(reasons.items(), key=lambda item: -item[1]):
                    tr.write_line(f"  {n} koan{'s' * (n != 1)} skipped: {reason}")
            return
        tr.write_line(f"Next: {upcoming['nodeid']}")
        if upcoming.get("message"):
            tr.write_line("  " + upcoming["message"].splitlines()[0])
        tr.write_line(f"Walk the path with: {runner_command(self.config)}   (every koan's "
                      "report: pytest koans --koans-all)")

    def show_koan(self, tr: Any, row: dict[str, Any]) -> None:
        """The first unsolved koan in full: its lesson, its line, what went wrong."""
        tr.write_sep("_", row["nodeid"].split("::")[-1])
        path = self.config.rootpath / row["file"]
        src = source_of(path)
        func = src.function(row["nodeid"].split("::")[-1].split("[")[0])
        lesson = ast.get_docstring(func) if func is not None else ""
        for text in (lesson or "").splitlines():
            tr.write_line("  " + text)
        if lesson:
            tr.write_line("")
        for text in str(row.get("message") or "").splitlines():
            tr.write_line(text)

    def show_topics(self, tr: Any, rows: list[dict[str, Any]], upcoming: dict[str, Any] | None) -> None:
        topics: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            topics.setdefault(row["nodeid"].split("/")[1], []).append(row)
        width = max(len(name) for name in topics)
        here = upcoming["nodeid"].split("/")[1] if upcoming else None
        for name, members in topics.items():
            done = sum(r["kind"] == "passed" for r in members)
            total = sum(r["kind"] != "skipped" for r in members)
            mark = ">" if name == here else " "
            tail = "  <- you are here" if name == here else ""
            if not total:  # nothing to do here: say why rather than draw a full bar
                reason = next((r.get("message") for r in members if r.get("message")), "")
                reason = str(reason).removeprefix("Skipped: ").split(":")[0]
                tr.write_line(f" {mark} {name.ljust(width)}  skipped here ({reason})")
                continue
            tr.write_line(f" {mark} {name.ljust(width)}  {_bar(done, total, 12)} {done}/{total}{tail}")


def runner_command(config: pytest.Config) -> str:
    """The runner's command as the learner can type it from where pytest was started."""
    script = config.rootpath / "tools" / "koans.py"
    try:
        rel = os.path.relpath(script, config.invocation_params.dir)
    except ValueError:  # another drive, on Windows
        rel = str(script)
    return f"python {Path(rel).as_posix() if not os.path.isabs(rel) else rel}"


def _untouched(path: Path, rootdir: Path) -> bool:
    """A koan file exactly as shipped (aligned with its pristine version, every blank empty)."""
    found, _ = alignment_of(path, rootdir)
    return found is not None and not found.changed and not any(f.filled for f in found.fills)


def _bar(done: int, total: int, width: int) -> str:
    filled = round(width * done / total) if total else width
    encoding = (getattr(sys.stdout, "encoding", None) or "ascii").lower().replace("-", "")
    full, empty = ("█", "░") if encoding in ("utf8", "utf16", "utf32") else ("#", ".")
    return full * filled + empty * (width - filled)
