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
    stamp = result.stdout.split(" restore ")[1].split()[0]
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


NEW_KOAN = '''

def test_two_times_three_is_six():
    """A koan added by an update of the course."""
    assert 2 * 3 == __
'''
NEW_ANSWER = NEW_KOAN.replace("== __", "== 6  # product")


def update_the_course(course, koan_text=None):
    """What an update of the course does: a new koan in a file, and its answer."""
    answer = course.path("answers/01_basics/test_01_numbers.py")
    answer.write_text(answer.read_text() + NEW_ANSWER)
    if koan_text is not None:
        course.path(NUMBERS).write_text(koan_text)


def test_an_update_that_brings_a_pristine_file_refreshes_the_snapshot(course):
    course.run()
    pristine = course.path(NUMBERS).read_text()
    update_the_course(course, pristine + NEW_KOAN)
    course.run()  # sees the update, takes the snapshot again
    course.edit(NUMBERS, "2 * 3 == __", "2 * 3 == 6")
    assert course.run("reset", NUMBERS).returncode == 0
    assert "2 * 3 == __" in course.path(NUMBERS).read_text()


def test_an_update_under_the_learners_answers_resets_from_git(course):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=course.root, check=True)
    subprocess.run([*git, "add", "koans", "answers"], cwd=course.root, check=True)
    subprocess.run([*git, "commit", "-qm", "course"], cwd=course.root, check=True)
    course.run()
    old = course.path(NUMBERS).read_text()
    update_the_course(course, old + NEW_KOAN)
    subprocess.run([*git, "commit", "-qam", "course update"], cwd=course.root, check=True)
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")  # the learner's answer, on the new version
    course.run()
    out = course.run("reset", NUMBERS).stdout
    assert "to pristine" in out
    text = course.path(NUMBERS).read_text()
    assert "1 + 1 == __" in text and "2 * 3 == __" in text  # the new version, not the old snapshot


def test_an_update_under_the_learners_answers_without_git_refuses_and_keeps_all(course):
    course.run()
    update_the_course(course, course.path(NUMBERS).read_text() + NEW_KOAN)
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.run()
    mine = course.path(NUMBERS).read_text()
    out = course.run("reset", NUMBERS).stdout
    assert "not reset" in out and "changed in an update of the course" in out
    assert course.path(NUMBERS).read_text() == mine
