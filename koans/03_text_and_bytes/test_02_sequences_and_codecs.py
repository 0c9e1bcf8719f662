"""str is a sequence of code points, bytes a sequence of integers 0-255; codecs
translate between them."""

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_indexing_bytes_gives_one_item_not_a_subsequence():
    """`bytes` is an immutable sequence whose items are the byte values, numbers in
    range(256). Indexing picks out one item, the number itself; only slicing keeps
    the sequence type."""
    assert type(b"abc"[0]) == __


def test_slicing_bytes_gives_bytes():
    """A slice of a sequence has the sequence's own type. So `b[0:1]` is a
    `bytes` of length one, while `b[0]` is the number inside it."""
    assert b"abc"[0:1] == __


def test_iterating_over_bytes_yields_integers():
    """Iteration agrees with indexing: each step yields the next byte as an int."""
    assert list(b"hi") == __


def test_indexing_a_str_gives_a_str():
    """Python has no separate character type. Indexing a str gives a str of length
    one, which can itself be indexed forever."""
    assert "abc"[0][0][0] == __


def test_bytes_and_str_are_compared_without_decoding():
    """Text and bytes are different types, and Python 3 will not pick an encoding to
    decode the bytes for a comparison with a str: == between the two is simply false
    (with `python -b` it also warns). A set asks == to decide whether two members are
    one. How many members does this set keep?"""
    assert len({b"a", "a", "a".encode("ascii")}) == __


def test_len_of_text_and_of_its_utf_8_bytes_differ_outside_ascii():
    """`len` of a str counts code points; `len` of bytes counts bytes. UTF-8 uses
    one to four bytes per code point, so the two lengths differ as soon as the text
    leaves ASCII."""
    assert (len("é"), len("é".encode("utf-8"))) == __


def test_an_emoji_beyond_u_ffff_takes_the_longest_utf_8_sequence():
    """UTF-8 fits 7 significant bits in one byte, 11 in two, 16 in three and 21 in
    four. 😀 is U+1F600, 17 significant bits. In Python the emoji is still a single
    item of the str."""
    assert len("😀".encode("utf-8")) == __


def test_a_combining_accent_is_a_code_point_of_its_own():
    """"e" followed by U+0301 COMBINING ACUTE ACCENT looks identical to "é", but len
    counts code points, not what you see. NFC normalisation composes a letter and its
    combining mark into one precomposed code point where Unicode has one (here U+00E9)."""
    decomposed = "e\u0301"
    composed = unicodedata.normalize("NFC", decomposed)
    assert (len(decomposed), len(composed)) == __


def test_utf_16_output_starts_with_a_byte_order_mark():
    """The "utf-16" codec writes a two-byte BOM (U+FEFF in the machine's byte order)
    before the data, and every code point below U+10000 is one 16-bit unit.
    "utf-16-le" and "utf-16-be" leave the BOM out."""
    assert len("a".encode("utf-16")) == __


def test_cpython_stores_each_str_in_the_narrowest_fixed_width():
    """CPython detail (PEP 393): a str is not a UTF-8 byte array. It stores every code
    point in 1, 2 or 4 bytes, picking the width of its widest character: 1 byte holds
    code points up to U+00FF, 2 bytes up to U+FFFF. One more character costs that many
    bytes."""

    def bytes_per_char(ch):
        return sys.getsizeof(ch * 100) - sys.getsizeof(ch * 99)

    widths = (bytes_per_char("a"), bytes_per_char("é"), bytes_per_char("€"), bytes_per_char("😀"))
    assert widths == __


def test_ascii_has_no_code_for_e_acute():
    """ASCII has no code for U+00E9. The default error handler is "strict", which
    raises rather than guesses."""
    with pytest.raises(___):
        "café".encode("ascii")


def test_a_unicode_error_is_a_bad_value_not_a_bad_type():
    """Encoding fails when the argument has the right type, str, but a value the
    codec cannot represent, and the class hierarchy says so: the encode and decode
    errors share one parent, and that parent sits under the built-in class for right
    type, wrong value. An `except` for either broader class catches codec failures."""
    assert UnicodeEncodeError.__mro__[1:3] == __


def test_errors_replace_keeps_the_length_when_encoding():
    """errors="replace" swaps every unencodable character for a stand-in when
    encoding. Encoding to ASCII, the stand-in must be ASCII too, so it cannot be
    U+FFFD. The text silently loses information."""
    assert "café".encode("ascii", errors="replace") == __


def test_errors_ignore_drops_the_character_silently():
    """errors="ignore" leaves the character out altogether, so even the length
    changes without a word."""
    assert "café".encode("ascii", errors="ignore") == __


def test_errors_xmlcharrefreplace_writes_an_html_entity():
    """errors="xmlcharrefreplace" (encoding only) writes the code point in decimal as
    an XML character reference, which an HTML reader turns back into the letter."""
    assert "café".encode("ascii", errors="xmlcharrefreplace") == __


def test_errors_backslashreplace_writes_a_python_escape():
    """errors="backslashreplace" writes the Python escape sequence for the code
    point, so nothing is lost and the result stays ASCII."""
    assert "café".encode("ascii", errors="backslashreplace") == __


def test_decoding_with_replace_inserts_the_replacement_character():
    """When decoding, errors="replace" puts U+FFFD REPLACEMENT CHARACTER, the "�"
    you see in mangled text, where each invalid sequence was (here the lone byte
    0xFF, which never occurs in UTF-8)."""
    assert b"caf\xff".decode("utf-8", errors="replace") == __


def test_surrogateescape_smuggles_a_bad_byte_into_a_lone_surrogate():
    """errors="surrogateescape" (PEP 383) maps an undecodable byte 0xXY to the lone
    surrogate U+DCXY, and encoding with the same handler turns it back. This is how
    os.listdir survives POSIX file names that are not valid UTF-8."""
    assert b"\xff".decode("utf-8", errors="surrogateescape") == __


@given(st.text())
def test_utf_8_round_trips_every_string(s):
    """UTF-8 can encode every code point except the surrogates U+D800-U+DFFF, and
    Hypothesis's text() never generates those, so decoding the encoding gives the
    text back."""
    assert s.encode("utf-8").decode("utf-8") == __


@given(st.text())
def test_utf_8_spends_more_bytes_on_code_points_with_more_bits(s):
    """UTF-8 fits 7 significant bits in one byte, 11 in two, 16 in three and 21 in
    four, so a text never has fewer bytes than code points, nor more than four times
    as many. The sequence grows by a byte exactly where a code point outgrows the
    bits of the shorter form."""
    assert len(s) <= len(s.encode("utf-8")) <= 4 * len(s)
    edges = (0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF)
    assert [len(chr(cp).encode("utf-8")) for cp in edges] == __
