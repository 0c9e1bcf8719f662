"""The course model: topics and koan files on disk, lessons, hints and answers.

Only the standard library, and only cheap work: the path to a koan never parses every file.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .early import state_dir

BLANK_NAMES = ("__", "___")
KOANS = "koans"
ANSWERS = "answers"
TEST_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)", re.M)
BLANK_TOKEN = re.compile(r"(?<![\w.])_{2,3}(?!\w)")
NEEDS = {
    "torch": re.compile(r"^\s*(?:import|from)\s+torch\b|importorskip\(\s*['\"]torch", re.M),
    "numpy": re.compile(r"^\s*(?:import|from)\s+numpy\b", re.M),
    "hypothesis": re.compile(r"^\s*(?:import|from)\s+hypothesis\b", re.M),
}


def koan_key(nodeid: str) -> str:
    """The stable identity of a koan: 'topic/file.py::test_name[param]' (no 'koans/' prefix)."""
    return nodeid.split("/", 1)[1] if nodeid.startswith(KOANS + "/") else nodeid


def test_name(nodeid: str) -> str:
    return nodeid.split("::")[-1].split("[")[0]


@dataclass(frozen=True)
class KoanFile:
    """One koan file, by its path relative to the course root ('koans/01_x/test_01_y.py')."""

    root: Path
    rel: str

    @property
    def path(self) -> Path:
        return self.root / self.rel

    @property
    def topic(self) -> str:
        return self.rel.split("/")[1]

    @property
    def name(self) -> str:
        return self.rel.rsplit("/", 1)[-1]

    @property
    def answer_path(self) -> Path:
        return self.root / ANSWERS / self.rel.split("/", 1)[1]

    def exists(self) -> bool:
        return self.path.is_file()

    def _scan(self) -> _Scan | None:
        return _scan(str(self.path))

    def read(self) -> str | None:
        scan = self._scan()
        return scan.text if scan else None

    def digest(self) -> str | None:
        scan = self._scan()
        return scan.digest if scan else None

    def needs(self) -> list[str]:
        """The heavy modules this file imports, so the fork server can have them warm."""
        scan = self._scan()
        return list(scan.needs) if scan else []

    def test_names(self) -> list[str]:
        """Test functions defined in the file (a cheap scan; parametrized tests count once)."""
        scan = self._scan()
        return list(scan.test_names) if scan else []

    def expected_names(self) -> list[str]:
        """The koans this file must hold: the answer key's test functions (a cheap scan)."""
        scan = _scan(str(self.answer_path))
        return list(scan.test_names) if scan else []

    def answer_digest(self) -> str | None:
        scan = _scan(str(self.answer_path))
        return scan.digest if scan else None


_listed: dict[str, tuple[int, tuple[str, ...]]] = {}


def listing(folder: str) -> tuple[str, ...]:
    """The names in a folder, listed again only when its mtime changes (or changed lately)."""
    try:
        stamp = os.stat(folder).st_mtime_ns
        cached = _listed.get(folder)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        names = tuple(sorted(os.listdir(folder)))
    except OSError:
        _listed.pop(folder, None)
        return ()
    if time.time_ns() - stamp > 10**8:
        _listed[folder] = (stamp, names)
    return names


@dataclass(frozen=True)
class _Scan:
    """What the runner reads from one koan file, kept while the file is unchanged on disk."""

    stamp: tuple[int, int, int, int]
    text: str | None
    digest: str
    needs: tuple[str, ...]
    test_names: tuple[str, ...]


_scans: dict[str, _Scan] = {}


def _scan(path: str) -> _Scan | None:
    """Read a file once per version: a save changes its size, mtime or inode (a rename).
    File times tick coarsely (a few ms), so a file changed within the last 0.1 s is read again."""
    try:
        st = os.stat(path)
        stamp = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
        cached = _scans.get(path)
        if cached is not None and cached.stamp == stamp:
            return cached
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        _scans.pop(path, None)
        return None
    try:
        text: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    body = text or ""
    scan = _Scan(stamp, text, hashlib.sha1(data).hexdigest(),
                 tuple(name for name, pattern in NEEDS.items()
                       if name in body and pattern.search(body)),
                 tuple(TEST_DEF.findall(body)))
    if len(data) == st.st_size and time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > 10**8:
        _scans[path] = scan
    return scan


