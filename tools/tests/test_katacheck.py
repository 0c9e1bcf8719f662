"""tools/katacheck.py proves each kata keeps its promises, against a tiny course of its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from koanrunner.checking import surgery
from koanrunner.checking.katas import check_katas

REPO = Path(__file__).resolve().parents[2]

REFERENCE = '''
def add(a, b):
    return a + b


def total(numbers):
    result = 0
    for number in numbers:
        result = add(result, number)
    return result


def mean(numbers):
    return total(numbers) / len(numbers)
'''

STUB = '''
def add(a, b):
    raise NotImplementedError("add")


def total(numbers):
    raise NotImplementedError("total")


def mean(numbers):
    raise NotImplementedError("mean")
'''

STEPS = '''
from counter import add, mean, total


def test_add_adds_two_numbers():
    """Two numbers make their sum."""
    assert add(2, 3) == 5
    assert add(-1, 1) == 0


def test_total_adds_them_all():
    """A total is additions, one at a time."""
    assert total([1, 2, 3]) == 6
    assert total([]) == 0


def test_mean_divides_the_total():
    """The mean is the total shared out."""
    assert mean([1, 2, 3, 6]) == 3
'''

WRONG = """
[[wrong]]
function = "add"
step = "test_add_adds_two_numbers"
why = "Subtraction is not addition."
source = '''
def add(a, b):
    return a - b
'''

[[wrong]]
function = "total"
step = "test_total_adds_them_all"
why = "The first number counts too."
source = '''
def total(numbers):
    return sum(numbers[1:])
'''
"""

HINTS = """
[test_add_adds_two_numbers]
hints = ["Which operator adds?"]

[test_total_adds_them_all]
hints = ["What is the total of nothing?"]

[test_mean_divides_the_total]
hints = ["How many numbers are there?"]
"""

README = """# Kata 01: a counter

