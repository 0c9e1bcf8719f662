"""Exception blanks ask for the exact class: ``with pytest.raises(___):`` filled with a parent
of the class Python raised is "too broad", not solved."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from . import current
from .sources import course_part, typed_fills

class TooBroad(AssertionError):
    """An exception blank was filled with a parent of the class Python raised."""

    def __init__(self, wrote: type, raised: type) -> None:
        self.wrote, self.raised = wrote, raised
        super().__init__(f"too broad: Python raised {raised.__name__}, a kind of {wrote.__name__}")


_original_raises = pytest.raises


def _exception_fill_at(frame: Any) -> Any:
    """The exception blank whose ``pytest.raises`` is being called from ``frame``, if any."""
    item = current.item()
    if item is None or frame is None:
        return None
    if os.path.normcase(frame.f_code.co_filename) != os.path.normcase(str(item.path)):
        return None
    if course_part(Path(str(item.path)), item.config.rootpath) is None:
        return None
    for fill in typed_fills(item) or ():
        if fill.raises_span and fill.raises_span[0] <= frame.f_lineno <= fill.raises_span[1]:
            return fill
    return None


class _Exactly:
    """``pytest.raises`` for an exception blank: the class written must be the class raised."""

    def __init__(self, context: Any, expected: type) -> None:
        self.context, self.expected = context, expected

    def __enter__(self) -> Any:
        return self.context.__enter__()

    def __exit__(self, kind: Any, value: Any, tb: Any) -> Any:
        __tracebackhide__ = True
        suppressed = self.context.__exit__(kind, value, tb)
        if suppressed and kind is not None and kind is not self.expected:
            raise TooBroad(self.expected, kind) from None
        return suppressed


def raises(expected_exception: Any, *args: Any, **kwargs: Any) -> Any:
    __tracebackhide__ = True
    context = _original_raises(expected_exception, *args, **kwargs)
    if args or not isinstance(expected_exception, type):
        return context
    if _exception_fill_at(sys._getframe(1)) is None:
        return context
    return _Exactly(context, expected_exception)


pytest.raises = raises  # type: ignore[assignment]

