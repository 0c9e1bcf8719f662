"""What a learner typed at a blank must be a value: the one Python computes, of its type.

A koan file is imported through ``KoanLoader``: before pytest rewrites its asserts, every filled
blank (found by aligning the file with its pristine koan) is wrapped, so that ``expr`` becomes
``__koan_fill__(__koan_enter__(key), expr)``. When the koan reaches the blank, the value typed
there is checked against the answer key's fill, evaluated in the same place:

- a value blank takes a value of the answer's type, all the way down a tuple, list, set or
  dict: an object that claims to equal everything (``mock.ANY``, an ``__eq__`` that returns
  True, ``pytest.approx``) or ``1`` where Python gives ``True`` is refused, however the
  comparison would have gone;
- an exception blank takes one exception class, not a tuple of them.

``__koan_enter__`` marks that a fill is being evaluated: an exception that escapes it (a skip,
an exit) came from what the learner typed, and the verdicts say so instead of taking a skip.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from .sources import COURSE_DIRS, alignment_of, answer_fills, course_part, within

FILL = "__koan_fill__"
ENTER = "__koan_enter__"
CONTAINERS = (tuple, list, set, frozenset, dict)


class NotAValue(AssertionError):
    """What was typed at a blank is not a value of the kind Python computes there."""

    def __init__(self, key: str, why: str) -> None:
        super().__init__(why)
        self.key = key
        self.why = why


class Recorder:
    """The fills of one koan module: each checked against the answer key as it is evaluated."""

    def __init__(self, path: Path, rootdir: Path, blanks: dict[str, str]) -> None:
        self.path = path
        self.rootdir = rootdir
        self.blanks = blanks  # key -> "__" or "___"
        self.entering: str | None = None  # the fill being evaluated now, if any
        self._answers: dict[str, str] | None = None
        self._expected: dict[str, Any] = {}

    def enter(self, key: str) -> str:
        self.entering = key
        return key

    def fill(self, key: str, value: Any) -> Any:
        __tracebackhide__ = True
        self.entering = None
        if self.blanks.get(key) == "___":
            if not (isinstance(value, type) and issubclass(value, BaseException)):
                kind = "a tuple of classes" if isinstance(value, tuple) else _a(value)
                raise NotAValue(key, f"{kind}, where an exception blank takes one exception "
                                "class: the one Python raises")
            return value
        expected = self.expected(key, sys._getframe(1))
        if expected is not _UNKNOWN:
            why = mismatch(value, expected)
            if why:
                raise NotAValue(key, why)
        return value

    def expected(self, key: str, frame: Any) -> Any:
        """The answer key's fill for ``key``, evaluated where the koan evaluates the blank."""
        if key in self._expected:
            return self._expected[key]
        if self._answers is None:
            self._answers = answer_fills(self.path, self.rootdir)
        text = self._answers.get(key)
        value: Any = _UNKNOWN
        if text is not None:
            try:
                value = eval(compile(text, "<answer>", "eval", dont_inherit=True),
                             frame.f_globals, dict(frame.f_locals))
            except BaseException:  # an answer that needs what the koan has not built: no check
                value = _UNKNOWN
        self._expected[key] = value
        return value


_UNKNOWN = object()


def mismatch(value: Any, expected: Any, where: str = "") -> str | None:
    """Why ``value`` is not a value of the kind ``expected`` is (None when it is)."""
    if type(value) is not type(expected):
        return (f"{_a(value)}{where}, where Python computes {_a(expected)}: a fill must be a "
                "value of that type (an object that claims to equal anything proves nothing)")
    if isinstance(expected, (tuple, list)):
        if len(value) != len(expected):
            return None  # the comparison itself tells the learner what is wrong
        for i, (v, e) in enumerate(zip(value, expected, strict=True)):
            why = mismatch(v, e, f"{where} at index {i}")
            if why:
                return why
    elif isinstance(expected, (set, frozenset)):
        kinds = {type(item) for item in expected}
        odd = next((item for item in value if type(item) not in kinds), _UNKNOWN)
        if odd is not _UNKNOWN and kinds:
            return mismatch(odd, next(iter(expected)), f"{where} in the set")
    elif isinstance(expected, dict):
        for k, e in expected.items():
            if k in value:
                why = mismatch(value[k], e, f"{where} at key {k!r}")
                if why:
                    return why
    return None


