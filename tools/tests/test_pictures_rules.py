"""The rules every picture of tools/koanrunner/pictures keeps, checked on course-sized and on
extreme inputs in all four styles (Unicode or ASCII, colour or not): every line fits 80
columns; the ASCII style is pure ASCII; colour never moves a character; no line ends in a
blank; a picture that cannot be drawn raises a ValueError that says why; draw() evaluates a
koan's picture expression and refuses anything else; nothing is slow; and importing the
library imports neither NumPy nor torch."""

from __future__ import annotations

import ctypes
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest
from picture_support import NAMESPACE, TYPICAL, branchy

from koanrunner.pictures import (
    PICTURES,
    allocator_segments,
    array_view,
    draw,
    float_bits,
    float_pattern,
    int_bits,
    model_segments,
    object_graph,
    stack_effects,
    strided_view,
    struct_layout,
    timeline,
)
from koanrunner.pictures._pen import visible

TOOLS = Path(__file__).resolve().parents[1]
STYLES = [(u, c) for u in (True, False) for c in (False, True)]


class Wide(ctypes.Structure):
    _fields_ = [(f"field_with_a_long_name_{i}", t) for i, t in enumerate(
        [ctypes.c_char, ctypes.c_double, ctypes.c_short, ctypes.c_char * 13, ctypes.c_int] * 6)]


def _ring() -> list[tuple[str, str]]:
    names = [f"object_{i}" for i in range(12)]
    return [(names[i], names[(i + 1) % 12]) for i in range(12)] + [(names[0], names[6])]


def _segments() -> dict:
    blocks = [{"size": 512 * (k + 1), "state": ("active_allocated", "inactive",
                                                 "active_pending_free")[k % 3]} for k in range(24)]
    segment = {"total_size": sum(b["size"] for b in blocks) + 4096, "blocks": blocks,
               "address": 0x7FFFFFFFFFFF, "segment_type": "small"}
    return {"segments": [dict(segment) for _ in range(8)]}


EXTREMES = [
    lambda **s: float_bits(-1.7976931348623157e308, **s),
    lambda **s: float_bits(2.5e-310, **s),
    lambda **s: float_bits(-6e-8, "float16", **s),
    lambda **s: float_bits(-math.nan, "bfloat16", **s),
    lambda **s: float_bits(1e300, "float32", **s),
    lambda **s: float_pattern(0x7C01, "float16", **s),
    lambda **s: int_bits(2**200, 64, **s),
    lambda **s: int_bits(-(2**200), 64, signed=False, **s),
    lambda **s: int_bits(-(3**100), 7, **s),
    lambda **s: int_bits(12345, 33, **s),
    lambda **s: int_bits(1, 1, **s),
    lambda **s: struct_layout(Wide, **s),
    lambda **s: struct_layout("@" + "cd" * 10 + "3s0l", **s),
    lambda **s: strided_view((2, 3, 4), (96, 32, 8), 0, 8, 384, base=((48,), (8,), 0), **s),
    lambda **s: strided_view((40,), (0,), 8, 8, 16, **s),
    lambda **s: object_graph(_ring(), names={"a_rather_long_variable_name": "object_0"}, **s),
    lambda **s: stack_effects(branchy, **s),
    lambda **s: timeline([(k * 0.125, f"worker-thread-{k % 6}", "x" * 40) for k in range(80)], **s),
    lambda **s: allocator_segments(_segments(), **s),
    lambda **s: array_view(pytest.importorskip("numpy").arange(48.0).reshape(6, 8)[::2, ::-3], **s),
]


def _every_picture():
    yield from EXTREMES
    for expression in TYPICAL:
        yield lambda expression=expression, **s: draw(expression, NAMESPACE, s["unicode"], s["color"])


@pytest.mark.parametrize("picture", EXTREMES, ids=[f"extreme{i}" for i in range(len(EXTREMES))])
def test_every_line_fits_80_columns_in_every_style(picture):
    for unicode, color in STYLES:
        lines = picture(unicode=unicode, color=color)
        assert lines
        assert [line for line in lines if len(visible(line)) > 80] == [], (unicode, color)


def test_the_ascii_style_is_ascii_and_colour_moves_nothing():
    for picture in _every_picture():
        plain = picture(unicode=True, color=False)
        assert [visible(line) for line in picture(unicode=True, color=True)] == plain
        ascii_plain, ascii_color = picture(unicode=False, color=False), picture(unicode=False, color=True)
        assert all(line.isascii() for line in ascii_plain + ascii_color)
        assert [visible(line) for line in ascii_color] == ascii_plain
        assert all(len(visible(line)) <= 80 for line in plain + ascii_plain)
        assert all(line == line.rstrip() for line in plain + ascii_plain)
    assert any("\033[" in line for line in float_bits(0.1, color=True))
    assert not any("\033[" in line for line in float_bits(0.1))


def test_a_callers_non_ascii_label_is_escaped_in_the_ascii_style():
    lines = object_graph([("café", "naïve")], names={"ß": "café"}, unicode=False)
    assert all(line.isascii() for line in lines)
    assert any("caf\\xe9" in line for line in lines)


