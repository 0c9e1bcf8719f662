"""Snapshot tests of the pictures of numbers and memory (tools/koanrunner/pictures): the IEEE 754
fields of a float, an integer's bits at a width, a struct's bytes, a strided view over its
buffer. Each is drawn in the Unicode and the ASCII style and compared exactly, special cases
included. The pictures of a running program are in test_pictures_runtime.py, and the rules
every picture keeps (80 columns, ASCII, colour, errors, draw()) in test_pictures_rules.py."""

# ruff: noqa: RUF001 - the snapshots hold the multiplication sign the pictures draw

from __future__ import annotations

import ctypes
import struct
import sys
from pathlib import Path

import pytest
from picture_support import NAMESPACE, Padded

from koanrunner.pictures import array_view, draw, float_bits, int_bits, struct_layout
from koanrunner.pictures.floats import encode

FLOAT_POINT_ONE = """\
float64 0.1: 1 sign bit, 11 exponent bits, 52 fraction bits
   s exponent    fraction
  ┌─┬───────────┬────────────────────────────────────────────────────┐
  │0│01111111011│1001100110011001100110011001100110011001100110011010│
  └─┴───────────┴────────────────────────────────────────────────────┘
  sign      0: positive
  exponent  1019 - bias 1023 = -4
  fraction  0x999999999999a / 2**52, after an implicit leading 1
  value     +1.6 × 2**-4
  stored    0.1000000000000000055511151231257827021181583404541015625
  bits      0x3fb999999999999a    float.hex() 0x1.999999999999ap-4"""

FLOAT_POINT_ONE_ASCII = """\
float64 0.1: 1 sign bit, 11 exponent bits, 52 fraction bits
   s exponent    fraction
  +-+-----------+----------------------------------------------------+
  |0|01111111011|1001100110011001100110011001100110011001100110011010|
  +-+-----------+----------------------------------------------------+
  sign      0: positive
  exponent  1019 - bias 1023 = -4
  fraction  0x999999999999a / 2**52, after an implicit leading 1
  value     +1.6 * 2**-4
  stored    0.1000000000000000055511151231257827021181583404541015625
  bits      0x3fb999999999999a    float.hex() 0x1.999999999999ap-4"""

FLOAT_NEGATIVE_ZERO = """\
float64 -0.0: 1 sign bit, 11 exponent bits, 52 fraction bits  [zero]
   s exponent    fraction
  ┌─┬───────────┬────────────────────────────────────────────────────┐
  │1│00000000000│0000000000000000000000000000000000000000000000000000│
  └─┴───────────┴────────────────────────────────────────────────────┘
  sign      1: negative
  exponent  0, all zeros, and a zero fraction: zero
  fraction  0
  value     -0.0  (negative zero: == 0.0, but its sign survives)
  bits      0x8000000000000000    float.hex() -0x0.0p+0"""

FLOAT_SUBNORMAL = """\
float64 5e-324: 1 sign bit, 11 exponent bits, 52 fraction bits  [subnormal]
   s exponent    fraction
  ┌─┬───────────┬────────────────────────────────────────────────────┐
  │0│00000000000│0000000000000000000000000000000000000000000000000001│
  └─┴───────────┴────────────────────────────────────────────────────┘
  sign      0: positive
  exponent  0, all zeros: subnormal, scale fixed at 2**-1022, no implicit 1
  fraction  0x1 / 2**52
  value     +1 × 2**-1074, the smallest step
  stored    ~ 4.94065645841246544177e-324 (exactly: 751 significant digits)
  bits      0x0000000000000001    float.hex() 0x0.0000000000001p-1022"""

FLOAT_INFINITY = """\
float64 inf: 1 sign bit, 11 exponent bits, 52 fraction bits  [infinity]
   s exponent    fraction
  ┌─┬───────────┬────────────────────────────────────────────────────┐
  │0│11111111111│0000000000000000000000000000000000000000000000000000│
  └─┴───────────┴────────────────────────────────────────────────────┘
  sign      0: positive
  exponent  2047, all ones: infinity
  fraction  0
  value     inf
  bits      0x7ff0000000000000"""

