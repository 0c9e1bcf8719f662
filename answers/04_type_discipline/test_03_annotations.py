"""Annotations (PEP 484 type hints) are data attached to functions and classes.
CPython stores them and otherwise ignores them; checkers like mypy read them.
Python 3.14 (PEP 649/749) evaluates them only when something asks for them."""

import sys
import typing

import pytest

if sys.version_info >= (3, 14):
    import annotationlib


def test_annotations_are_not_enforced_at_run_time():
    """CPython never checks an argument against its annotation. Passing a str to
    an `x: int` parameter simply runs the body, and str * 2 is repetition."""

    def double(x: int) -> int:
        return x * 2

    assert double("ab") == "abab"


def test_annotations_live_in_a_dict_on_the_function():
    """A function's __annotations__ is a dict keyed by parameter name in order, with
    the return annotation under the key "return". (Up to 3.13 the def statement builds
    it; from 3.14 the first read does.)"""

    def scale(x: int, factor: float = 1.0) -> float:
        return x * factor

    assert list(scale.__annotations__) == ["x", "factor", "return"]


def test_an_annotation_can_be_any_expression():
    """The interpreter does not require an annotation to be a type; it evaluates
    whatever expression you write (at the def up to 3.13, at the first read of
    __annotations__ from 3.14) and stores the result."""

    def f(x: 3 + 4):
        return x

    assert f.__annotations__["x"] == 7


def test_the_def_or_the_first_read_evaluates_the_annotations():
    """Up to Python 3.13, executing `def` evaluates every annotation right away (unless
    `from __future__ import annotations` is in effect). From 3.14 (PEP 649/749) the def
    only compiles them into a function, and the first read of __annotations__ runs it and
    keeps the dict it builds, so a later read evaluates nothing. note() records each
    evaluation."""
    evaluated = []

    def note(t):
        evaluated.append(t)
        return t

    def f(x: note(int)) -> note(str):
        return str(x)

    at_the_def = len(evaluated)
    f.__annotations__
    f.__annotations__
    if sys.version_info >= (3, 14):
        assert (at_the_def, len(evaluated)) == (0, 2)
    else:
        assert (at_the_def, len(evaluated)) == (2, 2)


def test_future_annotations_stores_them_as_strings():
    """`from __future__ import annotations` (PEP 563) stops the evaluation: each
    annotation is kept as the source text of its expression. The import must open a
    module, so here it runs in code handed to exec."""
    ns = {}
    exec("from __future__ import annotations\ndef f(x: int) -> int:\n    return x\n", ns)
    assert ns["f"].__annotations__["x"] == "int"


def test_get_type_hints_evaluates_string_annotations_back_to_objects():
    """typing.get_type_hints evaluates each string annotation against the
    function's globals and builtins, and gives back the objects the strings name.
    This is how libraries cope with PEP 563 modules."""
    ns = {}
    exec("from __future__ import annotations\ndef f(x: float) -> float:\n    return x\n", ns)
    assert typing.get_type_hints(ns["f"])["x"] == float


def test_a_forward_reference_fails_only_when_it_is_evaluated():
    """A forward reference is an annotation that names a class defined further down the
    module. Up to 3.13 the def evaluates it at once, finds no such name, and the function
    is never made. From 3.14 the def succeeds, and the name is looked up only when
    something reads __annotations__: before the class exists that read fails, after it the
    read works. exec runs the source as a module would, top to bottom."""
    module = {}
    source = "def link(node: Node) -> None: ...\n"
    if sys.version_info >= (3, 14):
        exec(source, module)
        with pytest.raises(NameError):
            module["link"].__annotations__
        exec("class Node: ...\n", module)
        assert module["link"].__annotations__["node"] is module["Node"]
    else:
        with pytest.raises(NameError):
            exec(source, module)


def test_annotate_evaluates_the_annotations_anew_on_every_call():
    """From 3.14 a function carries __annotate__, its annotations compiled into a function
    of their own: called with annotationlib.Format.VALUE it evaluates every annotation and
    returns a new dict. __annotations__ calls it on the first read and keeps that dict.
    Before 3.14 the def evaluated the annotations itself, and functions had no
    __annotate__ at all."""
    evaluated = []

    def note(t):
        evaluated.append(t)
        return t

    def f(x: note(int)) -> note(str):
        return str(x)

    if sys.version_info >= (3, 14):
        f.__annotations__
        f.__annotations__
        f.__annotate__(annotationlib.Format.VALUE)
        f.__annotate__(annotationlib.Format.VALUE)
        assert len(evaluated) == 6
    else:
        with pytest.raises(AttributeError):
            f.__annotate__


@pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="annotationlib arrived in Python 3.14 with deferred annotations; before it, "
    "an annotation naming a missing class was either evaluated at the def (NameError) or "
    "kept as a string (quoted, or under PEP 563)",
)
def test_annotationlib_leaves_a_proxy_for_a_name_it_cannot_find():
    """annotationlib.get_annotations reads annotations in the format you ask for.
    Format.VALUE evaluates them, as __annotations__ does, and fails on a missing name.
    Format.FORWARDREF evaluates what it can and puts an annotationlib.ForwardRef in place of
    each name it cannot resolve yet (whose evaluate() can finish the job later).
    Format.STRING evaluates nothing and rebuilds the source text."""
    module = {}
    exec("def link(node: Node, weight: int) -> None: ...\n", module)
    hints = annotationlib.get_annotations(module["link"], format=annotationlib.Format.FORWARDREF)
    assert (type(hints["node"]), hints["weight"]) == (annotationlib.ForwardRef, int)


def test_a_bare_variable_annotation_creates_no_variable():
    """`x: int` without a value only records the annotation; it binds nothing. In a
    function it still makes x local, so reading it finds a local name with no value
    behind it."""

    def f():
        x: int
        return x

    with pytest.raises(UnboundLocalError):
        f()


def test_a_bare_class_annotation_is_recorded_but_not_set():
    """In a class body, `x: int` adds "x" to __annotations__ but no attribute. This
    is the hook dataclasses use to find fields."""

    class Point:
        x: int
        y: int = 0

    assert (hasattr(Point, "x"), hasattr(Point, "y")) == (False, True)


def test_isinstance_refuses_a_parameterized_generic():
    """list[int] exists for type checkers. At run time Python could only check
    every element, so isinstance refuses a parameterized generic as its second
    argument: it is the wrong kind of object to ask about."""
    with pytest.raises(TypeError):
        isinstance([1], list[int])


def test_an_optional_annotation_does_not_make_a_parameter_omittable():
    """Optional[T] is shorthand for Union[T, None]: it says which values the parameter
    may hold, T or None, not whether the caller may leave it out. Only a default value
    makes a parameter omittable, and CPython ignores the annotation anyway."""

    def greet(name: typing.Optional[str]):
        return f"hello {name}"

    with pytest.raises(TypeError):
        greet()
