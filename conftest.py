"""The koans' pytest plugin: blanks, learner-facing failures, CUDA skips and the path summary.

- ``__`` (a value) and ``___`` (an exception type) are installed as builtins. Any use of a blank
  fails, so a koan can never pass by accident.
- A failing koan is classified (``blank``, ``wrong``, ``error``, ``broken``) and, unless
  ``--koans-raw`` is given, its report is replaced by a short message that points at the
  learner's line. The classification travels in ``report.user_properties`` (so it survives
  ``-n auto``) and, with ``--koans-json PATH``, is written for the runner and the checker.
- ``cuda``-marked koans skip with a reason where no CUDA GPU is visible.
- At the end of a run over ``koans/``: how many are solved, and which koan is next.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PLUGIN = "koans"
ROOT = Path(__file__).resolve().parent
COURSE_DIRS = ("koans", "answers")
BLANK_NAMES = ("__", "___")
PROPERTY = "koan"

HELP_RAW = "show pytest's own tracebacks instead of the learner-facing koan messages"
HELP_JSON = "write every koan's outcome, kind and message to this JSON file"
HELP_TIMEOUT = "fail a koan that runs longer than this many seconds (0: never; POSIX only)"


# --------------------------------------------------------------------------------------------
# The blanks


class UnfilledBlank(Exception):
    """Raised by any use of a blank. The report turns it into 'fill in the blank on line N'."""


def _refuse(name: str):
    def method(self: Blank, *args: Any, **kwargs: Any) -> Any:
        raise UnfilledBlank(f"{self._name} is a blank: replace it with {self._meaning} ({name})")

    method.__name__ = name
    return method


class Blank:
    """A value that refuses every operation: comparison, truth, arithmetic, hashing, iteration,
    calling, conversion, attribute access and use as an exception type."""

    __slots__ = ("_meaning", "_name")

    def __init__(self, name: str, meaning: str) -> None:
        self._name = name
        self._meaning = meaning

    def __repr__(self) -> str:
        return self._name

    __str__ = __repr__

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            # Protocol probes (copy, pickle, inspect) must see an ordinary missing attribute.
            raise AttributeError(attr)
        raise UnfilledBlank(f"{self._name} is a blank: replace it with {self._meaning} (.{attr})")


_REFUSED = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__hash__", "__len__", "__iter__", "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__", "__delitem__", "__call__", "__enter__", "__exit__", "__index__", "__int__", "__float__", "__complex__", "__round__", "__trunc__", "__floor__", "__ceil__", "__format__", "__bytes__", "__fspath__", "__neg__", "__pos__", "__abs__", "__invert__", "__instancecheck__", "__subclasscheck__", "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__", "__imul__", "__matmul__", "__rmatmul__", "__imatmul__", "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__", "__mod__", "__rmod__", "__imod__", "__divmod__", "__rdivmod__", "__pow__", "__rpow__", "__ipow__", "__lshift__", "__rlshift__", "__ilshift__", "__rshift__", "__rrshift__", "__irshift__", "__and__", "__rand__", "__iand__", "__or__", "__ror__", "__ior__", "__xor__", "__rxor__", "__ixor__", "__setattr__", "__delattr__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__"]

for _name in _REFUSED:
    if _name == "__setattr__":
        continue  # needed by __init__; replaced below once the slots are set
    setattr(Blank, _name, _refuse(_name))

VALUE_BLANK = Blank("__", "a value")
TYPE_BLANK = Blank("___", "an exception type")
Blank.__setattr__ = _refuse("__setattr__")  # type: ignore[method-assign]
builtins.__ = VALUE_BLANK  # type: ignore[attr-defined]
builtins.___ = TYPE_BLANK  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------
# Reading koan files


@dataclass(frozen=True)
class Source:
    """A parsed koan file: its lines, and where its blanks and statements are."""

    path: Path
    lines: list[str]
    tree: ast.Module | None

    @classmethod
    def read(cls, path: Path) -> Source:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            return cls(path, [], None)
        try:
            tree: ast.Module | None = ast.parse(text, filename=str(path))
        except SyntaxError:
            tree = None
        return cls(path, text.splitlines(), tree)

    def line(self, lineno: int) -> str:
        return self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""

    def blanks_between(self, first: int, last: int) -> list[int]:
        return sorted(
            node.lineno
            for node in ast.walk(self.tree)
            if isinstance(node, ast.Name) and node.id in BLANK_NAMES and first <= node.lineno <= last
        ) if self.tree else []

    def statement_header(self, lineno: int) -> tuple[int, int]:
        """The lines of the innermost statement at ``lineno``; of a compound statement
        (``with``, ``for``, ``if``...), only its header, never its body."""
        spans = [(lineno, lineno)]
        for node in ast.walk(self.tree) if self.tree else ():
            if not isinstance(node, ast.stmt):
                continue
            body = getattr(node, "body", None)
            last = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
            last = max(last or node.lineno, node.lineno)
            if node.lineno <= lineno <= last:
                spans.append((node.lineno, last))
        candidates = spans[1:] or spans
        return min(candidates, key=lambda span: span[1] - span[0])

    def function(self, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        if not self.tree:
            return None
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return node
        return None


_SOURCES: dict[tuple[Path, float], Source] = {}


def source_of(path: Path) -> Source:
    try:
        key = (path, path.stat().st_mtime)
    except OSError:
        return Source(path, [], None)
    if key not in _SOURCES:
        _SOURCES[key] = Source.read(path)
    return _SOURCES[key]


def course_part(path: Path, rootdir: Path) -> str | None:
    """'koans' or 'answers' when ``path`` lies in one of them under ``rootdir``."""
    try:
        first = path.resolve().relative_to(rootdir).parts[0]
    except (ValueError, IndexError):
        return None
    return first if first in COURSE_DIRS else None


# --------------------------------------------------------------------------------------------
# Hints and misconceptions (koans/NN_topic/hints.toml)


def load_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pytest itself depends on tomli before 3.11
        import tomli as tomllib
    with path.open("rb") as handle:
        return tomllib.load(handle)


def koan_notes(test_file: Path, rootdir: Path, test_name: str) -> dict[str, Any]:
    """The hints.toml entry of a koan. Answers share the hints of the koans they mirror."""
    topic = test_file.parent
    candidates = [topic / "hints.toml"]
    try:
        rel = topic.resolve().relative_to(rootdir)
        candidates.append(rootdir / "koans" / Path(*rel.parts[1:]) / "hints.toml")
    except ValueError:
        pass
    for candidate in candidates:
        if candidate.is_file():
            try:
                return dict(load_toml(candidate).get(test_name, {}))
            except Exception:  # a broken hints file must never break a koan run
                return {}
    return {}


def misconception_for(value: object, notes: dict[str, Any]) -> str | None:
    """The explanation of a listed misconception whose fill equals ``value``."""
    import math

    for entry in notes.get("misconceptions", []):
        try:
            expected = eval(entry["fill"], {"__builtins__": builtins, "math": math})
            if type(expected) is type(value) and repr(expected) == repr(value):
                return str(entry.get("why", "")).strip()
        except Exception:
            continue
    return None


# --------------------------------------------------------------------------------------------
# Classifying a failure


@dataclass
class Verdict:
    kind: str  # passed | skipped | blank | wrong | error | timeout | broken
    file: str
    line: int
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "file": self.file, "line": self.line, "message": self.message}


_last_compare: dict[str, Any] = {}


def _short(value: object) -> str:
    from _pytest._io.saferepr import saferepr

    return saferepr(value, maxsize=160)


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        for inner in getattr(exc, "exceptions", ()):  # an exception group's members
            if isinstance(inner, BaseException):
                yield from _chain(inner)
        exc = exc.__cause__ or exc.__context__


def _deepest_line(tb: Any, path: Path) -> int:
    """The line of the deepest traceback entry in ``path`` (the learner's file)."""
    lineno = 0
    target = os.path.normcase(str(path))
    while tb is not None:
        if os.path.normcase(tb.tb_frame.f_code.co_filename) == target:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    return lineno


def classify(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> Verdict:
    path = Path(str(item.path))
    rel = _relative(path, item.config)
    src = source_of(path)
    exc = excinfo.value
    line = _deepest_line(excinfo.tb, path) or (item.reportinfo()[1] or 0) + 1
    first, last = src.statement_header(line)
    blanks_here = src.blanks_between(first, last)
    code = src.line(line).strip()
    hit_blank = any(isinstance(e, UnfilledBlank) for e in _chain(exc))

    if blanks_here or hit_blank:
        if not blanks_here:
            func = src.function(getattr(item, "originalname", item.name))
            blanks_here = src.blanks_between(func.lineno, func.end_lineno or func.lineno) if func else []
        where = blanks_here[0] if blanks_here else line
        text = f"{rel}:{where}: fill in the blank on line {where}\n    {src.line(where).strip()}"
        if where != line:
            text += f"\n  (the blank reached line {line} unfilled: {code})"
        return Verdict("blank", rel, where, text)

    name = getattr(item, "originalname", item.name)
    if isinstance(exc, KoanTimeout):
        return Verdict("timeout", rel, line, f"{rel}:{line}: stopped here: {exc}\n    {code}")
    if isinstance(exc, AssertionError):
        compare = _last_compare.get(item.nodeid)
        if compare:
            op, left, right, value = compare
            if op in ("==", "is"):
                head = f"you wrote {right}, Python says {left}"
            elif op in ("!=", "is not"):
                head = f"Python says both sides are {left}"
            else:
                head = f"Python says this is false: {left} {op} {right}"
            text = f"{rel}:{line}: not yet: {head}\n    {code}"
            why = misconception_for(value, koan_notes(path, item.config.rootpath, name))
            if why:
                why = "\n".join("  " + row for row in why.splitlines())
                text += f"\n\n  A common thought, and why it fails:\n{why}"
            return Verdict("wrong", rel, line, text)
        detail = str(exc).split("\n")[0]
        text = f"{rel}:{line}: not yet: this assertion is still false\n    {code}"
        if detail and not detail.startswith("assert "):
            text += f"\n  {detail}"
        return Verdict("wrong", rel, line, text)

    text = f"{rel}:{line}: Python raised {type(exc).__name__}: {exc}\n    {code}"
    return Verdict("error", rel, line, text)


def broken_file(path: Path, config: pytest.Config) -> Verdict:
    """Why a koan file cannot even be imported: a SyntaxError, NameError, ImportError..."""
    rel = _relative(path, config)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        return Verdict("broken", rel, 0, f"{rel}: cannot read this file: {err.strerror}")
    try:
        code = compile(text, str(path), "exec")
    except SyntaxError as err:
        line = err.lineno or 0
        pointer = " " * max((err.offset or 1) - 1, 0) + "^"
        shown = (err.text or "").rstrip("\n")
        message = f"{rel}:{line}: Python cannot read this file: {err.msg}\n    {shown}\n    {pointer}"
        return Verdict("broken", rel, line, message)
    namespace = {"__name__": f"koan_import_check_{abs(hash(rel))}", "__file__": str(path)}
    try:
        exec(code, namespace)  # re-run the import to find the learner's line
    except BaseException as err:
        if type(err).__name__ == "Skipped":
            raise
        line = _deepest_line(err.__traceback__, path)
        shown = source_of(path).line(line).strip()
        message = (
            f"{rel}:{line}: this file stops before any koan runs: "
            f"{type(err).__name__}: {err}\n    {shown}"
        )
        return Verdict("broken", rel, line, message)
    return Verdict("broken", rel, 0, f"{rel}: pytest could not collect this file")


def _relative(path: Path, config: pytest.Config) -> str:
    try:
        return path.resolve().relative_to(config.rootpath).as_posix()
    except ValueError:
        return path.as_posix()


# --------------------------------------------------------------------------------------------
# Hooks


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(PLUGIN, "python internals koans")
    group.addoption("--koans-raw", action="store_true", default=False, help=HELP_RAW)
    group.addoption("--koans-json", metavar="PATH", default=None, help=HELP_JSON)
    group.addoption("--koans-timeout", metavar="SECONDS", type=float, default=0.0, help=HELP_TIMEOUT)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(PathSummary(config), "koans-summary")


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> None:
    item = _current.get("item")
    if item is not None:
        _last_compare[item.nodeid] = (op, _short(left), _short(right), right)


_current: dict[str, Any] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    _current["item"] = item
    _last_compare.pop(item.nodeid, None)
    limit = item.config.getoption("koans_timeout")
    alarm = limit > 0 and hasattr(signal, "setitimer")
    if alarm:
        previous = signal.signal(signal.SIGALRM, _time_is_up(limit))
        signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        _current.pop("item", None)


class KoanTimeout(Exception):
    """A koan ran past --koans-timeout: most likely an infinite loop or a deadlock."""


def _time_is_up(limit: float) -> Any:
    def handler(signum: int, frame: Any) -> None:
        raise KoanTimeout(f"this koan ran longer than {limit:g} s: an infinite loop or a deadlock?")

    return handler


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    outcome = yield
    report = outcome.get_result()
    if course_part(Path(str(item.path)), item.config.rootpath) is None:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if report.passed:
            verdict = Verdict("passed", _relative(Path(str(item.path)), item.config), 0, "")
        elif report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            verdict = Verdict("skipped", _relative(Path(str(item.path)), item.config), 0, reason)
        elif call.excinfo is not None:
            verdict = classify(item, call.excinfo)
            if not item.config.getoption("koans_raw"):
                report.longrepr = verdict.message
        else:
            return
        report.user_properties.append((PROPERTY, verdict.as_dict()))
    _last_compare.pop(item.nodeid, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[Any]:
    outcome = yield
    report = outcome.get_result()
    path = getattr(collector, "path", None)
    if (
        isinstance(collector, pytest.Module)
        and path is not None
        and course_part(Path(str(path)), collector.config.rootpath)
    ):
        if report.failed:
            verdict = broken_file(Path(str(path)), collector.config)
            report.koan_verdict = verdict.as_dict()
            if not collector.config.getoption("koans_raw"):
                report.longrepr = verdict.message
        elif report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            rel = _relative(Path(str(path)), collector.config)
            report.koan_verdict = Verdict("skipped", rel, 0, reason).as_dict()


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Before a koan file that uses Hypothesis is imported, load the koans' profile: ``@given``
    reads the default settings when it decorates, not when the test runs. (Not at module
    creation: pytest creates a Module for every sibling of the file it was asked to run.)"""
    if not isinstance(collector, pytest.Module):
        return
    try:
        uses_hypothesis = b"hypothesis" in collector.path.read_bytes()
    except OSError:
        return
    if uses_hypothesis:
        _load_hypothesis_profile()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cuda_items = [item for item in items if item.get_closest_marker("cuda")]
    if not cuda_items:
        return
    reason = cuda_missing_reason()
    if reason:
        for item in cuda_items:
            item.add_marker(pytest.mark.skip(reason=reason))


def cuda_missing_reason() -> str | None:
    """Why CUDA koans cannot run here, or None. Never initialises CUDA (fork safety)."""
    try:
        import torch
    except ImportError:
        return "needs torch with a CUDA GPU: torch is not installed (pip install -e '.[torch]')"
    if not torch.cuda.is_available():
        return "needs a CUDA GPU: torch.cuda.is_available() is False on this machine"
    return None


_profile_loaded: list[bool] = []


def _load_hypothesis_profile() -> None:
    """Register and load the 'koans' Hypothesis profile, only for runs that use hypothesis
    (the runner must not pay for importing it on topics that never do)."""
    if _profile_loaded:
        return
    from hypothesis import HealthCheck, Phase, settings

    common: dict[str, Any] = {
        "deadline": None,
        "print_blob": False,
        "report_multiple_bugs": False,
        "suppress_health_check": [HealthCheck.too_slow],
    }
    # No "explain" phase: it re-runs a failing koan about a hundred times to annotate which
    # parts of the shrunk example matter (~0.2 s); the shrunk example itself is still shown.
    quick = {"phases": [phase for phase in Phase if phase.name != "explain"]}
    settings.register_profile("koans", derandomize=True, database=None, max_examples=50,
                              **quick, **common)
    settings.register_profile("ci", derandomize=True, database=None, max_examples=100,
                              **quick, **common)
    settings.register_profile("explore", max_examples=2000, **common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "koans"))
    _profile_loaded.append(True)


# --------------------------------------------------------------------------------------------
# The path summary


class PathSummary:
    """Counts solved koans and names the next one, in curriculum (collection) order. Works under
    xdist: the controller hears every worker's reports and the workers' collected ids."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.order: list[str] = []
        self.results: dict[str, dict[str, Any]] = {}
        self.broken: dict[str, dict[str, Any]] = {}

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.order:
            self.order = [item.nodeid for item in session.items]

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
            if key == PROPERTY:
                self.results[report.nodeid] = value

    def entries(self) -> list[dict[str, Any]]:
        """Every koan of this run in curriculum order, broken files in their place."""
        rows = [dict(nodeid=n, **self.results.get(n, {"kind": "unknown"})) for n in self.order]
        rows += [dict(nodeid=n, **v) for n, v in self.broken.items()]
        position = {nodeid: index for index, nodeid in enumerate(self.order)}

        def key(row: dict[str, Any]) -> tuple[tuple[str, ...], int]:
            return (tuple(row["nodeid"].split("::", 1)[0].split("/")), position.get(row["nodeid"], -1))

        return sorted(rows, key=key)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        target = self.config.getoption("koans_json")
        if target and not hasattr(self.config, "workerinput"):
            data = {"rootdir": str(self.config.rootpath), "koans": self.entries()}
            tmp = Path(f"{target}.tmp{os.getpid()}")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.replace(tmp, target)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        rows = [r for r in self.entries() if r["nodeid"].split("/", 1)[0] == "koans"]
        if not rows:
            return
        solved = sum(r["kind"] == "passed" for r in rows)
        skipped = sum(r["kind"] == "skipped" for r in rows)
        counted = len(rows) - skipped
        tr = terminalreporter
        tr.write_sep("=", "the path")
        line = f"{solved} of {counted} koans solved"
        if skipped:
            line += f" ({skipped} skipped here)"
        tr.write_line(line + ".")
        upcoming = next((r for r in rows if r["kind"] not in ("passed", "skipped")), None)
        if upcoming is None:
            tr.write_line("Every koan in this run is solved.")
            return
        tr.write_line(f"Next: {upcoming['nodeid']}")
        if upcoming.get("message"):
            tr.write_line("  " + upcoming["message"].splitlines()[0])
        tr.write_line("Walk the path with: python tools/koans.py")