def _a(value: Any) -> str:
    name = type(value).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


# --------------------------------------------------------------------------------------------
# Importing a koan file with its fills wrapped


class _Wrap(ast.NodeTransformer):
    """Wrap each node at ``spans`` in ``__koan_fill__(__koan_enter__(key), node)``."""

    def __init__(self, spans: dict[tuple[int, int, int, int], str]) -> None:
        self.spans = spans

    def visit_match_case(self, node: ast.match_case) -> ast.match_case:
        # Patterns are not expressions: a call there does not compile. Only the guard and body.
        node.guard = self.visit(node.guard) if node.guard is not None else None
        node.body = [self.visit(stmt) for stmt in node.body]
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if not isinstance(node, ast.expr) or isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            return node
        key = self.spans.get((node.lineno, node.col_offset, node.end_lineno or 0, node.end_col_offset or 0))
        if key is None:
            return node
        enter = ast.Call(ast.Name(ENTER, ast.Load()), [ast.Constant(key)], [])
        return ast.copy_location(ast.Call(ast.Name(FILL, ast.Load()), [enter, node], []), node)


def fill_key(test: str, index: int) -> str:
    return f"{test}#{index}"


class KoanLoader(importlib.abc.Loader):
    def __init__(self, path: Path, config: pytest.Config) -> None:
        self.path = path
        self.config = config

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        from _pytest.assertion.rewrite import rewrite_asserts

        source = self.path.read_bytes()
        tree = ast.parse(source, filename=str(self.path))
        found, _ = alignment_of(self.path, self.config.rootpath)
        spans: dict[tuple[int, int, int, int], str] = {}
        blanks: dict[str, str] = {}
        for fill in (found.fills if found is not None else ()):
            node = fill.node
            if fill.filled and isinstance(node, ast.expr):
                key = fill_key(fill.test, fill.index)
                spans[(node.lineno, node.col_offset, node.end_lineno or 0, node.end_col_offset or 0)] = key
                blanks[key] = fill.blank
        recorder = Recorder(self.path, self.config.rootpath, blanks)
        if spans:
            tree = ast.fix_missing_locations(_Wrap(spans).visit(tree))
        rewrite_asserts(tree, source, str(self.path), self.config)
        code = compile(tree, str(self.path), "exec", dont_inherit=True)
        module.__dict__[FILL] = recorder.fill
        module.__dict__[ENTER] = recorder.enter
        module.__dict__["__koan_recorder__"] = recorder
        exec(code, module.__dict__)


class KoanFinder(importlib.abc.MetaPathFinder):
    """Finds the koan files of the course (``koans/``, not ``answers/``) for pytest's import."""

    koans_fill_finder = True

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if not path or not name.rpartition(".")[2].startswith("test_"):
            return None
        candidate = Path(str(next(iter(path))), name.rpartition(".")[2] + ".py")
        if not candidate.is_file() or course_part(candidate, self.config.rootpath) != COURSE_DIRS[0]:
            return None
        if "katas" in within(candidate, self.config.rootpath).parts:
            return None
        return importlib.util.spec_from_file_location(name, candidate,
                                                      loader=KoanLoader(candidate, self.config))


def recorder_of(item: pytest.Item) -> Recorder | None:
    module = getattr(item, "module", None)
    return getattr(module, "__koan_recorder__", None) if module is not None else None


def pytest_configure(config: pytest.Config) -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "koans_fill_finder", False)]
    sys.meta_path.insert(0, KoanFinder(config))


def pytest_unconfigure(config: pytest.Config) -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "koans_fill_finder", False)]


def _typed(item: pytest.Item, key: str) -> Any:
    found, _ = alignment_of(Path(str(item.path)), item.config.rootpath)
    return next((fill for fill in (found.fills if found is not None else ())
                 if fill_key(fill.test, fill.index) == key), None)


def fill_text(item: pytest.Item, key: str) -> str:
    """What the learner typed at the fill ``key`` of ``item``'s file."""
    fill = _typed(item, key)
    return fill.text if fill is not None else key


def fill_line(item: pytest.Item, key: str) -> int:
    fill = _typed(item, key)
    return fill.lineno if fill is not None else 0

