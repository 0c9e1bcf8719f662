"""A tiny course for the tools' own tests: never the real koans."""

from __future__ import annotations

import textwrap
from pathlib import Path

from koanrunner.course import copy_support

ROOT = Path(__file__).resolve().parents[2]

KOAN = '''
import pytest


def test_addition_is_exact():
    """Small ints add exactly."""
    assert 2 + 2 == {fill_a}


def test_indexing_past_the_end_raises():
    """Indexing past the end raises."""
    with pytest.raises({fill_b}):
        [1, 2, 3][3]


def test_len_counts_characters():
    """len counts characters."""
    assert len("to be") == {fill_c}
'''

HINTS = '''
[test_addition_is_exact]
hints = ["What is two plus two?"]

[[test_addition_is_exact.misconceptions]]
fill = "22"
why = "Plus on ints is arithmetic, not gluing digits."

[test_indexing_past_the_end_raises]
hints = ["Which error names an index?"]

[test_len_counts_characters]
hints = ["Count the space too."]
'''

SECOND = '''
def test_floor_division_rounds_down():
    """// rounds toward minus infinity."""
    assert -7 // 2 == {fill}
'''


def build_course(root: Path) -> Path:
    """A course of two topics: the first with three koans in one file, the second with one."""
    copy_support(ROOT, root)
    write(root / "koans/01_first/test_01_basics.py", KOAN.format(fill_a="__", fill_b="___", fill_c="__"))
    write(root / "answers/01_first/test_01_basics.py", KOAN.format(fill_a="4", fill_b="IndexError", fill_c="5"))
    write(root / "koans/01_first/hints.toml", HINTS)
    write(root / "koans/01_first/README.md", "# First\n\nBasics.\n")
    write(root / "koans/02_second/test_01_division.py", SECOND.format(fill="__"))
    write(root / "answers/02_second/test_01_division.py", SECOND.format(fill="-4"))
    write(root / "koans/02_second/hints.toml", '[test_floor_division_rounds_down]\nhints = ["Down is which way?"]\n')
    write(root / "koans/02_second/README.md", "# Second\n\nDivision.\n")
    return root


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
