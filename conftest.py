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


def _course_model_dir() -> Path | None:
    """tools/, where the course model lives: beside this file, or above a scratch copy of it
    (a kata workspace under .koans/)."""
    for base in (ROOT, *ROOT.parents):
        if (base / "tools" / "koanrunner" / "course.py").is_file():
            return base / "tools"
    return None


_tools = _course_model_dir()
if _tools is not None and str(_tools) not in sys.path:
    sys.path.insert(0, str(_tools))
from koanrunner import course as model  # noqa: E402 - the one course model, shared with tools/
COURSE_DIRS = ("koans", "answers")
BLANK_NAMES = ("__", "___")
PROPERTY = "koan"

HELP_RAW = "show pytest's own tracebacks instead of the learner-facing koan messages"
HELP_JSON = "write every koan's outcome, kind and message to this JSON file"
HELP_ALL = "plain pytest's report of every koan, instead of the path (the first unsolved koan)"
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
        text = model.read_source(path)
        if text is None:
            return cls(path, [], None)
        return cls(path, text.splitlines(), model.parse(text))

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
                return dict(model.read_toml(candidate).get(test_name, {}))
            except Exception:  # a broken hints file must never break a koan run
                return {}
    return {}


def _expression_key(text: str) -> str | None:
    """What a fill says, whatever the spacing or parentheses: its expression's AST."""
    try:
        return ast.dump(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def misconception_for(notes: dict[str, Any], typed: list[Any] | None = None,
                      value: object = NotImplemented) -> str | None:
    """The explanation of a listed misconception the learner typed. ``typed``: the fills at the
    koan's blanks (the course model's ``Filled``), matched on what was typed at the blank the
    entry names (``blank = N``, default 0). Without them (no pristine copy to align with), the
    value the failed comparison saw is matched instead."""
    import math

    entries = [e for e in notes.get("misconceptions", []) if isinstance(e, dict) and "fill" in e]
    if typed:
        for entry in entries:
            index = int(entry.get("blank", 0))
            fill = next((f for f in typed if f.index == index), None)
            key = _expression_key(str(entry["fill"]))
            if fill is not None and fill.filled and key is not None and key == _expression_key(fill.text):
                return str(entry.get("why", "")).strip()
        return None
    if value is NotImplemented:
        return None
    for entry in entries:
        try:
            expected = eval(entry["fill"], {"__builtins__": builtins, "math": math})
            if type(expected) is type(value) and repr(expected) == repr(value):
                return str(entry.get("why", "")).strip()
        except Exception:
            continue
    return None


# --------------------------------------------------------------------------------------------
# What the learner changed: the file aligned with its pristine koan


_ALIGNED: dict[tuple[str, int, int], tuple[Any, str]] = {}


def alignment_of(path: Path, rootdir: Path) -> tuple[Any, str]:
    """The learner's koan file aligned with its pristine version: (Alignment, "") or (None, why
    it cannot be). Answers align with their koans the same way."""
    try:
        st = path.stat()
    except OSError:
        return None, "the file is missing"
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _ALIGNED:
        _ALIGNED[key] = _align(path, rootdir)
    return _ALIGNED[key]


def _align(path: Path, rootdir: Path) -> tuple[Any, str]:
    from koanrunner.pristine import Pristine

    part = course_part(path, rootdir)
    rel = path.resolve().relative_to(rootdir).as_posix()
    text = model.read_source(path)
    if text is None:
        return None, "Python cannot read the file"
    if part == "answers":
        pristine = model.read_source(rootdir / ("koans" + rel[len("answers"):]))
        why = "its koan file is missing"
    else:
        try:
            pristine, why = Pristine(model.Course(rootdir)).text(rel)
        except Exception as err:  # an unreadable .koans/ must not stop the koans
            pristine, why = None, f"{type(err).__name__}: {err}"
    if pristine is None and part == "koans":
        # No pristine copy: a koan that reads exactly as its answer does is still provably
        # solved; anything else cannot be told apart from an edit outside the blanks.
        answer = model.read_source(rootdir / ("answers" + rel[len("koans"):]))
        if answer is not None:
            found = model.align(answer, text)
            return (found, why) if found is not None else (None, "the file does not parse")
    if pristine is None:
        return None, why
    found = model.align(pristine, text)
    return (found, "") if found is not None else (None, "the file does not parse")


def typed_fills(item: pytest.Item) -> list[Any] | None:
    found, _ = alignment_of(Path(str(item.path)), item.config.rootpath)
    if found is None:
        return None
    return found.fills_of(_qualname(item))


def _qualname(item: pytest.Item) -> str:
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    cls = getattr(item, "cls", None)
    return f"{cls.__name__}::{name}" if cls is not None else name


# --------------------------------------------------------------------------------------------
# Exception blanks ask for the exact class


class TooBroad(AssertionError):
    """An exception blank was filled with a parent of the class Python raised."""

    def __init__(self, wrote: type, raised: type) -> None:
        self.wrote, self.raised = wrote, raised
        super().__init__(f"too broad: Python raised {raised.__name__}, a kind of {wrote.__name__}")


_original_raises = pytest.raises


def _exception_fill_at(frame: Any) -> Any:
    """The exception blank whose ``pytest.raises`` is being called from ``frame``, if any."""
    item = _current.get("item")
    if item is None or frame is None:
        return None
    if os.path.normcase(frame.f_code.co_filename) != os.path.normcase(str(item.path)):
        return None
    if course_part(Path(str(item.path)), item.config.rootpath) is None:
        return None
    for fill in typed_fills(item) or ():
        if fill.raises_span and fill.raises_span[0] <= frame.f_lineno <= fill.raises_span[1]:
            return fill
    return None


class _Exactly:
    """``pytest.raises`` for an exception blank: the class written must be the class raised."""

    def __init__(self, context: Any, expected: type) -> None:
        self.context, self.expected = context, expected

    def __enter__(self) -> Any:
        return self.context.__enter__()

    def __exit__(self, kind: Any, value: Any, tb: Any) -> Any:
        __tracebackhide__ = True
        suppressed = self.context.__exit__(kind, value, tb)
        if suppressed and kind is not None and kind is not self.expected:
            raise TooBroad(self.expected, kind) from None
        return suppressed


def raises(expected_exception: Any, *args: Any, **kwargs: Any) -> Any:
    __tracebackhide__ = True
    context = _original_raises(expected_exception, *args, **kwargs)
    if args or not isinstance(expected_exception, type):
        return context
    if _exception_fill_at(sys._getframe(1)) is None:
        return context
    return _Exactly(context, expected_exception)


pytest.raises = raises  # type: ignore[assignment]


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
        return Verdict("blank", rel, where, text + _branch_note(src, where))

    name = getattr(item, "originalname", item.name)
    notes = koan_notes(path, item.config.rootpath, name)
    typed = typed_fills(item) if course_part(path, item.config.rootpath) == "koans" else None
    if isinstance(exc, KoanTimeout):
        return Verdict("timeout", rel, line, f"{rel}:{line}: stopped here: {exc}\n    {code}")
    wrong_class = _exception_fill_failed(item, excinfo, path, typed)
    if wrong_class is not None:
        fill, where = wrong_class
        if isinstance(exc, TooBroad):
            head = (f"too broad: Python raised {exc.raised.__name__}, a kind of "
                    f"{exc.wrote.__name__}: name the exact class")
        else:
            head = f"you wrote {fill.text}, Python raised {type(exc).__name__}: {exc}"
        text = f"{rel}:{where}: not yet: {head}\n    {src.line(where).strip()}"
        text += _why(misconception_for(notes, [fill]))
        return Verdict("wrong", rel, where, text + _branch_note(src, where))
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
        else:
            detail = str(exc).split("\n")[0]
            text = f"{rel}:{line}: not yet: this assertion is still false\n    {code}"
            if detail and not detail.startswith("assert "):
                text += f"\n  {detail}"
            value = NotImplemented
        text += _falsifying_example(exc)
        text += _why(misconception_for(notes, typed, value))
        return Verdict("wrong", rel, line, text + _branch_note(src, line))

    text = f"{rel}:{line}: Python raised {type(exc).__name__}: {exc}\n    {code}"
    return Verdict("error", rel, line, text + _falsifying_example(exc) + _branch_note(src, line))


def _why(note: str | None) -> str:
    if not note:
        return ""
    return "\n\n  A common thought, and why it fails:\n" + "\n".join("  " + row for row in note.splitlines())


def _exception_fill_failed(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException],
                           path: Path, typed: list[Any] | None) -> tuple[Any, int] | None:
    """The exception blank that failed, and its line: one filled too broadly, or one whose
    ``with pytest.raises`` let a different exception through from its body."""
    fills = [f for f in typed or () if f.raises_span and f.filled]
    if not fills:
        return None
    if isinstance(excinfo.value, TooBroad):
        return fills[0], fills[0].raises_span[0]
    target = os.path.normcase(str(path))
    found = None
    tb = excinfo.tb
    while tb is not None:  # the innermost frame of the file that stands in a raises' body
        if os.path.normcase(tb.tb_frame.f_code.co_filename) == target:
            for fill in fills:
                first, last = fill.raises_span
                if first < tb.tb_lineno <= last:
                    found = (fill, first)
        tb = tb.tb_next
    return found


