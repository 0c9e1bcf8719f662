"""reset backs up and restores pristine koans; restore puts the learner's version back."""

from __future__ import annotations

import subprocess


NUMBERS = "koans/01_basics/test_01_numbers.py"
STRINGS = "koans/01_basics/test_02_strings.py"


def test_reset_backs_up_then_restore_brings_the_learners_version_back(course):
    course.run()  # the first run snapshots the pristine koans
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2  # my answer")
    mine = course.path(NUMBERS).read_text()
    result = course.run("reset", NUMBERS)
    assert result.returncode == 0, result.stdout
    assert "1 + 1 == __" in course.path(NUMBERS).read_text()
    stamp = result.stdout.split("restore ")[-1].strip()
    assert (course.path(".koans/backups") / stamp / NUMBERS).read_text() == mine
    result = course.run("restore", stamp)
    assert course.path(NUMBERS).read_text() == mine
    assert "backed up too" in result.stdout  # restoring saved the pristine one it replaced


def test_reset_a_topic_resets_each_file(course):
    course.run()
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.edit(STRINGS, '"ab c") == __', '"ab c") == 4')
    out = course.run("reset", "01_basics").stdout
    assert out.count("to pristine") == 2
    assert "== __" in course.path(STRINGS).read_text()


def test_a_file_filled_before_the_first_run_is_not_taken_as_pristine(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.run()
    out = course.run("reset", NUMBERS).stdout
    assert "not reset" in out and "git" in out
    assert "1 + 1 == 2" in course.path(NUMBERS).read_text()  # nothing lost


def test_git_history_is_the_fallback_for_pristine(course):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=course.root, check=True)
    subprocess.run([*git, "add", "koans"], cwd=course.root, check=True)
    subprocess.run([*git, "commit", "-qm", "course"], cwd=course.root, check=True)
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    subprocess.run([*git, "commit", "-qam", "my answers"], cwd=course.root, check=True)
    course.run()
    out = course.run("reset", NUMBERS).stdout
    assert "to pristine" in out
    assert "1 + 1 == __" in course.path(NUMBERS).read_text()
