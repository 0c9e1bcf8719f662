"""The default command walks the path: first unsolved koan, progress, lesson, line, next step."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX-only (the path view at 80 "
                          "columns is driven through one)")


NUMBERS = "koans/01_basics/test_01_numbers.py"
STRINGS = "koans/01_basics/test_02_strings.py"


def test_a_fresh_course_stops_at_the_first_blank_with_its_lesson_and_line(course):
    result = course.run()
    out = result.stdout
    assert result.returncode == 1, result.stderr
    assert "0/7 solved" in out
    assert "01 basics" in out and "02 more" in out
    assert "test_one_plus_one_is_two" in out
    assert "Integer addition is exact" in out  # the lesson
    assert "(the whole lesson: koans/01_basics/README.md)" in out  # the lesson, on entering
    assert "assert 1 + 1 == __" in out
    assert "^^" in out  # the blank, marked without colour
    assert "fill in the blank on line 6" in out
    assert "Next: edit koans/01_basics/test_01_numbers.py line 6" in out
    assert "\033[" not in out  # not a TTY: no colour


def test_solving_a_koan_advances_progress_and_shows_the_answer(course):
    course.run()
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    out = course.run().stdout
    assert "test_one_plus_one_is_two is solved" in out
    assert "assert 1 + 1 == 2  # integers add exactly" in out  # the answer with its why
    assert "1/7 solved" in out
    assert "test_indexing_past_the_end_raises" in out
    assert "fill in the blank on line 11" in out
    event = course.verdicts()[-1]
    assert event["solved"] == 1 and event["koan"].endswith("test_indexing_past_the_end_raises")


def test_a_listed_misconception_gets_its_explanation(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 11")
    out = course.run().stdout
    assert "not yet true" in out
    assert "you wrote 11, Python says 2" in out
    assert "Adding ints is arithmetic, not gluing digits together." in out


def test_a_wrong_fill_without_misconception_reads_differently_from_a_blank(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 3")
    out = course.run().stdout
    assert "you wrote 3, Python says 2" in out
    assert "fill in the blank" not in out.split("not yet true")[1]


def test_solving_a_whole_file_moves_on_and_progress_survives_runs(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.edit(NUMBERS, "raises(___)", "raises(IndexError)")
    out = course.run().stdout
    assert "2/7 solved" in out
    assert "test_len_counts_characters" in out
    out = course.run().stdout
    assert "2/7 solved" in out
    # the solved file was not run again, nor the unsolved one, whose koans did not change
    assert course.verdicts()[-1]["ran"] == []


def test_hints_go_from_a_nudge_and_stop_at_the_last(course):
    course.run()
    first = course.run("hint").stdout
    assert "Hint 1 of 2" in first and "What is one plus one?" in first
    second = course.run("hint").stdout
    assert "Hint 2 of 2" in second and "That was the last hint" in second
    third = course.run("hint").stdout
    assert "Hint 2 of 2" in third


def test_a_hint_is_offered_unasked_after_failed_attempts_only(course):
    outs = [course.run().stdout for _ in range(4)]  # runs without an attempt: no hint
    assert "Hint" not in "".join(outs) and "a hint" not in "".join(outs)
    outs = []
    for wrong in ("3", "4", "5"):
        course.edit(NUMBERS, "1 + 1 == __" if wrong == "3" else f"1 + 1 == {int(wrong) - 1}",
                    f"1 + 1 == {wrong}")
        outs.append(course.run().stdout)
    assert "a hint" not in outs[0] + outs[1]
    assert "a hint" in outs[2] and "What is one plus one?" in outs[2]
    assert course.verdicts()[-1]["unasked_hint"] is True


def test_entering_a_topic_shows_the_lessons_opening_not_all_of_it(course):
    course.path("koans/01_basics/README.md").write_text(
        "# 01 Basics\n\nNumbers and strings, " + "word " * 60 + "\n\nA second paragraph.\n")
    out = course.run(COLUMNS="60").stdout
    assert "01 Basics" in out and "Numbers and strings" in out
    assert "A second paragraph" not in out
    assert "(the whole lesson: koans/01_basics/README.md)" in out
    assert all(len(line) <= 62 for line in out.split("01 Basics")[1].split("(the whole")[0].splitlines())


def test_list_and_status_show_each_topic_and_where_the_learner_is(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.run()
    for command in ("list", "status"):
        out = course.run(command).stdout
        assert "01 basics" in out and "1/4" in out and "you are here" in out
        assert "02 more" in out and "0/3" in out
        assert "Current koan: 01_basics/test_01_numbers.py::test_indexing_past_the_end_raises" in out


def test_goto_starts_elsewhere_and_skip_comes_back_later(course):
    out = course.run("goto", "02").stdout
    assert "The path now starts at koans/02_more" in out
    assert "test_true_plus_true_is_two" in out
    out = course.run("skip").stdout
    assert "Put aside: 02_more/test_01_more.py::test_true_plus_true_is_two" in out
    assert "test_none_is_falsy" in out
    course.run("goto", "start")
    out = course.run().stdout
    assert "test_one_plus_one_is_two" in out
    listed = course.run("list").stdout
    assert "Put aside for later: 02_more/test_01_more.py::test_true_plus_true_is_two" in listed


def test_skipped_koans_come_back_when_everything_else_is_solved(course):
    course.edit("koans/02_more/test_01_more.py", "bool(None) == __", "bool(None) == False")
    course.edit("koans/02_more/test_01_more.py", "bool([]) == __", "bool([]) == False")
    course.run("goto", "02_more")
    out = course.run("skip").stdout
    assert course.verdicts()[-1]["koan"].endswith("test_one_plus_one_is_two")  # wrapped round
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.edit(NUMBERS, "raises(___)", "raises(IndexError)")
    course.edit(STRINGS, '"ab c") == __', '"ab c") == 4')
    course.edit(STRINGS, ".upper() == __", '.upper() == "AB"')
    course.run()
    assert course.verdicts()[-1]["koan"] == "02_more/test_01_more.py::test_true_plus_true_is_two"
    assert "Put aside" in out


def test_colour_on_a_terminal_and_never_with_no_color(course):
    def run_in_pty(**env: str) -> str:
        leader, follower = pty.openpty()
        runner = Path(__file__).resolve().parents[1] / "koans.py"
        proc = subprocess.Popen([sys.executable, str(runner), "--root", str(course.root)],
                                stdout=follower, stderr=follower, env=course.env(**env))
        os.close(follower)
        chunks = []
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        proc.wait(timeout=60)
        os.close(leader)
        return b"".join(chunks).decode(errors="replace")

    assert "\033[" in run_in_pty()
    assert "\033[" not in run_in_pty(NO_COLOR="1")


def test_list_after_reset_shows_the_reset_koans_unsolved(course):
    course.run()
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.edit(NUMBERS, "pytest.raises(___)", "pytest.raises(IndexError)")
    course.run()
    assert " 2/4" in course.run("list").stdout
    course.run("reset", NUMBERS)
    assert " 0/4" in course.run("list").stdout


def test_goto_a_koan_starts_at_that_koan(course):
    course.run()
    out = course.run("goto", f"{NUMBERS}::test_indexing_past_the_end_raises").stdout
    assert "::test_indexing_past_the_end_raises" in out
    assert "fill in the blank on line 11" in out


def test_a_blank_filled_right_at_once_counts_as_predicted(course):
    course.run()
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")  # right at the first try
    course.run()
    course.edit(NUMBERS, "pytest.raises(___)", "pytest.raises(KeyError)")
    course.run()
    course.edit(NUMBERS, "pytest.raises(KeyError)", "pytest.raises(IndexError)")
    course.run()
    assert "1 of 2 right at the first try" in course.run("list").stdout
