"""The koans' conftest plugin, driven against a fake course in a subprocess."""

from __future__ import annotations

import builtins
import json
import operator
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakecourse import build_course, replace_in, write

pytest_plugins = ["pytester"]

BLANK = builtins.__  # type: ignore[attr-defined]
TYPE_BLANK = builtins.___  # type: ignore[attr-defined]

USES: dict[str, Callable[[Any], Any]] = {
    "==": lambda b: 1 == b,
    "== (blank on the left)": lambda b: b == 1,
    "!=": lambda b: 1 != b,
    "<": lambda b: 1 < b,
    ">=": lambda b: b >= 1,
    "truth": bool,
    "not": operator.not_,
    "hash": hash,
    "dict key": lambda b: {b: 1},
    "in a list": lambda b: b in [1, 2],
    "in a set": lambda b: b in {1, 2},
    "contains": lambda b: 1 in b,
    "iter": iter,
    "len": len,
    "+": lambda b: 1 + b,
    "* (blank on the left)": lambda b: b * 2,
    "-": operator.neg,
    "int": int,
    "float": float,
    "index": lambda b: [1, 2][b],
    "call": lambda b: b(),
    "attribute": lambda b: b.real,
    "getitem": lambda b: b[0],
    "isinstance": lambda b: isinstance(1, b),
    "issubclass": lambda b: issubclass(int, b),
    "format": lambda b: f"{b:>3}",
    "round": round,
}


@pytest.mark.parametrize("use", USES.values(), ids=USES.keys())
def test_every_use_of_a_blank_fails(use: Callable[[Any], Any]) -> None:
    with pytest.raises(Exception) as caught:
        use(BLANK)
    assert caught.type.__name__ in ("UnfilledBlank", "TypeError")


def test_a_blank_still_has_a_repr_for_messages() -> None:
    assert repr(BLANK) == "__" and repr(TYPE_BLANK) == "___"


def test_catching_a_type_blank_fails() -> None:
    with pytest.raises(TypeError):
        try:
            raise KeyError("x")
        except TYPE_BLANK:  # type: ignore[misc]
            pass


def test_pytest_raises_refuses_a_type_blank() -> None:
    with pytest.raises(Exception) as caught:  # pytest 9 checks the type; 7 and 8 iterate it
        pytest.raises(TYPE_BLANK)
    assert caught.type.__name__ in ("UnfilledBlank", "TypeError")


@pytest.fixture
def course(pytester: pytest.Pytester) -> Path:
    return build_course(pytester.path)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Every koan's report (``--koans-all``); the path view has tests of its own."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--koans-all", *args)


def test_an_unfilled_blank_names_its_file_and_line(pytester: pytest.Pytester, course: Path) -> None:
    result = run(pytester, "koans/01_first")
    result.stdout.fnmatch_lines(
        [
            "koans/01_first/test_01_basics.py:6: fill in the blank on line 6",
            "    assert 2 + 2 == __",
            "koans/01_first/test_01_basics.py:11: fill in the blank on line 11",
            "    with pytest.raises(___):",
        ]
    )
    assert "conftest.py" not in result.stdout.str()
    assert "UnfilledBlank" not in result.stdout.str()
    result.assert_outcomes(failed=3)


def test_a_wrong_fill_reads_differently_from_an_empty_one(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / "koans/01_first/test_01_basics.py", "== __", "== 5")
    result = run(pytester, "koans/01_first")
    result.stdout.fnmatch_lines(
        ["koans/01_first/test_01_basics.py:6: not yet: you wrote 5, Python says 4", "    assert 2 + 2 == 5"]
    )


def test_a_listed_misconception_is_answered(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / "koans/01_first/test_01_basics.py", "== __", "== 22")
    result = run(pytester, "koans/01_first")
    result.stdout.fnmatch_lines(
        ["*you wrote 22, Python says 4", "*A common thought, and why it fails:", "*not gluing digits*"]
    )


def test_a_blank_that_flows_through_a_name_points_back_at_the_blank(
    pytester: pytest.Pytester, course: Path
) -> None:
    write(
        course / "koans/02_second/test_01_division.py",
        '''
        def test_floor_division_rounds_down():
            """doc"""
            expected = __
            assert -7 // 2 == expected
        ''',
    )
    result = run(pytester, "koans/02_second")
    result.stdout.fnmatch_lines(["*test_01_division.py:3: fill in the blank on line 3", "*reached line 4*"])


