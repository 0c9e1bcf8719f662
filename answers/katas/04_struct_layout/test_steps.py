"""Kata: how a C compiler lays out a struct. Six steps; write layout.py to pass them."""

import ctypes
import sys

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from layout import PRIMITIVES, Array, PackedStruct, Struct, Union, alignof, offsets, sizeof

SETTINGS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
CTYPES = {"char": ctypes.c_char, "short": ctypes.c_short, "int": ctypes.c_int,
          "long": ctypes.c_long, "long long": ctypes.c_longlong, "float": ctypes.c_float,
          "double": ctypes.c_double, "pointer": ctypes.c_void_p}


def as_ctypes(t):
    """The same type built with ctypes, which asks the platform's C rules: the referee."""
    if isinstance(t, str):
        return CTYPES[t]
    if isinstance(t, Array):
        return as_ctypes(t.element) * t.length
    namespace = {}
    if getattr(t, "pack", None):
        namespace["_pack_"] = t.pack
        if sys.version_info >= (3, 14):
            namespace["_layout_"] = "ms"
    namespace["_fields_"] = [(name, as_ctypes(field)) for name, field in t.fields]
    return type("C", (ctypes.Structure if isinstance(t, Struct) else ctypes.Union,), namespace)


def ctypes_layout(t):
    made = as_ctypes(t)
    return ({name: getattr(made, name).offset for name, _ in t.fields},
            ctypes.sizeof(made), ctypes.alignment(made))


def ours(t):
    return offsets(t), sizeof(t), alignof(t)


def fields_of(types):
    return st.lists(types, min_size=1, max_size=5).map(
        lambda ts: tuple((f"f{i}", t) for i, t in enumerate(ts)))


primitives = st.sampled_from(sorted(PRIMITIVES))
flat = fields_of(primitives).map(Struct)
nested = st.recursive(primitives, lambda inner: st.one_of(
    st.builds(Array, inner, st.integers(1, 4)), fields_of(inner).map(Struct)), max_leaves=8)
with_unions = st.recursive(primitives, lambda inner: st.one_of(
    st.builds(Array, inner, st.integers(1, 4)), fields_of(inner).map(Struct),
    fields_of(inner).map(Union)), max_leaves=8)
packed = st.recursive(primitives, lambda inner: st.one_of(
    st.builds(Array, inner, st.integers(1, 4)), fields_of(inner).map(Union),
    fields_of(inner).map(Struct),
    st.builds(PackedStruct, fields_of(inner), st.sampled_from([1, 2, 4, 8]))), max_leaves=8)
ODD_UNION = Union((("text", Array("char", 5)), ("number", "int")))


def test_primitive_sizes_and_alignments_come_from_the_platform():
    """Sizes and alignments of C's types are the platform's (its ABI): a long is 8 bytes on
    64-bit Linux and 4 on Windows. struct's native mode ('@', the default) follows the
    platform's C compiler, padding included, so it can tell you both."""
    assert sizeof("char") == 1
    for name, ctype in CTYPES.items():
        assert (name, sizeof(name), alignof(name)) == (name, ctypes.sizeof(ctype), ctypes.alignment(ctype))


@SETTINGS
@given(flat)
def test_each_field_starts_at_a_multiple_of_its_alignment(shape):
    """Fields stay in the order written (C never reorders them). Each starts at the first
    offset after the previous field that is a multiple of its own alignment; the bytes
    skipped are padding."""
    assert offsets(Struct((("c", "char"), ("i", "int")))) == {"c": 0, "i": 4}
    assert offsets(Struct((("c", "char"), ("s", "short"), ("d", "double")))) == {"c": 0, "s": 2, "d": 8}
    assert offsets(shape) == ctypes_layout(shape)[0]


@SETTINGS
@example(Struct((("d", "double"), ("c", "char"))))
@given(flat)
def test_a_struct_is_padded_at_the_end_to_its_alignment(shape):
    """A struct is aligned like its most demanding field, and its size is rounded up to a
    multiple of that alignment: in an array of structs, the second one must start aligned
    too. So a struct can end in padding: an int then a char take 8 bytes, not 5."""
    assert (sizeof(Struct((("i", "int"), ("c", "char")))), alignof(Struct((("i", "int"), ("c", "char"))))) == (8, 4)
    assert ours(shape) == ctypes_layout(shape)


@SETTINGS
@example(Struct((("c", "char"), ("s", Struct((("i", "int"), ("c", "char")))), ("t", "char"))))
@example(Struct((("c", "char"), ("a", Array("short", 3)), ("t", "char"))))
@given(nested.filter(lambda t: isinstance(t, Struct)))
def test_arrays_and_nested_structs_are_laid_out_like_their_parts(shape):
    """An array is its elements back to back: the size of one times the length, aligned like
    one element (not like the whole). A nested struct is placed like any field, with its own
    size (end padding included) and its own alignment."""
    assert (sizeof(Array("int", 3)), alignof(Array("int", 3))) == (12, 4)
    pair = Struct((("i", "int"), ("c", "char")))
    assert (sizeof(Array(pair, 3)), alignof(Array(pair, 3))) == (24, 4)
    assert ours(shape) == ctypes_layout(shape)


@SETTINGS
@example(Struct((("c", "char"), ("u", ODD_UNION))))
@example(ODD_UNION)
@given(with_unions.filter(lambda t: isinstance(t, (Struct, Union))))
def test_a_union_overlaps_its_members_and_is_as_big_as_the_biggest(shape):
    """A union's members all start at offset 0: it holds one of them at a time. It is as
    big as its biggest member, rounded up to its alignment, the strictest of its members':
    five chars and an int take 8 bytes."""
    assert ours(ODD_UNION) == ({"text": 0, "number": 0}, 8, 4)
    assert ours(shape) == ctypes_layout(shape)


@SETTINGS
@example(PackedStruct((("c", "char"), ("u", ODD_UNION), ("d", "char")), 1))
@example(PackedStruct((("c", "char"), ("d", "double"), ("s", PackedStruct((("i", "int"),), 2))), 2))
@example(PackedStruct((("c", "char"), ("s", Struct((("i", "int"), ("c", "char")))), ("d", "char")), 1))
@given(packed.filter(lambda t: isinstance(t, (Struct, Union))))
def test_pack_caps_the_alignment_of_every_field(shape):
    """#pragma pack(n) (ctypes' _pack_) lets no field be aligned to more than n bytes, and so
    the struct itself neither: less padding, and fields at addresses the hardware reads more
    slowly or, on some machines, not at all. It caps alignments, it never raises one: three
    chars stay at alignment 1 under pack(2). A nested type keeps its own size and layout."""
    assert ours(PackedStruct((("c", "char"), ("i", "int")), 1)) == ({"c": 0, "i": 1}, 5, 1)
    assert ours(PackedStruct((("c", "char"), ("d", "double")), 4)) == ({"c": 0, "d": 4}, 12, 4)
    assert ours(PackedStruct((("c", "char"), ("s", Array("char", 3))), 2)) == ({"c": 0, "s": 1}, 4, 1)
    assert ours(shape) == ctypes_layout(shape)