FLOAT_NAN = """\
float64 nan: 1 sign bit, 11 exponent bits, 52 fraction bits  [NaN]
   s exponent    fraction
  ┌─┬───────────┬────────────────────────────────────────────────────┐
  │0│11111111111│1000000000000000000000000000000000000000000000000000│
  └─┴───────────┴────────────────────────────────────────────────────┘
  sign      0: positive
  exponent  2047, all ones: not a number
  fraction  0x8000000000000: not zero, so NaN (quiet)
  value     nan (not even equal to itself)
  bits      0x7ff8000000000000"""

FLOAT32_POINT_ONE = """\
float32 0.1: 1 sign bit, 8 exponent bits, 23 fraction bits
  0.1 rounds to the nearest float32: 0.10000000149011612
   s exponent fraction
  ┌─┬────────┬───────────────────────┐
  │0│01111011│10011001100110011001101│
  └─┴────────┴───────────────────────┘
  sign      0: positive
  exponent  123 - bias 127 = -4
  fraction  0x4ccccd / 2**23, after an implicit leading 1
  value     +1.600000023841858 × 2**-4
  stored    0.100000001490116119384765625
  bits      0x3dcccccd    float.hex() 0x1.99999a0000000p-4"""

FLOAT16_OVERFLOW_ASCII = """\
float16 70000.0: 1 sign bit, 5 exponent bits, 10 fraction bits  [infinity]
  70000.0 rounds to the nearest float16: inf
   s exp   fraction
  +-+-----+----------+
  |0|11111|0000000000|
  +-+-----+----------+
  sign      0: positive
  exponent  31, all ones: infinity
  fraction  0
  value     inf
  bits      0x7c00"""

BFLOAT16_POINT_ONE = """\
bfloat16 0.1: 1 sign bit, 8 exponent bits, 7 fraction bits
  0.1 rounds to the nearest bfloat16: 0.10009765625
   s exponent frac
  ┌─┬────────┬───────┐
  │0│01111011│1001101│
  └─┴────────┴───────┘
  sign      0: positive
  exponent  123 - bias 127 = -4
  fraction  0x4d / 2**7, after an implicit leading 1
  value     +1.6015625 × 2**-4
  stored    0.10009765625
  bits      0x3dcd    float.hex() 0x1.9a00000000000p-4"""

INT_300_SIGNED = """\
300 in 8 bits, signed (two's complement): -128..127
  bit       7     6     5     4     3     2     1     0
         ┌─────┬─────┬─────┬─────┬─────┬─────┬─────┬─────┐
     1 ✂ │  0  │  0  │  1  │  0  │  1  │  1  │  0  │  0  │
         └─────┴─────┴─────┴─────┴─────┴─────┴─────┴─────┘
  weight  -128   64    32    16     8     4     2     1
  the top bit weighs -2**7, the others their plain place values
  32 + 8 + 4 = 44
  300 does not fit: the bits above bit 7 are dropped,
  so it wraps to 44 (300 - 1 × 2**8)
  hex 0x2c    read unsigned: 44"""

INT_300_SIGNED_ASCII = """\
300 in 8 bits, signed (two's complement): -128..127
  bit       7     6     5     4     3     2     1     0
         +-----+-----+-----+-----+-----+-----+-----+-----+
     1 % |  0  |  0  |  1  |  0  |  1  |  1  |  0  |  0  |
         +-----+-----+-----+-----+-----+-----+-----+-----+
  weight  -128   64    32    16     8     4     2     1
  the top bit weighs -2**7, the others their plain place values
  32 + 8 + 4 = 44
  300 does not fit: the bits above bit 7 are dropped,
  so it wraps to 44 (300 - 1 * 2**8)
  hex 0x2c    read unsigned: 44"""

INT_MINUS_5 = """\
-5 in 8 bits, signed (two's complement): -128..127
  bit       7     6     5     4     3     2     1     0
         ┌─────┬─────┬─────┬─────┬─────┬─────┬─────┬─────┐
         │  1  │  1  │  1  │  1  │  1  │  0  │  1  │  1  │
         └─────┴─────┴─────┴─────┴─────┴─────┴─────┴─────┘
  weight  -128   64    32    16     8     4     2     1
  the top bit weighs -2**7, the others their plain place values
  -128 + 64 + 32 + 16 + 8 + 2 + 1 = -5
  stored as 2**8 - 5 = 251: the same bits read unsigned
  hex 0xfb    read unsigned: 251"""

