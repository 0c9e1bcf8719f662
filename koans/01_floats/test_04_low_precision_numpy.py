"""float32 and float16 trade precision and range for memory; numpy.finfo describes them."""

import numpy as np


def test_float32_epsilon_is_two_to_the_minus_23():
    """float32 keeps 23 fraction bits instead of float64's 52, so the gap above 1.0 is 2**-23,
    about 1.2e-07: roughly 7 significant decimal digits instead of 16."""
    assert np.finfo(np.float64).eps == 2.0**-52
    assert np.finfo(np.float32).eps == 2.0**__


def test_float32_cannot_count_past_two_to_the_24():
    """With 23 stored fraction bits plus the implicit leading 1, float32 holds every integer up
    to 2**24 = 16777216. The next integer needs 25 significant bits, so it rounds (to even)
    back down to 2**24. A float32 counter silently stops counting there."""
    assert int(np.float32(2**24)) == 16777216
    assert int(np.float32(2**24 + 1)) == __


def test_float16_tops_out_at_65504():
    """float16 has 5 exponent bits and 10 fraction bits. Its largest finite value is
    (2 - 2**-10) * 2**15 = 65504; anything that rounds higher becomes inf. That is why fp16
    training needs loss scaling, and why bfloat16 was invented."""
    with np.errstate(over="ignore"):
        doubled = np.array([65504.0], dtype=np.float16) * np.float16(2)
    assert np.isinf(doubled[0])
    assert float(np.finfo(np.float16).max) == __
