"""Annotations (PEP 484 type hints) are data attached to functions and classes.
CPython stores them and otherwise ignores them; checkers like mypy read them."""

import sys
import typing

import pytest


def test_annotations_are_not_enforced_at_run_time():
    """CPython never checks an argument against its annotation. Passing a str to
    an `x: int` parameter simply runs the body, and str * 2 is repetition."""

    def double(x: int) -> int:
        return x * 2

    assert double("ab") == __


def test_annotations_live_in_a_dict_on_the_function():
    """The def statement stores the annotations in __annotations__, keyed by
    parameter name in order, with the return annotation under the key "return"."""

    def scale(x: int, factor: float = 1.0) -> float:
        return x * factor

    assert list(scale.__annotations__) == __


def test_an_annotation_can_be_any_expression():
    """The interpreter does not require an annotation to be a type; it evaluates
    whatever expression you write and stores the result."""

    def f(x: 3 + 4):
        return x

    assert f.__annotations__["x"] == __


@pytest.mark.skipif(
    sys.version_info >= (3, 14),
    reason="Python 3.14 (PEP 649/749) evaluates annotations lazily, on first access",
)
def test_annotations_are_evaluated_when_the_def_statement_runs():
    """On Python 3.10 to 3.13, executing `def` evaluates every annotation right away
    (unless `from __future__ import annotations` is in effect). Python 3.14 defers
    this until someone reads __annotations__."""
    evaluated = []

    def note(t):
        evaluated.append(t)
        return t

    def f(x: note(int)) -> note(str):
        return str(x)

    assert len(evaluated) == __


def test_future_annotations_stores_them_as_strings():
    """`from __future__ import annotations` (PEP 563) stops the evaluation: each
    annotation is kept as the source text of its expression. The import must open a
    module, so here it runs in code handed to exec."""
    ns = {}
    exec("from __future__ import annotations\ndef f(x: int) -> int:\n    return x\n", ns)
    assert ns["f"].__annotations__["x"] == __


def test_get_type_hints_evaluates_string_annotations_back_to_objects():
    """typing.get_type_hints evaluates each string annotation against the
    function's globals and builtins, and gives back the objects the strings name.
    This is how libraries cope with PEP 563 modules."""
    ns = {}
    exec("from __future__ import annotations\ndef f(x: float) -> float:\n    return x\n", ns)
    assert typing.get_type_hints(ns["f"])["x"] == __


def test_a_bare_variable_annotation_creates_no_variable():
    """`x: int` without a value only records the annotation; it binds nothing. In a
    function it still makes x local, so reading it finds a local name with no value
    behind it."""

    def f():
        x: int
        return x

    with pytest.raises(___):
        f()


def test_a_bare_class_annotation_is_recorded_but_not_set():
    """In a class body, `x: int` adds "x" to __annotations__ but no attribute. This
    is the hook dataclasses use to find fields."""

    class Point:
        x: int
        y: int = 0

    assert (hasattr(Point, "x"), hasattr(Point, "y")) == __


def test_isinstance_refuses_a_parameterized_generic():
    """list[int] exists for type checkers. At run time Python could only check
    every element, so isinstance refuses a parameterized generic as its second
    argument: it is the wrong kind of object to ask about."""
    with pytest.raises(___):
        isinstance([1], list[int])


def test_an_optional_annotation_does_not_make_a_parameter_omittable():
    """Optional[T] is shorthand for Union[T, None]: it says which values the parameter
    may hold, T or None, not whether the caller may leave it out. Only a default value
    makes a parameter omittable, and CPython ignores the annotation anyway."""

    def greet(name: typing.Optional[str]):
        return f"hello {name}"

    with pytest.raises(___):
        greet()
