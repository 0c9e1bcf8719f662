"""The verdict on a koan: passed, skipped, blank, wrong, error, timeout, changed or broken,
with a short message that points at the learner's line.

A failing koan is classified and, unless ``--koans-raw`` is given, its report is replaced by
that message. The verdict travels in ``report.user_properties`` (so it survives ``-n auto``);
the path summary, the runner and the checker read it from there. A koan that passed or skipped
counts only when the learner's file differs from the pristine koan at its blanks alone.
"""

from __future__ import annotations

import ast
import os
import sys
import sysconfig
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .. import course as model
from ..source import is_build_branch
from . import current
from .blanks import UnfilledBlank
from .difference import kind_of_difference
from .environment import KoanTimeout
from .exact import TooBroad
from .fills import NotAValue, fill_line, fill_text, recorder_of
from .guards import KoanStopped
from .sources import (
    Source,
    alignment_of,
    course_part,
    deepest_line,
    koan_notes,
    misconception_for,
    qualname,
    relative,
    source_of,
    typed_fills,
)

PROPERTY = "koan"


@dataclass
class Verdict:
    kind: str  # passed | skipped | blank | wrong | error | timeout | broken
    file: str
    line: int
    message: str
    brief: str = ""  # a wrong value's first try: what kind of thing is wrong, not the value
    typed: str = ""  # what was typed at the koan's blanks, to tell one try from the next
    picture: dict[str, Any] | None = None  # drawn after a pass: {"unicode": [...], "ascii": [...]}

    def as_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"kind": self.kind, "file": self.file, "line": self.line,
                               "message": self.message}
        if self.brief:
            row.update(brief=self.brief, typed=self.typed)
        if self.picture:
            row["picture"] = self.picture
        return row




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




def classify(item: pytest.Item, excinfo: pytest.ExceptionInfo[BaseException]) -> Verdict:
    path = Path(str(item.path))
    rel = relative(path, item.config)
    src = source_of(path)
    exc = excinfo.value
    line = deepest_line(excinfo.tb, path) or (item.reportinfo()[1] or 0) + 1
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
            head = f"you wrote {fill.text}, Python raised {type(exc).__name__}: {shown(exc)}"
        text = f"{rel}:{where}: not yet: {head}\n    {src.line(where).strip()}"
        text += _why(misconception_for(notes, [fill]))
        return Verdict("wrong", rel, where, text + _branch_note(src, where))
    if isinstance(exc, NotAValue):
        text = f"{rel}:{line}: not yet: you wrote {fill_text(item, exc.key)}, {exc.why}\n    {code}"
        text += _why(misconception_for(notes, typed))
        return Verdict("wrong", rel, line, text + _branch_note(src, line))
    if isinstance(exc, KoanStopped):
        return Verdict("error", rel, line, f"{rel}:{line}: stopped: {exc}\n    {code}")
    if isinstance(exc, AssertionError):
        compare = current.last_compare(item.nodeid)
        brief = ""
        if compare:
            op, left, right, value, actual = compare
            if op in ("==", "is"):
                head = f"you wrote {right}, Python says {left}"
                brief = f"you wrote {right}: {kind_of_difference(actual, value)}"
            elif op in ("!=", "is not"):
                head = f"Python says both sides are {left}"
            else:
                head = f"Python says this is false: {left} {op} {right}"
            text = f"{rel}:{line}: not yet: {head}\n    {code}"
        else:
            detail = shown(exc).split("\n")[0]
            text = f"{rel}:{line}: not yet: this assertion is still false\n    {code}"
            if detail and not detail.startswith("assert "):
                text += f"\n  {detail}"
            value = NotImplemented
        tail = _falsifying_example(exc) + _why(misconception_for(notes, typed, value))
        tail += _branch_note(src, line)
        verdict = Verdict("wrong", rel, line, text + tail)
        if brief and typed:
            verdict.brief = f"{rel}:{line}: not yet: {brief}\n    {code}" + tail
            verdict.typed = " | ".join(f.text for f in typed)
        return verdict

    text = f"{rel}:{line}: Python raised {type(exc).__name__}: {shown(exc)}\n    {code}"
    return Verdict("error", rel, line, text + _falsifying_example(exc) + _branch_note(src, line))


MESSAGE_LIMIT = 2000  # characters of an exception's message shown; the rest is cut


def shown(exc: BaseException) -> str:
    """An exception's message as a learner can read it: whatever its ``__str__`` does (raise,
    return megabytes), a line or a few, never a crash of the plugin."""
    try:
        text = str(exc)
    except BaseException as err:
        return f"<the message could not be shown: its __str__ raised {type(err).__name__}>"
    if len(text) > MESSAGE_LIMIT:
        text = text[:MESSAGE_LIMIT] + f" ... ({len(text) - MESSAGE_LIMIT} more characters)"
    return text


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
    tb: Any = excinfo.tb
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
    """Which way a branch on the Python (its version, its build) goes here, when the line sits
    inside one."""
    if src.tree is None or not line:
        return ""
    for node in ast.walk(src.tree):
        if not isinstance(node, ast.If) or not is_build_branch(node.test):
            continue
        body_end = max(getattr(n, "end_lineno", 0) or 0 for n in node.body)
        in_body = node.body[0].lineno <= line <= body_end
        in_else = bool(node.orelse) and node.orelse[0].lineno <= line <= (node.end_lineno or 0)
        if not (in_body or in_else):
            continue
        condition = ast.unparse(node.test)
        try:
            taken = bool(eval(condition, {"sys": sys, "sysconfig": sysconfig}))
        except Exception:
            continue
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        part = "the `if` part" if in_body else "the `else` part"
        return (f"\n  (on this Python, {version}, `{condition}` is {taken}: {part} is the one "
                "that runs here)")
    return ""


