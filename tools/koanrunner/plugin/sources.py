"""Reading koan files for the verdicts: their source, their hints and misconceptions, and the
learner's file aligned with its pristine koan (what was typed at each blank, what changed).

Everything here is read through the one course model (``koanrunner.course``), so the plugin,
the runner and the checker agree on what a koan file holds.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .. import course as model
from .blanks import BLANK_NAMES

COURSE_DIRS = ("koans", "answers")


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


def within(path: Path, rootdir: Path) -> Path:
    """``path`` relative to ``rootdir``, as the learner names it: a koan file that is a symlink
    to elsewhere is still the koan file it stands for. Raises ValueError outside the course."""
    absolute = Path(os.path.abspath(path))
    for base in (Path(os.path.abspath(rootdir)), Path(rootdir).resolve()):
        try:
            return absolute.relative_to(base)
        except ValueError:
            continue
    return path.resolve().relative_to(Path(rootdir).resolve())


def course_part(path: Path, rootdir: Path) -> str | None:
    """'koans' or 'answers' when ``path`` lies in one of them under ``rootdir``."""
    try:
        first = within(path, rootdir).parts[0]
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
        rel = within(topic, rootdir)
        candidates.append(rootdir / "koans" / Path(*rel.parts[1:]) / "hints.toml")
    except ValueError:
        pass
    for candidate in candidates:
        if candidate.is_file():  # a broken hints file reads as none: it never breaks a run
            return dict(model.load_toml(candidate).get(test_name, {}))
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


_ALIGNED: dict[tuple[str, int, int], tuple[Any, str, str | None]] = {}


def alignment_of(path: Path, rootdir: Path) -> tuple[Any, str]:
    """The learner's koan file aligned with its pristine version: (Alignment, "") or (None, why
    it cannot be). Answers align with their koans the same way."""
    found, why, _ = _aligned(path, rootdir)
    return found, why


def answer_fills(path: Path, rootdir: Path) -> dict[str, str]:
    """The answer key's fill at each blank of a koan file, by ``test#index``: what a learner's
    value is checked against. Empty where no pristine copy or answer is known."""
    _, _, pristine = _aligned(path, rootdir)
    rel = within(path, rootdir).as_posix()
    answer = answer_text(rootdir, "answers" + rel[len("koans"):])
    return dict(_fills_of(pristine, answer)) if pristine is not None and answer is not None else {}


@functools.lru_cache(maxsize=16)
def _fills_of(pristine: str, answer: str) -> tuple[tuple[str, str], ...]:
    found = model.align(pristine, answer)
    return tuple((f"{f.test}#{f.index}", f.text) for f in (found.fills if found else ()) if f.filled)


def warm(rootdir: Path, rel: str) -> None:
    """Read now what a run of koan file ``rel`` reads that no edit of the learner's changes (its
    topic's hints, its pristine koan proven against the answer key, the answer key's fills, the
    code that draws pictures): the runner's server does, before the learner's next save."""
    from .. import pictures  # noqa: F401 - what a koan solved in this file may draw
    from ..pristine import Pristine

    path = rootdir / rel
    koan_notes(path, rootdir, "")
    pristine, _ = Pristine(model.Course(rootdir)).text(rel)
    answer = answer_text(rootdir, "answers" + rel[len("koans"):])
    if pristine is not None and answer is not None:
        _fills_of(pristine, answer)


def answer_text(rootdir: Path, rel: str) -> str | None:
    """An answer file as the course shipped it (see ``Pristine.answer``)."""
    from ..pristine import Pristine

    try:
        return Pristine(model.Course(rootdir)).answer(rel)
    except Exception:  # an unreadable .koans/ must not stop the koans
        return model.read_source(rootdir / rel)


def _aligned(path: Path, rootdir: Path) -> tuple[Any, str, str | None]:
    try:
        st = path.stat()
    except OSError:
        return None, "the file is missing", None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _ALIGNED:
        _ALIGNED[key] = _align(path, rootdir)
    return _ALIGNED[key]


def _align(path: Path, rootdir: Path) -> tuple[Any, str, str | None]:
    """(alignment, why not, the pristine text it was aligned with)."""
    from ..pristine import Pristine

    part = course_part(path, rootdir)
    rel = within(path, rootdir).as_posix()
    text = model.read_source(path)
    if text is None:
        return None, "Python cannot read the file", None
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
        answer = answer_text(rootdir, "answers" + rel[len("koans"):])
        if answer is not None:
            found = model.align(answer, text)
            return (found, why, None) if found is not None else (None, "the file does not parse", None)
    if pristine is None:
        return None, why, None
    found = model.align(pristine, text)
    return (found, "", pristine) if found is not None else (None, "the file does not parse", None)


def typed_fills(item: pytest.Item) -> list[Any] | None:
    found, _ = alignment_of(Path(str(item.path)), item.config.rootpath)
    if found is None:
        return None
    return found.fills_of(qualname(item))


def qualname(item: pytest.Item) -> str:
    name = getattr(item, "originalname", None) or item.name.split("[")[0]
    cls = getattr(item, "cls", None)
    return f"{cls.__name__}::{name}" if cls is not None else name



def relative(path: Path, config: pytest.Config) -> str:
    try:
        return within(path, config.rootpath).as_posix()
    except ValueError:
        return path.as_posix()


def deepest_line(tb: Any, path: Path) -> int:
    """The line of the deepest traceback entry in ``path`` (the learner's file)."""
    lineno = 0
    target = os.path.normcase(str(path))
    while tb is not None:
        if os.path.normcase(tb.tb_frame.f_code.co_filename) == target:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    return lineno
