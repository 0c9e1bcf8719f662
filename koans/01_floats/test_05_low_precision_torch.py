"""bfloat16: float32's 8 exponent bits with only 7 fraction bits, in 16 bits."""

import math

import pytest

torch = pytest.importorskip("torch")


def test_bfloat16_epsilon_is_two_to_the_minus_7():
    """bfloat16 spends its 16 bits as 1 sign, 8 exponent and 7 fraction bits; float16 spends
    them as 1, 5 and 10. Same size, different split: bfloat16 has the coarser gap above 1.0,
    2**-7 against float16's 2**-10."""
    assert torch.finfo(torch.bfloat16).bits == 16
    assert torch.finfo(torch.float16).eps == 2.0**-10
    assert torch.finfo(torch.bfloat16).eps == 2.0**__


def test_bfloat16_is_the_top_half_of_float32():
    """float32 3.0 is the bit pattern 0x40400000. bfloat16 keeps the same sign and 8-bit
    exponent and just the first 7 fraction bits, so its pattern is the upper 16 bits of the
    float32 one. Converting float32 to bfloat16 is (rounded) truncation of the low half."""
    as_float32 = torch.tensor(3.0, dtype=torch.float32).view(torch.int32).item()
    assert as_float32 == 0x40400000
    assert torch.tensor(3.0, dtype=torch.bfloat16).view(torch.int16).item() == __


def test_bfloat16_survives_70000_where_float16_overflows():
    """float16 overflows above 65504, but bfloat16 has float32's exponent range (up to about
    3.4e38). It pays in precision: near 70000 neighbouring bfloat16 values are 512 apart, so
    70000 is stored as the nearest multiple of 512."""
    assert math.isinf(torch.tensor(70000.0, dtype=torch.float16).item())
    assert torch.tensor(70000.0, dtype=torch.bfloat16).item() == __
