"""float32 and float16 trade precision and range for memory; numpy.finfo describes them."""

import numpy as np


def test_float32_epsilon_is_one_ulp_above_one():
    """float32 keeps 23 fraction bits instead of float64's 52, so the gap between 1.0 and the
    next float32 is far wider: roughly 7 significant decimal digits instead of 16. eps is that
    gap. How many times wider is float32's, as a power of two?"""
    assert np.finfo(np.float64).eps == 2.0**-52
    assert np.finfo(np.float32).eps / np.finfo(np.float64).eps == 2.0**__


def test_float32_cannot_count_past_two_to_the_24():
    """With 23 stored fraction bits plus the implicit leading 1, float32 holds every integer up
    to 2**24. Above it only every second integer fits, and an odd one is a tie between its two
    neighbours: the tie goes to the one whose significand is even. A float32 counter that adds
    1 at a time silently stops counting there."""
    assert int(np.float32(2**24)) == 2**24
    assert (int(np.float32(2**24 + 1)), int(np.float32(2**24 + 3))) == __


def test_float16_runs_out_of_range_in_the_tens_of_thousands():
    """float16 has 5 exponent bits and 10 fraction bits. Its largest finite value is the
    largest significand, binary 1.1111111111, times the largest finite power of two, 2**15;
    a value that rounds past it becomes inf. The narrow exponent hurts at the other end too:
    small gradients underflow to zero, which is why fp16 training scales the loss up, and why
    bfloat16 keeps float32's exponent."""
    largest = np.finfo(np.float16).max
    with np.errstate(over="ignore"):
        doubled = largest * np.float16(2)
    assert np.isinf(doubled)
    assert float(largest) == __
