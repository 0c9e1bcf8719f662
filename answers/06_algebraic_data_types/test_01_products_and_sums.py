"""Products (tuples, dataclasses) and sums (Enum, Union, Optional): the two ways to build a
new type out of old ones."""

import dataclasses
import enum
import sys
import typing
from collections import namedtuple
from typing import Optional, Union

import pytest


def test_namedtuple_equality_ignores_class_and_field_names():
    """A namedtuple is a tuple subclass and inherits tuple's item-by-item equality and hash.
    The class name and field names are labels for readers; the product itself is only the
    ordered items. How many members does this set keep?"""
    Point = namedtuple("Point", "x y")
    Size = namedtuple("Size", "width height")
    assert len({Point(1, 2), Size(1, 2), Size(2, 1)}) == 2


def test_dataclass_generates_field_by_field_equality():
    """A plain class inherits object.__eq__, which is identity. @dataclass writes an __eq__
    that compares the fields in order (as tuples up to 3.12, one by one since 3.13), which is
    what makes it a product type: a value is determined by its components. list.count asks
    == of every item."""

    class PlainPair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    @dataclasses.dataclass
    class Pair:
        a: int
        b: int

    plain = [PlainPair(1, 2), PlainPair(1, 2), PlainPair(2, 1)]
    generated = [Pair(1, 2), Pair(1, 2), Pair(2, 1)]
    counts = (plain.count(PlainPair(1, 2)), generated.count(Pair(1, 2)))
    assert counts == (0, 2)


def test_dataclass_equality_requires_the_exact_same_class():
    """The generated __eq__ first checks `other.__class__ is self.__class__` and returns
    NotImplemented otherwise, even for a subclass. Python then tries the reflected
    comparison, and when that declines too, == falls back to identity. How many of these
    readings does list.count find equal to Celsius(100.0)?"""

    @dataclasses.dataclass
    class Celsius:
        degrees: float

    @dataclasses.dataclass
    class Fahrenheit:
        degrees: float

    @dataclasses.dataclass
    class Kelvin(Celsius):
        pass

    readings = [Celsius(100.0), Fahrenheit(100.0), Kelvin(100.0), Celsius(100.0)]
    assert readings.count(Celsius(100.0)) == 2


def test_assigning_to_a_frozen_dataclass_is_refused():
    """A frozen dataclass installs a __setattr__ that refuses every assignment. It raises an
    exception class of the dataclasses module's own, named for the state of the instance and
    derived from the builtin error for attribute failures (not the one tuples raise on item
    assignment)."""

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int

    p = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 10


def test_frozen_is_enforced_only_by_setattr():
    """Frozenness is not immutability of memory: it is just a __setattr__ that refuses.
    object.__setattr__ bypasses it (dataclasses themselves use this trick in __init__ and in
    __post_init__ recipes), so a determined caller can still change a frozen value."""

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int

    p = Point(1, 2)
    object.__setattr__(p, "x", 10)
    assert p.x == 10


def test_dataclass_order_compares_fields_left_to_right_like_a_tuple():
    """order=True generates __lt__ and friends that compare (field1, field2, ...) tuples. A
    product type ordered this way is ordered lexicographically: the first field decides, and
    later fields only break ties."""

    @dataclasses.dataclass(order=True)
    class Version:
        major: int
        minor: int

    versions = sorted([Version(2, 0), Version(1, 10), Version(1, 9)])
    assert versions == [Version(1, 9), Version(1, 10), Version(2, 0)]


def test_an_enum_member_is_a_tag_not_its_value():
    """Enum members are distinct tagged values, not their payloads: the value sits in
    `.value`, and a plain Enum compares members by identity. IntEnum deliberately mixes in
    int, so its members compare and hash as ints, which weakens the sum type back into plain
    ints. A dict lookup needs an equal key with an equal hash."""

    class Color(enum.Enum):
        RED = 1
        GREEN = 2

    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2

    names = {1: "one"}
    assert (names.get(Color.RED, "missing"), names.get(Level.LOW, "missing")) == ("missing", "one")


def test_an_enum_alias_adds_a_name_but_not_a_member():
    """A sum type's cardinality is its number of distinct alternatives. An Enum name whose
    value repeats an earlier member's value becomes an alias of that member, so it adds a
    name but no new inhabitant, and iterating the Enum skips it."""

    class Answer(enum.Enum):
        YES = 1
        NO = 0
        AFFIRMATIVE = 1

    assert len(Answer) == 2


def test_calling_an_enum_with_a_value_returns_the_existing_member():
    """Enum(value) does not construct anything: it looks the value up and returns the one
    member that carries it. Members are singletons, so the result can be compared with `is`
    and has the member's name."""

    class Color(enum.Enum):
        RED = 1
        GREEN = 2

    assert Color(2).name == "GREEN"


def test_optional_is_a_union_with_none_type():
    """typing.Optional[T] is only spelling for Union[T, None], which Python stores as a union
    of T and type(None). Optional adds exactly one inhabitant, None, to T: |T| + 1."""
    assert typing.get_args(Optional[int]) == (int, type(None))


def test_the_typing_union_and_the_pipe_union_merged_in_3_14():
    """Since Python 3.10 (PEP 604) `int | None` builds a types.UnionType at run time, while
    typing.Optional[int] built an object of typing's own class, which printed itself the way
    it was spelled; only their __eq__, comparing sets of arguments, made the two equal.
    Python 3.14 merged them: typing.Union is now the very class types.UnionType, so both
    spellings build the same kind of object. What does each print?"""
    assert (int | None) == Optional[int]
    shown = (repr(Optional[int]), repr(int | None))
    if sys.version_info >= (3, 14):
        assert shown == ("int | None", "int | None")
    else:
        assert shown == ("typing.Optional[int]", "int | None")


def test_nested_optional_collapses_because_union_is_not_tagged():
    """A tagged sum like Rust's Option<Option<T>> has |T| + 2 values (None, Some(None),
    Some(Some(t))). Python's Union is an untagged set union: it flattens nested unions and
    drops duplicates. How many arguments are left?"""
    assert len(typing.get_args(Optional[Optional[int]])) == 2


def test_union_drops_duplicate_arguments():
    """Union removes duplicate arguments, and a union left with a single argument is
    returned as that argument itself. So a union of a type with itself is no two-way sum;
    to keep two copies apart you need tags (an Enum, or wrapper classes)."""
    assert Union[float, float] == float
