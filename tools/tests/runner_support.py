"""A tiny fake course in tmp_path, and helpers to drive ``tools/koans.py`` against it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

import pytest
from koanrunner.course import copy_support

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "tools" / "koans.py"

NUMBERS = '''import pytest


def test_one_plus_one_is_two():
    """Integer addition is exact: one and one make two."""
    assert 1 + 1 == __


def test_indexing_past_the_end_raises():
    """A list refuses an index past its end."""
    with pytest.raises(___):
        [1, 2, 3][3]
'''

STRINGS = '''def test_len_counts_characters():
    """`len` of a str counts characters, spaces too."""
    assert len("ab c") == __


def test_upper_returns_capitals():
    """`str.upper` returns a new string in capitals."""
    assert "ab".upper() == __
'''

MORE = '''def test_true_plus_true_is_two():
    """bool is a subclass of int: True is 1."""
    assert True + True == __


def test_none_is_falsy():
    """None is false in a boolean context."""
    assert bool(None) == __


def test_an_empty_list_is_falsy():
    """Empty containers are false."""
    assert bool([]) == __
'''

FILLS = {
    "01_basics/test_01_numbers.py": [("__", "2  # integers add exactly"), ("___", "IndexError  # not KeyError")],
    "01_basics/test_02_strings.py": [("__", "4  # the space counts"), ("__", '"AB"  # a new str')],
    "02_more/test_01_more.py": [("__", "2  # True == 1"), ("__", "False  # None is falsy"),
                                ("__", "False  # empty is falsy")],
}

HINTS = '''[test_one_plus_one_is_two]
hints = ["What is one plus one?", "Count on your fingers: it is the number after one."]

[[test_one_plus_one_is_two.misconceptions]]
fill = "11"
why = """Adding ints is arithmetic, not gluing digits together."""

[test_indexing_past_the_end_raises]
hints = ["Which error names the kind of thing you used to look up the item?"]

[test_len_counts_characters]
hints = ["Does len count words or characters?", "Count the space as well."]

[test_upper_returns_capitals]
hints = ["Capital letters, in quotes."]
'''


def fill(text: str, fills: list[tuple[str, str]]) -> str:
    for blank, value in fills:
        pattern = f"== {blank}\n" if blank == "__" else f"({blank})"
        replacement = f"== {value}\n" if blank == "__" else f"({value.split()[0]}):  # {value.split('# ')[1]}"
        if blank == "___":
            text = text.replace("pytest.raises(___):", f"pytest.raises({value.split()[0]}):  # {value.split('# ')[1]}", 1)
        else:
            text = text.replace(pattern, replacement, 1)
    return text


def make_course(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    copy_support(REPO, root)
    sources = {"01_basics/test_01_numbers.py": NUMBERS, "01_basics/test_02_strings.py": STRINGS,
               "02_more/test_01_more.py": MORE}
    for rel, text in sources.items():
        for part, content in (("koans", text), ("answers", fill(text, FILLS[rel]))):
            path = root / part / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    (root / "koans/01_basics/hints.toml").write_text(HINTS, encoding="utf-8")
    (root / "koans/01_basics/README.md").write_text("# 01 Basics\n\nNumbers and strings.\n")
    (root / "koans/02_more/README.md").write_text("# 02 More\n\nTruth.\n")
    return root


class Course:
    """The fake course and a way to run the runner against it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.events = root / "events.jsonl"

    def path(self, rel: str) -> Path:
        return self.root / rel

    def edit(self, rel: str, old: str, new: str, count: int = 1) -> None:
        path = self.root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (old, text)
        path.write_text(text.replace(old, new, count), encoding="utf-8")

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env.update(KOANS_EVENT_LOG=str(self.events), PYTHONDONTWRITEBYTECODE="1")
        env.update(extra)
        return env

    def run(self, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(RUNNER), "--root", str(self.root), *args],
                              capture_output=True, text=True, timeout=timeout, env=self.env(**env),
                              cwd=self.root, check=False)

    def pytest(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Plain ``pytest`` in the course, as a learner types it."""
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                              capture_output=True, text=True, timeout=300, env=self.env(),
                              cwd=self.root, check=False)

    def popen(self, *args: str, **env: str) -> subprocess.Popen[str]:
        out = open(self.root / "out.txt", "w")  # noqa: SIM115 - closed with the process
        return subprocess.Popen([sys.executable, str(RUNNER), "--root", str(self.root), *args],
                                stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT,
                                text=True, env=self.env(**env), cwd=self.root)

    def output(self) -> str:
        return (self.root / "out.txt").read_text()

    def read_events(self) -> list[dict[str, Any]]:
        try:
            lines = self.events.read_text().splitlines()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in lines if line.strip()]

    def wait_for(self, match: Callable[[dict[str, Any]], bool], after: int = 0,
                 timeout: float = 60, proc: subprocess.Popen[str] | None = None) -> dict[str, Any]:
        """The first event after the ``after``-th that matches; generous timeout, no sleeps
        with tight margins."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ended = proc is not None and proc.poll() is not None  # asked first: its last events count
            for event in self.read_events()[after:]:
                if match(event):
                    return event
            if ended:
                break
            time.sleep(0.02)
        raise AssertionError(f"no matching event; events: {self.read_events()[after:]}\n"
                             + (self.output() if (self.root / 'out.txt').exists() else ""))

    def verdicts(self) -> list[dict[str, Any]]:
        return [e for e in self.read_events() if e["event"] == "verdict"]


@pytest.fixture
def course(tmp_path: Path) -> Course:
    return Course(make_course(tmp_path / "course"))


NUMBERS_FILE = "koans/01_basics/test_01_numbers.py"
STRINGS_FILE = "koans/01_basics/test_02_strings.py"
MORE_FILE = "koans/02_more/test_01_more.py"
