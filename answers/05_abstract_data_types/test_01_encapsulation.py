"""Python hides nothing: privacy is a naming convention, name mangling avoids
clashes, and properties put an interface in front of attributes."""

import sys
import types

import pytest


class Account:
    def __init__(self):
        self._balance = 100  # "internal, please don't touch": a convention only
        self.__pin = 1234  # mangled to _Account__pin

    @property
    def balance(self):
        return self._balance


def test_a_single_underscore_attribute_is_fully_accessible():
    """A leading underscore is a message to humans (and to `from m import *`). The
    interpreter enforces nothing, so outside code reads it like any attribute."""
    assert Account()._balance == 100


def test_a_star_import_copies_only_the_names_without_an_underscore(monkeypatch):
    """`from m import *` is the one place where Python itself honours the underscore
    convention: when m defines no __all__, the star import copies every name in m's
    namespace that does not start with an underscore, and skips the rest. What does the
    star import bind here? (exec runs it in a namespace of its own; sys.modules is where
    import finds a module that is already loaded.)"""
    shapes = types.ModuleType("koan_shapes")
    exec(
        "import math\n"
        "_cache = {}\n"
        "__version__ = '1.0'\n"
        "def area(r):\n"
        "    return math.pi * r * r\n",
        vars(shapes),
    )
    monkeypatch.setitem(sys.modules, "koan_shapes", shapes)
    namespace = {}
    exec("from koan_shapes import *", namespace)
    assert sorted(name for name in namespace if name != "__builtins__") == ["area", "math"]


def test_a_double_underscore_attribute_is_stored_under_a_mangled_name():
    """Inside a class body, a name like __pin is rewritten at compile time to
    _ClassName__pin. The instance dict shows the real key."""
    assert list(vars(Account())) == ["_balance", "_Account__pin"]


def test_the_unmangled_name_is_not_found_from_outside():
    """Outside the class no rewriting happens, so account.__pin looks up a name that
    does not exist."""
    with pytest.raises(AttributeError):
        Account().__pin


def test_the_mangled_name_is_still_reachable():
    """Mangling is not access control: whoever knows the rule can spell the
    mangled name directly."""
    assert Account()._Account__pin == 1234


def test_mangling_keeps_a_subclass_from_clobbering_its_base():
    """The purpose of mangling: a subclass that also writes self.__pin gets
    _Savings__pin, so the base class's attribute survives beside it."""

    class Savings(Account):
        def __init__(self):
            super().__init__()
            self.__pin = 9999

    s = Savings()
    assert (s._Account__pin, s._Savings__pin) == (1234, 9999)


def test_dunder_names_with_trailing_underscores_are_not_mangled():
    """Only names with two leading underscores and at most one trailing underscore
    are mangled; __special__ names are left alone."""

    class Tagged:
        def __init__(self):
            self.__tag__ = "kept"

    assert list(vars(Tagged())) == ["__tag__"]


def test_a_read_only_property_refuses_assignment():
    """A property without a setter is a data descriptor whose __set__ refuses, so
    assignment fails instead of creating an instance attribute. The failure is about
    setting an attribute, and it is reported as such."""
    account = Account()
    with pytest.raises(AttributeError):
        account.balance = 10**6


def test_a_decorated_getter_lives_on_the_class_as_a_descriptor():
    """The decorator on balance replaced the function with a descriptor object, and
    that object is a class attribute; instances find it by looking up their class,
    which is how one descriptor serves every instance."""
    assert type(Account.__dict__["balance"]) == property


def test_a_property_wins_over_the_instance_dict():
    """Data descriptors (those with __set__, like property) take precedence over the
    instance __dict__ in attribute lookup, whatever the instance dict holds under
    the same name."""
    account = Account()
    vars(account)["balance"] = 0
    assert account.balance == 100