def _falsifying_example(exc: BaseException) -> str:
    """Hypothesis notes the input that broke the koan; the learner needs to see it."""
    rows = [str(n) for n in getattr(exc, "__notes__", ())  # the wording varies by version
            if str(n).startswith(("Falsifying example", "Failing test case", "Falsifying explicit"))]
    if not rows:
        return ""
    return "\n  Hypothesis found an input that breaks it:\n" + "\n".join(
        "    " + row for note in rows for row in note.splitlines())


def _branch_note(src: Source, line: int) -> str:
    """Which way a version branch goes on this Python, when the line sits inside one."""
    if src.tree is None or not line:
        return ""
    for node in ast.walk(src.tree):
        if not isinstance(node, ast.If) or "version_info" not in ast.unparse(node.test):
            continue
        body_end = max(getattr(n, "end_lineno", 0) or 0 for n in node.body)
        in_body = node.body[0].lineno <= line <= body_end
        in_else = bool(node.orelse) and node.orelse[0].lineno <= line <= (node.end_lineno or 0)
        if not (in_body or in_else):
            continue
        condition = ast.unparse(node.test)
        try:
            taken = bool(eval(condition, {"sys": sys}))
        except Exception:
            continue
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        part = "the `if` part" if in_body else "the `else` part"
        return (f"\n  (on this Python, {version}, `{condition}` is {taken}: {part} is the one "
                "that runs here)")
    return ""