INT_40000_IN_16_ASCII = """\
40000 in 16 bits, signed (two's complement): -32768..32767
  byte     1        0
       +--------+--------+
       |10011100|01000000|
       +--------+--------+
  hex     0x9c     0x40
  the top bit weighs -2**15, the others their plain place values
  40000 does not fit: its top bit now counts -2**15,
  so it wraps to -25536 (40000 - 1 * 2**16)
  hex 0x9c40    read unsigned: 40000"""

STRUCT_PADDING = """\
struct Padded (ctypes): 24 bytes, aligned to 8
  as the C compiler lays it out
  offset   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15
         ┌───┬───────────┬───────────────┬───────────────────────────────┐
         │ A │░░░░░░░░░░░│     count     │             ratio             │
         └───┴───────────┴───────────────┴───────────────────────────────┘
  offset  16  17  18  19  20  21  22  23
         ┌───────┬───────────────────────┐
         │  tag  │░░░░░░░░░░░░░░░░░░░░░░░│
         └───────┴───────────────────────┘
  key  field         type                offset  size  align
  A    flag          c_char                   0     1      1
       (padding)                              1     3
  B    count         c_int                    4     4      4
  C    ratio         c_double                 8     8      8
  D    tag           c_short                 16     2      2
       (end padding)                         18     6
  24 bytes: 15 in fields, 9 of padding"""

STRUCT_PADDING_ASCII = """\
struct Padded (ctypes): 24 bytes, aligned to 8
  as the C compiler lays it out
  offset   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15
         +---+-----------+---------------+-------------------------------+
         | A |...........|     count     |             ratio             |
         +---+-----------+---------------+-------------------------------+
  offset  16  17  18  19  20  21  22  23
         +-------+-----------------------+
         |  tag  |.......................|
         +-------+-----------------------+
  key  field         type                offset  size  align
  A    flag          c_char                   0     1      1
       (padding)                              1     3
  B    count         c_int                    4     4      4
  C    ratio         c_double                 8     8      8
  D    tag           c_short                 16     2      2
       (end padding)                         18     6
  24 bytes: 15 in fields, 9 of padding"""

STRUCT_FORMAT = """\
struct format '@cid': 16 bytes, aligned to 8
  native sizes and alignment: padding between fields, none at the end
  offset   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15
         ┌───┬───────────┬───────────────┬───────────────────────────────┐
         │ c │░░░░░░░░░░░│       i       │               d               │
         └───┴───────────┴───────────────┴───────────────────────────────┘
  key  field         type                offset  size  align
  A    c             char                     0     1      1
       (padding)                              1     3
  B    i             int                      4     4      4
  C    d             double                   8     8      8
  16 bytes: 13 in fields, 3 of padding"""

VIEW_TRANSPOSED = """\
a buffer of 6 elements of 8 bytes
  element    0     1     2     3     4     5
  byte       0     8    16    24    32    40
          ┌─────┬─────┬─────┬─────┬─────┬─────┐
  base    │ 0,0 │ 0,1 │ 0,2 │ 1,0 │ 1,1 │ 1,2 │
  view    │ 0,0 │ 1,0 │ 2,0 │ 0,1 │ 1,1 │ 2,1 │
          └─────┴─────┴─────┴─────┴─────┴─────┘
  base: shape (2, 3), strides (24, 8) bytes, offset 0
        [i,j] reads element 3·i + 1·j; C-contiguous (row-major)
  view: shape (3, 2), strides (8, 24) bytes, offset 0
        [i,j] reads element 1·i + 3·j; F-contiguous (column-major)
  the view, each index with the element it reads:
           j=0 j=1
    i=0      0   3
    i=1      1   4
    i=2      2   5"""

