"""Katas under koans/katas and answers/katas: collected only when named, one step revealed at a
time, and never a topic of the learner's path."""

from __future__ import annotations

import subprocess
import sys

import pytest
from kata_support import make_kata_course, written

KATA = "05_event_loop"


@pytest.fixture
def kata_course(tmp_path):
    return make_kata_course(tmp_path / "course", [KATA])


def pytest_in(course, *args, **env):
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=course.root, capture_output=True, text=True, timeout=300,
                          env=course.env(**env), check=False)


def test_plain_pytest_and_the_runner_leave_the_katas_alone(kata_course):
    koans = pytest_in(kata_course, "koans", "--co", "-q")
    answers = pytest_in(kata_course, "answers", "--co", "-q")
    assert "test_steps" not in koans.stdout + answers.stdout
    assert "koans/01_basics/test_01_numbers.py::test_one_plus_one_is_two" in koans.stdout
    walked = pytest_in(kata_course, "koans")
    assert "of 7 koans solved" in walked.stdout and "katas" not in walked.stdout
    listed = kata_course.run("list")
    assert listed.returncode == 0 and "katas" not in listed.stdout
    assert "01 basics" in listed.stdout


def test_pytest_on_a_kata_stops_at_the_first_red_step(kata_course):
    first = pytest_in(kata_course, f"koans/katas/{KATA}", "-rs")
    assert first.returncode == 1, first.stdout
    assert "1 failed, 3 skipped" in first.stdout
    assert "not yet revealed: step 1 (test_run_drives_a_coroutine_to_its_return_value) must " \
           "pass first" in first.stdout
    assert f"{KATA}: 0 of 4 steps green; step 1, test_run_drives_a_coroutine_to_its_return_value, " \
           "is red." in first.stdout
    assert "loop.py:" in first.stdout and "Loop.run is still a stub" in first.stdout
    assert "koans solved" not in first.stdout, "the koans' path summary counted the steps"
    every = pytest_in(kata_course, f"koans/katas/{KATA}", KOANS_KATA_ALL_STEPS="1")
    assert "4 failed" in every.stdout
    reference = pytest_in(kata_course, f"answers/katas/{KATA}")
    assert reference.returncode == 0 and "4 passed" in reference.stdout
    folder = pytest_in(kata_course, "koans/katas", "--co", "-q")
    assert folder.stdout.count("test_steps.py::") == 4
    both = pytest_in(kata_course, f"koans/katas/{KATA}", f"answers/katas/{KATA}")
    assert "1 failed, 4 passed, 3 skipped" in both.stdout


def test_a_step_made_green_in_place_reveals_the_next(kata_course):
    stub = kata_course.path(f"koans/katas/{KATA}/loop.py")
    reference = kata_course.path(f"answers/katas/{KATA}/loop.py").read_text()
    stub.write_text(written(stub.read_text(), reference, [["Loop.run", "Loop._step", "Loop._finish"]]))
    run = pytest_in(kata_course, f"koans/katas/{KATA}")
    assert "1 failed, 1 passed, 2 skipped" in run.stdout
    assert f"{KATA}: 1 of 4 steps green; step 2, test_spawned_tasks_take_turns_at_each_bare_yield" in run.stdout
    stub.write_text(stub.read_text() + "\n\ndef unfinished(:\n")
    broken = pytest_in(kata_course, f"koans/katas/{KATA}")
    assert broken.returncode != 0 and "Python cannot read loop.py" in broken.stdout
