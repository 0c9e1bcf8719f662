"""Lazy imports (PEP 810, Python 3.15): the name is bound at once, the module is loaded later.

The `lazy` keyword cannot stand in this file itself: Pythons before 3.15 would reject the
whole file. The koans write it into small programs and run those instead.
"""

import subprocess
import sys

import pytest

LAZY_KEYWORD = pytest.mark.skipif(
    sys.version_info < (3, 15),
    reason="`lazy import` is new in Python 3.15 (PEP 810): before, the line is a SyntaxError and "
    "every import statement loads the module before the next line runs",
)

REPORT = 'print("the body of report runs")\nVALUE = 1\n'


def run_program(tmp_path, main):
    """Write main.py and report.py into tmp_path, run main.py in a fresh interpreter (-E:
    ignoring PYTHON* variables) and return the lines it printed."""
    (tmp_path / "report.py").write_text(REPORT)
    (tmp_path / "main.py").write_text(main)
    done = subprocess.run([sys.executable, "-E", "main.py"], cwd=tmp_path, capture_output=True,
                          text=True, check=True, timeout=120)
    return done.stdout.splitlines()


@LAZY_KEYWORD
def test_a_lazy_import_loads_the_module_at_the_first_use_of_its_name(tmp_path):
    """`lazy import report` binds the global name `report` to a placeholder and goes on; the
    module is found and its body run only when the program first looks the name up (the
    placeholder is then replaced by the module). Start-up pays only for what it uses."""
    printed = run_program(tmp_path, (
        "lazy import report\n"
        'print("after the import statement")\n'
        "value = report.VALUE\n"
        'print("after the first use")\n'
    ))
    assert printed == __


def test_lazy_modules_asks_for_the_same_deferral_in_older_syntax(tmp_path):
    """A module that must still run on older Pythons can list names in `__lazy_modules__`
    instead: from 3.15 on, plain imports of those modules are lazy. An older Python sees an
    ordinary list it has no use for, and runs each import statement to the end, the
    module's body included, before the next line."""
    printed = run_program(tmp_path, (
        '__lazy_modules__ = ["report"]\n'
        "import report\n"
        'print("after the import statement")\n'
        "value = report.VALUE\n"
        'print("after the first use")\n'
    ))
    if sys.version_info >= (3, 15):
        assert printed == __
    else:
        assert printed == __


@LAZY_KEYWORD
def test_where_a_lazy_import_of_a_missing_module_fails():
    """Finding the module is part of the work a lazy import puts off: the statement binds the
    name without asking a single finder whether such a module exists. The search happens,
    and fails the way any import of a missing module fails, when the placeholder is first
    needed."""
    log = []
    program = (
        "lazy import koan_module_that_does_not_exist\n"
        'log.append("import statement done")\n'
        "koan_module_that_does_not_exist.run()\n"
        'log.append("after the call")\n'
    )
    with pytest.raises(___):
        exec(compile(program, "main.py", "exec"), {"__name__": "main", "log": log})
    assert log == __


@LAZY_KEYWORD
def test_where_the_compiler_accepts_a_lazy_import():
    """A lazy import binds a global name and moves the import, and any ImportError, to the
    first use of that name. The compiler refuses it wherever that would change what the code
    means: where the name it binds would not be a global, and where an except clause written
    around the statement would no longer see the import fail."""
    places = {
        "module level": "lazy import json\n",
        "inside if": "if debug:\n    lazy import json\n",
        "inside with": "with lock:\n    lazy import json\n",
        "inside try": "try:\n    lazy import json\nexcept ImportError:\n    json = None\n",
        "inside def": "def dump():\n    lazy import json\n",
        "inside class": "class Dump:\n    lazy import json\n",
    }
    accepted = []
    for place, program in places.items():
        try:
            compile(program, "main.py", "exec")
        except SyntaxError:
            continue
        accepted.append(place)
    assert accepted == __
