"""EAFP ("easier to ask forgiveness than permission") tries the operation and handles the
failure; LBYL ("look before you leap") checks first. Python favours EAFP and gives try statements
four clauses, run in a fixed order; `finally` always runs, and a `return` inside it wins."""

import sys
import warnings

import pytest

# Sources compiled at run time: a `return` in `finally` draws a SyntaxWarning from 3.14's
# compiler, and `except A, B:` does not even compile before 3.14.
RETURN_IN_FINALLY = """
def f():
    try:
        return 1
    finally:
        return 2
"""

SWALLOWING_RETURN = """
def f():
    try:
        1 / 0
    finally:
        return "swallowed"
"""

LEAVING_FINALLY = {
    "return": RETURN_IN_FINALLY,
    "break": "for i in range(3):\n    try:\n        pass\n    finally:\n        break\n",
    "continue": "for i in range(3):\n    try:\n        pass\n    finally:\n        continue\n",
    "return from a def inside": "try:\n    pass\nfinally:\n    def g():\n        return 1\n",
    "break from a loop inside": "try:\n    pass\nfinally:\n    for i in range(3):\n        break\n",
}

EXCEPT_A_COMMA_B = """
caught = []
for error in (ValueError, KeyError, TypeError):
    try:
        try:
            raise error
        except ValueError, KeyError:
            caught.append(error.__name__)
    except TypeError:
        caught.append("escaped")
"""


def define_f(source):
    """Run `source` and return the function `f` it defines, with 3.14's SyntaxWarning about a
    `return` in `finally` silenced (a koan below looks at that warning itself)."""
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        exec(compile(source, "<koan>", "exec"), namespace)
    return namespace["f"]


