"""Koan source as Python reads it, and a file aligned with its pristine koan, blank by blank.

Part of the course model (``course`` re-exports it): the plugin, the runner and the checker
read koan files and compare them with their pristine copies through these functions only.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BLANK_NAMES = ("__", "___")
BLANK_TOKEN = re.compile(r"(?<![\w.])_{2,3}(?!\w)")


# ---------------------------------------------------------------------------------------------
# Reading one koan's source (only for the koan on screen)


@dataclass(frozen=True)
class KoanSource:
    name: str
    lesson: str
    first_line: int
    last_line: int


def parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def koan_source(text: str, name: str) -> KoanSource | None:
    tree = parse(text)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            lesson = ast.get_docstring(node) or ""
            return KoanSource(name, lesson, node.lineno, node.end_lineno or node.lineno)
    return None


def blank_columns(text: str, lineno: int) -> list[tuple[int, int]]:
    """Column spans of the blanks on a line (from the AST, or a token scan if it won't parse)."""
    lines = text.splitlines()
    if not 0 < lineno <= len(lines):
        return []
    tree = parse(text)
    if tree is not None:
        spans = [
            (node.col_offset, node.end_col_offset or node.col_offset + len(node.id))
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and node.id in BLANK_NAMES and node.lineno == lineno
        ]
        # col offsets are in UTF-8 bytes; convert to characters
        raw = lines[lineno - 1].encode("utf-8")
        return sorted((len(raw[:a].decode("utf-8", "replace")), len(raw[:b].decode("utf-8", "replace"))) for a, b in spans)
    return [(m.start(), m.end()) for m in BLANK_TOKEN.finditer(lines[lineno - 1])]


def is_presolved(node: ast.AST) -> bool:
    return any("presolved" in ast.dump(deco) for deco in getattr(node, "decorator_list", []))


def looks_pristine(text: str) -> bool:
    """A koan file as shipped: it parses and every koan that is not pre-solved has a blank."""
    tree = parse(text)
    if tree is None:
        return False
    tests = [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
    ]
    for node in tests:
        if is_presolved(node):
            continue
        if not any(isinstance(n, ast.Name) and n.id in BLANK_NAMES for n in ast.walk(node)):
            return False
    return True


def answer_lines(koan_text: str | None, answer_text: str | None, name: str) -> list[tuple[int, str]]:
    """The answer's lines for the blanks of koan ``name``: every line of each fill (a fill may
    span lines), found by aligning the answer with the pristine koan; without the koan, the
    answer's lines that carry a comment (the one-line why)."""
    if not answer_text:
        return []
    answer = koan_source(answer_text, name)
    if answer is None:
        return []
    rows = answer_text.splitlines()
    wanted: set[int] = set()
    found = align(koan_text, answer_text) if koan_text else None
    for fill in found.fills if found is not None else ():
        if fill.test.split("::")[-1] == name and fill.filled:
            first = int(getattr(fill.node, "lineno", 0))
            wanted.update(range(first, int(getattr(fill.node, "end_lineno", first) or first) + 1))
    if not wanted:  # fall back to the lines that carry a comment (the one-line why)
        wanted = {n for n in range(answer.first_line, answer.last_line + 1) if "#" in rows[n - 1]}
    lines = [n for n in sorted(wanted) if 0 < n <= len(rows)]
    indent = min((len(rows[n - 1]) - len(rows[n - 1].lstrip()) for n in lines), default=0)
    return [(n, rows[n - 1][indent:].rstrip()) for n in lines]


# ---------------------------------------------------------------------------------------------
# Reading source as Python does, and aligning a file with its pristine koan


def decode(data: bytes) -> str:
    """Source bytes as Python reads them: a UTF-8 BOM or a coding cookie honoured, universal
    newlines. Raises SyntaxError or UnicodeDecodeError for bytes Python could not read either."""
    import importlib.util

    return importlib.util.decode_source(data)


def read_source(path: str | os.PathLike[str]) -> str | None:
    """A koan file's text, or None when it is missing, unreadable or not text Python can read."""
    try:
        with open(path, "rb") as handle:
            return decode(handle.read())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def test_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The koans of a module, as pytest finds them: ``test*`` functions at the top and in
    ``Test*`` classes, named ``test`` or ``Class::test``."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for inner in node.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) and inner.name.startswith("test"):
                    found.append((f"{node.name}::{inner.name}", inner))
    return found


BUILD_MARKS = ("version_info", "_is_gil_enabled", "GIL_ENABLED", "Py_GIL_DISABLED", "sys.platform")


def is_build_branch(test: ast.AST) -> bool:
    """Whether an ``if`` tests which Python runs (its version, a free-threaded build, the
    platform): one of its branches is never taken here, and is proven where it is."""
    text = ast.unparse(test)
    return any(mark in text for mark in BUILD_MARKS)


@dataclass
class Filled:
    """What stands at one blank of the pristine koan in another version of the file."""

    test: str  # 'test_x' or 'Class::test_x'
    index: int  # the blank's number within its test, in source order
    blank: str  # '__' or '___'
    node: ast.AST  # what stands there (a Name '__' while still unfilled)
    text: str  # its source text
    raises_span: tuple[int, int] | None = None  # the lines of its `with pytest.raises(...)`
    in_version_branch: bool = False  # inside an `if` (or `x if ... else y`) on the Python or its build

    @property
    def filled(self) -> bool:
        return not (isinstance(self.node, ast.Name) and self.node.id in BLANK_NAMES)

    @property
    def lineno(self) -> int:
        return int(getattr(self.node, "lineno", 0))


@dataclass
class Alignment:
    """A file compared with its pristine koan: the fills at the blanks, and where it differs
    elsewhere (test -> first line that differs; '' for code outside any test)."""

    fills: list[Filled]
    changed: dict[str, int]
    tests: list[str]

    def fills_of(self, test: str) -> list[Filled]:
        return [f for f in self.fills if f.test == test]

    def changed_at(self, test: str) -> int | None:
        """The first line outside the blanks that differs and concerns ``test``."""
        if test in self.changed:
            return self.changed[test]
        return self.changed.get("")


def _same_constant(a: object, b: object) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def source_lines(text: str) -> list[str]:
    """``text`` split into lines as the parser splits it (a form feed ends no line), ends kept."""
    return _LINE.findall(text)


def source_segment(lines: list[str], node: ast.AST) -> str | None:
    """``ast.get_source_segment`` on the lines of ``source_lines``, without splitting the whole
    source again for every node."""
    first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    start, end = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if first is None or last is None or start is None or end is None:
        return None
    first, last = first - 1, last - 1
    if not 0 <= first <= last < len(lines):
        return None
    if first == last:
        return lines[first].encode()[start:end].decode()
    return "".join([lines[first].encode()[start:].decode(), *lines[first + 1:last],
                    lines[last].encode()[:end].decode()])


class _Aligner:
    def __init__(self, other_text: str) -> None:
        self.text = other_text
        self.lines = source_lines(other_text)
        self.fills: list[Filled] = []
        self.changed: dict[str, int] = {}
        self.test = ""
        self.cls = ""
        self.raises: tuple[int, int] | None = None  # the `with pytest.raises` around us
        self.raises_arg: Any = None  # the blank that is the exception type of that `raises`
        self.line = 0  # the line of the innermost node being compared, in the other file
        self.versioned = 0  # how many `if sys.version_info ...` branches enclose the node

    def differ(self, k: Any, a: Any) -> None:
        line = getattr(a, "lineno", None) or getattr(k, "lineno", None)
        if isinstance(k, list) and k:
            line = getattr(a[0] if isinstance(a, list) and a else k[0], "lineno", None)
        self.changed.setdefault(self.test, int(line or self.line))

    def _body_with_new_tests(self, k: list[Any], a: list[Any]) -> bool:
        """A module's (or test class's) statements where the other file only adds test
        functions of its own: the pristine statements are compared in order, and each added
        test is a change of that test alone (the koans beside it are untouched)."""
        names = {getattr(n, "name", None) for n in k}
        added = [n for n in a if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name.startswith("test") and n.name not in names]
        kept = [n for n in a if not any(n is m for m in added)]
        seen = [getattr(n, "name", None) for n in a if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        if not added or len(kept) != len(k) or len(seen) != len(set(seen)):
            return False
        for x, y in zip(k, kept, strict=True):
            self.visit(x, y)
        prefix = f"{self.cls}::" if self.cls else ""
        for node in added:
            self.changed.setdefault(prefix + node.name, node.lineno)
        return True

    def visit(self, k: Any, a: Any) -> None:
        if isinstance(k, ast.Name) and k.id in BLANK_NAMES:
            if not isinstance(a, ast.expr) or not self.test:
                self.differ(k, a)
                return
            text = source_segment(self.lines, a) or ast.unparse(a)
            index = sum(f.test == self.test for f in self.fills)
            span = self.raises if k is self.raises_arg else None
            self.fills.append(Filled(self.test, index, k.id, a, text, span, self.versioned > 0))
            return
        if isinstance(k, ast.AST):
            if type(k) is not type(a):
                self.differ(k, a)
                return
            self.line = getattr(a, "lineno", None) or self.line
            outer = (self.test, self.cls, self.raises, self.raises_arg)
            versioned = isinstance(k, (ast.If, ast.IfExp)) and is_build_branch(k.test)
            self.versioned += versioned
            if isinstance(k, ast.ClassDef) and not self.test:
                self.cls = k.name
            elif isinstance(k, (ast.FunctionDef, ast.AsyncFunctionDef)) and k.name.startswith("test") \
                    and not self.test:
                self.test = f"{self.cls}::{k.name}" if self.cls else k.name
            elif isinstance(k, (ast.With, ast.AsyncWith)) and any(
                    _is_raises(item.context_expr) for item in k.items):
                self.raises = (int(getattr(a, "lineno", 0)), int(getattr(a, "end_lineno", 0) or getattr(a, "lineno", 0)))
                self.raises_arg = next(item.context_expr.args[0] for item in k.items
                                       if isinstance(item.context_expr, ast.Call)
                                       and _is_raises(item.context_expr) and item.context_expr.args)
            for name in k._fields:
                if name == "ctx":
                    continue
                self.visit(getattr(k, name, None), getattr(a, name, None))
            self.test, self.cls, self.raises, self.raises_arg = outer
            self.versioned -= versioned
        elif isinstance(k, list):
            if not isinstance(a, list):
                self.differ(k, a)
                return
            if len(k) != len(a) and not self.test and self._body_with_new_tests(k, a):
                return
            if len(k) != len(a):
                self.differ(k, a)
                return
            for x, y in zip(k, a, strict=True):
                self.visit(x, y)
        elif not _same_constant(k, a):
            self.differ(k, a)


def _is_raises(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call)
            and ((isinstance(node.func, ast.Attribute) and node.func.attr == "raises")
                 or (isinstance(node.func, ast.Name) and node.func.id == "raises")))


def align(pristine_text: str, other_text: str) -> Alignment | None:
    """Compare a file with its pristine koan, blank by blank. None if either does not parse."""
    pristine, other = parse(pristine_text), parse(other_text)
    if pristine is None or other is None:
        return None
    aligner = _Aligner(other_text)
    aligner.visit(pristine, other)
    return Alignment(aligner.fills, aligner.changed, [name for name, _ in test_functions(pristine)])


@functools.lru_cache(maxsize=64)  # a step asks it of the same two texts a few times
def is_pristine_of(candidate: str, answer: str) -> bool:
    """Whether ``candidate`` is the koan file whose answer is ``answer``: the two differ at the
    candidate's blanks alone, and every koan that is not pre-solved has a blank."""
    tree = parse(candidate)
    found = align(candidate, answer) if tree is not None else None
    if found is None or found.changed:
        return False
    with_blank = {f.test for f in found.fills}
    return tree is not None and all(name in with_blank or is_presolved(node)
                                    for name, node in test_functions(tree))


def restatement(func: ast.FunctionDef | ast.AsyncFunctionDef, fill: ast.AST) -> str | None:
    """Why ``fill`` (a node inside ``func``) cannot fail whatever the machine does: it repeats
    the other side of its comparison, or it is computed from the test's own variables. A fill is
    a value predicted, not the question again. None when it is neither."""
    line, col = getattr(fill, "lineno", None), getattr(fill, "col_offset", None)
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1 and \
                any(c.lineno == line and c.col_offset == col for c in node.comparators) and \
                ast.dump(node.left) == ast.dump(fill):
            return "repeats the left side of its comparison"
    local: set[str] = set()  # bound in the body (a Hypothesis koan's parameters are its inputs)
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)
    used = sorted({n.id for n in ast.walk(fill) if isinstance(n, ast.Name) and n.id in local})
    if used:
        return f"is computed from the test's own variable{'s' * (len(used) > 1)} {', '.join(used)}"
    return None