@dataclass(frozen=True)
class Topic:
    name: str
    files: tuple[KoanFile, ...]

    @property
    def title(self) -> str:
        number, _, rest = self.name.partition("_")
        return f"{number} {rest.replace('_', ' ')}" if number.isdigit() else self.name


class Course:
    """The koans under ``root/koans``, in curriculum order (names sorted, as pytest collects)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.koans_dir = self.root / KOANS
        self.state_dir = Path(state_dir(self.root))  # .koans/, or elsewhere in a read-only course

    def topic_names(self) -> list[str]:
        """The topic folders under koans/; ``koans/katas`` holds the pair katas, not a topic."""
        names = listing(str(self.koans_dir))
        return sorted(n for n in names if not n.startswith((".", "_")) and n != "katas"
                      and os.path.isdir(os.path.join(self.koans_dir, n)))

    def topics(self, extra: list[str] = ()) -> list[Topic]:  # type: ignore[assignment]
        """Topics with their koan files; ``extra`` adds known files that were deleted, in place."""
        by_topic: dict[str, set[str]] = {name: set() for name in self.topic_names()}
        for name in by_topic:
            for entry in listing(os.path.join(self.koans_dir, name)):
                if entry.startswith("test_") and entry.endswith(".py"):
                    by_topic[name].add(f"{KOANS}/{name}/{entry}")
        for rel in extra:
            parts = rel.split("/")
            if len(parts) == 3 and parts[0] == KOANS and parts[2].startswith("test_"):
                by_topic.setdefault(parts[1], set()).add(rel)
        return [
            Topic(name, tuple(KoanFile(self.root, rel) for rel in sorted(by_topic[name])))
            for name in sorted(by_topic)
        ]

    def files(self, extra: list[str] = ()) -> list[KoanFile]:  # type: ignore[assignment]
        return [f for topic in self.topics(extra) for f in topic.files]

    def file(self, rel: str) -> KoanFile:
        return KoanFile(self.root, rel)

    def resolve(self, target: str, extra: list[str] = ()) -> list[KoanFile]:  # type: ignore[assignment]
        """Koan files named by a topic ('10', '10_array_memory'), a file path or a koan id."""
        target = target.split("::")[0].strip().rstrip("/")
        try:
            rel = (Path.cwd() / target).resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError):
            rel = target
        if rel.startswith(ANSWERS + "/"):
            rel = KOANS + rel[len(ANSWERS):]
        if not rel.startswith(KOANS + "/") and rel != KOANS:
            rel = f"{KOANS}/{rel}"
        files = self.files(extra)
        exact = [f for f in files if f.rel == rel]
        if exact:
            return exact
        if rel.endswith(".py") and rel.count("/") == 2:
            return [self.file(rel)]
        topic = rel[len(KOANS) + 1:] if rel != KOANS else ""
        if not topic:
            return files
        named = [f for f in files if f.topic == topic]
        return named or [f for f in files if f.topic.split("_")[0] == topic or f.topic.startswith(topic + "_")]

    def lesson_of_topic(self, topic: str) -> str:
        try:
            return (self.koans_dir / topic / "README.md").read_text(encoding="utf-8")
        except OSError:
            return ""

    def hints(self, topic: str, name: str) -> dict[str, Any]:
        return dict(_load_toml(self.koans_dir / topic / "hints.toml").get(name, {}))

    def hints_file(self, path: Path) -> dict[str, Any]:
        return _load_toml(path)


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    return _load_toml_cached(path, stamp)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; errors propagate (the checker reports them)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pytest depends on tomli before 3.11
        import tomli as tomllib
    with path.open("rb") as handle:
        return dict(tomllib.load(handle))


@lru_cache(maxsize=64)
def _load_toml_cached(path: Path, stamp: int) -> dict[str, Any]:
    try:
        return read_toml(path)
    except Exception:  # a broken hints file must never break the runner
        return {}


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
    """The answer's lines for the blanks of koan ``name``: where the pristine koan had a blank."""
    if not answer_text:
        return []
    answer = koan_source(answer_text, name)
    if answer is None:
        return []
    rows = answer_text.splitlines()
    wanted: list[int] = []
    if koan_text:
        tree = parse(koan_text)
        koan = koan_source(koan_text, name)
        if tree is not None and koan is not None:
            offsets = sorted(
                {
                    n.lineno - koan.first_line
                    for n in ast.walk(tree)
                    if isinstance(n, ast.Name)
                    and n.id in BLANK_NAMES
                    and koan.first_line <= n.lineno <= koan.last_line
                }
            )
            wanted = [answer.first_line + off for off in offsets]
    if not wanted:  # fall back to the lines that carry a comment (the one-line why)
        wanted = [
            n for n in range(answer.first_line, answer.last_line + 1) if "#" in rows[n - 1]
        ]
    return [(n, rows[n - 1].strip()) for n in wanted if 0 < n <= len(rows)]


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


