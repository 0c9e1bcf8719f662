"""Fills a curious, careless or cheating learner can type: none makes an unsolved koan count,
in the runner or in plain pytest, and each gets a message instead of a traceback."""

from __future__ import annotations

import os
import subprocess

import pytest
from runner_support import MORE_FILE, NUMBERS_FILE, STRINGS_FILE

SOLVED = "Every koan on the path is solved"
PLAIN_SOLVED = "Every koan in this run is solved"
ONE_PLUS_ONE = "assert 1 + 1 == __"
PAST_THE_END = "pytest.raises(___)"


def solve_all(course) -> None:
    for rel in (NUMBERS_FILE, STRINGS_FILE, MORE_FILE):
        answer = course.path(rel.replace("koans/", "answers/", 1)).read_text(encoding="utf-8")
        course.path(rel).write_text(answer, encoding="utf-8")


def solve_all_but_one_plus_one(course, typed: str) -> None:
    """Every koan solved, and ``typed`` at the blank of test_one_plus_one_is_two."""
    course.run()  # the pristine copies are taken
    numbers = course.path(".koans/pristine/" + NUMBERS_FILE).read_text(encoding="utf-8")
    solve_all(course)
    course.path(NUMBERS_FILE).write_text(
        numbers.replace(ONE_PLUS_ONE, f"assert 1 + 1 == {typed}").replace(
            PAST_THE_END, "pytest.raises(IndexError)"), encoding="utf-8")


def not_solved(course, *needles: str) -> None:
    result = course.run()
    plain = course.pytest("koans")
    for shown in (result.stdout + result.stderr, plain.stdout + plain.stderr):
        assert "Traceback" not in shown, shown
        for needle in needles:
            assert needle in shown, shown
    assert SOLVED not in result.stdout and result.returncode != 0, result.stdout
    assert PLAIN_SOLVED not in plain.stdout and plain.returncode != 0, plain.stdout


@pytest.mark.parametrize("typed", [
    '__import__("unittest.mock").mock.ANY',
    'type("E", (), {"__eq__": lambda s, o: True, "__ne__": lambda s, o: False})()',
    '__import__("pytest").approx(2)',
    "2.0",
    "__import__('numpy').int64(2)",
], ids=["mock.ANY", "always equal", "approx", "a float for an int", "a numpy int for an int"])
def test_a_value_of_another_kind_is_not_the_answer(course, typed: str) -> None:
    solve_all_but_one_plus_one(course, typed)
    not_solved(course, "a fill must be a value of that type")


def test_the_question_again_is_not_the_answer(course) -> None:
    solve_all_but_one_plus_one(course, "1 + 1")
    not_solved(course, "the question again")


@pytest.mark.parametrize("typed", [
    '__import__("pytest").skip("later")', '__import__("pytest").xfail("later")',
    '__import__("pytest").importorskip("no_such_module")',
    '(_ for _ in ()).throw(__import__("unittest").SkipTest("later"))',
], ids=["skip", "xfail", "importorskip", "unittest.SkipTest"])
def test_a_fill_that_skips_does_not_count(course, typed: str) -> None:
    solve_all_but_one_plus_one(course, typed)
    not_solved(course, "skipped the koan")


@pytest.mark.parametrize("typed", ["(Exception,)", "(BaseException,)", "(TypeError, IndexError)"])
def test_a_tuple_at_an_exception_blank_is_refused(course, typed: str) -> None:
    course.run()
    numbers = course.path(NUMBERS_FILE).read_text(encoding="utf-8")
    solve_all(course)
    course.path(NUMBERS_FILE).write_text(numbers.replace(ONE_PLUS_ONE, "assert 1 + 1 == 2")
                                         .replace(PAST_THE_END, f"pytest.raises({typed})"))
    not_solved(course, "one exception class")


