"""Welcome. Each test in this course is a koan: a true statement about Python with a gap in it.

Run `python tools/koans.py`: it walks the koans in order and stops at the first one that fails.
Read the docstring, replace the blank, save, and run it again.
"""

import pytest


@pytest.mark.presolved
def test_a_solved_koan_looks_like_this():
    """A koan is an assertion about what Python really does. This one is already filled in:
    integer addition is exact, so 2 + 2 is 4 and the koan passes."""
    assert 2 + 2 == 4


@pytest.mark.presolved
def test_a_koan_can_expect_an_exception():
    """Some koans assert that Python refuses. `pytest.raises(X)` passes only when the code inside
    the `with` block raises X or a subclass of it; a koan's exception blank is stricter and asks
    for the exact class that is raised."""
    with pytest.raises(ZeroDivisionError):
        1 / 0


def test_fill_in_a_value_blank():
    """`__` is a value blank. It refuses to be compared, added, hashed or treated as true, so a
    koan never passes while a blank is still in it. Replace `__` with the value that makes the
    statement true."""
    assert 1 + 1 == __


def test_fill_in_an_exception_blank():
    """`___` (three underscores) is an exception-type blank. Replace it with the name of the
    exact exception class Python raises: a parent class such as Exception is reported as too
    broad. Indexing past the end of a list is not the same mistake as looking up a missing
    dictionary key."""
    with pytest.raises(___):
        [1, 2, 3][3]


def test_a_wrong_fill_is_told_apart_from_an_empty_one():
    """Feedback says 'fill in the blank' while a blank remains. Once you have written something
    wrong it says 'you wrote X, Python says Y' by your second wrong try at the latest; a first
    wrong try may only say what kind of thing is off. `len` counts characters, not words."""
    assert len("to be or not") == __