VIEW_TRANSPOSED_ASCII = """\
a buffer of 6 elements of 8 bytes
  element    0     1     2     3     4     5
  byte       0     8    16    24    32    40
          +-----+-----+-----+-----+-----+-----+
  base    | 0,0 | 0,1 | 0,2 | 1,0 | 1,1 | 1,2 |
  view    | 0,0 | 1,0 | 2,0 | 0,1 | 1,1 | 2,1 |
          +-----+-----+-----+-----+-----+-----+
  base: shape (2, 3), strides (24, 8) bytes, offset 0
        [i,j] reads element 3*i + 1*j; C-contiguous (row-major)
  view: shape (3, 2), strides (8, 24) bytes, offset 0
        [i,j] reads element 1*i + 3*j; F-contiguous (column-major)
  the view, each index with the element it reads:
           j=0 j=1
    i=0      0   3
    i=1      1   4
    i=2      2   5"""

VIEW_REVERSED = """\
a buffer of 10 elements
  element   0   1   2   3   4   5   6   7   8   9
          ┌───┬───┬───┬───┬───┬───┬───┬───┬───┬───┐
  view    │ 3 │ · │ · │ 2 │ · │ · │ 1 │ · │ · │ 0 │
          └───┴───┴───┴───┴───┴───┴───┴───┴───┴───┘
  view: shape (4,), strides (-3,), offset 9
        [i] reads element 9 - 3·i; not contiguous
  the view, each index with the element it reads:
           i=0 i=1 i=2 i=3
             9   6   3   0"""


SNAPSHOTS = [
    ('float_bits(0.1)', True, FLOAT_POINT_ONE),
    ('float_bits(0.1)', False, FLOAT_POINT_ONE_ASCII),
    ('float_bits(-0.0)', True, FLOAT_NEGATIVE_ZERO),
    ('float_bits(5e-324)', True, FLOAT_SUBNORMAL),
    ("float_bits(float('inf'))", True, FLOAT_INFINITY),
    ("float_bits(float('nan'))", True, FLOAT_NAN),
    ("float_bits(0.1, 'float32')", True, FLOAT32_POINT_ONE),
    ("float_bits(70000.0, 'float16')", False, FLOAT16_OVERFLOW_ASCII),
    ("float_bits(0.1, 'bfloat16')", True, BFLOAT16_POINT_ONE),
    ('int_bits(300)', True, INT_300_SIGNED),
    ('int_bits(300)', False, INT_300_SIGNED_ASCII),
    ('int_bits(-5)', True, INT_MINUS_5),
    ('int_bits(40000, 16)', False, INT_40000_IN_16_ASCII),
    ('struct_layout(Padded)', True, STRUCT_PADDING),
    ('struct_layout(Padded)', False, STRUCT_PADDING_ASCII),
    ("struct_layout('@cid')", True, STRUCT_FORMAT),
    ('strided_view((3, 2), (8, 24), 0, 8, 48, base=((2, 3), (24, 8), 0))', True, VIEW_TRANSPOSED),
    ('strided_view((3, 2), (8, 24), 0, 8, 48, base=((2, 3), (24, 8), 0))', False, VIEW_TRANSPOSED_ASCII),
    ('strided_view((4,), (-3,), 9, 1, 10)', True, VIEW_REVERSED),
]


@pytest.mark.parametrize(("expression", "unicode", "expected"), SNAPSHOTS,
                         ids=[f"{e}-{'unicode' if u else 'ascii'}" for e, u, _ in SNAPSHOTS])
def test_snapshot(expression, unicode, expected):
    assert "\n".join(draw(expression, NAMESPACE, unicode, False)) == expected


def test_a_direct_call_draws_what_draw_draws():
    assert float_bits(0.1) == FLOAT_POINT_ONE.split("\n")
    assert int_bits(300, unicode=False) == INT_300_SIGNED_ASCII.split("\n")
    assert struct_layout(Padded()) == STRUCT_PADDING.split("\n")  # an instance draws its class


def test_a_computed_layout_claims_no_alignment_it_was_not_given():
    rows = struct_layout([("ob_refcnt", 0, 8), ("ob_type", 8, 8)])
    assert rows[0] == "layout: 16 bytes" and "aligned" not in rows[0]
    assert rows[-1] == "  16 bytes: 16 in fields, 0 of padding"
    assert struct_layout([("tag", ctypes.c_char), ("n", ctypes.c_int32)])[0].endswith("aligned to 4")


