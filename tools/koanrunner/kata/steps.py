"""The katas on disk and their steps: finding a kata, its workspace, and running its steps in
the koans' warm fork server (a session on the workspace's steps instead of ``koans/``)."""

from __future__ import annotations

import ast
import contextlib
import re
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..course import Course, read_toml
from ..early import fork_server
from ..running import Runner
from ..view import RUNNER, Style
from .session import fresh_workspace

KATAS = "katas"
STEPS = "test_steps.py"
PYTEST_INI = """[pytest]
# A kata workspace: the steps beside the module the pair writes (see conftest.py).
addopts = -p no:cacheprovider --import-mode=importlib
"""


# ---------------------------------------------------------------------------------------------
# Finding katas


def katas_dir(course: Course) -> Path:
    return course.koans_dir / KATAS


def all_katas(course: Course) -> list[Path]:
    base = katas_dir(course)
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() and (p / STEPS).is_file())


def find(course: Course, name: str) -> Path | None:
    """The kata a NAME means: its folder name ('01_ieee754'), that name without its number
    ('ieee754'), or 'katas/01' (a number is a topic's unless 'katas/' says otherwise)."""
    target = name.strip().rstrip("/")
    for prefix in ("koans/", "answers/"):
        if target.startswith(prefix):
            target = target[len(prefix):]
    explicit = target.startswith(KATAS + "/")
    if explicit:
        target = target[len(KATAS) + 1:]
    for folder in all_katas(course):
        number, _, rest = folder.name.partition("_")
        if target in (folder.name, rest) or (explicit and target == number):
            return folder
    return None


def title_of(folder: Path) -> str:
    try:
        first = (folder / "README.md").read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError):
        return folder.name
    title = re.sub(r"^Kata\s+\d+\s*:\s*", "", first.lstrip("#").strip())
    return title[:1].upper() + title[1:] if title else folder.name


def list_katas(course: Course, style: Style) -> int:
    out = style.stream
    katas = all_katas(course)
    if not katas:
        out.write(f"This course has no katas yet. Replay a topic instead: {RUNNER} kata 03\n")
        return 1
    out.write(style("Katas: build a small model of the machine, test-first, as a pair", "bold") + "\n")
    for folder in katas:
        steps = len(step_nodes(folder / STEPS))
        out.write(f"  {folder.name.ljust(24)} {title_of(folder)} ({steps} steps)\n")
    out.write(style(f"Start one: {RUNNER} kata {katas[0].name} --pair ana,bo   (or replay a "
                    f"topic's koans: {RUNNER} kata 03)", "dim") + "\n")
    return 0