def node_at(tree: ast.AST, like: ast.AST) -> ast.AST | None:
    """The expression in ``tree`` that stands where ``like`` stands (same span, same kind)."""
    span = (getattr(like, "lineno", None), getattr(like, "col_offset", None),
            getattr(like, "end_lineno", None), getattr(like, "end_col_offset", None))
    for node in ast.walk(tree):
        if type(node) is type(like) and (getattr(node, "lineno", None), getattr(node, "col_offset", None),
                                         getattr(node, "end_lineno", None),
                                         getattr(node, "end_col_offset", None)) == span:
            return node
    return None


def koan_sources(text: str) -> tuple[str, dict[str, str]] | None:
    """What each koan of a file depends on, as text: the module's code outside the test
    functions (imports, helpers, constants, fixtures: any koan may use them), and each test
    function's own lines, decorators included. None when the file does not parse, or holds a
    test class (whose koans share its body): then every koan runs."""
    tree = parse(text)
    if tree is None or any(isinstance(n, ast.ClassDef) and n.name.startswith("Test") for n in tree.body):
        return None
    rows = text.splitlines()
    own: dict[str, str] = {}
    taken: set[int] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            last = node.end_lineno or node.lineno
            if node.name in own:
                return None  # a name defined twice: the later one wins; when in doubt, run all
            own[node.name] = "\n".join(rows[first - 1:last])
            taken.update(range(first, last + 1))
    module = "\n".join(row for number, row in enumerate(rows, 1) if number not in taken)
    return module, own


SUPPORT_FILES = ("conftest.py", "pyproject.toml")


def copy_support(source: Path, target: Path) -> None:
    """Make ``target`` a course pytest can run like ``source``: the conftest, the pytest
    configuration and the course model the conftest imports (tools/koanrunner, copied)."""
    import shutil

    for name in SUPPORT_FILES:
        if (source / name).is_file():
            shutil.copy2(source / name, target / name)
    model = source / "tools" / "koanrunner"
    if model.is_dir() and not (target / "tools" / "koanrunner").exists():
        shutil.copytree(model, target / "tools" / "koanrunner",
                        ignore=shutil.ignore_patterns("__pycache__"))
