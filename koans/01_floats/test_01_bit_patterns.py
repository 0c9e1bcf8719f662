"""A float is 64 bits: 1 sign bit, 11 exponent bits, 52 fraction bits (IEEE 754 binary64)."""

import fractions
import struct


def test_point_one_plus_point_two_is_not_point_three():
    """0.1 and 0.2 have no exact binary form, so each is rounded to the nearest double before
    the addition. The rounding errors add up, and the sum lands one step above the double
    nearest to 0.3; repr shows the shortest decimal that names that exact double."""
    assert 0.1 + 0.2 == __


def test_the_leftover_is_exactly_one_ulp_of_point_three():
    """Subtracting 0.3 leaves 5.551115123125783e-17, which is exactly 2**-54: the gap between
    neighbouring doubles near 0.3 (one "unit in the last place"). It is not a decimal error of
    0.3 + 5.6e-17 on paper: the true sum sits 4.4e-17 above 0.3, and the double 0.3 sits 1.1e-17
    below it. The two roundings together make one ulp."""
    assert (0.1 + 0.2) - 0.3 == 2.0**__


def test_float_hex_spells_out_the_stored_binary():
    """float.hex() writes the stored value exactly: a hex fraction and a power of two. The
    repeating binary pattern of one tenth (0.000110011...) shows up as repeating 9s, and the
    last digit is rounded up. float.fromhex reads it back without any loss."""
    assert float.fromhex("0x1.8p1") == 3.0  # 1.5 * 2**1
    assert (0.1).hex() == __
    assert float.fromhex((0.1).hex()) == 0.1


def test_the_stored_value_of_point_one_has_a_power_of_two_denominator():
    """Every finite double is an integer times a power of two, so as_integer_ratio() always
    has a power of two below the line. The double called 0.1 is
    3602879701896397 / 2**55, a hair more than one tenth; Fraction(0.1) is that same ratio."""
    numerator, denominator = (0.1).as_integer_ratio()
    assert fractions.Fraction(0.1) == fractions.Fraction(numerator, denominator)
    assert denominator == 2**__


def test_struct_pack_exposes_sign_exponent_and_fraction():
    """struct.pack('>d', x) gives the 8 raw bytes, most significant first. For 1.0 the sign is
    0, the fraction is all zeros (the leading 1 is implicit), and the exponent field holds
    0 + 1023, the bias: 0x3ff."""
    assert struct.pack(">d", 1.0).hex() == __
