"""The koan running now, and the last comparison its assertion made (for "you wrote X, Python
says Y"). Set by the verdicts' hooks; read by the exact-exception rule and the verdicts."""

from __future__ import annotations

from typing import Any

import pytest

_item: list[pytest.Item] = []
_compares: dict[str, tuple[str, str, str, Any, Any]] = {}


def item() -> pytest.Item | None:
    return _item[-1] if _item else None


def enter(koan: pytest.Item) -> None:
    _item.append(koan)
    _compares.pop(koan.nodeid, None)


def leave() -> None:
    if _item:
        _item.pop()


def compared(nodeid: str, op: str, left: str, right: str, value: Any, left_value: Any) -> None:
    _compares[nodeid] = (op, left, right, value, left_value)


def last_compare(nodeid: str) -> tuple[str, str, str, Any, Any] | None:
    return _compares.get(nodeid)


def forget(nodeid: str) -> None:
    _compares.pop(nodeid, None)