def test_rebinding_the_blanks_leaves_the_later_koans_unsolved(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, ONE_PLUS_ONE, "assert 1 + 1 == (setattr(__import__('builtins'), "
                "'__', 4), setattr(__import__('builtins'), '___', IndexError), 2)[2]")
    result = course.run()
    assert "fill in the blank on line 11" in result.stdout, result.stdout  # the ___ koan
    course.edit(NUMBERS_FILE, PAST_THE_END, "pytest.raises(IndexError)")
    result = course.run()
    assert "koans/01_basics/test_02_strings.py:3" in result.stdout, result.stdout
    plain = course.pytest("koans", "--koans-all")
    assert "test_02_strings.py:3: fill in the blank" in plain.stdout, plain.stdout
    assert plain.returncode != 0


def test_a_conftest_dropped_into_the_koans_voids_every_verdict(course) -> None:
    course.path("koans/01_basics/conftest.py").write_text(
        "import pytest\n\n\n@pytest.hookimpl(tryfirst=True)\n"
        "def pytest_pyfunc_call(pyfuncitem):\n    return True\n")
    not_solved(course, "koans/01_basics/conftest.py is not part of the course")
    assert course.pytest("koans", "--koans-all").returncode != 0


def test_a_fork_in_a_fill_is_judged_by_the_parent_alone(course) -> None:
    solve_all_but_one_plus_one(course, "(__import__('os').fork() and __import__('os')._exit(0), 2)[1]")
    not_solved(course)


def test_exiting_from_a_fill_or_a_body_never_ends_the_run_green(course) -> None:
    solve_all_but_one_plus_one(course, "__import__('os')._exit(0)")
    not_solved(course, "a koan may not end the run")
    solve_all_but_one_plus_one(course, "__import__('pytest').exit('done', returncode=0)")
    not_solved(course, "a koan may not end the run")


def test_the_same_edit_in_the_koan_and_its_answer_is_still_a_change(course) -> None:
    subprocess.run(["git", "init", "-q"], cwd=course.root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=course.root, check=True)
    subprocess.run(["git", "-c", "user.name=k", "-c", "user.email=k@k", "commit", "-qm", "course"],
                   cwd=course.root, check=True)
    solve_all(course)
    for part in ("koans", "answers"):
        course.edit(f"{part}/01_basics/test_01_numbers.py", "assert 1 + 1 == 2", "assert True")
    not_solved(course)


def test_an_unprintable_or_huge_exception_gives_a_short_message(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, ONE_PLUS_ONE, "assert 1 + 1 == (_ for _ in ()).throw("
                "type('Odd', (Exception,), {'__str__': lambda s: 1 / 0})())")
    result = course.run()
    assert "the message could not be shown" in result.stdout, result.stdout
    plain = course.pytest("koans")
    assert plain.returncode == 1 and "INTERNALERROR" not in plain.stdout, plain.stdout
    course.edit(NUMBERS_FILE, "(_ for _ in ()).throw(type('Odd', (Exception,), {'__str__': "
                "lambda s: 1 / 0})())", "(_ for _ in ()).throw(ValueError('x' * 10**7))")
    result = course.run()
    assert "more characters" in result.stdout and len(result.stdout) < 100_000


def test_an_ascii_terminal_gets_escapes_not_a_traceback(course) -> None:
    course.edit(NUMBERS_FILE, '"""Integer addition', '"""Integer addition \u2192 \u2115')
    result = course.run(PYTHONIOENCODING="ascii")
    assert "Traceback" not in result.stdout + result.stderr
    assert "\\u2192" in result.stdout, result.stdout


@pytest.mark.parametrize("args, said", [
    (("goto", "koans/01_basics/test_99.py"), "No topic, koan file or koan matches"),
    (("goto", f"{NUMBERS_FILE}::test_nope"), "has no koan named 'test_nope'"),
    (("skip", "bogus_key"), "No topic, koan file or koan matches"),
    (("skip", "x" * 100_000), "No topic, koan file or koan matches"),
    (("--timeout", "0.001"), "0.5 or more"),
])
def test_a_target_that_names_nothing_is_refused(course, args, said: str) -> None:
    result = course.run(*args)
    assert result.returncode == 2
    assert said in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert len(result.stdout) < 10_000


