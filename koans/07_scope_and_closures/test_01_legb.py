"""LEGB: a name is looked up in the Local scope, then in Enclosing function scopes, then in the
module's Globals, then in Builtins. Lexical scoping means "enclosing" is decided by where the
code is written, not by who calls it."""

import builtins

import pytest


def test_a_local_name_shadows_a_builtin():
    """len is not a keyword; it is a name found in the builtins scope, last in LEGB. A local
    variable called len is found first, so inside this function len() is the lambda."""

    def measure(text):
        len = lambda s: -1  # noqa: E731
        return len(text)

    assert measure("abc") == __


def test_deleting_a_global_shadow_uncovers_the_builtin():
    """A global named len hides builtins.len for that module. Deleting the global does not
    delete len from Python: lookup simply falls through to the builtins scope again."""
    namespace = {}
    exec("len = lambda s: 0\nbefore = len('abc')\ndel len\nafter = len('abc')", namespace)
    assert namespace["before"] == 0
    assert namespace["after"] == __


def test_builtins_is_an_ordinary_module_at_the_end_of_the_lookup():
    """The B in LEGB is the builtins module. Every name you use without defining it, such as
    len or print, is an attribute of that module."""
    assert builtins.len("abcd") == __


def test_scoping_is_lexical_not_dynamic():
    """A function sees the variables of the function it was written inside, not those of
    its caller. `caller` has its own local `level` when it calls `read_level`, and so does
    `outer`, the function whose body holds the def."""

    def outer():
        level = "definition site"

        def read_level():
            return level

        return read_level

    def caller(fn):
        level = "call site"  # noqa: F841
        return fn()

    assert caller(outer()) == __


def test_an_enclosing_variable_is_read_when_the_inner_function_runs():
    """Lookup happens at call time, not at definition time. The inner function below refers to
    a variable assigned after the inner def; by the time it is called the variable exists."""

    def outer():
        def inner():
            return later

        later = "assigned after the def"
        return inner()

    assert outer() == __


def test_a_class_body_is_not_an_enclosing_scope_for_its_methods():
    """LEGB has no C: a class body runs in its own namespace, but functions defined inside it do
    not see that namespace. A method must write self.attr or ClassName.attr; a bare name skips
    the class and goes on to globals and builtins, where there is nothing to find here."""

    class Config:
        unusual_setting_name = 10

        def read(self):
            return unusual_setting_name  # noqa: F821

    with pytest.raises(___):
        Config().read()


def test_a_comprehension_in_a_class_body_cannot_see_class_variables():
    """A comprehension body is a nested scope, so the class-body rule applies to it too. Only
    the outermost iterable is evaluated in the class body itself; `factor` in the element
    expression is looked up past the class. PEP 709 (3.12) inlined comprehensions but kept this
    behaviour."""
    with pytest.raises(___):

        class Scaled:
            factor = 3
            values = [v * factor for v in range(3)]  # noqa: F821


def test_a_comprehension_variable_does_not_leak():
    """In Python 3 a comprehension has its own scope, so its loop variable vanishes when it
    ends (in Python 2 list comprehensions leaked it). A plain for loop, in contrast, leaves its
    variable bound to the last value."""

    def loops():
        squares = [n * n for n in range(3)]  # noqa: F841
        for m in range(3):
            pass
        return m, "n" in locals()

    assert loops() == __