def broken_file(path: Path, config: pytest.Config) -> Verdict:
    """Why a koan file cannot even be imported: a SyntaxError, NameError, ImportError..."""
    rel = _relative(path, config)
    try:
        text = path.read_bytes()
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
    group.addoption("--koans-all", action="store_true", default=False, help=HELP_ALL)


def pytest_configure(config: pytest.Config) -> None:
    import math

    limit = config.getoption("koans_timeout")
    if not math.isfinite(limit) or limit < 0:
        raise pytest.UsageError(f"--koans-timeout={limit:g}: give a number of seconds, "
                                "0 (never) or more, and finite")
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
    # Hypothesis (where libcst is installed) turns a failing example into a patch that adds an
    # @example to the test, writes it under .hypothesis/patches/ and says "git apply" it: a
    # change outside the blanks, and ~0.4 s a save. The example is shown in the verdict instead.
    item.__dict__.pop("_hypothesis_failing_examples", None)
    path = Path(str(item.path))
    part = course_part(path, item.config.rootpath)
    if part is None:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        rel = _relative(path, item.config)
        if report.passed or report.skipped:
            verdict = _unchanged(item, path, rel) if part == "koans" else None
            if verdict is not None:  # it passed or skipped, but not as the koan asks
                report.outcome = "failed"
                report.longrepr = verdict.message
            elif report.passed:
                verdict = Verdict("passed", rel, 0, "")
            else:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
                verdict = Verdict("skipped", rel, 0, reason)
        elif call.excinfo is not None:
            verdict = classify(item, call.excinfo)
            if not item.config.getoption("koans_raw"):
                report.longrepr = verdict.message
        else:
            return
        report.user_properties.append((PROPERTY, verdict.as_dict()))
    _last_compare.pop(item.nodeid, None)


