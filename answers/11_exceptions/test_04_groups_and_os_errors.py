"""Errors from the outside world arrive as OSError subclasses carrying the C `errno`. Several
errors at once (from concurrent tasks, say) travel together in an ExceptionGroup, handled with
`except*`; ExceptionGroup and `except*` are new in Python 3.11 (PEP 654), so this file checks
the version first."""

import builtins
import errno
import sys

import pytest

# `except*` is a syntax error before 3.11, so the file keeps that code in strings and compiles
# it at run time: otherwise Python 3.10 could not even import this file.
EXCEPT_STAR = """
events = []
try:
    raise ExceptionGroup("batch", [ValueError("a"), TypeError("b"), ValueError("c")])
except* ValueError as group:
    events.append(("value", len(group.exceptions)))
except* TypeError as group:
    events.append(("type", len(group.exceptions)))
"""

EXCEPT_STAR_PARTIAL = """
try:
    raise ExceptionGroup("batch", [ValueError("a"), TypeError("b"), KeyError("c")])
except* ValueError:
    pass
"""

needs_311 = pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="ExceptionGroup and except* arrived in Python 3.11 (PEP 654); on 3.10 ExceptionGroup "
    "is not a builtin (the `exceptiongroup` backport on PyPI provides it) and except* is a "
    "SyntaxError",
)


def test_exception_group_is_a_builtin_only_from_3_11():
    """PEP 654 added ExceptionGroup and BaseExceptionGroup to the builtins in Python 3.11. A
    group that holds only Exceptions must itself be an Exception, so that `except Exception`
    catches it, and it is also a kind of the base group class, which may hold any
    BaseException. Code that must also run on 3.10 imports them from the `exceptiongroup`
    backport."""
    group_class = getattr(builtins, "ExceptionGroup", None)
    if sys.version_info >= (3, 11):
        assert group_class.__bases__ == (BaseExceptionGroup, Exception)  # noqa: F821
    else:
        assert group_class == None


def test_except_star_runs_every_matching_clause():
    """A plain `except` picks one clause; `except*` splits the group and runs every clause that
    matches part of it, each receiving a group of just its matches. On 3.10 the same source
    does not even compile."""
    if sys.version_info >= (3, 11):
        namespace = {}
        exec(compile(EXCEPT_STAR, "<koan>", "exec"), namespace)
        assert namespace["events"] == [("value", 2), ("type", 1)]
    else:
        with pytest.raises(SyntaxError):
            compile(EXCEPT_STAR, "<koan>", "exec")


@needs_311
def test_the_unhandled_rest_of_a_group_is_reraised_as_a_group():
    """Whatever no `except*` clause matched is raised again at the end, still wrapped in an
    ExceptionGroup, in the original order; the leftovers never escape as bare exceptions."""
    with pytest.raises(ExceptionGroup) as info:  # noqa: F821  (a builtin from 3.11)
        exec(compile(EXCEPT_STAR_PARTIAL, "<koan>", "exec"), {})
    assert [type(e) for e in info.value.exceptions] == [TypeError, KeyError]


@needs_311
def test_split_separates_matches_from_the_rest():
    """`group.split(E)` is the operation behind `except*`: it returns the matching part and the
    rest as two new groups (None where a part is empty), keeping the original order."""
    group = ExceptionGroup("batch", [ValueError(1), TypeError(2), ValueError(3)])  # noqa: F821
    matched, rest = group.split(ValueError)
    assert [e.args[0] for e in matched.exceptions] == [1, 3]


@needs_311
def test_the_group_constructor_returns_a_narrower_class_when_it_can():
    """The constructor of the base group class, the one that may hold any BaseException, looks
    at what it is given. If every member is an Exception, it returns an instance of its
    narrower subclass, which is itself an Exception, so `except Exception` can catch it."""
    group = BaseExceptionGroup("batch", [ValueError(), KeyError()])  # noqa: F821
    assert type(group) == ExceptionGroup  # noqa: F821


@needs_311
def test_an_exception_group_cannot_hold_a_keyboard_interrupt():
    """ExceptionGroup is itself an Exception, so letting it carry a KeyboardInterrupt would let
    `except Exception` swallow Ctrl-C. The constructor refuses; BaseExceptionGroup is for that."""
    with pytest.raises(TypeError):
        ExceptionGroup("batch", [KeyboardInterrupt()])  # noqa: F821


def test_an_oserror_keeps_the_c_error_number(tmp_path):
    """FileNotFoundError is a subclass of OSError, and the original C error number survives in
    `.errno`; `errno.errorcode` maps it back to its symbolic name."""
    with pytest.raises(OSError) as info:
        open(tmp_path / "missing.txt")
    assert errno.errorcode[info.value.errno] == "ENOENT"


def test_the_oserror_constructor_picks_the_subclass_from_errno():
    """Since PEP 3151 (Python 3.3), calling OSError with an errno returns the matching subclass,
    so a handler for that subclass also catches errors built from raw error codes."""
    err = OSError(errno.ENOENT, "No such file or directory")
    assert type(err) == FileNotFoundError


def test_ioerror_survives_only_as_an_alias():
    """PEP 3151 (Python 3.3) merged IOError, EnvironmentError, socket.error and select.error
    into one class. The old names survive as aliases of that class, and a class's `__name__`
    is the name it was defined with."""
    assert IOError.__name__ == "OSError"
