"""The integrity checker, run against a fake course: green when whole, a named breach when not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fakecourse import ROOT, build_course, replace_in, write

CHECK = ROOT / "tools" / "check.py"
KOAN = "koans/01_first/test_01_basics.py"
ANSWER = "answers/01_first/test_01_basics.py"


def check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK), "--root", str(root), "-n", "1", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return build_course(tmp_path)


def test_a_whole_course_passes_with_counts(course: Path) -> None:
    result = check(course)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check: ok." in result.stdout
    assert "4 koans" in result.stdout
    assert "4 koans failing on their blank" in result.stdout
    assert "4 answers passing" in result.stdout
    assert "1 misconceptions failing" in result.stdout


# (file, old, new, the words the breach must say). Each breaks one koan/answer pair.
QUICK_BREACHES = [
    (ANSWER, "== 4", "== 5", "test_addition_is_exact: the answer does not pass"),
    (KOAN, "== __\n\n\ndef test_indexing", "== 4\n\n\ndef test_indexing", "test_addition_is_exact: no blank"),
    (ANSWER, "[1, 2, 3][3]", "[1, 2, 3][4]", "differs from its koan beyond the blanks"),
    (KOAN, '"""Small ints add exactly."""', "", "test_addition_is_exact: no lesson"),
    ("koans/01_first/hints.toml", "[test_len_counts_characters]", "[test_len_counts_chars]",
     "test_len_counts_characters: no hint"),
    (KOAN, "assert len(\"to be\") == __", "assert len(\"to be\") is not __",
     "test_len_counts_characters: passes as shipped"),
    (KOAN, "import pytest", "import pytest\nimport not_a_module_anywhere",
     "fails as shipped, but not on its blank (broken)"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "says"), QUICK_BREACHES)
def test_breaking_one_pair_is_a_named_breach(course: Path, file: str, old: str, new: str, says: str) -> None:
    if "import not_a_module" in new:
        replace_in(course / ANSWER, old, new.replace("not_a_module_anywhere", "math"))
        replace_in(course / ANSWER, "import math", "import math as not_a_module_anywhere")
    replace_in(course / file, old, new)
    result = check(course, "--quick")
    assert result.returncode == 1, result.stdout
    assert says in result.stdout, result.stdout


def test_a_missing_answer_file_is_a_breach(course: Path) -> None:
    (course / "answers/02_second/test_01_division.py").unlink()
    result = check(course, "--quick")
    assert result.returncode == 1
    assert "answers/02_second/test_01_division.py: missing" in result.stdout


def test_a_stray_file_is_a_breach(course: Path) -> None:
    write(course / "koans/02_second/notes.txt", "scratch")
    result = check(course, "--quick")
    assert "koans/02_second/notes.txt: a stray file" in result.stdout


def test_a_fill_without_teeth_is_a_breach(course: Path) -> None:
    replace_in(course / KOAN, "assert len(\"to be\") == __", "assert abs(len(\"to be\") - __) < 3")
    replace_in(course / ANSWER, "assert len(\"to be\") == 5", "assert abs(len(\"to be\") - 5) < 3")
    result = check(course, "--topic", "01_first")
    assert result.returncode == 1
    assert "the fill `5` on line 17 has no teeth: the plausible wrong value `6` passes too" in result.stdout


def test_a_misconception_that_passes_is_a_breach(course: Path) -> None:
    replace_in(course / "koans/01_first/hints.toml", 'fill = "22"', 'fill = "2 * 2"')
    result = check(course, "--topic", "01_first")
    assert result.returncode == 1
    assert "the misconception `2 * 2` passes too" in result.stdout


def test_a_fill_in_a_branch_this_python_skips_is_noted_not_failed(course: Path) -> None:
    write(
        course / "koans/02_second/test_02_versions.py",
        '''
        import sys


        def test_old_pythons_only():
            """A fact about a Python that is not this one."""
            if sys.version_info < (3, 0):
                assert 1 + 1 == __
            else:
                assert 1 + 1 == __
        ''',
    )
    koan = (course / "koans/02_second/test_02_versions.py").read_text()
    write(course / "answers/02_second/test_02_versions.py", koan.replace("__", "11", 1).replace("__", "2"))
    with (course / "koans/02_second/hints.toml").open("a") as handle:
        handle.write('[test_old_pythons_only]\nhints = ["Which Python?"]\n')
    result = check(course, "--topic", "02_second", "-v")
    assert result.returncode == 0, result.stdout
    assert "test_02_versions.py:7 `11` is not evaluated on Python" in result.stdout


def test_an_unknown_topic_is_refused_by_name(course: Path) -> None:
    result = check(course, "--topic", "99_nothing")
    assert result.returncode != 0
    assert "--topic '99_nothing' is not a folder" in result.stderr