class CountingDict(dict):
    """A dict that records every membership test and every lookup made on it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def __contains__(self, key):
        self.calls.append("contains")
        return super().__contains__(key)

    def __getitem__(self, key):
        self.calls.append("getitem")
        return super().__getitem__(key)


def test_look_before_you_leap_looks_up_twice():
    """The LBYL version asks `key in d` and then fetches `d[key]`: two hash lookups for a key
    that is present, and a window in which another thread could remove it."""
    d = CountingDict(a=1)
    if "a" in d:
        d["a"]
    assert d.calls == ["contains", "getitem"]


def test_eafp_looks_up_once():
    """The EAFP version just fetches the key and handles KeyError if it is missing. When the key
    is present, which is the common case, that is a single lookup."""
    d = CountingDict(a=1)
    try:
        d["a"]
    except KeyError:
        pass
    assert d.calls == ["getitem"]


def test_a_method_call_on_none_fails_only_where_none_is_used():
    """None is Python's null reference: a real object that fits anywhere a value is expected.
    A function that returns None by mistake raises nothing; the error comes later, at the first
    attribute lookup on it, often far from the code at fault."""
    found = {"ada": "Ada Lovelace"}.get("alan")
    with pytest.raises(AttributeError):
        found.upper()


class Sensor:
    @property
    def reading(self):
        raise AttributeError("driver not loaded")

    @property
    def status(self):
        raise ValueError("sensor offline")

    def calibrate(self):
        return "calibrated"


def test_hasattr_is_eafp_inside():
    """`hasattr` simply calls `getattr` and reports whether AttributeError came out, whatever
    raised it: a missing attribute, or code that ran while the attribute was computed. A
    property runs its code on every attribute read."""
    sensor = Sensor()
    present = [name for name in ("reading", "calibrate", "colour") if hasattr(sensor, name)]
    assert present == ["calibrate"]


def test_hasattr_lets_other_exceptions_through():
    """Since Python 3.2, `hasattr` catches only AttributeError. Any other exception raised while
    computing the attribute propagates out of `hasattr` itself."""
    with pytest.raises(ValueError):
        hasattr(Sensor(), "status")


def test_else_runs_only_when_the_try_block_did_not_raise():
    """`else` holds the code that should run only on success, kept outside the `try` so its own
    errors are not mistaken for the ones being handled. `finally` comes last, always."""
    events = []
    try:
        events.append("try")
    except ValueError:
        events.append("except")
    else:
        events.append("else")
    finally:
        events.append("finally")
    assert events == ["try", "else", "finally"]


def test_except_replaces_else_when_the_try_block_raises():
    """When the `try` block raises, the rest of the block is skipped, the matching `except`
    runs instead of `else`, and `finally` still closes the statement."""
    events = []
    try:
        events.append("try")
        raise ValueError
        events.append("after raise")
    except ValueError:
        events.append("except")
    else:
        events.append("else")
    finally:
        events.append("finally")
    assert events == ["try", "except", "finally"]


def test_an_error_in_else_is_not_caught_by_its_own_try():
    """The `except` clauses guard only the `try` block. An exception raised in `else` goes
    straight past them; `finally` runs, and then the exception leaves the statement."""
    events = []

    def run():
        try:
            events.append("try")
        except ValueError:
            events.append("except")
        else:
            events.append("else")
            raise ValueError
        finally:
            events.append("finally")

    try:
        run()
    except ValueError:
        events.append("escaped")
    assert events == ["try", "else", "finally", "escaped"]


def test_a_return_in_finally_replaces_the_pending_return():
    """`finally` runs after the `try` block's `return` has been decided, and a `return` inside
    `finally` replaces it."""
    f = define_f(RETURN_IN_FINALLY)
    assert f() == 2


def test_return_in_finally_swallows_the_exception():
    """A `return` in `finally` also discards an exception that was on its way out. The
    ZeroDivisionError here vanishes without a trace, which is why linters flag it."""
    f = define_f(SWALLOWING_RETURN)
    assert f() == "swallowed"


def test_finally_cannot_change_a_return_value_already_computed():
    """`return log` evaluates `log` before `finally` runs: the object is already on its way back
    to the caller. Code in `finally` can still change that object, but rebinding the local name
    afterwards only changes the local variable."""

    def f():
        log = ["try"]
        try:
            return log
        finally:
            log.append("finally")
            log = ["rebound"]

    assert f() == ["try", "finally"]


def test_the_compiler_warns_about_leaving_a_finally_block_since_3_14():
    """A `return`, `break` or `continue` that leaves a `finally` block throws away whatever was
    in flight, a pending return value or an exception. PEP 765 (Python 3.14) makes the compiler
    emit a SyntaxWarning for each one; earlier versions compile them silently. A statement that
    stays inside the `finally` block, such as a `return` in a function defined there or a `break`
    out of a loop inside it, leaves nothing behind and draws no warning."""
    warned = []
    for name, source in LEAVING_FINALLY.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compile(source, "<koan>", "exec")
        if any(issubclass(w.category, SyntaxWarning) for w in caught):
            warned.append(name)
    if sys.version_info >= (3, 14):
        assert warned == ["return", "break", "continue"]
    else:
        assert warned == []


@pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="before 3.14 the compiler has no warning to give for a return in finally (PEP 765)",
)
def test_a_syntax_warning_made_an_error_is_reported_like_any_error_in_the_source():
    """The warnings filters decide what a warning becomes, and "error" (as `-W error` sets)
    makes it raise. When the warning is one the compiler gives about source text, it is not
    raised as the warning class: the compiler reports it the way it reports every mistake in
    source text, with the file, the line and the offending text, so that editors and tracebacks
    show it like any other."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SyntaxError):
            compile(LEAVING_FINALLY["return"], "<koan>", "exec")


def test_a_comma_between_exception_types_makes_a_tuple_since_3_14():
    """`except (A, B):` catches either class: the clause's expression is evaluated, and a tuple
    matches an exception of any class in it. Python 2 read `except A, B:` as "catch A and bind
    it to the name B", so Python 3 refused to compile the comma without parentheses. 3.14
    accepts it again (PEP 758), now meaning the same tuple; with `as`, the parentheses are
    still required."""
    if sys.version_info >= (3, 14):
        namespace = {}
        exec(compile(EXCEPT_A_COMMA_B, "<koan>", "exec"), namespace)
        assert namespace["caught"] == ["ValueError", "KeyError", "escaped"]
    else:
        with pytest.raises(SyntaxError):
            compile(EXCEPT_A_COMMA_B, "<koan>", "exec")