@pytest.mark.parametrize(
    ("broken", "expected"),
    [
        ("x = (\n", "*test_01_division.py:4: Python cannot read this file: '(' was never closed"),
        ("import not_a_module_anywhere\n", "*:4: this file stops before any koan runs: ModuleNotFoundError*"),
        ("undefined_name\n", "*:4: this file stops before any koan runs: NameError*"),
    ],
    ids=["syntax error", "import error", "name error"],
)
def test_a_broken_file_says_why_and_where(
    pytester: pytest.Pytester, course: Path, broken: str, expected: str
) -> None:
    path = course / "koans/02_second/test_01_division.py"
    path.write_text(path.read_text() + broken)
    result = run(pytester, "koans")
    result.stdout.fnmatch_lines([expected])
    assert "Traceback" not in result.stdout.str()
    result.assert_outcomes(failed=3, errors=1)


def test_an_error_in_the_koan_body_is_reported_on_the_learners_line(
    pytester: pytest.Pytester, course: Path
) -> None:
    replace_in(course / "koans/02_second/test_01_division.py", "== __", "== Four")
    result = run(pytester, "koans/02_second")
    result.stdout.fnmatch_lines(["*test_01_division.py:3: Python raised NameError: name 'Four' is not defined"])


def test_the_summary_counts_and_names_the_next_koan(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / "koans/01_first/test_01_basics.py", "== __", "== 4")
    result = run(pytester, "koans")
    result.stdout.fnmatch_lines(
        [
            "*the path*",
            "1 of 4 koans solved.",
            "Next: koans/01_first/test_01_basics.py::test_indexing_past_the_end_raises",
        ]
    )


def test_the_summary_is_the_same_under_xdist(pytester: pytest.Pytester, course: Path) -> None:
    pytest.importorskip("xdist")
    replace_in(course / "koans/01_first/test_01_basics.py", "== __", "== 4")
    result = run(pytester, "koans", "-n", "2")
    result.stdout.fnmatch_lines(
        ["1 of 4 koans solved.", "Next: koans/01_first/test_01_basics.py::test_indexing_past_the_end_raises"]
    )


def test_the_json_report_lists_every_koan_in_order(pytester: pytest.Pytester, course: Path) -> None:
    out = course / "report.json"
    replace_in(course / "koans/02_second/test_01_division.py", "== __", "== -4")
    run(pytester, "koans", "--koans-json", str(out))
    rows = json.loads(out.read_text())["koans"]
    assert [(row["nodeid"].split("::")[-1], row["kind"]) for row in rows] == [
        ("test_addition_is_exact", "blank"),
        ("test_indexing_past_the_end_raises", "blank"),
        ("test_len_counts_characters", "blank"),
        ("test_floor_division_rounds_down", "passed"),
    ]


def test_an_infinite_loop_is_stopped_by_the_timeout(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / "koans/02_second/test_01_division.py", "assert -7", "while True:\n        pass\n    assert -7")
    result = run(pytester, "koans/02_second", "--koans-timeout", "1")
    result.stdout.fnmatch_lines(["*stopped here: this koan ran longer than 1 s*"])


CUDA_KOAN = '''
    import pytest

    @pytest.mark.cuda
    def test_needs_a_gpu():
        """doc"""
        assert __
    '''


