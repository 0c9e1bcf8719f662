"""Types are ordinary objects; isinstance, ABCs and protocols ask what an object
is or what it can do."""

import collections.abc
import typing

import pytest


def test_type_reports_the_exact_class_not_a_base():
    """type() reports the exact class of an object, never a base class, even when
    the object behaves in every way like an instance of that base."""
    assert type(True) == __


def test_bool_is_a_subclass_of_int():
    """isinstance follows inheritance. bool derives from int, so every bool is also
    an int; that is why True + True works."""
    assert bool.__mro__ == __


def test_classes_are_instances_of_a_metaclass():
    """Classes are objects too, so each has a class of its own: the metaclass that
    built it. The built-in int is no exception, and it was built by the same
    metaclass as every class statement that names no other."""
    assert type(int) == __


def test_type_is_an_instance_of_itself():
    """The chain has to stop somewhere: type's own type is type. type also derives
    from object, but object does not derive from type; both are wired up inside the
    interpreter."""
    assert (type(type) is type, issubclass(object, type)) == __


def test_type_with_three_arguments_builds_a_class():
    """A `class` statement runs its body to fill a namespace dict, then calls the
    metaclass, by default type, as type(name, bases, namespace). You can make that
    call yourself."""
    Point = type("Point", (), {"x": 1, "double": lambda self: self.x * 2})
    assert Point().double() == __


def test_a_class_statement_runs_its_body_once_at_definition():
    """A class body is code executed when the `class` statement runs, like a
    function body called once. Names it binds become class attributes."""
    log = []

    class Counter:
        log.append("body ran")
        total = len(log)

    assert Counter.total == __


def test_duck_typing_only_needs_the_method():
    """len() does not care about a base class; it calls __len__. Any object with
    the right method quacks like a sized container."""

    class Pond:
        def __len__(self):
            return 3

    assert len(Pond()) == __


def test_collections_abc_iterable_checks_structure_not_ancestry():
    """Iterable has a __subclasshook__ that looks for __iter__ on the class, instead
    of asking whether the class inherits from the ABC or was registered with it."""

    class Countdown:
        def __iter__(self):
            return iter([3, 2, 1])

    assert isinstance(Countdown(), collections.abc.Iterable) == __


def test_the_iterable_abc_knows_only_the_dunder_iter_protocol():
    """iter() falls back to calling __getitem__(0), (1), ... until IndexError, an
    older protocol. The Iterable ABC's check looks for __iter__ alone."""

    class Squares:
        def __getitem__(self, i):
            if i >= 3:
                raise IndexError(i)
            return i * i

    result = (list(Squares()), isinstance(Squares(), collections.abc.Iterable))
    assert result == __


@typing.runtime_checkable
class Closable(typing.Protocol):
    def close(self) -> None: ...


def test_runtime_checkable_protocol_checks_only_that_the_method_exists():
    """isinstance against a runtime_checkable Protocol only looks for attributes
    with the right names. It never inspects their signatures."""

    class Door:
        def close(self, force, slam_loudly):
            return "bang"

    assert isinstance(Door(), Closable) == __


def test_runtime_checkable_protocol_looks_for_the_attribute_by_name():
    """The structural check asks one question of the object: does it have an
    attribute for each of the protocol's members? Nothing was ever declared on
    either side."""

    class Window:
        def open(self):
            return "breeze"

    assert isinstance(Window(), Closable) == __


def test_a_plain_protocol_is_not_an_isinstance_target():
    """A Protocol without @runtime_checkable is for static checkers only. isinstance
    refuses to be asked about it rather than give a possibly wrong answer: the class
    is the wrong kind of second argument."""

    class Sized(typing.Protocol):
        def size(self) -> int: ...

    with pytest.raises(___):
        isinstance(object(), Sized)