def _unchanged(item: pytest.Item, path: Path, rel: str) -> Verdict | None:
    """None when the learner's koan differs from the pristine one at its blanks alone; else
    the verdict that says where it differs (a pass or skip there does not count)."""
    found, why = alignment_of(path, item.config.rootpath)
    if found is None:
        return Verdict("changed", rel, 0, f"{rel}: this koan ran, but it cannot be compared with "
                       f"its original ({why}), so it does not count as solved")
    line = found.changed_at(_qualname(item))
    if line is None:
        return None
    code = source_of(path).line(line).strip()
    if why:  # compared with the answer key, for want of a pristine copy
        return Verdict("changed", rel, line, (
            f"{rel}:{line}: this koan ran, but no pristine copy of the file is known ({why}), "
            "and it differs from the answer key here, so it cannot be proven solved.\n    " + code))
    return Verdict("changed", rel, line, (
        f"{rel}:{line}: changed outside the blanks: this line differs from the original koan, "
        f"so the koan does not count as solved. Only the blanks are yours to fill: put the line "
        f"back (or `python tools/koans.py reset {rel}`, which backs up your version first)."
        f"\n    {code}"))


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[Any]:
    outcome = yield
    report = outcome.get_result()
    path = getattr(collector, "path", None)
    if isinstance(collector, pytest.Module) and path is not None and \
            course_part(Path(str(path)), collector.config.rootpath) == "koans":
        alignment_of(Path(str(path)), collector.config.rootpath)  # keeps a pristine copy
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


@pytest.hookimpl(tryfirst=True)  # before the path view sorts untouched koans into blank or skipped
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

    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        self.expected = self.scope()
        koan_items = [i for i in items if course_part(Path(str(i.path)), config.rootpath) == "koans"]
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
            if item in koan_items and _untouched(path, config.rootpath):
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
            if key == PROPERTY:
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
        for nodeid in self.expected:
            rel = nodeid.split("::")[0]
            if nodeid in have or rel in broken_files or rel in have:
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
        return [r for r in self.entries() if r["nodeid"].split("/", 1)[0] == "koans"]

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            return
        target = self.config.getoption("koans_json")
        if target:
            data = {"rootdir": str(self.config.rootpath), "koans": self.entries()}
            tmp = Path(f"{target}.tmp{os.getpid()}")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.replace(tmp, target)
        rows = self.koan_rows()
        if rows and session.exitstatus in (0, 5) and any(r["kind"] not in ("passed", "skipped") for r in rows):
            session.exitstatus = 1  # a koan not solved is never a green run, however it stopped

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        rows = self.koan_rows()
        if not rows:
            return
        tr = terminalreporter
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
                          "Nothing in this run can be solved on this machine; `pytest -rs` "
                          "shows what each skipped koan needs.")
            return
        tr.write_line(f"Next: {upcoming['nodeid']}")
        if upcoming.get("message"):
            tr.write_line("  " + upcoming["message"].splitlines()[0])
        tr.write_line("Walk the path with: python tools/koans.py   (every koan's report: "
                      "pytest koans --koans-all)")

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


def _untouched(path: Path, rootdir: Path) -> bool:
    """A koan file exactly as shipped (aligned with its pristine version, every blank empty)."""
    found, _ = alignment_of(path, rootdir)
    return found is not None and not found.changed and not any(f.filled for f in found.fills)


def _bar(done: int, total: int, width: int) -> str:
    filled = round(width * done / total) if total else width
    encoding = (getattr(sys.stdout, "encoding", None) or "ascii").lower().replace("-", "")
    full, empty = ("█", "░") if encoding in ("utf8", "utf16", "utf32") else ("#", ".")
    return full * filled + empty * (width - filled)