def test_goto_brings_a_put_aside_koan_back(course) -> None:
    course.run("skip")
    listed = course.run("list").stdout
    assert "Put aside for later: 01_basics/test_01_numbers.py::test_one_plus_one_is_two" in listed
    result = course.run("goto", f"{NUMBERS_FILE}::test_one_plus_one_is_two")
    assert "Back on the path" in result.stdout
    assert "Put aside" not in course.run("list").stdout


def test_a_symlinked_koan_file_gets_its_verdicts(course, tmp_path) -> None:
    course.run()
    target = tmp_path / "elsewhere.py"
    target.write_text(course.path(NUMBERS_FILE).read_text(encoding="utf-8"))
    course.path(NUMBERS_FILE).unlink()
    os.symlink(target, course.path(NUMBERS_FILE))
    result = course.run()
    assert "fill in the blank on line 6" in result.stdout, result.stdout
    assert "fill in the blank" in course.pytest("koans").stdout


def test_a_missing_root_conftest_is_named(course) -> None:
    course.path("conftest.py").unlink()
    result = course.run()
    assert "conftest.py at the course root is missing" in result.stdout, result.stdout


def test_an_added_test_is_pointed_at_and_changes_no_other_koan(course) -> None:
    course.run()
    solve_all(course)
    path = course.path(MORE_FILE)
    path.write_text(path.read_text() + "\n\ndef test_mine():\n    assert True\n")
    result = course.run()
    assert SOLVED in result.stdout, result.stdout  # the added test is not a koan
    plain = course.pytest("koans")
    assert "7 of 7 koans solved" in plain.stdout, plain.stdout


def test_a_corrupt_hints_file_is_said_and_reset_mends_it(course) -> None:
    hints = course.path("koans/01_basics/hints.toml")
    course.run()
    hints.write_text(hints.read_text() + "\n[[[ broken\n")
    said = course.run("hint").stdout
    assert "does not parse" in said and "reset koans/01_basics" in said, said
    course.run("reset", "koans/01_basics")
    assert "What is one plus one?" in course.run("hint").stdout


def test_a_multi_line_answer_is_shown_whole_after_the_pass(course) -> None:
    course.run()
    for part, value in (("koans", "__"), ("answers", "[\n        2,\n    ][0]")):
        course.edit(f"{part}/01_basics/test_01_numbers.py", "assert 1 + 1 == " + ("__" if part == "koans" else "2"),
                    "assert 1 + 1 == " + value)
    course.run("reset", NUMBERS_FILE)
    course.run()
    course.edit(NUMBERS_FILE, ONE_PLUS_ONE, "assert 1 + 1 == [\n        2,\n    ][0]")
    shown = course.run().stdout
    assert "2," in shown and "][0]" in shown, shown


def test_pre_solved_koans_are_not_predictions(course) -> None:
    course.path("koans/02_more/test_01_more.py").write_text(
        course.path("koans/02_more/test_01_more.py").read_text())
    course.run()
    listed = course.run("list").stdout
    assert "0 of 0 right at the first try" not in listed


def test_restore_checks_the_restored_work_at_once(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, ONE_PLUS_ONE, "assert 1 + 1 == 2")
    course.run()
    course.run("reset", NUMBERS_FILE)
    restored = course.run("restore")
    assert "1/7 solved" in restored.stdout, restored.stdout
    assert "1/4" in course.run("list").stdout


@pytest.mark.parametrize("args", [("-k", "upper"), ("--collect-only", "-q")])
def test_a_selection_in_plain_pytest_calls_nothing_missing(course, args) -> None:
    plain = course.pytest("koans", *args)
    assert "no longer in its file" not in plain.stdout, plain.stdout
    if "--collect-only" in args:
        assert "koans solved" not in plain.stdout and "7 tests collected" in plain.stdout


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_kata_swap_interval_must_be_finite_and_positive(course, value: str) -> None:
    result = course.run("kata", "01", "--swap-minutes", value)
    assert result.returncode == 2 and "finite number of minutes" in result.stderr
    assert "Traceback" not in result.stderr
