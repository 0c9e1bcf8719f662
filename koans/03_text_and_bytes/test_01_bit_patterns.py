"""A byte means nothing until a codec says how to read it: the same byte 0xE9 is a
letter in Latin-1 and a broken fragment in UTF-8."""

import pytest


def test_latin_1_maps_each_byte_to_the_code_point_of_the_same_number():
    """Latin-1 (ISO 8859-1) maps each byte 0-255 to the code point with the same
    number, so every byte string decodes. Byte 0xE9 = 233 becomes U+00E9."""
    assert bytes([0xE9]).decode("latin-1") == __


def test_the_byte_0xe9_alone_is_not_valid_utf_8():
    """0xE9 is 11101001 in binary. In UTF-8 a byte of the form 1110xxxx starts a
    three-byte sequence, so on its own it is a fragment, and strict decoding refuses
    to guess ("unexpected end of data")."""
    with pytest.raises(___):
        bytes([0xE9]).decode("utf-8")


def test_utf_8_spreads_e_acute_over_a_lead_and_a_continuation_byte():
    """U+00E9 needs 8 significant bits, more than the 7 a one-byte UTF-8 sequence
    holds, so UTF-8 spreads it over a lead byte 110xxxxx and a continuation byte
    10xxxxxx."""
    assert "é".encode("utf-8") == __
