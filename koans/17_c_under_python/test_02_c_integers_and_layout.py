"""C's integers have a fixed width, and C's structs have a layout that the platform's ABI
fixes: the size of each type, and where each field sits, padding included. ctypes and the
struct module both follow those rules; the struct module can also use a layout of its own."""

import ctypes
import struct
import sys

import pytest

LP64 = (sys.platform.startswith("linux") or sys.platform == "darwin") and sys.maxsize > 2**32
lp64_only = pytest.mark.skipif(
    not LP64,
    reason="the sizes and alignments below are those of LP64 (64-bit Linux and macOS); 64-bit "
    "Windows is LLP64, where a long stays 32 bits, and 32-bit systems align 8-byte fields to 4",
)


def test_a_c_int32_wraps_where_a_python_int_grows():
    """A Python int grows as many digits as it needs, so 2**31 is just another number. A C int32
    has exactly 32 bits in two's complement: ctypes stores the low 32 bits without complaint,
    and the top one of them is the sign bit."""
    assert ctypes.c_int32(2**31).value == __


def test_an_unsigned_byte_keeps_the_value_modulo_256():
    """A c_uint8 holds 8 bits. C does not clamp an out-of-range value to the largest one that
    fits: it drops the high bits, which leaves the remainder of the division by 256."""
    assert ctypes.c_uint8(300).value == __


def test_a_c_int_refuses_a_float():
    """C itself accepts `int x = 3.14;` and silently truncates. ctypes' integer types take only
    objects that are integers (that have __index__), so a float is refused outright instead of
    being truncated."""
    with pytest.raises(___):
        ctypes.c_int(3.14)


@lp64_only
def test_the_data_model_fixes_the_widths_of_int_long_and_pointers():
    """The C standard only sets minimum sizes; the platform's ABI picks the real ones. LP64
    means: Long and Pointer are 64 bits, and int keeps its old width. Code that stores a pointer
    in an int loses half of it."""
    sizes = (
        ctypes.sizeof(ctypes.c_int),
        ctypes.sizeof(ctypes.c_long),
        ctypes.sizeof(ctypes.c_void_p),
    )
    assert sizes == __


@lp64_only
def test_struct_native_sizes_follow_the_platform_and_standard_sizes_do_not():
    """struct's default '@' mode uses this platform's C sizes, so 'l' is a C long. A leading
    '=', '<', '>' or '!' switches to the standard sizes: a fixed table in the struct module,
    the same on every machine, as a file format or a network protocol needs."""
    assert (struct.calcsize("l"), struct.calcsize("=l")) == __


@lp64_only
def test_native_struct_pads_each_field_to_its_own_alignment():
    """In native mode struct lays fields out as the C compiler would: here each field starts at
    an offset that is a multiple of its own size, so padding bytes go in after the leading
    one-byte char. The wider the next field, the more padding."""
    assert [struct.calcsize("b" + code) for code in "hiq"] == __


@lp64_only
def test_a_c_struct_pads_its_end_but_struct_calcsize_does_not():
    """A C struct's size is rounded up to a multiple of its strictest field's alignment, so that
    in an array of structs every element's fields stay aligned. struct.calcsize pads only
    between fields, never after the last one (end the format with a zero-count code such as
    '0q' to ask for it)."""

    class Record(ctypes.Structure):
        _fields_ = [("stamp", ctypes.c_int64), ("flag", ctypes.c_char)]

    assert (struct.calcsize("qc"), ctypes.sizeof(Record)) == __


@lp64_only
def test_a_ctypes_structure_inserts_padding_like_the_c_compiler():
    """ctypes.Structure follows the platform's C layout rules: each field starts at a multiple
    of its own alignment. After a one-byte char, a four-byte int cannot start at offset 1.
    A field's descriptor on the class reports its offset."""

    class Header(ctypes.Structure):
        _fields_ = [("tag", ctypes.c_char), ("length", ctypes.c_int32)]

    assert (Header.length.offset, ctypes.sizeof(Header)) == __


@lp64_only
def test_pack_one_lets_every_field_start_at_any_byte():
    """_pack_ = 1 (#pragma pack(1) in C) removes the alignment rule, and with it the padding.
    File formats and network headers are often packed; the price is unaligned fields, slower to
    load on some CPUs and, on strict-alignment ones, a fault when read through an ordinary
    pointer. #pragma pack comes from Microsoft's compiler, and since 3.14 ctypes asks a packed
    Structure to say so with _layout_ = "ms" (older versions ignore that attribute)."""

    class PackedHeader(ctypes.Structure):
        _layout_ = "ms"
        _pack_ = 1
        _fields_ = [("tag", ctypes.c_char), ("length", ctypes.c_int32)]

    assert (PackedHeader.length.offset, ctypes.sizeof(PackedHeader)) == __


@lp64_only
def test_field_order_changes_a_struct_size():
    """A C compiler never reorders fields, so the padding depends on the order they are written
    in. A char on either side of an int drags padding along twice; two chars side by side
    share one padded slot."""

    class Scattered(ctypes.Structure):
        _fields_ = [("a", ctypes.c_char), ("n", ctypes.c_int32), ("b", ctypes.c_char)]

    class Grouped(ctypes.Structure):
        _fields_ = [("n", ctypes.c_int32), ("a", ctypes.c_char), ("b", ctypes.c_char)]

    assert (ctypes.sizeof(Scattered), ctypes.sizeof(Grouped)) == __


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="before 3.14 ctypes lays out bit fields by the rules of the platform's own compiler; "
    "the branch for older versions below is GCC's, the compiler of Linux",
)
def test_bit_fields_follow_the_rules_of_the_compiler_a_structure_names():
    """C leaves the layout of bit fields to the compiler, and compilers differ. GCC (following
    the System V ABI) puts a bit field at the next free bit, whatever the type of the field
    before it, as long as it does not straddle a boundary of its own type's alignment. MSVC
    starts a new storage unit of the declared type whenever that type changes size, aligned
    like any field of that type. Since 3.14 a Structure can name the rules it follows with
    _layout_; older versions ignore the attribute and always follow the platform's compiler."""
    fields = [("flags", ctypes.c_uint8, 4), ("mode", ctypes.c_uint32, 4)]

    class LikeGcc(ctypes.Structure):
        _layout_ = "gcc-sysv"
        _fields_ = fields

    class LikeMsvc(ctypes.Structure):
        _layout_ = "ms"
        _fields_ = fields

    sizes = (ctypes.sizeof(LikeGcc), ctypes.sizeof(LikeMsvc))
    if sys.version_info >= (3, 14):
        assert sizes == __
    else:
        assert sizes == __
