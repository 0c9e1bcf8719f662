"""A float is 64 bits: 1 sign bit, 11 exponent bits, 52 fraction bits (IEEE 754 binary64)."""

import fractions
import math
import struct


def test_point_one_plus_point_two_is_not_point_three():
    """0.1 and 0.2 have no exact binary form, so each is rounded to the nearest double before
    the addition. The rounding errors add up, and the sum lands one step above the double
    nearest to 0.3; repr shows the shortest decimal that names that exact double."""
    assert 0.1 + 0.2 == 0.30000000000000004


def test_the_leftover_is_exactly_one_ulp_of_point_three():
    """0.1 + 0.2 lands on the double just above the one called 0.3, and subtracting two doubles
    this close is exact (Sterbenz's lemma), so the leftover is precisely the gap between
    neighbouring doubles there: one "unit in the last place" (ulp). 0.3 lies in the binade
    [0.25, 0.5), and the 52 fraction bits split every binade into 2**52 equal steps."""
    assert (0.1 + 0.2) - 0.3 == 2.0**-54


def test_the_rounded_sum_misses_the_real_three_tenths_by_less_than_one_ulp():
    """Fraction(x) is the exact value a double stores and Fraction(3, 10) is the real three
    tenths, so differences between them are exact. 3/10 is 5404319552844595.2 ulps of 0.3: it
    lies between two neighbouring doubles, and the double 0.3 is the nearer one. 0.1 and 0.2
    are each stored a little high; the exact sum of the stored values falls exactly halfway
    between the same two doubles, and the tie goes to the even one, the upper. How far from
    3/10 is each double, in ulps?"""
    ulp = fractions.Fraction(math.ulp(0.3))
    three_tenths = fractions.Fraction(3, 10)
    point_three = (fractions.Fraction(0.3) - three_tenths) / ulp
    rounded_sum = (fractions.Fraction(0.1 + 0.2) - three_tenths) / ulp
    assert (point_three, rounded_sum) == (fractions.Fraction(-1, 5), fractions.Fraction(4, 5))


def test_float_hex_spells_out_the_stored_binary():
    """float.hex() writes the stored value exactly: a hex fraction and a power of two. The
    repeating binary pattern of one tenth (0.000110011...) shows up as repeating 9s, and the
    last digit is rounded up. float.fromhex reads it back without any loss."""
    assert float.fromhex("0x1.8p1") == 3.0  # 1.5 * 2**1
    assert (0.1).hex() == "0x1.999999999999ap-4"
    assert float.fromhex((0.1).hex()) == 0.1


def test_the_stored_value_of_point_one_has_a_power_of_two_denominator():
    """Every finite double is an integer times a power of two, so as_integer_ratio() always
    has a power of two below the line. The double called 0.1 is a 53-bit integer scaled down
    by a power of two to a hair more than one tenth, and as_integer_ratio() reduces that ratio
    to lowest terms; Fraction(0.1) is the same ratio."""
    numerator, denominator = (0.1).as_integer_ratio()
    assert fractions.Fraction(0.1) == fractions.Fraction(numerator, denominator)
    assert denominator == 2**55


def test_struct_pack_exposes_sign_exponent_and_fraction():
    """struct.pack('>d', x) gives the 8 raw bytes, most significant first. For 1.0 the sign is
    0, the fraction is all zeros (the leading 1 is implicit), and the exponent field holds
    0 + 1023, the bias: 0x3ff."""
    assert struct.pack(">d", 1.0).hex() == "3ff0000000000000"
