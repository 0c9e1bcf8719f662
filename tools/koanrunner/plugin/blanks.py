"""The blanks: ``__`` (a value) and ``___`` (an exception type), installed as builtins.

Any use of a blank fails, so a koan can never pass by accident: comparison, truth, arithmetic,
hashing, iteration, calling, conversion, attribute access and use as an exception type all raise
``UnfilledBlank``, which the verdicts turn into "fill in the blank on line N".
"""

from __future__ import annotations

import builtins
from typing import Any

BLANK_NAMES = ("__", "___")


class UnfilledBlank(Exception):
    """Raised by any use of a blank. The report turns it into 'fill in the blank on line N'."""


def _refuse(name: str) -> Any:
    def method(self: Blank, *args: Any, **kwargs: Any) -> Any:
        raise UnfilledBlank(f"{self._name} is a blank: replace it with {self._meaning} ({name})")

    method.__name__ = name
    return method


class Blank:
    """A value that refuses every operation: comparison, truth, arithmetic, hashing, iteration,
    calling, conversion, attribute access and use as an exception type."""

    __slots__ = ("_meaning", "_name")

    def __init__(self, name: str, meaning: str) -> None:
        self._name = name
        self._meaning = meaning

    def __repr__(self) -> str:
        return self._name

    __str__ = __repr__

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            # Protocol probes (copy, pickle, inspect) must see an ordinary missing attribute.
            raise AttributeError(attr)
        raise UnfilledBlank(f"{self._name} is a blank: replace it with {self._meaning} (.{attr})")


_REFUSED = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__hash__", "__len__", "__iter__", "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__", "__delitem__", "__call__", "__enter__", "__exit__", "__index__", "__int__", "__float__", "__complex__", "__round__", "__trunc__", "__floor__", "__ceil__", "__format__", "__bytes__", "__fspath__", "__neg__", "__pos__", "__abs__", "__invert__", "__instancecheck__", "__subclasscheck__", "__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__", "__imul__", "__matmul__", "__rmatmul__", "__imatmul__", "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__", "__mod__", "__rmod__", "__imod__", "__divmod__", "__rdivmod__", "__pow__", "__rpow__", "__ipow__", "__lshift__", "__rlshift__", "__ilshift__", "__rshift__", "__rrshift__", "__irshift__", "__and__", "__rand__", "__iand__", "__or__", "__ror__", "__ior__", "__xor__", "__rxor__", "__ixor__", "__setattr__", "__delattr__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__"]

for _name in _REFUSED:
    if _name == "__setattr__":
        continue  # needed by __init__; replaced below once the slots are set
    setattr(Blank, _name, _refuse(_name))

VALUE_BLANK = Blank("__", "a value")
TYPE_BLANK = Blank("___", "an exception type")
Blank.__setattr__ = _refuse("__setattr__")  # type: ignore[method-assign]
builtins.__ = VALUE_BLANK  # type: ignore[attr-defined]
builtins.___ = TYPE_BLANK  # type: ignore[attr-defined]

