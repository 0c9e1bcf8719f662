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


def test_the_metaclass_chain_stops_at_type():
    """Every object has a class, and classes are objects, so the question "what is the
    class of the class?" has to stop somewhere; type and object are wired up together
    inside the interpreter to stop it. Being an instance of (what type() reports) and
    deriving from (what __mro__ lists) are different relations. What are type's and
    object's answers to each?"""
    chain = (type(type), type.__mro__, type(object), object.__mro__)
    assert chain == __


def test_type_with_three_arguments_builds_a_class():
    """A `class` statement runs its body to fill a namespace dict, then calls the
    metaclass, by default type, as type(name, bases, namespace). You can make that
    call yourself."""
    Point = type("Point", (), {"x": 1, "double": lambda self: self.x * 2})
    assert Point().double() == __


def test_a_class_statement_runs_its_body_once_at_definition():
    """A class body is code executed when the `class` statement runs, like a function body
    called once, right there. Names it binds become class attributes; a method defined in it
    is only stored, and runs when something calls it."""
    log = ["before"]

    class Counter:
        log.append("body")

        def tick(self):
            log.append("tick")

    log.append("after")
    Counter().tick()
    assert log == __


def test_duck_typing_only_needs_the_method():
    """len() does not care about a base class; it calls __len__. Any object with
    the right method quacks like a sized container."""

    class Pond:
        def __len__(self):
            return 3

    assert len(Pond()) == __


def test_collections_abc_iterable_checks_structure_not_ancestry():
    """Iterable has a __subclasshook__ that looks for __iter__ in the class and its bases,
    instead of asking whether the class inherits from the ABC or was registered with it. A
    class can opt out by setting __iter__ = None, which both iter() and the hook read as
    "not iterable". Which of these classes does the ABC accept?"""

    class Countdown:
        def __iter__(self):
            return iter([3, 2, 1])

    class Frozen(Countdown):
        __iter__ = None

    accepted = [c.__name__ for c in (Countdown, Frozen) if isinstance(c(), collections.abc.Iterable)]
    assert accepted == __


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


def test_runtime_checkable_protocol_checks_only_that_the_names_exist():
    """isinstance against a runtime_checkable Protocol asks one question of the object:
    does it have an attribute for each of the protocol's members? It never inspects a
    signature, and it does not even check that a method member is callable; only an
    attribute set to None counts as missing. Nothing was ever declared on either side.
    Which of these classes pass as Closable?"""

    class Door:
        def close(self, force, slam_loudly):
            return "bang"

    class Window:
        def open(self):
            return "breeze"

    class Jar:
        close = "lid"

    passing = [cls.__name__ for cls in (Door, Window, Jar) if isinstance(cls(), Closable)]
    assert passing == __


def test_a_plain_protocol_is_not_an_isinstance_target():
    """A Protocol without @runtime_checkable is for static checkers only. isinstance
    refuses to be asked about it rather than give a possibly wrong answer: the class
    is the wrong kind of second argument."""

    class Sized(typing.Protocol):
        def size(self) -> int: ...

    with pytest.raises(___):
        isinstance(object(), Sized)
