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


@pytest.mark.parametrize("condition", [
    "sys.version_info < (3, 0)",  # a Python that is not this one
    'not getattr(sys, "_is_gil_enabled", lambda: True)()',  # a free-threaded build
    'sys.platform == "nowhere"',  # another system
], ids=["version", "free-threaded", "platform"])
def test_a_fill_in_a_branch_this_python_skips_is_noted_not_failed(course: Path, condition: str) -> None:
    write(
        course / "koans/02_second/test_02_versions.py",
        f'''
        import sys


        def test_elsewhere_only():
            """A fact about a Python that is not this one."""
            if {condition}:
                assert 1 + 1 == __
            else:
                assert 1 + 1 == __
        ''',
    )
    koan = (course / "koans/02_second/test_02_versions.py").read_text()
    write(course / "answers/02_second/test_02_versions.py", koan.replace("__", "11", 1).replace("__", "2"))
    with (course / "koans/02_second/hints.toml").open("a") as handle:
        handle.write('[test_elsewhere_only]\nhints = ["Which Python?"]\n')
    result = check(course, "--topic", "02_second", "-v")
    assert result.returncode == 0, result.stdout
    assert "test_02_versions.py:7 `11` is not evaluated on Python" in result.stdout


def test_an_unknown_topic_is_refused_by_name(course: Path) -> None:
    result = check(course, "--topic", "99_nothing")
    assert result.returncode != 0
    assert "--topic '99_nothing' is not a folder" in result.stderr


# -- holes a new contributor falls into: each one a named breach ------------------------------


def test_a_misconception_that_raises_is_a_breach_since_its_note_never_shows(course: Path) -> None:
    replace_in(course / "koans/01_first/hints.toml", 'fill = "22"', 'fill = "(2, Tru)"')
    result = check(course, "--topic", "01_first")
    assert result.returncode == 1
    assert "the misconception `(2, Tru)` fails as error, not as a wrong value" in result.stdout


def test_a_listed_exception_misconception_shows_its_note(course: Path) -> None:
    with (course / "koans/01_first/hints.toml").open("a") as handle:
        handle.write('\n[[test_indexing_past_the_end_raises.misconceptions]]\nfill = "KeyError"\n'
                     'why = """KeyError is for mappings."""\n')
    result = check(course, "--topic", "01_first")
    assert result.returncode == 0, result.stdout
    assert "2 misconceptions failing" in result.stdout


def test_a_fill_that_repeats_the_left_side_is_a_breach(course: Path) -> None:
    replace_in(course / ANSWER, 'assert len("to be") == 5', 'assert len("to be") == len("to be")')
    result = check(course, "--topic", "01_first", "--quick")
    assert "repeats the left side of its comparison: it has no teeth" in result.stdout


def test_a_fill_built_from_the_tests_own_variables_is_a_breach(course: Path) -> None:
    replace_in(course / KOAN, 'assert len("to be") == __', 'n = len("to be")\n    assert len("to be") == __')
    replace_in(course / ANSWER, 'assert len("to be") == 5', 'n = len("to be")\n    assert len("to be") == n')
    result = check(course, "--topic", "01_first", "--quick")
    assert "is computed from the test's own variable n: it has no teeth" in result.stdout


def test_a_blank_no_python_ever_reaches_is_a_breach(course: Path) -> None:
    replace_in(course / KOAN, 'assert len("to be") == __', 'if len("to be") > 9:\n        assert len("to be") == __')
    replace_in(course / ANSWER, 'assert len("to be") == 5', 'if len("to be") > 9:\n        assert len("to be") == 5')
    result = check(course, "--topic", "01_first")
    assert "is never evaluated, and not because of a Python version or build" in result.stdout
    assert result.returncode == 1


def test_a_hint_that_states_the_fill_is_a_breach(course: Path) -> None:
    replace_in(course / "koans/01_first/hints.toml", '"Count the space too."', '"It is 5."')
    result = check(course, "--topic", "01_first", "--quick")
    assert "hint 1 states the fill `5`" not in result.stdout  # one character: too common to judge
    replace_in(course / "koans/01_first/hints.toml", '"What is two plus two?"', '"Is it IndexError?"')
    replace_in(course / "koans/01_first/hints.toml", '"Which error names an index?"', '"Is it IndexError?"')
    result = check(course, "--topic", "01_first", "--quick")
    assert "test_indexing_past_the_end_raises: hint 1 states the fill `IndexError`" in result.stdout


def test_a_fill_in_its_own_name_or_docstring_is_a_breach(course: Path) -> None:
    replace_in(course / KOAN, '"""len counts characters."""', '"""len counts characters: five."""')
    replace_in(course / ANSWER, '"""len counts characters."""', '"""len counts characters: five."""')
    replace_in(course / KOAN, '"""Small ints add exactly."""', '"""Small ints add exactly: `4`."""')
    replace_in(course / ANSWER, '"""Small ints add exactly."""', '"""Small ints add exactly: `4`."""')
    replace_in(course / KOAN, "test_indexing_past_the_end_raises", "test_indexing_past_the_end_raises_index_error")
    replace_in(course / ANSWER, "test_indexing_past_the_end_raises", "test_indexing_past_the_end_raises_index_error")
    result = check(course, "--topic", "01_first", "--quick")
    assert "the fill `IndexError` (line 11) stands in the koan's own name or docstring" in result.stdout
    assert "the fill `4`" not in result.stdout  # one character: exempt


def test_a_topic_folder_without_its_number_is_a_breach(course: Path) -> None:
    (course / "koans/02_second").rename(course / "koans/second")
    (course / "answers/02_second").rename(course / "answers/second")
    result = check(course, "--quick")
    assert "koans/second: a topic folder without its number" in result.stdout


def test_a_broken_hints_file_is_one_breach_not_a_cascade(course: Path) -> None:
    replace_in(course / "koans/01_first/hints.toml", "[test_addition_is_exact]", "[test_addition_is_exact")
    result = check(course, "--topic", "01_first", "--quick")
    assert "hints.toml: does not parse" in result.stdout
    assert "no hint" not in result.stdout


def test_a_missing_answer_file_does_not_orphan_its_hints(course: Path) -> None:
    (course / ANSWER).unlink()
    result = check(course, "--topic", "01_first", "--quick")
    assert "answers/01_first/test_01_basics.py: missing" in result.stdout
    assert "hints for a koan that does not exist" not in result.stdout


def test_a_picture_that_is_not_one_is_a_breach_before_anything_runs(course: Path) -> None:
    replace_in(course / "koans/01_first/hints.toml", "[test_addition_is_exact]\n",
               '[test_addition_is_exact]\npicture = "print(1)"\n')
    result = check(course, "--topic", "01_first", "--static")
    assert "[test_addition_is_exact]: the picture is not one: 'print(1)' is not a call of a picture" \
        in result.stdout
    replace_in(course / "koans/01_first/hints.toml", 'picture = "print(1)"',
               'picture = "int_bits(4, width=8)"')
    assert "the picture is not one" not in check(course, "--topic", "01_first", "--static").stdout
