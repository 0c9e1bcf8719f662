"""EAFP ("easier to ask forgiveness than permission") tries the operation and handles the
failure; LBYL ("look before you leap") checks first. Python favours EAFP and gives try statements
four clauses, run in a fixed order; `finally` always runs, and a `return` inside it wins."""

import pytest


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


def test_subscripting_a_dict_with_an_absent_key_raises():
    """Subscripting a dict with an absent key does not return None: it raises. `dict.get`
    is the method that returns a default instead."""
    with pytest.raises(KeyError):
        {"a": 1}["b"]


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


def test_reading_an_attribute_an_object_lacks_raises():
    """Attribute access is a lookup too, with its own exception. `getattr(obj, name, default)`
    is the attribute counterpart of `dict.get`."""
    with pytest.raises(AttributeError):
        object().colour


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


def test_hasattr_is_eafp_inside():
    """`hasattr` simply calls `getattr` and reports whether AttributeError came out, whatever
    raised it: a missing attribute, or code that ran while the attribute was computed."""
    assert hasattr(Sensor(), "reading") == False


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
    `finally` replaces it. (Python 3.14 warns about this pattern, PEP 765.)"""

    def f():
        try:
            return 1
        finally:
            return 2  # noqa: B012

    assert f() == 2


def test_return_in_finally_swallows_the_exception():
    """A `return` in `finally` also discards an exception that was on its way out. The
    ZeroDivisionError below vanishes without a trace, which is why linters flag it."""

    def f():
        try:
            1 / 0
        finally:
            return "swallowed"  # noqa: B012

    assert f() == "swallowed"


def test_finally_cannot_change_a_return_value_already_computed():
    """`return x` evaluates `x` before `finally` runs. Rebinding the name afterwards changes the
    local variable, not the value already on its way back to the caller."""

    def f():
        x = 1
        try:
            return x
        finally:
            x = 2  # noqa: F841

    assert f() == 1
