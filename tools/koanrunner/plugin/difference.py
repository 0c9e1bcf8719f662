"""What kind of thing is wrong with a value, said without the value: a learner's first wrong
try of a koan gets this, so that the next try is still a prediction and not a copy."""

from __future__ import annotations

import math
from typing import Any

AGAIN = "think it through once more (the value itself is shown from your next wrong try)"


def kind_of_difference(actual: Any, typed: Any) -> str:
    """A sentence about how ``typed`` differs from ``actual`` that does not give ``actual``."""
    try:
        why = _differ(actual, typed)
    except Exception:  # a value that refuses even to be measured
        why = None
    return f"{why or 'not what Python computes'}; {AGAIN}"


def _a(value: Any) -> str:
    name = type(value).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _differ(actual: Any, typed: Any) -> str | None:
    if type(actual) is not type(typed):
        return f"Python's value here is {_a(actual)}, not {_a(typed)}"
    if isinstance(actual, bool):
        return None  # two values only: any word would give it away
    if isinstance(actual, (int, float)):
        return _numbers(float(actual), float(typed), isinstance(actual, int))
    if isinstance(actual, (str, bytes)):
        unit = "characters" if isinstance(actual, str) else "bytes"
        if len(actual) != len(typed):
            return f"Python's {_a(actual)[2:].strip()} is {'longer' if len(actual) > len(typed) else 'shorter'} than yours"
        at = next(i for i, (a, t) in enumerate(zip(actual, typed, strict=True)) if a != t)
        return f"as many {unit} as Python's, but they part ways at position {at}"
    if isinstance(actual, (list, tuple)):
        if len(actual) != len(typed):
            more = "more" if len(actual) > len(typed) else "fewer"
            return f"Python's {type(actual).__name__} has {more} items than yours"
        wrong = [i for i, (a, t) in enumerate(zip(actual, typed, strict=True)) if a != t]
        if wrong:
            shown = ", ".join(str(i) for i in wrong[:5])
            return (f"the same number of items, and {'the item' if len(wrong) == 1 else 'the items'} "
                    f"at index {shown} {'differs' if len(wrong) == 1 else 'differ'}")
        return None
    if isinstance(actual, (set, frozenset)):
        missing, extra = len(actual - typed), len(typed - actual)
        parts = []
        if missing:
            parts.append(f"{missing} item{'s' * (missing != 1)} of Python's {'are' if missing != 1 else 'is'} missing")
        if extra:
            parts.append(f"{extra} of yours {'are' if extra != 1 else 'is'} not in it")
        return " and ".join(parts) or None
    if isinstance(actual, dict):
        if set(actual) != set(typed):
            return "the keys differ from Python's"
        wrong = [k for k in actual if actual[k] != typed[k]]
        return f"the same keys, but the value at {wrong[0]!r} differs" if wrong else None
    return None


def _numbers(actual: float, typed: float, whole: bool) -> str | None:
    if math.isnan(actual) or math.isnan(typed):
        return "one of the two is a NaN"
    if (actual < 0) != (typed < 0) and actual != 0 and typed != 0:
        return "the sign is wrong"
    if actual == 0 or typed == 0:
        return "Python's value is " + ("zero" if actual == 0 else "not zero")
    if math.isinf(actual) or math.isinf(typed):
        return "Python's value is " + ("infinite" if math.isinf(actual) else "finite")
    ratio = abs(actual) / abs(typed)
    bigger = "larger" if abs(actual) > abs(typed) else "smaller"
    orders = abs(math.log10(ratio))
    if orders >= 1:
        return f"Python's value is about {round(orders)} order{'s' * (round(orders) != 1)} of magnitude {bigger}"
    if not whole and abs(ratio - 1) < 1e-9:
        return f"very close, but Python's value is a little {bigger}: look at the last digits"
    return f"Python's value is {bigger}"