ARRAY_TRANSPOSED = """\
a buffer of 6 elements of 8 bytes
  element    0     1     2     3     4     5
  byte       0     8    16    24    32    40
          ┌─────┬─────┬─────┬─────┬─────┬─────┐
  base    │  0  │  1  │  2  │  3  │  4  │  5  │
  view    │ 0,0 │ 1,0 │ 2,0 │ 0,1 │ 1,1 │ 2,1 │
          └─────┴─────┴─────┴─────┴─────┴─────┘
  base: shape (6,), strides (8,) bytes, offset 0
        [i] reads element 1·i; C- and F-contiguous
  view: shape (3, 2), strides (8, 24) bytes, offset 0
        [i,j] reads element 1·i + 3·j; F-contiguous (column-major)
  the view, each index with the element it reads:
           j=0 j=1
    i=0      0   3
    i=1      1   4
    i=2      2   5"""


def test_a_numpy_view_over_the_array_that_owns_the_memory():
    np = pytest.importorskip("numpy")
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    assert "\n".join(array_view(a.T)) == ARRAY_TRANSPOSED  # a.T.base is the arange: the owner
    sliced = array_view(np.arange(10, dtype=np.int64)[1::3])
    assert "  view    │ · │ 0 │ · │ · │ 1 │ · │ · │ 2 │ · │ · │" in sliced
    alone = array_view(np.arange(4, dtype=np.int64))  # owns its memory: no base row
    assert not any(line.startswith("  base") for line in alone)
    narrower = array_view(np.arange(8, dtype=np.int64).view(np.int32)[::2])
    assert narrower[0] == "a buffer of 16 elements of 4 bytes"  # another dtype: the view alone


def test_a_torch_view_over_its_storage():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.int64).reshape(2, 3)
    assert "\n".join(array_view(t.t())) == ARRAY_TRANSPOSED  # storage offset, element strides
    assert "offset 8 = element 1" in "\n".join(array_view(t[:, 1]))


@pytest.mark.parametrize("value", [0.1, 1 / 3, 65504.0, 65519.99, 65520.0, 6.1e-5, 5.96e-8, 2.98e-8,
                                   2.9802322387695312e-08, 1e-45, 7e-46, 3.4028235e38, 3.5e38,
                                   -2.5, 1.0000001, 16777217.0, -0.0, -1e300])
def test_rounding_to_a_narrow_format_matches_the_struct_module(value):
    for code, ebits, fbits in ((">e", 5, 10), (">f", 8, 23)):
        try:
            expected = int.from_bytes(struct.pack(code, value), "big")
        except OverflowError:  # struct refuses what a cast turns into infinity
            expected = ((1 << ebits) - 1) << fbits | (1 << (ebits + fbits) if value < 0 else 0)
        assert encode(value, ebits, fbits) == expected, (code, value)


def test_bfloat16_keeps_the_top_half_of_a_float32_rounded_to_nearest_even():
    for value in (0.1, 1 / 3, -2.5, 3.0e38, 1e-40):
        f32 = encode(value, 8, 23)
        rounded = (f32 + 0x7FFF + (f32 >> 16 & 1)) >> 16  # torch's round-to-nearest-even
        assert encode(value, 8, 7) == rounded, value


def test_the_readme_shows_the_picture_the_runner_draws():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    shown = readme.split("```text\n", 1)[1].split("\n```", 1)[0]
    assert shown == "\n".join(float_bits(0.7))


def test_a_kata_step_that_compares_bit_patterns_draws_their_fields_one_above_the_other(monkeypatch):
    import importlib.util

    kata = Path(__file__).resolve().parents[2] / "answers" / "katas" / "01_ieee754"
    monkeypatch.syspath_prepend(str(kata))
    spec = importlib.util.spec_from_file_location("ieee754_steps", kata / "test_steps.py")
    steps = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(steps)
    finally:
        sys.modules.pop("ieee754", None)  # the kata's module, imported by its steps
    said = steps.differ(0x7C00, 0x7BFF, steps.FLOAT16).split("\n")
    assert said == ["got 0x7c00, want 0x7bff",
                    "        s exp   fraction",
                    "    got 0 11111 0000000000",
                    "   want 0 11110 1111111111",
                    "              ^ ^^^^^^^^^^"]
    assert all(len(row) <= 80 for row in steps.differ(1, 2).split("\n"))
    assert steps.differ(None, 2) == "got None, want 0x0000000000000002"
