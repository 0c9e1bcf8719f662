"""The course model: topics and koan files on disk, lessons, hints and answers.

Only the standard library, and only cheap work: the path to a koan never parses every file.
"""

from __future__ import annotations

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
from .source import (  # reading source and aligning files: the rest of the model
    BLANK_NAMES,
    SUPPORT_FILES,
    Alignment,
    Filled,
    KoanSource,
    align,
    answer_lines,
    blank_columns,
    copy_support,
    decode,
    is_pristine_of,
    is_presolved,
    koan_source,
    koan_sources,
    looks_pristine,
    parse,
    read_source,
    restatement,
    node_at,
    test_functions,
)

KOANS = "koans"
ANSWERS = "answers"
KATAS_CONFTEST = "koans/katas/conftest.py"
PYTEST_CONFIGS = ("pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")
TEST_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)", re.M)
# What a koan file imports that is worth having warm in the runner's server before it forks a
# child for the file: a pattern in the file, and the modules to import for it. Importing never
# starts CUDA or a thread (checked for each): a fork after it is as safe as before.
NEEDS: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    "torch": (re.compile(r"^\s*(?:import|from)\s+torch\b|importorskip\(\s*['\"]torch", re.M),
              ("torch",)),
    # torch.compile's first use in a child imports Dynamo, AOTAutograd and export: seconds each
    "dynamo": (re.compile(r"torch\.(?:compile|_dynamo|export|fx|jit|_functorch|func)\b"),
               ("torch", "torch._dynamo", "torch._functorch.aot_autograd", "torch.export")),
    "profiler": (re.compile(r"torch\.profiler\b"), ("torch", "torch.profiler")),
    "numpy": (re.compile(r"^\s*(?:import|from)\s+numpy\b", re.M), ("numpy",)),
    "hypothesis": (re.compile(r"^\s*(?:import|from)\s+hypothesis\b", re.M),
                   ("hypothesis", "hypothesis.strategies")),
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
        return Path(self._where())

    def _where(self) -> str:  # a str, not a Path: the scans ask for it often
        return os.path.join(self.root, self.rel)

    @property
    def topic(self) -> str:
        return self.rel.split("/")[1]

    @property
    def name(self) -> str:
        return self.rel.rsplit("/", 1)[-1]

    @property
    def answer_path(self) -> Path:
        return Path(self._answer_where())

    def _answer_where(self) -> str:
        return os.path.join(self.root, ANSWERS, self.rel.split("/", 1)[1])

    def exists(self) -> bool:
        return self.path.is_file()

    def _scan(self) -> _Scan | None:
        return _scan(self._where())

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
        scan = _scan(self._answer_where())
        return list(scan.test_names) if scan else []

    def answer_digest(self) -> str | None:
        scan = _scan(self._answer_where())
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
                 tuple(dict.fromkeys(module for pattern, modules in NEEDS.values()
                                     if pattern.search(body) for module in modules)),
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

    def foreign_files(self) -> list[str]:
        """Files in ``koans/`` the course did not ship and that would change what pytest does
        there: a conftest (one beside the koans, or the katas' own changed), a pytest
        configuration file. While one is there, no verdict can be trusted."""
        found = []
        folders = [self.koans_dir] + [self.koans_dir / name for name in listing(str(self.koans_dir))
                                      if (self.koans_dir / name).is_dir()]
        for folder in folders:
            for name in listing(str(folder)):
                rel = (folder / name).relative_to(self.root).as_posix()
                if name in PYTEST_CONFIGS or (name == "conftest.py" and rel != KATAS_CONFTEST):
                    found.append(rel)
        katas = self.root / KATAS_CONFTEST
        shipped = self.root / ANSWERS / "katas" / "conftest.py"
        if katas.is_file() and shipped.is_file() and _bytes(katas) != _bytes(shipped):
            found.append(KATAS_CONFTEST)
        return found

    def lesson_of_topic(self, topic: str) -> str:
        try:
            return (self.koans_dir / topic / "README.md").read_text(encoding="utf-8")
        except OSError:
            return ""

    def hints(self, topic: str, name: str) -> dict[str, Any]:
        return dict(load_toml(self.koans_dir / topic / "hints.toml").get(name, {}))

    def hints_error(self, topic: str) -> str | None:
        """Why a topic's hints.toml cannot be read (None when it reads, or is not there)."""
        path = self.koans_dir / topic / "hints.toml"
        if not path.is_file():
            return None
        try:
            read_toml(path)
        except Exception as err:  # any parse error
            return f"{type(err).__name__}: {err}"
        return None

    def hints_file(self, path: Path) -> dict[str, Any]:
        return load_toml(path)


SETTINGS = "settings.json"


def setting(root: Path, name: str) -> bool:
    """A learner's setting from the course's .koans/settings.json (false when unset or
    unreadable): ``show_values`` shows a wrong value at the first wrong try."""
    import json

    try:
        with open(Path(state_dir(root), SETTINGS), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return False
    return bool(data.get(name)) if isinstance(data, dict) else False


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def foreign_message(files: list[str]) -> str:
    listed = ", ".join(files)
    return (f"{listed} {'is' if len(files) == 1 else 'are'} not part of the course: a file like "
            "that changes what pytest does with the koans, so no koan counts as solved while it "
            f"is there. Move it out of koans/ (or bring the course's own back with git checkout).")


def load_toml(path: Path) -> dict[str, Any]:
    """A TOML file as last parsed while unchanged on disk; {} when missing or broken."""
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


__all__ = [
    "ANSWERS",
    "BLANK_NAMES",
    "KOANS",
    "SUPPORT_FILES",
    "Alignment",
    "Course",
    "Filled",
    "KoanFile",
    "KoanSource",
    "Topic",
    "align",
    "answer_lines",
    "blank_columns",
    "copy_support",
    "decode",
    "foreign_message",
    "is_presolved",
    "is_pristine_of",
    "koan_key",
    "koan_source",
    "koan_sources",
    "listing",
    "load_toml",
    "looks_pristine",
    "node_at",
    "parse",
    "read_source",
    "read_toml",
    "restatement",
    "setting",
    "test_functions",
    "test_name",
]

