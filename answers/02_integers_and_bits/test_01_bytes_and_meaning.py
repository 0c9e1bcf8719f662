"""A bit pattern means nothing until a type says how to read it."""

import struct
import sys


def test_byte_97_is_the_letter_a_when_read_as_text():
    """The byte 0b01100001 is the integer 97 under arithmetic and the character 'a' under
    ASCII/Unicode. bytes shows each byte as a character when it is printable ASCII, so the
    one-byte sequence holding 97 displays as a letter; ord and chr translate between the two
    readings."""
    assert ord("a") == 0b01100001 == 97
    assert chr(97) == "a"
    assert bytes([97]) == b"a"


def test_int_3_and_float_3_have_different_bit_patterns():
    """In mathematics 3 and 3.0 are the same number; in memory they are different bits. As a
    32-bit int, 3 is 0x00000003; as a float32, 3.0 is binary 1.1 times 2**1, stored as sign 0,
    then the exponent 1 + 127 = 128 in 8 bits, then 23 fraction bits that start with a single
    1. Reading those float bits back as an unsigned int gives a huge number."""
    assert struct.pack(">i", 3).hex() == "00000003"
    float_bits = struct.pack(">f", 3.0)
    assert struct.unpack(">I", float_bits)[0] == 0x40400000


def test_less_than_and_greater_than_choose_the_byte_order():
    """struct's '<' writes the least significant byte first (little-endian, as x86 and most ARM
    machines store ints) and '>' the most significant first (big-endian, network order). The
    number is the same; only the order of its bytes in memory differs."""
    assert struct.pack("<I", 0x01020304) == b"\x04\x03\x02\x01"
    assert struct.pack(">I", 0x01020304) == b"\x01\x02\x03\x04"


def test_equals_sign_means_native_order_but_standard_size_and_no_padding():
    """'=' uses the machine's own byte order (sys.byteorder, which differs between machines)
    with the standard sizes ('b' one byte, 'i' four) and no padding at all. The default '@'
    lays fields out as the machine's C compiler would: native sizes, and pad bytes before a
    field until its offset is a multiple of its alignment (4 for an int on common machines).
    Unlike a C compiler, struct never pads after the last field. How many bytes does each
    layout take?"""
    assert struct.pack("=I", 1) == (1).to_bytes(4, sys.byteorder)
    assert [struct.calcsize(layout) for layout in ("=bi", "@bi", "@ib")] == [5, 8, 5]
