"""Identity versus equality, shared singletons, and the immortal objects of Python 3.12+.

`==` asks two objects whether their values are equal; `is` asks whether two references point
at the very same object. CPython shares some objects (small ints, interned strings, None), and
since 3.12 (PEP 683) it marks the interpreter's own shared objects immortal: their reference
count is never changed. (3.12 made every interned string immortal; since 3.13 a string you
intern at run time with sys.intern is counted normally again.) 3.14 added
`sys._is_immortal(obj)` to ask; like every name with a leading underscore in `sys`, it is
CPython's own and may change.
"""

import gc
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st


def test_equality_and_identity_are_different_questions():
    """Each list display builds a new list object when it runs. `==` asks the two lists to
    compare their items; `is` asks whether the two names hold the very same reference."""
    first = [1, 2]
    second = [1, 2]
    assert (first == second, first is second) == __


@given(st.integers(min_value=-2000, max_value=2000))
@example(-6)
@example(-5)
@example(256)
@example(257)
@example(1024)
@example(1025)
def test_only_a_small_range_of_ints_are_shared_objects(n):
    """CPython preallocates the ints of a small range around zero, a few negative ones and
    every value a byte can hold plus one, and hands out the same object every time one of them
    is produced. Any other int is built fresh, so two equal ints need not be identical: that is
    an implementation detail, and the reason to compare numbers with `==`, never `is`. Python
    3.15 made the positive end of the range four times larger (gh-133059)."""
    text = str(n)
    same_object = int(text) is int(text)
    if sys.version_info >= (3, 15):
        assert same_object == (__ <= n <= __)
    else:
        assert same_object == (__ <= n <= __)


def test_interning_makes_equal_strings_identical():
    """A string built at run time is a new object even if an equal literal exists. sys.intern
    returns the one canonical copy of a string, and identifier-like literals are interned by
    the compiler."""
    built = "".join(["py", "thon"])
    literal = "python"
    assert (built is literal, sys.intern(built) is literal) == __


def test_an_immortal_object_s_count_is_never_written_since_3_12():
    """Since 3.12, None (like True, False and the small ints) is immortal (PEP 683): its count is
    pinned at a huge value and Py_INCREF/Py_DECREF leave it alone, so processes stop writing to
    shared pages. Before 3.12 every reference to None was counted, like a reference to any
    object you create. The rounding to thousands leaves a wide margin for any other reference
    taken or dropped between the readings; with the collector paused, nothing here does so."""
    fresh = object()
    was_enabled = gc.isenabled()
    gc.disable()  # a collection freeing unrelated garbage would also release references to None
    try:
        before = (sys.getrefcount(None), sys.getrefcount(fresh))
        nones = [None] * 10_000
        freshes = [fresh] * 10_000
        after = (sys.getrefcount(None), sys.getrefcount(fresh))
    finally:
        if was_enabled:
            gc.enable()
    change = tuple(round(a - b, -3) for a, b in zip(after, before, strict=True))
    assert len(nones) == len(freshes) == 10_000
    if sys.version_info >= (3, 12):
        assert change == __
    else:
        assert change == __


@pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="sys._is_immortal arrived in 3.14; 3.12 and 3.13 have immortal objects but no "
    "function to ask, and 3.10 and 3.11 count every reference to every object",
)
def test_immortality_is_for_what_the_interpreter_shares():
    """An immortal object is one the interpreter creates for itself and shares everywhere: the
    singletons, the small ints of the preallocated range, the built-in types. A string you
    intern at run time is shared too, but since 3.13 it is counted normally again, and is freed
    when its last reference goes; an object you create is counted like any other."""
    runtime = sys.intern("".join(["koan", "-only", "-string"]))
    candidates = {
        "None": None,
        "int 1000": int("1000"),
        "int 10**6": int("1000000"),
        "interned at run time": runtime,
        "the type int": int,
        "object()": object(),
    }
    immortal = [name for name, obj in candidates.items() if sys._is_immortal(obj)]
    if sys.version_info >= (3, 15):
        assert immortal == __
    else:
        assert immortal == __
