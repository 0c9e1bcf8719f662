"""Identity versus equality, shared singletons, and the immortal objects of Python 3.12+.

`==` asks two objects whether their values are equal; `is` asks whether two references point
at the very same object. CPython shares some objects (small ints, interned strings, None), and
since 3.12 (PEP 683) it marks the interpreter's own shared objects immortal: their reference
count is never changed. (3.12 made every interned string immortal; since 3.13 a string you
intern at run time with sys.intern is counted normally again.)
"""

import gc
import sys

from hypothesis import example, given
from hypothesis import strategies as st


def test_equality_and_identity_are_different_questions():
    """Each list display builds a new list object when it runs. `==` asks the two lists to
    compare their items; `is` asks whether the two names hold the very same reference."""
    first = [1, 2]
    second = [1, 2]
    assert (first == second, first is second) == __


@given(st.integers(min_value=-1000, max_value=1000))
@example(-6)
@example(-5)
@example(256)
@example(257)
def test_only_a_small_range_of_ints_are_shared_objects(n):
    """CPython preallocates the ints of a small range around zero, a few negative ones and
    every value a byte can hold plus one, and hands out the same object every time one of them
    is produced. Any other int is built fresh, so two equal ints need not be identical: that is
    an implementation detail, and the reason to compare numbers with `==`, never `is`."""
    text = str(n)
    same_object = int(text) is int(text)
    assert same_object == (__ <= n <= __)


def test_interning_makes_equal_strings_identical():
    """A string built at run time is a new object even if an equal literal exists. sys.intern
    returns the one canonical copy of a string, and identifier-like literals are interned by
    the compiler."""
    built = "".join(["py", "thon"])
    literal = "python"
    assert (built is literal, sys.intern(built) is literal) == __


def test_the_refcount_of_none_stopped_moving_in_python_3_12():
    """Since 3.12, None (like True, False and the small ints) is immortal (PEP 683): its count is
    pinned at a huge value and Py_INCREF/Py_DECREF leave it alone, so processes stop writing to
    shared pages. Before 3.12 every reference to None was counted. The rounding to thousands
    leaves a wide margin for any other reference to None taken or dropped between the two
    readings; with the collector paused, nothing in this test does so."""
    was_enabled = gc.isenabled()
    gc.disable()  # a collection freeing unrelated garbage would also release references to None
    try:
        before = sys.getrefcount(None)
        nones = [None] * 10_000
        change = round(sys.getrefcount(None) - before, -3)
    finally:
        if was_enabled:
            gc.enable()
    assert len(nones) == 10_000
    if sys.version_info >= (3, 12):
        assert change == __
    else:
        assert change == __


def test_a_fresh_object_is_not_immortal():
    """Immortality is for objects the interpreter shares everywhere. An ordinary object you create
    is counted exactly as before, on every version: one more reference, one more count."""
    fresh = object()
    before = sys.getrefcount(fresh)
    holders = [fresh, fresh]
    assert sys.getrefcount(fresh) - before == __
    assert len(holders) == 2