def broken_file(path: Path, config: pytest.Config) -> Verdict:
    """Why a koan file cannot even be imported: a SyntaxError, NameError, ImportError..."""
    rel = relative(path, config)
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
        line = deepest_line(err.__traceback__, path)
        shown = source_of(path).line(line).strip()
        message = (
            f"{rel}:{line}: this file stops before any koan runs: "
            f"{type(err).__name__}: {err}\n    {shown}"
        )
        return Verdict("broken", rel, line, message)
    return Verdict("broken", rel, 0, f"{rel}: pytest could not collect this file")






# --------------------------------------------------------------------------------------------
# Hooks


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> None:
    item = current.item()
    if item is not None:
        current.compared(item.nodeid, op, _short(left), _short(right), right, left)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    current.enter(item)
    try:
        yield
    finally:
        current.leave()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
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
        rel = relative(path, item.config)
        if report.passed or report.skipped:
            verdict = _unchanged(item, path, rel) if part == "koans" else None
            if verdict is None and part == "koans":
                verdict = _typed_as_values(item, path, rel, report)
            if verdict is not None:  # it passed or skipped, but not as the koan asks
                report.outcome = "failed"
                report.longrepr = verdict.message
            elif report.passed:
                verdict = Verdict("passed", rel, 0, "", picture=picture_of(item, path))
            else:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
                verdict = Verdict("skipped", rel, 0, reason)
        elif call.excinfo is not None:
            verdict = classify(item, call.excinfo)
            if verdict.brief and first_wrong_try(item.config, item.nodeid, verdict.typed):
                verdict.message = verdict.brief  # the value waits for the next wrong try
            if not item.config.getoption("koans_raw"):
                report.longrepr = verdict.message
        else:
            return
        report.user_properties.append((PROPERTY, verdict.as_dict()))
    current.forget(item.nodeid)


def picture_of(item: pytest.Item, path: Path) -> dict[str, Any] | None:
    """The picture a koan names in its hints (``picture = "float_bits(0.1)"``), drawn after it
    passed, in its own module's namespace, in both styles; or why it cannot be drawn. The
    learner's process shows it; the checker proves every named picture draws."""
    notes = koan_notes(path, item.config.rootpath, getattr(item, "originalname", item.name))
    expression = notes.get("picture")
    if not isinstance(expression, str) or not expression.strip():
        return None
    from ..pictures import draw

    namespace = getattr(getattr(item, "module", None), "__dict__", {})
    try:
        return {"expression": expression, "unicode": draw(expression, namespace, unicode=True),
                "ascii": draw(expression, namespace, unicode=False)}
    except ValueError as err:
        return {"expression": expression, "error": str(err)}


def first_wrong_try(config: pytest.Config, nodeid: str, typed: str) -> bool:
    """Whether ``typed`` is the learner's first wrong fill of this koan, as pytest's cache
    remembers it (no cache, as in the runner's server: no, the runner decides itself)."""
    cache = getattr(config, "cache", None)
    if cache is None or show_values(config):
        return False
    key = "koans/tries/" + nodeid
    tries = [t for t in cache.get(key, []) if isinstance(t, str)]
    if typed not in tries:
        tries = [*tries, typed][-20:]
        cache.set(key, tries)
    return len(tries) < 2


def show_values(config: pytest.Config) -> bool:
    """The learner asked to see wrong values at once (``--koans-show-values``, or
    ``"show_values": true`` in the course's .koans/settings.json)."""
    return bool(config.getoption("koans_show_values")) or model.setting(config.rootpath, "show_values")


def _typed_as_values(item: pytest.Item, path: Path, rel: str, report: Any) -> Verdict | None:
    """None when what the learner typed at this koan's blanks are values; else why not: a fill
    that skipped the koan while it was evaluated, or one that restates the question."""
    recorder = recorder_of(item)
    if report.skipped and recorder is not None and recorder.entering is not None:
        text, line = fill_text(item, recorder.entering), fill_line(item, recorder.entering)
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        return Verdict("wrong", rel, line, f"{rel}:{line}: not yet: you wrote {text}, which "
                       f"skipped the koan ({reason}): a fill is a value, not an instruction "
                       f"to pytest\n    {source_of(path).line(line).strip()}")
    if not report.passed:
        return None
    src = source_of(path)
    func = src.function(qualname(item).split("::")[-1])
    for fill in typed_fills(item) or ():
        node = model.node_at(src.tree, fill.node) if src.tree is not None else None
        why = model.restatement(func, node) if func is not None and node is not None else None
        if why:
            return Verdict("wrong", rel, fill.lineno, (
                f"{rel}:{fill.lineno}: not yet: you wrote {fill.text}, which {why}: a fill is "
                f"the value you predict, not the question again\n    {src.line(fill.lineno).strip()}"))
    return None


def _unchanged(item: pytest.Item, path: Path, rel: str) -> Verdict | None:
    """None when the learner's koan differs from the pristine one at its blanks alone; else
    the verdict that says where it differs (a pass or skip there does not count)."""
    found, why = alignment_of(path, item.config.rootpath)
    if found is None:
        return Verdict("changed", rel, 0, f"{rel}: this koan ran, but it cannot be compared with "
                       f"its original ({why}), so it does not count as solved")
    line = found.changed_at(qualname(item))
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
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
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
            rel = relative(Path(str(path)), collector.config)
            report.koan_verdict = Verdict("skipped", rel, 0, reason).as_dict()
