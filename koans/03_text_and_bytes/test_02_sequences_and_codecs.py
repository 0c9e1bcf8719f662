"""str is a sequence of code points, bytes a sequence of integers 0-255; codecs
translate between them."""

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_indexing_bytes_gives_an_int():
    """`bytes` is an immutable sequence of integers in range(256). One item of it is
    therefore an `int`, not a one-byte `bytes`."""
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


def test_bytes_and_str_never_compare_equal():
    """Text and bytes are different types, and Python 3 will not decode for you to
    compare them: the comparison is simply False (with `python -b` it also warns)."""
    assert (b"a" == "a") == __


def test_e_acute_is_one_code_point_but_two_utf_8_bytes():
    """`len` of a str counts code points; `len` of bytes counts bytes. UTF-8 uses
    one to four bytes per code point, so the two lengths differ as soon as the text
    leaves ASCII."""
    assert (len("é"), len("é".encode("utf-8"))) == __


def test_an_emoji_is_one_code_point_and_four_utf_8_bytes():
    """Code points above U+FFFF need four UTF-8 bytes. In Python the emoji is still
    a single item of the str."""
    assert len("😀".encode("utf-8")) == __


def test_a_decomposed_e_acute_has_length_two():
    """"e" followed by U+0301 COMBINING ACUTE ACCENT looks identical to "é" but is
    two code points. NFC normalisation composes it into the single code point U+00E9."""
    decomposed = "e\u0301"
    composed = unicodedata.normalize("NFC", decomposed)
    assert (len(decomposed), len(composed)) == __


def test_utf_16_output_starts_with_a_byte_order_mark():
    """The "utf-16" codec writes a two-byte BOM (U+FEFF in the machine's byte order)
    before the data, so one ASCII letter costs four bytes. "utf-16-le" and
    "utf-16-be" leave the BOM out."""
    assert len("a".encode("utf-16")) == __


def test_cpython_stores_each_str_in_the_narrowest_fixed_width():
    """CPython detail (PEP 393): a str is not a UTF-8 byte array. It stores every code
    point in 1, 2 or 4 bytes, picking the width of its widest character. One more
    character costs that many bytes; note that "é" (U+00E9) still fits in one."""

    def bytes_per_char(ch):
        return sys.getsizeof(ch * 100) - sys.getsizeof(ch * 99)

    widths = (bytes_per_char("a"), bytes_per_char("é"), bytes_per_char("€"), bytes_per_char("😀"))
    assert widths == __


def test_encoding_e_acute_to_ascii_raises_unicode_encode_error():
    """ASCII has no code for U+00E9. The default error handler is "strict", which
    raises rather than guesses."""
    with pytest.raises(___):
        "café".encode("ascii")


def test_unicode_errors_are_value_errors():
    """UnicodeEncodeError and UnicodeDecodeError derive from UnicodeError, which
    derives from ValueError: the argument had the right type but a bad value."""
    assert issubclass(UnicodeEncodeError, ValueError) == __


def test_errors_replace_substitutes_a_question_mark_when_encoding():
    """errors="replace" swaps every unencodable character for "?" when encoding. The
    text silently loses information."""
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
def test_utf_8_never_has_fewer_bytes_than_code_points(s):
    """Every code point takes at least one and at most four UTF-8 bytes, so the
    byte length is bounded by the code point count on both sides."""
    n_bytes = len(s.encode("utf-8"))
    assert (len(s) <= n_bytes <= 4 * len(s)) == __