def test_cuda_koans_skip_with_a_reason_without_a_gpu(
    pytester: pytest.Pytester, course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # no GPU visible, on any machine
    write(course / "koans/02_second/test_02_cuda.py", CUDA_KOAN)
    result = run(pytester, "koans/02_second/test_02_cuda.py", "-rs")
    result.stdout.fnmatch_lines(["*needs * CUDA GPU*"])
    result.assert_outcomes(skipped=1)


def test_cuda_koans_run_where_a_gpu_is_visible(pytester: pytest.Pytester, course: Path) -> None:
    # Asked in a child: pytester drops from sys.modules what a test imports, and torch (with
    # NumPy) cannot be loaded twice in one process, so a later test here could not import it.
    probe = "import torch; print(torch.cuda.is_available())"
    asked = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    if asked.stdout.strip() != "True":
        pytest.skip("needs torch and a CUDA GPU: this checks that cuda koans are not skipped on one")
    write(course / "koans/02_second/test_02_cuda.py", CUDA_KOAN)
    result = run(pytester, "koans/02_second/test_02_cuda.py")
    result.stdout.fnmatch_lines(["*fill in the blank*"])
    result.assert_outcomes(failed=1)


def test_raw_mode_keeps_pytests_own_traceback(pytester: pytest.Pytester, course: Path) -> None:
    result = run(pytester, "koans/02_second", "--koans-raw")
    result.stdout.fnmatch_lines(["*UnfilledBlank*"])


def test_answers_and_koans_do_not_collide(pytester: pytest.Pytester, course: Path) -> None:
    result = run(pytester, "koans", "answers")
    result.assert_outcomes(passed=4, failed=4)


def test_running_one_file_does_not_import_hypothesis_for_a_sibling(
    pytester: pytest.Pytester, course: Path
) -> None:
    """pytest creates a Module for every file beside the one it runs; only the one it runs may
    decide whether Hypothesis (0.2 s to import) is loaded."""
    pytest.importorskip("hypothesis")
    write(
        course / "koans/02_second/test_02_alone.py",
        '''
        import sys

        def test_it_is_not_loaded():
            """doc (the name is split: this file must not mention it)"""
            assert "hypo" + "thesis" not in sys.modules
        ''',
    )
    write(
        course / "koans/02_second/test_03_props.py",
        '''
        from hypothesis import given, strategies as st

        @given(st.integers())
        def test_adding_zero(n):
            """doc"""
            assert n + 0 == n
        ''',
    )
    for name in ("test_02_alone.py", "test_03_props.py"):  # the answer key names every koan
        write(course / "answers/02_second" / name, (course / "koans/02_second" / name).read_text())
    result = run(pytester, "koans/02_second/test_02_alone.py", "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=1)
    result = run(pytester, "koans/02_second/test_03_props.py")
    result.assert_outcomes(passed=1)


# -- what the learner typed, and only a real pass counts ---------------------------------------

BASICS = "koans/01_first/test_01_basics.py"


def first_run(pytester: pytest.Pytester) -> None:
    """The first run sees the koans as shipped and keeps a pristine copy of them."""
    run(pytester, "koans")


def test_a_misconception_typed_inside_a_larger_expression_is_answered(
    pytester: pytest.Pytester, course: Path
) -> None:
    for part in ("koans", "answers"):
        replace_in(course / part / "01_first/test_01_basics.py", "assert 2 + 2 ==", "assert 2 + 2 == 2 *")
    replace_in(course / "answers/01_first/test_01_basics.py", "== 2 * 4", "== 2 * 2")
    replace_in(course / "koans/01_first/hints.toml", 'fill = "22"', 'fill = "11"')
    first_run(pytester)
    replace_in(course / BASICS, "== 2 * __", "== 2 * 11")
    result = run(pytester, BASICS)
    result.stdout.fnmatch_lines(["*you wrote 22, Python says 4", "*A common thought*", "*not gluing digits*"])


def test_a_parent_class_at_an_exception_blank_is_too_broad(pytester: pytest.Pytester, course: Path) -> None:
    first_run(pytester)
    replace_in(course / BASICS, "pytest.raises(___)", "pytest.raises(LookupError)")
    result = run(pytester, BASICS)
    result.stdout.fnmatch_lines([
        f"{BASICS}:11: not yet: too broad: Python raised IndexError, a kind of LookupError: "
        "name the exact class"])
    replace_in(course / BASICS, "pytest.raises(LookupError)", "pytest.raises(Exception)")
    assert "too broad" in run(pytester, BASICS).stdout.str()
    replace_in(course / BASICS, "pytest.raises(Exception)", "pytest.raises(IndexError)")
    assert "test_indexing_past_the_end_raises PASSED" in run(pytester, BASICS, "-v").stdout.str()


def test_a_wrong_exception_class_is_reported_at_the_blank_with_its_note(
    pytester: pytest.Pytester, course: Path
) -> None:
    with (course / "koans/01_first/hints.toml").open("a") as handle:
        handle.write('\n[[test_indexing_past_the_end_raises.misconceptions]]\nfill = "KeyError"\n'
                     'why = """KeyError is for mappings; a list index is an index."""\n')
    first_run(pytester)
    replace_in(course / BASICS, "pytest.raises(___)", "pytest.raises(KeyError)")
    result = run(pytester, BASICS)
    result.stdout.fnmatch_lines([
        f"{BASICS}:11: not yet: you wrote KeyError, Python raised IndexError: list index out of range",
        "    with pytest.raises(KeyError):", "*A common thought*", "*KeyError is for mappings*"])


def test_a_pass_with_a_change_outside_the_blanks_does_not_count(pytester: pytest.Pytester, course: Path) -> None:
    first_run(pytester)
    replace_in(course / BASICS, "assert 2 + 2 == __", "assert True")
    replace_in(course / BASICS, 'assert len("to be") == __', 'pytest.skip("later")')
    result = run(pytester, "koans")
    result.stdout.fnmatch_lines([f"{BASICS}:6: changed outside the blanks*", "    assert True",
                                 f"{BASICS}:17: changed outside the blanks*", "0 of 4 koans solved."])
    assert result.ret == 1


def test_koans_renamed_or_emptied_are_missing_not_gone(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / "koans/02_second/test_01_division.py", "def test_floor", "def floor")
    (course / BASICS).write_text("")
    result = run(pytester, "koans")
    result.stdout.fnmatch_lines(["0 of 4 koans solved.",
                                 f"Next: {BASICS}::test_addition_is_exact",
                                 "*this koan is no longer in its file*"])
    assert result.ret == 1


def test_pytest_exit_in_a_koan_is_never_a_green_run(pytester: pytest.Pytester, course: Path) -> None:
    replace_in(course / BASICS, "assert 2 + 2 == __", 'pytest.exit("bye", returncode=0)')
    result = run(pytester, "koans")
    assert result.ret != 0
    assert "koans solved" in result.stdout.str()
    assert "Every koan" not in result.stdout.str()


def test_a_hypothesis_koan_shows_the_input_that_broke_it(pytester: pytest.Pytester, course: Path) -> None:
    pytest.importorskip("hypothesis")
    koan = '''
        from hypothesis import given, strategies as st

        @given(st.integers(0, 10))
        def test_adding_is_not_doubling(n):
            """doc"""
            assert n + n == n * __
        '''
    write(course / "koans/02_second/test_02_props.py", koan)
    write(course / "answers/02_second/test_02_props.py", koan.replace("__", "2"))
    first_run(pytester)
    replace_in(course / "koans/02_second/test_02_props.py", "n * __", "n * 3")
    result = run(pytester, "koans/02_second/test_02_props.py")
    result.stdout.fnmatch_lines(["*Hypothesis found an input that breaks it:", "*: test_adding_is_not_doubling(", "*n=1,*"])
    # Where libcst is installed, Hypothesis would also write a patch adding @example(...) to the
    # koan (a change outside the blanks) and tell the learner to `git apply` it.
    assert "git apply" not in result.stdout.str()
    assert not list(pytester.path.rglob("*.patch"))


def test_plain_pytest_koans_reads_as_the_path(pytester: pytest.Pytester, course: Path) -> None:
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "koans")
    out = result.stdout.str()
    assert out.count("fill in the blank on line") == 2  # the first koan in full, and "Next:"
    assert "  Small ints add exactly." in out  # its lesson
    assert "FAILED" not in out  # no line per koan
    tail = [line for line in out.splitlines() if line.strip()][-5:]
    assert tail[0].endswith("0 of 4 koans solved.")
    assert tail[1] == f"Next: {BASICS}::test_addition_is_exact"
    assert tail[-1].startswith("3 failed, 1 deselected")  # untouched files after the first: not run


def test_the_path_never_sends_the_learner_to_a_cuda_koan_that_cannot_run_here(
    pytester: pytest.Pytester, course: Path
) -> None:
    probe = "import torch; print(torch.cuda.is_available())"  # a child: never start CUDA here
    gpu = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    if gpu.stdout.strip() == "True":
        pytest.skip("this machine has a CUDA GPU: its cuda koans run")
    koan = '''
        import pytest

        @pytest.mark.cuda
        def test_{name}():
            """doc"""
            assert 1 == __
        '''
    for number, name in (("01", "first_gpu_koan"), ("02", "second_gpu_koan")):
        for part, text in (("koans", koan), ("answers", koan.replace("__", "1"))):
            write(course / f"{part}/03_gpu/test_{number}_{name}.py", text.format(name=name))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "koans/03_gpu")
    out = result.stdout.str()
    assert "untouched so far" not in out, out  # the second file's koan is skipped here, not blank
    assert "Next: koans/03_gpu" not in out, out
    assert "Nothing in this run can be solved on this machine" in out, out