def test_course_sized_pictures_are_quick():
    for expression in TYPICAL:
        best = min(_timed(draw, expression, NAMESPACE, True, True) for _ in range(3))
        assert best < 0.025, (expression, best)  # budget 5 ms; the margin is for a loaded machine


def _timed(fn, *args):
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def test_nothing_heavy_is_imported():
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import koanrunner.pictures; "
            "print(sorted({'numpy', 'torch'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code, str(TOOLS)], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def _bits_struct():
    return type("Bits", (ctypes.Structure,), {"_fields_": [("b", ctypes.c_int, 3)]})


CANNOT = [
    (lambda: float_bits("zero"), "needs one float"),
    (lambda: float_bits(1.0, "float8"), "float_bits draws"),
    (lambda: float_pattern(1 << 16, "float16"), "not a 16-bit pattern"),
    (lambda: int_bits(1.5), "needs integers"),
    (lambda: int_bits(1, 65), "1 to 64 bits"),
    (lambda: struct_layout(42), "struct_layout takes"),
    (lambda: struct_layout("@q!"), "not a struct format"),
    (lambda: struct_layout(_bits_struct()), "bit fields"),
    (lambda: strided_view((3,), (8,), 0, 8, 16), "past the buffer"),
    (lambda: strided_view((3,), (8,), -8, 8), "before the start"),
    (lambda: strided_view((3,), (3,), 0, 8), "element boundary"),
    (lambda: strided_view((100,), (1,)), "too many"),
    (lambda: array_view([1, 2, 3]), "NumPy array or a torch tensor"),
    (lambda: object_graph([]), "at least one object"),
    (lambda: object_graph([(1, 2, 3)]), "pairs"),
    (lambda: object_graph([(str(i), str(i + 1)) for i in range(20)]), "at most 12"),
    (lambda: stack_effects(42), "cannot disassemble"),
    (lambda: stack_effects(["LOAD_FAST"]), "dis instructions"),
    (lambda: timeline([]), "at least one event"),
    (lambda: timeline([("a",)]), "(who, what)"),
    (lambda: timeline([(str(k), "x") for k in range(7)]), "at most 6"),
    (lambda: allocator_segments([{"total_size": 512, "blocks": [{"size": 512, "state": "odd"}]}]),
     "state"),
    (lambda: allocator_segments([{"total_size": 512, "blocks": [{"size": 1024, "state": "inactive"}]}]),
     "add up"),
    (lambda: allocator_segments([{"blocks": []}]), "total_size"),
    (lambda: model_segments(object()), "pools and live"),
]


@pytest.mark.parametrize(("picture", "why"), CANNOT, ids=[w for _, w in CANNOT])
def test_a_picture_that_cannot_be_drawn_raises_a_value_error_saying_why(picture, why):
    with pytest.raises(ValueError) as caught:
        picture()
    assert why in str(caught.value)


@pytest.mark.parametrize(("expression", "why"), [
    ("float_bits(", "is not an expression"),
    ("import os", "is not an expression"),
    ("__import__('os').getcwd()", "is not a call of a picture"),
    ("float_bits", "is not a call of a picture"),
    ("len([1])", "is not a call of a picture"),
    ("model_segments(MODEL)", "is not a call of a picture"),
    ("float_bits(undefined_name)", "NameError"),
    ("float_bits(1 / 0)", "ZeroDivisionError"),
    ("int_bits(1, 99)", "1 to 64 bits"),
    ("float_bits(0.1, unicode=False)", "the style is the caller's"),
])
def test_draw_says_why_an_expression_cannot_be_drawn(expression, why):
    with pytest.raises(ValueError) as caught:
        draw(expression, NAMESPACE, True, False)
    assert why in str(caught.value)
    assert expression in str(caught.value)


class _FakeTensor:
    """Enough of a torch tensor for array_view: a 2x2 view at storage offset 1."""

    shape = (2, 2)
    _base = None

    def stride(self):
        return (2, 1)

    def storage_offset(self):
        return 1

    def element_size(self):
        return 4

    def untyped_storage(self):
        return type("Storage", (), {"nbytes": lambda self: 20})()


def test_draw_takes_the_koans_namespace_and_leaves_it_alone():
    namespace = {"x": 0.1, "__name__": "koan"}
    assert draw("float_bits(x)", namespace, True, False) == float_bits(0.1)
    assert namespace == {"x": 0.1, "__name__": "koan"}
    assert draw("float_bits(x, 'float32')", namespace, False, False) == float_bits(
        0.1, "float32", unicode=False)
    tensor = draw("  array_view(t)  ", {"t": _FakeTensor()}, False, False)
    assert tensor[0] == "a buffer of 5 elements of 4 bytes"
    assert "  view    |  .  | 0,0 | 0,1 | 1,0 | 1,1 |" in tensor
    with pytest.raises(ValueError, match="named by a string"):
        draw(42, namespace, True, False)
    assert set(PICTURES) >= {"float_bits", "int_bits", "struct_layout", "strided_view",
                             "array_view", "object_graph", "stack_effects", "timeline",
                             "allocator_segments"}
