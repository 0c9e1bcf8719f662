"""Pictures where a learner would rather look than read: text only, 80 columns at most.

One function per kind of picture, each returning a list of lines (str) and taking the style
as keywords: ``unicode`` (box-drawing and block characters, or plain ASCII) and ``color``
(ANSI colour codes, which never change the layout). Nothing here looks at the terminal; the
caller decides. A picture that cannot be drawn raises ValueError saying why, and the caller
leaves it out. Standard library only: NumPy arrays and torch tensors are read duck-typed
when a caller passes one, never imported.

- ``float_bits(x, fmt)``          IEEE 754 fields of a float64/float32/float16/bfloat16
- ``float_pattern(bits, fmt)``    the same, for a bit pattern
- ``int_bits(n, width, signed)``  two's complement at a width, and the wrap
- ``struct_layout(what)``         the bytes of a ctypes.Structure or a struct format
- ``strided_view(shape, strides, offset, itemsize, buffer_len)`` and ``array_view(a)``
                                  which buffer element each index of a view reads
- ``object_graph(edges, names, refcounts)``  names, objects, references, cycles
- ``stack_effects(instructions)`` the value stack through a dis listing
- ``timeline(events)``            which thread or task ran when
- ``allocator_segments(segments)`` and ``model_segments(allocator)``
                                  the caching allocator's segments and blocks

``draw(expression, namespace, unicode, color)`` evaluates a picture named by a koan, like
``"float_bits(0.1)"``, in the koan module's namespace.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Mapping
from typing import Any

from .allocator import allocator_segments, model_segments
from .floats import float_bits, float_pattern
from .graphs import object_graph
from .ints import int_bits
from .stack import stack_effects
from .strides import array_view, strided_view
from .structs import struct_layout
from .timeline import timeline

_ALL: tuple[Callable[..., Any], ...] = (
    float_bits, float_pattern, int_bits, struct_layout, strided_view, array_view, object_graph,
    stack_effects, timeline, allocator_segments, model_segments)
PICTURES: dict[str, Callable[..., Any]] = {f.__name__: f for f in _ALL}
DRAWN = {name for name in PICTURES if name != "model_segments"}  # what an expression may call


def parse_picture(expression: object) -> ast.Expression:
    """``expression`` parsed, when it is one call of a picture with no style keywords; else
    ValueError saying why (the checker's static pass asks this without drawing)."""
    if not isinstance(expression, str):
        raise ValueError(f"a picture is named by a string, not {type(expression).__name__}")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{expression!r} is not an expression: {exc.msg}") from None
    call = tree.body
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in DRAWN):
        raise ValueError(f"{expression!r} is not a call of a picture: one of {', '.join(sorted(DRAWN))}")
    if any(k.arg in ("unicode", "color") for k in call.keywords):
        raise ValueError(f"{expression!r}: the style is the caller's, not the expression's")
    return tree


def draw(expression: str, namespace: Mapping[str, Any] | None = None, unicode: bool = True,
         color: bool = False) -> list[str]:
    """The picture that ``expression`` (one call of a picture function, like
    ``"float_bits(0.1)"`` or ``"array_view(a.T)"``) draws, evaluated in ``namespace`` (a koan
    module's globals) with the picture functions added in the given style. Raises ValueError
    saying why when the expression is not such a call, or fails, or returns no picture."""
    tree = parse_picture(expression)
    scope = dict(namespace or {})
    scope.setdefault("__builtins__", __builtins__)
    scope.update({name: functools.partial(f, unicode=unicode, color=color)
                  for name, f in PICTURES.items() if name in DRAWN})
    scope["model_segments"] = model_segments
    try:
        lines = eval(compile(tree, "<picture>", "eval"), scope)
    except ValueError as exc:
        raise ValueError(f"{expression!r} cannot be drawn: {exc}") from None
    except Exception as exc:
        raise ValueError(f"{expression!r} cannot be drawn: {type(exc).__name__}: {exc}") from None
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise ValueError(f"{expression!r} did not return lines of text")
    return lines


__all__ = ["PICTURES", "allocator_segments", "array_view", "draw", "float_bits", "float_pattern",
           "int_bits", "model_segments", "object_graph", "parse_picture", "stack_effects", "strided_view",
           "struct_layout", "timeline"]