def step_nodes(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    return [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name.startswith("test")]


def module_of(folder: Path) -> Path | None:
    found = sorted(p for p in folder.glob("*.py")
                   if not p.name.startswith("test_") and p.name != "conftest.py")
    return found[0] if found else None


# ---------------------------------------------------------------------------------------------
# The workspace


HARD = "hard"  # koans/katas/NN_name/hard/<module>.py: the stub with signatures only


def prepare(course: Course, folder: Path, hard: bool = False) -> tuple[Path, Path | None]:
    """A fresh workspace for the kata in ``folder`` (with its hard-mode stub, signatures only,
    when ``hard`` and the kata has one); and where an earlier one was moved."""
    workspace, moved = fresh_workspace(course, folder.name)
    for entry in sorted(folder.iterdir()):
        if entry.is_file() and entry.suffix in (".py", ".md", ".toml") and entry.name != "wrong.toml":
            shutil.copy2(entry, workspace / entry.name)
    module = module_of(folder)
    harder = folder / HARD / module.name if module is not None else None
    if hard and harder is not None and harder.is_file():
        shutil.copy2(harder, workspace / harder.name)
    write_conftest(workspace)
    (workspace / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
    steps = workspace / STEPS
    steps.chmod(steps.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return workspace, moved


WORKSPACE_CONFTEST = '''"""This kata workspace hands its steps to the katas' pytest plugin, in {tools}."""

import sys
from pathlib import Path

if {tools!r} not in sys.path:
    sys.path.insert(0, {tools!r})


def pytest_configure(config):
    from koanrunner.kata import plugin

    plugin.install(config, Path(__file__).resolve().parent)
'''


def write_conftest(folder: Path) -> None:
    """A conftest that hands ``folder``'s steps to the katas' plugin of this very package (a
    workspace may lie outside the course, in a temporary folder)."""
    tools = str(Path(__file__).resolve().parents[2])
    (folder / "conftest.py").write_text(WORKSPACE_CONFTEST.format(tools=tools), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Running the steps: the koans' fork server, with a session on the workspace's steps


def kata_pytest_args(root: Path) -> list[str]:
    args = [str(root / STEPS), "--rootdir", str(root), "--confcutdir", str(root), "-c",
            str(root / "pytest.ini"), "-p", "no:cacheprovider", "-q", "--tb=native"]
    with contextlib.suppress(ImportError, ValueError):
        import importlib.util

        if importlib.util.find_spec("_hypothesis_pytestplugin") is not None:
            args += ["-p", "_hypothesis_pytestplugin"]
    return args


class StepRunner(Runner):
    """``running.Runner`` (a fork per run, timeouts, crashes, cancelling), whose server is the
    koans' own server with its pytest session on the kata's steps instead of ``koans/``."""

    def start(self) -> None:
        if not self.fork or self.pid is not None:
            return

        def serve(req_r: int, rep_w: int) -> None:  # pragma: no cover - the forked server
            from .. import server

            plain = server.pytest_args

            def steps_args(root: Path, targets: list[str]) -> list[str]:
                return kata_pytest_args(root) if list(targets) == ["koans"] else plain(root, targets)

            server.pytest_args = steps_args  # this forked server's session: the steps
            sys.dont_write_bytecode = True  # no __pycache__ appearing in the pair's folder
            server.server_main(self.root, req_r, rep_w, self.log_dir)

        self._adopt(fork_server(self.root, serve))

    def _run_subprocess(self, rel: str, only: list[str] | None = None) -> dict[str, Any]:
        """Without fork: a plain pytest subprocess, its verdicts from ``--junit-xml``."""
        import subprocess
        import tempfile
        import xml.etree.ElementTree as ET

        result: dict[str, Any] = {"file": rel, "koans": [], "broken": None, "skipped": None,
                                  "elapsed": 0.0}
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "steps.xml"
            command = [sys.executable, "-m", "pytest", *kata_pytest_args(self.root),
                       f"--junit-xml={report}", "-o", "junit_logging=no"]
            try:
                subprocess.run(command, cwd=self.root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=self.timeout * 10, check=False)
                tree = ET.parse(report)
            except (subprocess.TimeoutExpired, OSError, ET.ParseError):
                result["broken"] = {"nodeid": rel, "kind": "timeout", "file": rel, "line": 0,
                                    "message": f"{rel}: the steps ran too long (an infinite loop?)"}
                return result
        for case in tree.iter("testcase"):
            name = case.get("name", "")
            failed = case.find("failure") is not None or case.find("error") is not None
            skipped = case.find("skipped")
            kind = "wrong" if failed else ("hidden" if skipped is not None else "passed")
            text = ""
            for tag in ("failure", "error", "skipped"):
                node = case.find(tag)
                if node is not None:
                    text = node.get("message") or ""
            result["koans"].append({"nodeid": f"{rel}::{name}", "step": name, "kind": kind,
                                    "file": rel, "line": 0, "message": text})
        return result


@dataclass
class Step:
    number: int
    name: str
    lesson: str
    first_line: int
    last_line: int
    skip_lines: tuple[int, int] | None  # the docstring's lines, shown as the lesson instead
    revealed: float | None = None
    green: float | None = None
    hints: int = 0
    driver: str = ""

    def seconds(self, now: float) -> float:
        if self.revealed is None:
            return 0.0
        return (self.green if self.green is not None else now) - self.revealed



def read_steps(path: Path) -> list[Step]:
    """The steps of a steps file, in order, each with its lesson and its lines."""
    steps = []
    for number, node in enumerate(step_nodes(path), 1):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        doc = None
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(
                getattr(node.body[0], "value", None), ast.Constant):
            doc = (node.body[0].lineno, node.body[0].end_lineno or node.body[0].lineno)
        steps.append(Step(number, node.name, ast.get_docstring(node) or "", first,
                          node.end_lineno or node.lineno, doc))
    return steps


def read_hints(workspace: Path) -> dict[str, list[str]]:
    try:
        data = read_toml(workspace / "hints.toml")
    except Exception:
        return {}
    return {name: [str(h) for h in entry.get("hints", [])]
            for name, entry in data.items() if isinstance(entry, dict)}