1. `test_add_adds_two_numbers`
2. `test_total_adds_them_all`
3. `test_mean_divides_the_total`
"""


def write_kata(root: Path, name: str, *, reference: str = REFERENCE, stub: str = STUB,
               wrong: str = WRONG, readme: str = README) -> None:
    kata, answer = root / "koans" / "katas" / name, root / "answers" / "katas" / name
    for folder in (kata, answer):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "test_steps.py").write_text(textwrap.dedent(STEPS).lstrip())
    (kata / "counter.py").write_text(stub.lstrip())
    (answer / "counter.py").write_text(reference.lstrip())
    (answer / "wrong.toml").write_text(wrong.lstrip())
    (kata / "hints.toml").write_text(HINTS.lstrip())
    (kata / "README.md").write_text(readme)


def make_root(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    for part in ("koans", "answers"):
        (root / part / "katas").mkdir(parents=True)
        shutil.copy2(REPO / "koans" / "katas" / "conftest.py", root / part / "katas" / "conftest.py")
    return root


def test_a_sound_kata_has_no_breaches_and_every_promise_is_counted(tmp_path):
    root = make_root(tmp_path)
    write_kata(root, "01_counter")
    breaches, counts = check_katas(root)
    assert breaches == []
    assert counts == {"katas": 1, "steps": 3, "stub_steps": 3, "reference_steps": 3, "wrong": 2,
                      "orderings": 2, "new_code": 2}
    cli = subprocess.run([sys.executable, str(REPO / "tools" / "katacheck.py"), "--root", str(root)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert cli.returncode == 0 and "1 katas, 3 steps" in cli.stdout and "0 breaches" in cli.stdout


def test_each_broken_promise_is_a_breach_that_says_where_and_how_to_fix_it(tmp_path):
    root = make_root(tmp_path)
    write_kata(root, "01_stub_passes", stub=STUB.replace('raise NotImplementedError("add")', "return a + b"),
               readme=README.replace("2. `test_total_adds_them_all`\n", ""))
    write_kata(root, "02_misdeclared", wrong=WRONG.replace(
        'step = "test_total_adds_them_all"', 'step = "test_mean_divides_the_total"').replace(
        "return a - b", "return b + a"))
    write_kata(root, "03_unordered", reference=REFERENCE.replace(
        "return total(numbers) / len(numbers)", "return sum(numbers) / len(numbers)"))
    (root / "answers" / "katas" / "conftest.py").write_text("# a different copy\n")
    breaches, _ = check_katas(root)
    found = {(where, what.split(":")[0]) for where, what, _fix in breaches}
    steps = "koans/katas/01_stub_passes/test_steps.py"
    assert (f"{steps}::test_add_adds_two_numbers", "the step passes on the stub as shipped") in found
    assert ("koans/katas/01_stub_passes/README.md", "the README does not list the steps "
            "['test_total_adds_them_all']") in found
    assert ("answers/katas/02_misdeclared/wrong.toml[0] (add)",
            "it passes test_add_adds_two_numbers") in found
    assert ("answers/katas/02_misdeclared/wrong.toml[1] (total)",
            "it fails test_total_adds_them_all already, before test_mean_divides_the_total (katas/"
            "02_misdeclared--wrong1/test_steps.py") in found
    assert any(where == "koans/katas/03_unordered/test_steps.py::test_mean_divides_the_total"
               and what.startswith("step 3 does not need step 2") for where, what in found)
    assert ("answers/katas/conftest.py", "differs from koans/katas/conftest.py") in found
    assert all(fix for _where, _what, fix in breaches)
    cli = subprocess.run([sys.executable, str(REPO / "tools" / "katacheck.py"), "--root", str(root),
                          "--kata", "03_unordered"], capture_output=True, text=True, timeout=300,
                         check=False)
    assert cli.returncode == 1 and "BREACH koans/katas/03_unordered" in cli.stdout


def test_the_harder_stub_fails_every_step_and_lives_alone_in_hard(tmp_path):
    root = make_root(tmp_path)
    write_kata(root, "01_counter")
    hard = root / "koans" / "katas" / "01_counter" / "hard"
    hard.mkdir()
    (hard / "counter.py").write_text(STUB.replace('raise NotImplementedError("total")', "return 6"))
    (hard / "notes.txt").write_text("more\n")
    breaches, counts = check_katas(root)
    found = {(where, what) for where, what, _fix in breaches}
    assert ("koans/katas/01_counter/test_steps.py::test_total_adds_them_all",
            "the step passes on the harder stub hard/counter.py as shipped") not in found  # [] != 6
    assert any(what.startswith("on the harder stub hard/counter.py the step fails, but not on a "
                               "NotImplementedError") for _where, what in found)
    assert ("koans/katas/01_counter/hard", "hard/ holds only the harder stub counter.py; found "
            "['counter.py', 'notes.txt']") in found
    (hard / "notes.txt").unlink()
    (hard / "counter.py").write_text(STUB)
    breaches, counts = check_katas(root)
    assert breaches == [] and counts["stub_steps"] == 2 * counts["steps"]


def test_source_surgery_replaces_a_method_and_puts_functions_back_to_stubs():
    source = textwrap.dedent('''
        class Heap:
            def new(self, name: str) -> None:
                """Make one."""
                self.objects[name] = 1

            @property
            def size(self) -> int:
                return len(self.objects)
        ''')
    replaced = surgery.splice(source, "Heap.new", "def new(self, name):\n    pass\n")
    assert "    def new(self, name):\n        pass\n" in replaced and "@property" in replaced
    stub = surgery.stubbed(source, "Heap.size")
    assert "@property\n    def size(self) -> int:\n        raise NotImplementedError('Heap.size')" in stub
    assert surgery.unwritten(stub) == ["Heap.size"]
    assert surgery.partial(stub, source, []) == stub
    assert surgery.partial(stub, source, ["Heap.size"]) == source
