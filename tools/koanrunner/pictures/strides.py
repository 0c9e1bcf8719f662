"""An array's or a tensor's elements laid over its buffer: shape, strides and offset."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from ._pen import TIMES, Pen, finish

MAX_ELEMENTS = 48  # buffer elements drawn
MAX_INDICES = 256  # indices of a view followed


def _reads(shape: Sequence[int], strides: Sequence[int], offset: int, itemsize: int,
           who: str) -> dict[tuple[int, ...], int]:
    """Each index of the array, and the buffer element it reads."""
    if len(shape) != len(strides):
        raise ValueError(f"{who}: shape {tuple(shape)} and strides {tuple(strides)} differ in length")
    if any(n < 0 for n in shape):
        raise ValueError(f"{who}: a negative extent in shape {tuple(shape)}")
    if math.prod(shape) > MAX_INDICES:
        raise ValueError(f"{who} has {math.prod(shape)} elements: too many to draw (at most {MAX_INDICES})")
    out = {}
    for index in itertools.product(*(range(n) for n in shape)):
        byte = offset + sum(i * s for i, s in zip(index, strides, strict=True))
        if byte % itemsize:
            raise ValueError(f"{who}[{index}] starts at byte {byte}, not on an element boundary")
        out[index] = byte // itemsize
    return out


def _label(index: tuple[int, ...]) -> str:
    return ",".join(map(str, index)) if index else "()"


def _formula(strides: Sequence[int], offset: int, itemsize: int, pen: Pen) -> str:
    names = "ijklmn"
    dot = pen.ch("·", "*")
    terms = [str(offset // itemsize)] if offset else []
    terms += [f"{s // itemsize}{dot}{names[k] if k < len(names) else f'i{k}'}"
              for k, s in enumerate(strides)]
    return " + ".join(terms).replace("+ -", "- ") or "0"


def _contiguity(shape: Sequence[int], strides: Sequence[int], itemsize: int) -> str:
    def packed(order: Sequence[int]) -> bool:
        step = itemsize
        for k in order:
            if shape[k] > 1 and strides[k] != step:
                return False
            step *= shape[k]
        return True
    c, f = packed(range(len(shape) - 1, -1, -1)), packed(range(len(shape)))
    return ("C- and F-contiguous" if c and f else "C-contiguous (row-major)" if c
            else "F-contiguous (column-major)" if f else "not contiguous")


def strided_view(shape: Sequence[int], strides: Sequence[int], offset: int = 0, itemsize: int = 1,
                 buffer_len: int | None = None, *, base: Sequence[Any] | None = None,
                 unicode: bool = True, color: bool = False) -> list[str]:
    """Which element of a flat buffer each index of a strided array reads.

    ``strides``, ``offset`` and ``buffer_len`` count bytes, as NumPy's ``.strides`` do; with
    ``itemsize`` 1 (the default) they count elements, as torch's ``.stride()`` and
    ``.storage_offset()`` do. ``base`` is an optional ``(shape, strides, offset)`` of the array
    that owns the buffer, in the same units, drawn on the row above the view's. The buffer
    (at most 48 elements: slice a big one first) is drawn as a strip of cells, each holding
    the index that reads it; for a view of one or two dimensions a grid of the view follows,
    each index with its buffer element."""
    pen = Pen(unicode, color)
    try:
        shape, strides = tuple(map(int, shape)), tuple(map(int, strides))
        offset, itemsize = int(offset), int(itemsize)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strided_view needs integers: {exc}") from None
    if itemsize < 1 or offset % itemsize:
        raise ValueError(f"offset {offset} is not a whole number of {itemsize}-byte elements")
    rows = [("view", shape, strides, offset, _reads(shape, strides, offset, itemsize, "the view"))]
    if base is not None:
        b_shape, b_strides, b_offset = (tuple(map(int, base[0])), tuple(map(int, base[1])), int(base[2]))
        rows.insert(0, ("base", b_shape, b_strides, b_offset,
                        _reads(b_shape, b_strides, b_offset, itemsize, "the base")))
    touched = [e for *_, reads in rows for e in reads.values()]
    if any(e < 0 for e in touched):
        raise ValueError("an index reads before the start of the buffer: check the offset")
    length = max(touched, default=-1) + 1 if buffer_len is None else int(buffer_len) // itemsize
    if touched and max(touched) >= length:
        raise ValueError(f"an index reads element {max(touched)}, past the buffer's {length}")
    if length > MAX_ELEMENTS:
        raise ValueError(f"the buffer has {length} elements: too many to draw (at most {MAX_ELEMENTS})")

    cells: list[list[str]] = []
    for *_, reads in rows:
        by_element: dict[int, list[tuple[int, ...]]] = {}
        for index, element in reads.items():
            by_element.setdefault(element, []).append(index)
        cells.append([_label(by_element[e][0]) if len(by_element.get(e, ())) == 1
                      else f"{pen.ch(TIMES, 'x')}{len(by_element[e])}" if e in by_element
                      else pen.ch("·", ".") for e in range(length)])
    width = max([3, *(len(c) + 2 for row in cells for c in row), len(str(length * itemsize)) + 1])
    lines = [pen(f"a buffer of {length} element{'s' if length != 1 else ''}"
                 + (f" of {itemsize} bytes" if itemsize > 1 else ""), "bold")]
    margin = 10
    per_line = max((80 - margin - 1) // (width + 1), 1)
    for start in range(0, max(length, 1), per_line):
        span = range(start, min(start + per_line, length))
        widths = [width] * len(span)
        lines.append("  element" + " " * (margin - 9) + " "
                     + " ".join(f"{e!s:^{width}}" for e in span))
        if itemsize > 1:
            lines.append("  byte" + " " * (margin - 6) + " "
                         + " ".join(f"{e * itemsize!s:^{width}}" for e in span))
        lines.append(" " * margin + pen.border(widths, "top"))
        for (name, *_), row in zip(rows, cells, strict=True):
            colour = "green" if name == "view" else "cyan"
            texts = [pen(f"{row[e]:^{width}}", "dim" if row[e] in ("·", ".") else colour) for e in span]
            lines.append(f"  {name:<{margin - 2}}" + pen.cells(texts))
        lines.append(" " * margin + pen.border(widths, "bottom"))
    for name, shp, st, off, _ in rows:
        where = f"offset {off}" + (f" = element {off // itemsize}" if itemsize > 1 and off else "")
        lines.append(f"  {name}: shape {shp}, strides {st}{' bytes' if itemsize > 1 else ''}, {where}")
        lines.append(f"        [{','.join('ijklmn'[:len(shp)])}] reads element "
                     f"{_formula(st, off, itemsize, pen)}; {_contiguity(shp, st, itemsize)}")
    view = rows[-1]
    if len(view[1]) <= 2 and view[1] and all(view[1]):
        lines += _grid(view[1], view[4], pen)
    return finish(lines, pen)


def _grid(shape: tuple[int, ...], reads: dict[tuple[int, ...], int], pen: Pen) -> list[str]:
    """The view as a grid, each index with the buffer element it reads."""
    rows_n, cols_n = (1, shape[0]) if len(shape) == 1 else shape
    key = (lambda i, j: (j,)) if len(shape) == 1 else (lambda i, j: (i, j))
    width = max(len(str(e)) for e in reads.values()) + 2
    width = max(width, len(f"j={cols_n - 1}") + 1)
    if 10 + cols_n * width > 80:
        return []
    lines = ["  the view, each index with the element it reads:"]
    head = " " * 10 + "".join(f"{'j=' if len(shape) == 2 else 'i='}{j}".rjust(width) for j in range(cols_n))
    lines.append(head)
    for i in range(rows_n):
        label = f"i={i}" if len(shape) == 2 else ""
        lines.append(f"    {label:<6}" + "".join(pen(str(reads[key(i, j)]).rjust(width), "green")
                                            for j in range(cols_n)))
    return lines


def array_view(a: Any, *, unicode: bool = True, color: bool = False) -> list[str]:
    """``strided_view`` for a NumPy array or a torch tensor, read duck-typed (nothing is
    imported): a tensor's ``stride()``, ``storage_offset()`` and ``_base``, an array's
    ``__array_interface__``, ``strides`` and ``base``. The base drawn is the array that owns
    the memory, as ``a.base`` (NumPy) or ``a._base`` (torch) names it."""
    if callable(getattr(a, "storage_offset", None)) and callable(getattr(a, "stride", None)):
        itemsize = a.element_size()
        nbytes = a.untyped_storage().nbytes()
        shape, strides = tuple(a.shape), tuple(s * itemsize for s in a.stride())
        offset = a.storage_offset() * itemsize
        owner = getattr(a, "_base", None)
        base = None if owner is None else (tuple(owner.shape), tuple(s * itemsize for s in owner.stride()),
                                           owner.storage_offset() * itemsize)
        return strided_view(shape, strides, offset, itemsize, nbytes, base=base,
                            unicode=unicode, color=color)
    if not hasattr(a, "__array_interface__"):
        raise ValueError(f"array_view takes a NumPy array or a torch tensor, not {type(a).__name__}")
    root = a
    while hasattr(getattr(root, "base", None), "__array_interface__"):
        root = root.base
    start, end = _extent(root)
    offset = a.__array_interface__["data"][0] - start
    base = None if root is a or root.itemsize != a.itemsize else (  # another dtype: the view alone
        tuple(root.shape), tuple(root.strides), root.__array_interface__["data"][0] - start)
    return strided_view(tuple(a.shape), tuple(a.strides), offset, a.itemsize, end - start,
                        base=base, unicode=unicode, color=color)


def _extent(arr: Any) -> tuple[int, int]:
    """The first and one-past-last byte address an array can read."""
    pointer = arr.__array_interface__["data"][0]
    if 0 in arr.shape:
        return pointer, pointer
    low = pointer + sum(min(0, (n - 1) * s) for n, s in zip(arr.shape, arr.strides, strict=True))
    high = pointer + sum(max(0, (n - 1) * s) for n, s in zip(arr.shape, arr.strides, strict=True))
    return low, high + arr.itemsize

