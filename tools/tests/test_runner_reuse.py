"""A save runs only the koans whose source changed since their verdict, and nothing else;
a change to what every koan of the file shares runs them all; so does a new Python or a new
version of the code that gives verdicts. Each case reads the runner's own event log."""

from __future__ import annotations

from runner_support import NUMBERS_FILE

SHARED = '''import pytest

BASE = 1


def helper():
    return 1


@pytest.fixture
def numbers():
    return [1, 2]
'''


def runs(course) -> list[object]:
    """What each run of the numbers file asked for: None (the whole file) or the koans named."""
    return [e.get("only") for e in course.read_events()
            if e["event"] == "run-start" and e["file"] == NUMBERS_FILE]


def test_a_save_runs_only_the_koan_that_changed(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 2")
    course.run()
    course.edit(NUMBERS_FILE, "pytest.raises(___)", "pytest.raises(KeyError)")
    result = course.run()
    assert "you wrote KeyError" in result.stdout, result.stdout
    assert runs(course) == [None, ["test_one_plus_one_is_two"], ["test_indexing_past_the_end_raises"]]
    course.run()  # nothing changed: nothing runs, the verdicts are the ones kept
    assert len(runs(course)) == 3


def test_a_change_outside_the_koans_runs_every_koan_of_the_file(course) -> None:
    for part in ("koans", "answers"):
        course.edit(NUMBERS_FILE.replace("koans", part, 1), "import pytest\n", SHARED)
    course.run()
    for old, new in (("BASE = 1", "BASE = 2"), ("return 1", "return 2"),
                     ("import pytest\n", "import pytest\nimport os\n"), ("[1, 2]", "[1, 2, 3]")):
        course.edit(NUMBERS_FILE, old, new)
        course.run()
    assert runs(course) == [None, None, None, None, None]


def test_a_course_update_of_the_answer_key_runs_every_koan_of_the_file(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 3")
    course.run()
    answer = course.path(NUMBERS_FILE.replace("koans", "answers", 1))
    answer.write_text(answer.read_text(encoding="utf-8") + "\n# the course, updated\n",
                      encoding="utf-8")
    course.run()
    assert runs(course) == [None, ["test_one_plus_one_is_two"], None]


def test_another_python_gives_verdicts_under_another_key(course, monkeypatch) -> None:
    import sys

    from koanrunner.course import Course
    from koanrunner.path import env_key

    here = env_key(Course(course.root))
    monkeypatch.setattr(sys, "version_info", (sys.version_info[0], sys.version_info[1] + 1, 0))
    assert env_key(Course(course.root)) != here


def test_a_new_version_of_the_verdicts_code_runs_everything_again(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 3")
    course.run()
    plugin = course.path("tools/koanrunner/plugin/verdicts.py")
    plugin.write_text(plugin.read_text() + "\n# a new version\n")
    course.run()
    assert runs(course) == [None, ["test_one_plus_one_is_two"], None]


def test_the_r_key_runs_the_whole_file(course) -> None:
    course.run()
    n = len(course.read_events())
    proc = course.popen("watch")
    course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
    n = len(course.read_events())
    proc.stdin.write("r\n")  # type: ignore[union-attr]
    proc.stdin.flush()  # type: ignore[union-attr]
    course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
    proc.stdin.write("q\n")  # type: ignore[union-attr]
    proc.stdin.flush()  # type: ignore[union-attr]
    proc.wait(timeout=60)
    assert runs(course)[-1] is None
