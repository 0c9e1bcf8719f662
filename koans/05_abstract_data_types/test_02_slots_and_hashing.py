"""__slots__ fixes an object's attributes; __eq__ and __hash__ must agree."""

import dataclasses

import pytest


class Pixel:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def test_slots_give_an_instance_fixed_storage():
    """__slots__ replaces the per-instance __dict__ with fixed storage for the named
    attributes, which saves memory and closes the set of attributes. The slot that holds
    weak references to the instance goes as well, unless "__weakref__" is one of the names
    listed. Which of these attributes can a Pixel instance find?"""
    p = Pixel(0, 0)
    assert [name for name in ("x", "__dict__", "__weakref__") if hasattr(p, name)] == __


def test_a_slotted_instance_refuses_a_new_attribute():
    """With no __dict__ there is nowhere to put an attribute that is not a slot, so
    assignment fails."""
    p = Pixel(0, 0)
    with pytest.raises(___):
        p.z = 1


def test_an_unset_slot_reads_like_a_missing_attribute():
    """A slot is a descriptor on the class; until something is stored in it, reading
    it fails exactly as reading an attribute that was never set does."""
    p = Pixel.__new__(Pixel)
    with pytest.raises(___):
        p.x


def test_slots_bind_only_the_class_that_declares_them():
    """__slots__ is not inherited as a restriction: each class decides for itself how its
    instances store attributes, and a class statement without __slots__ asks for the
    ordinary __dict__ again. The slots Pixel declared still exist in a Sprite and hold what
    they were given. What ends up in the instance dict?"""

    class Sprite(Pixel):
        pass

    s = Sprite(0, 0)
    s.z = 1
    assert vars(s) == __


def test_plain_objects_compare_by_identity():
    """Without an __eq__ of its own, == falls back to identity (object.__eq__ only
    recognises the very same object), whatever the two objects contain. list.index asks
    == of each item in turn, from the front. Where does it find b?"""

    class Box:
        def __init__(self, v):
            self.v = v

    b = Box(1)
    boxes = [Box(1), Box(1), b]
    assert boxes.index(b) == __


def test_defining_eq_alone_withdraws_the_inherited_hash():
    """Equal objects must have equal hashes. If a class defines __eq__ but not
    __hash__, Python cannot trust the inherited identity hash, so it withdraws it:
    __hash__ is set to the value that marks a class unhashable."""

    class Money:
        def __init__(self, cents):
            self.cents = cents

        def __eq__(self, other):
            return self.cents == other.cents

    assert Money.__hash__ == __


def test_an_eq_only_object_cannot_go_in_a_set():
    """With __hash__ set to None, hash() raises, and so does anything that needs a
    hash: set members, dict keys."""

    class Money:
        def __init__(self, cents):
            self.cents = cents

        def __eq__(self, other):
            return self.cents == other.cents

    with pytest.raises(___):
        {Money(5)}


class Key:
    """Equal by value, hashed by value: the contract kept."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __hash__(self):
        return hash(self.v)


def test_a_consistent_hash_lets_a_set_merge_equal_objects():
    """When equal objects have equal hashes, a set finds the existing member by hash and
    asks __eq__ before it adds another, so it keeps one member per value."""
    assert len({Key(1), Key(2), Key(1), Key(3), Key(2)}) == __


def test_a_set_compares_hashes_before_it_asks_eq():
    """Breaking the contract: equality by value but the default hash by identity.
    The set compares hashes first, the hashes differ, and __eq__ is never asked."""

    class Broken(Key):
        __hash__ = object.__hash__

    assert len({Broken(1), Broken(1)}) == __


def test_mutating_a_key_after_insertion_misfiles_it():
    """The set filed the key under hash(1) and is never told that it changed. A
    lookup of the same object now searches under hash(2); a fresh Key(1) searches
    the old slot and must then compare equal to what it finds there."""
    k = Key(1)
    s = {k}
    k.v = 2
    assert (k in s, Key(1) in s, len(s)) == __


def test_a_default_dataclass_is_unhashable():
    """@dataclass generates __eq__ by fields, so by the same rule it sets __hash__
    to None unless you ask for frozen=True (or unsafe_hash=True)."""

    @dataclasses.dataclass
    class Point:
        x: int

    assert Point.__hash__ == __


def test_a_frozen_dataclass_hashes_by_its_fields():
    """frozen=True forbids assignment after construction, so hashing by the field
    values is safe, and @dataclass generates a __hash__ that does so."""

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int

    assert len({Point(1), Point(1), Point(2)}) == __