@dataclass
class Filled:
    """What stands at one blank of the pristine koan in another version of the file."""

    test: str  # 'test_x' or 'Class::test_x'
    index: int  # the blank's number within its test, in source order
    blank: str  # '__' or '___'
    node: ast.AST  # what stands there (a Name '__' while still unfilled)
    text: str  # its source text
    raises_span: tuple[int, int] | None = None  # the lines of its `with pytest.raises(...)`
    in_version_branch: bool = False  # inside an `if` (or `x if ... else y`) on sys.version_info

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


class _Aligner:
    def __init__(self, other_text: str) -> None:
        self.text = other_text
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

    def visit(self, k: Any, a: Any) -> None:
        if isinstance(k, ast.Name) and k.id in BLANK_NAMES:
            if not isinstance(a, ast.expr) or not self.test:
                self.differ(k, a)
                return
            text = ast.get_source_segment(self.text, a) or ast.unparse(a)
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
            versioned = isinstance(k, (ast.If, ast.IfExp)) and "version_info" in ast.unparse(k.test)
            self.versioned += versioned
            if isinstance(k, ast.ClassDef) and not self.test:
                self.cls = k.name
            elif isinstance(k, (ast.FunctionDef, ast.AsyncFunctionDef)) and k.name.startswith("test") \
                    and not self.test:
                self.test = f"{self.cls}::{k.name}" if self.cls else k.name
            elif isinstance(k, (ast.With, ast.AsyncWith)) and any(
                    _is_raises(item.context_expr) for item in k.items):
                self.raises = (a.lineno, a.end_lineno or a.lineno)
                self.raises_arg = next(item.context_expr.args[0] for item in k.items
                                       if _is_raises(item.context_expr) and item.context_expr.args)
            for name in k._fields:
                if name == "ctx":
                    continue
                self.visit(getattr(k, name, None), getattr(a, name, None))
            self.test, self.cls, self.raises, self.raises_arg = outer
            self.versioned -= versioned
        elif isinstance(k, list):
            if not isinstance(a, list) or len(k) != len(a):
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


def is_pristine_of(candidate: str, answer: str) -> bool:
    """Whether ``candidate`` is the koan file whose answer is ``answer``: the two differ at the
    candidate's blanks alone, and every koan that is not pre-solved has a blank."""
    tree = parse(candidate)
    found = align(candidate, answer) if tree is not None else None
    if found is None or found.changed:
        return False
    with_blank = {f.test for f in found.fills}
    return all(name in with_blank or is_presolved(node) for name, node in test_functions(tree))


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
